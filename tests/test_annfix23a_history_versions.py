"""History's Version A and B take any number: a Diff or Restore of a version the item does
not have is refused naming the versions it has, and nothing else is done. Real SQLite store,
the History handlers the page calls."""
import pytest

from tests.test_ui_handlers import ui_store  # noqa: F401  (the fixture: a real store)
from ui.editor_model import EditError
from ui.history_handlers import HistoryHandlers


def two_more_versions(store, item_id) -> None:
    for words in ("Which exit, one?", "Which exit, two?"):
        item = store.get_item(item_id)
        store.save_item({**item, "question": words}, item["version"], "carol", "edit")


def test_a_diff_of_a_version_the_item_lacks_names_the_versions_it_has(ui_store):
    two_more_versions(ui_store, "ui/alpha")
    history = HistoryHandlers(ui_store)
    for a, b in ((1, 7), (7, 3)):
        with pytest.raises(EditError) as refused:
            history.diff("ui/alpha", a, b)
        assert str(refused.value) == "item ui/alpha has versions 1–3; there is no version 7"
    assert history.diff("ui/alpha", 2, 3)          # the versions it has still compare


def test_a_restore_of_a_version_the_item_lacks_is_refused_and_writes_nothing(ui_store):
    two_more_versions(ui_store, "ui/alpha")
    with pytest.raises(EditError) as refused:
        HistoryHandlers(ui_store).restore("ui/alpha", 7, 3, "carol")
    assert str(refused.value) == "item ui/alpha has versions 1–3; there is no version 7"
    assert ui_store.get_item("ui/alpha")["version"] == 3
    assert len(ui_store.history("ui/alpha")) == 3


def test_an_item_of_one_version_says_it_has_only_that_one(ui_store):
    with pytest.raises(EditError, match="^item ui/beta has only version 1; there is no "
                                        "version 2$"):
        HistoryHandlers(ui_store).diff("ui/beta", 1, 2)


def test_the_pages_diff_and_restore_say_it_and_change_nothing(ui_store):
    """The page's events (build_app's handlers): the refusal is the page's warning (the
    diff table emptied) or error, with the versions the item has; the restore writes no
    version."""
    import gradio as gr

    from ui.editor_handlers import EditorHandlers
    from ui.server import build_app
    handlers = {fn.api_name: fn.fn for fn in build_app(ui_store).fns.values()}
    page = gr.Request(headers={"origin": "http://127.0.0.1:7860"})
    two_more_versions(ui_store, "ui/alpha")
    work = EditorHandlers(ui_store).load("ui/alpha", "local")
    said = "item ui/alpha has versions 1–3; there is no version 7"
    with pytest.warns(UserWarning, match=said):      # on a page: a warning, the table emptied
        assert handlers["diff_revisions"](work, 1, 7, page) == []
    with pytest.raises(gr.Error, match=said):
        handlers["restore_revision"](work, 7, page)
    assert ui_store.get_item("ui/alpha")["version"] == 3


def test_a_version_that_is_no_whole_number_is_refused_not_rounded(ui_store):
    """Version A 1.5 restored version 2 (the page's box rounded it) after a question that
    named 1.5 (a review, round 28): refused, naming it, nothing written."""
    two_more_versions(ui_store, "ui/alpha")
    for odd in (1.5, "1.5", 2.0000001):
        with pytest.raises(EditError, match="is not a version number"):
            HistoryHandlers(ui_store).restore("ui/alpha", odd, 3, "carol")
        with pytest.raises(EditError, match="is not a version number"):
            HistoryHandlers(ui_store).diff("ui/alpha", 1, odd)
    assert ui_store.get_item("ui/alpha")["version"] == 3
    assert HistoryHandlers(ui_store).diff("ui/alpha", 1.0, 2)      # 1.0 is version 1


def test_the_history_boxes_and_the_page_box_pass_any_number_to_their_handlers(ui_store):
    """With a least (1) or a precision on the page, Gradio refused 0 in developer words
    ("restore_revision: … is below its least, 1") and rounded 1.5 to 2 before the handler."""
    from ui.server import build_app

    events = {fn.api_name: fn for fn in build_app(ui_store).fns.values()}
    version = events["restore_revision"].inputs[1]
    assert version.minimum is None and version.precision is None
    assert version.preprocess(1.5) == 1.5
    search = events["search_items"]
    page = next(b for b in search.inputs if b.elem_id == "list-page")
    assert page.minimum is None
