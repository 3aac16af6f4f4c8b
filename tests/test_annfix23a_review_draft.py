"""A review of a draft obeys the rules an item meets to leave draft (the save's check_gold):
a "revise" on a draft with no gold answer, or with the import's placeholder question, put it
in review past them. Real SQLite store, the History handlers the page calls."""
import pytest

from tests.test_ui_handlers import ui_store  # noqa: F401  (the fixture: a real store)
from ui.editor_model import EditError
from ui.history_handlers import HistoryHandlers


def saved_by_ann(store, item_id, **changes) -> int:
    item = store.get_item(item_id)
    return store.save_item({**item, "status": "draft", **changes}, item["version"], "ann",
                           "ann's draft")


def test_a_revise_on_a_draft_without_its_gold_answer_keeps_it_a_draft_and_says_why(ui_store):
    """rev asks ann to revise her draft, which has no gold answer yet: the review and its
    note are recorded (ann reads them), no version is written, the item stays a draft, and
    the line says so, naming the rule it does not meet."""
    version = saved_by_ann(ui_store, "ui/alpha", answer="")
    line = HistoryHandlers(ui_store).review("ui/alpha", version, "rev", "revise",
                                            "type the gold answer")
    item = ui_store.get_item("ui/alpha")
    assert (item["status"], item["version"]) == ("draft", version)
    assert [(r["version"], r["verdict"], r["note"]) for r in ui_store.reviews("ui/alpha")] \
        == [(version, "revise", "type the gold answer")]
    assert line.startswith(f"Reviewed version {version}: revise. Your review and its note "
                           "are recorded, but the item stays a draft (not in_review): ")
    assert "needs its gold answer" in line


@pytest.mark.parametrize("question", ["", "[missing question]"])   # new import, older one
def test_a_revise_or_reject_on_a_draft_without_its_question_keeps_it_a_draft(ui_store, question):
    version = saved_by_ann(ui_store, "ui/alpha", question=question)
    line = HistoryHandlers(ui_store).review("ui/alpha", version, "rev", "reject", "junk")
    assert ui_store.get_item("ui/alpha")["status"] == "draft"
    assert "stays a draft (not rejected)" in line and "the question is empty" in line, line


def test_an_approve_of_a_draft_that_may_not_leave_draft_is_refused_and_nothing_recorded(ui_store):
    version = saved_by_ann(ui_store, "ui/alpha", answer="")
    with pytest.raises(EditError, match=f"Review not recorded: version {version} of ui/alpha "
                                        "is a draft that may not be verified yet"):
        HistoryHandlers(ui_store).review("ui/alpha", version, "rev", "approve", "ok")
    assert ui_store.reviews("ui/alpha") == []
    assert ui_store.get_item("ui/alpha")["status"] == "draft"


def test_a_revise_on_a_draft_that_meets_the_rules_still_puts_it_in_review(ui_store):
    version = saved_by_ann(ui_store, "ui/alpha")
    line = HistoryHandlers(ui_store).review("ui/alpha", version, "rev", "revise", "box it")
    assert line == (f"Reviewed version {version}: revise. The item is now in_review "
                    f"(version {version + 1}).")
    assert ui_store.get_item("ui/alpha")["status"] == "in_review"


def test_the_pages_review_of_such_a_draft_says_it_stays_a_draft(ui_store):
    """Submit review on the page (build_app's handler): the line above the reviews says the
    item stays a draft, and the form shows it a draft still."""
    import gradio as gr

    from ui.annotate_render import Renderer
    from ui.editor_handlers import EditorHandlers
    from ui.server import build_app
    handlers = {fn.api_name: fn.fn for fn in build_app(ui_store).fns.values()}
    page = gr.Request(headers={"origin": "http://127.0.0.1:7860"})
    saved_by_ann(ui_store, "ui/alpha", answer="")
    work = EditorHandlers(ui_store).load("ui/alpha", "local")
    shown = handlers["submit_review"](work, "revise", "type the gold answer", page)
    reviews = shown[Renderer.OUTPUTS.index("reviews")]
    assert "the item stays a draft \\(not in\\_review\\)" in reviews     # escaped Markdown
    assert "type the gold answer" in reviews
    assert ui_store.get_item("ui/alpha")["status"] == "draft"
