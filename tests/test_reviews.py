"""Reviews on the Annotate page, through the handlers on a real SQLite store: a review is of
the version on the reviewer's screen, which must be the latest, and the latest review is
shown to whoever opens the item."""
import pytest

from tests.test_ui_handlers import ui_store  # noqa: F401  (the fixture: a real store)
from ui.editor_handlers import EditorHandlers
from ui.editor_model import EditError
from ui.history_handlers import HistoryHandlers, NewerVersion


def colleague_saves(store, item_id, **changes):
    item = store.get_item(item_id)
    return store.save_item({**item, **changes}, item["version"], "carol", "meanwhile")


def test_a_review_of_a_version_someone_saved_over_is_refused_and_names_the_newer(ui_store):
    """rev has version 1 open; carol saves version 2 meanwhile. rev's approve was recorded
    on version 1, beside a version 2 rev had not seen, and the page said so only afterwards.
    Now the review is refused, nothing recorded, and the message names version 2, who saved
    it and when; a review of version 2 (the page opened again) is recorded."""
    work = EditorHandlers(ui_store).load("ui/alpha", "rev")
    assert colleague_saves(ui_store, "ui/alpha", question="Which exit, carol?") == 2
    with pytest.raises(NewerVersion) as refused:
        HistoryHandlers(ui_store).review("ui/alpha", work["saved"]["version"], "rev",
                                         "approve", "fine")
    assert (refused.value.reviewed, refused.value.latest) == (1, 2)
    assert str(refused.value).startswith("Review not recorded: version 2 of ui/alpha was "
                                         "saved by carol at ")
    assert str(refused.value).endswith(", after you opened version 1. A review is of the "
                                       "version saved now: open version 2 (the button under "
                                       "Submit review), see what changed, then review it.")
    assert ui_store.reviews("ui/alpha") == []
    item = ui_store.get_item("ui/alpha")
    assert (item["version"], item["status"]) == (2, "draft")
    line = HistoryHandlers(ui_store).review("ui/alpha", 2, "rev", "approve")
    assert line == "Reviewed version 2: approve. The item is now verified (version 3)."
    assert [(r["version"], r["reviewer"]) for r in ui_store.reviews("ui/alpha")] == [(2, "rev")]
    with pytest.raises(EditError, match="Review not recorded: item ui/alpha has versions "
                                        "1–3; there is no version 9"):
        HistoryHandlers(ui_store).review("ui/alpha", 9, "rev", "approve")


def test_the_latest_review_is_on_the_main_screen_of_whoever_opens_the_item(ui_store):
    """A request to revise was only in History: the annotator opening the item now reads
    its verdict, reviewer and comment in the notice above the editor."""
    editor = EditorHandlers(ui_store)
    assert "review" not in editor.load("ui/beta", "ann")["notice"]
    HistoryHandlers(ui_store).review("ui/beta", 1, "rev", "revise", "box the platform sign")
    notice = editor.load("ui/beta", "ann")["notice"]
    assert notice.startswith("Latest review: revise by rev on version 1 at ")
    assert notice.endswith(": “box the platform sign”")
    assert "changed since" not in notice          # version 2 is the review's own status
    colleague_saves(ui_store, "ui/beta", gt_reasoning="boxed")
    assert "(the item has changed since: now version 3)" in editor.load("ui/beta",
                                                                         "ann")["notice"]


def test_opening_an_item_shows_its_stored_status_and_its_list_row_follows(ui_store):
    """ann keeps a draft of ui/alpha (a question edit, status untouched); carol then sets
    the status to verified. Opening ui/alpha (Next, Previous, a click) showed the draft's
    'draft' in the status dropdown, and the list row kept 'draft'."""
    from ui.browser_handlers import BrowserHandlers, refreshed_rows

    editor = EditorHandlers(ui_store)
    work = editor.load("ui/alpha", "ann")
    editor.autosave(work, editor.form_values(work["item"]) | {"question": "Which exit, ann?"},
                    None, "ann")
    rows = BrowserHandlers(ui_store).search(None, None, None, None, "all", "")[0]
    colleague_saves(ui_store, "ui/alpha", status="verified")
    opened = editor.load("ui/alpha", "ann")
    assert (opened["item"]["status"], opened["item"]["question"]) == ("verified",
                                                                      "Which exit, ann?")
    assert EditorHandlers.form_values(opened["item"])["status"] == "verified"
    fresh = refreshed_rows(rows, opened["saved"])
    assert fresh[0][:2] == ["ui/alpha", "verified"] and fresh[1:] == rows[1:]
    assert refreshed_rows(fresh, opened["saved"]) is None       # nothing resent when current
    # a status the draft itself changed stays the draft's
    editor.autosave(opened, editor.form_values(opened["item"]) | {"status": "rejected"},
                    None, "ann")
    assert editor.load("ui/alpha", "ann")["item"]["status"] == "rejected"


@pytest.mark.parametrize("verdict, status", [("approve", "verified"), ("revise", "in_review"),
                                             ("reject", "rejected")])
def test_a_review_sets_the_status_as_a_revision_by_the_reviewer(ui_store, verdict, status):
    """A reject changed nothing: the item stayed a candidate."""
    item = ui_store.get_item("ui/beta")
    ui_store.save_item({**item, "status": "candidate"}, 1, "ann", "ready")
    HistoryHandlers(ui_store).review("ui/beta", 2, "rev", verdict, "see note")
    saved = ui_store.get_item("ui/beta")
    assert (saved["status"], saved["version"], saved["updated_by"]) == (status, 3, "rev")
    assert ui_store.history("ui/beta")[0]["comment"] == f"review: {verdict} (see note)"
    assert ui_store.reviews("ui/beta")[0]["version"] == 2       # the version reviewed


def test_a_page_left_on_its_own_old_version_is_told_of_the_newer_one(ui_store):
    """ann saved version 2, bob version 3; ann's page, still on version 2, approved: it was
    told ann may not review version 2 (no word of version 3, no way to open it)."""
    item = ui_store.get_item("ui/beta")
    ui_store.save_item({**item, "question": "Is this a station, ann?"}, 1, "ann", "")
    ui_store.save_item({**item, "question": "Is this a station, bob?"}, 2, "bob", "")
    with pytest.raises(NewerVersion) as refused:
        HistoryHandlers(ui_store).review("ui/beta", 2, "ann", "approve")
    assert "version 3" in str(refused.value) and "bob" in str(refused.value)
    assert ui_store.reviews("ui/beta") == []


def test_no_one_reviews_the_version_they_saved(ui_store):
    """An annotator could reject the version they had just saved."""
    item = ui_store.get_item("ui/beta")
    ui_store.save_item({**item, "question": "Is this a station, ann?"}, 1, "ann", "")
    with pytest.raises(EditError, match="Review not recorded: item ui/beta: ann saved "
                                        "version 2, so ann may not review it: ask someone "
                                        "who did not write it\\.$"):
        HistoryHandlers(ui_store).review("ui/beta", 2, "ann", "reject")
    assert ui_store.reviews("ui/beta") == []
    assert ui_store.get_item("ui/beta")["version"] == 2
    # a version another person saved is ann's to review (the fixture's, still the latest)
    HistoryHandlers(ui_store).review("ui/gamma", 1, "ann", "approve")


def test_a_writer_of_unapproved_changes_cannot_approve_them_after_anothers_save(ui_store):
    """bert changed the question (version 2); anna saved on top of it (a merge, a small
    edit: version 3); bert approved version 3, his own change verified by himself. Every
    content change since the last approval is checked by someone who wrote none of it."""
    item = ui_store.get_item("ui/beta")
    ui_store.save_item({**item, "question": "Bert's question?"}, 1, "bert", "")
    ui_store.save_item({**ui_store.get_item("ui/beta"), "gt_reasoning": "anna's"}, 2, "anna",
                       "merged with version 2 by bert")
    with pytest.raises(EditError, match="bert wrote the changes of version 2, not yet "
                                        "approved by anyone else, and version 3 still "
                                        "holds bert's question,") as err:
        HistoryHandlers(ui_store).review("ui/beta", 3, "bert", "approve")
    # a sentence, ended: the refusal stopped short after "reviews it"
    assert str(err.value).endswith("ask someone who did not write it."), err.value
    HistoryHandlers(ui_store).review("ui/beta", 3, "carl", "approve")
    # approved by carl: bert's change is checked; bert may review what anna saves next
    fresh = ui_store.get_item("ui/beta")
    ui_store.save_item({**fresh, "gt_reasoning": "anna's again", "status": "in_review"},
                       fresh["version"], "anna", "")
    HistoryHandlers(ui_store).review("ui/beta", fresh["version"] + 1, "bert", "approve")


def test_the_author_of_content_sent_back_cannot_approve_it_on_the_reviewers_revision(
        ui_store):
    """rev sent ann's version 2 back ("revise"): the status revision 3 is rev's, and ann
    approved version 3, her own content verified with no one else's check. A version that
    changed the status only carries its content's author; the reviewer may look again."""
    item = ui_store.get_item("ui/beta")
    ui_store.save_item({**item, "question": "Is this a station, ann?"}, 1, "ann", "")
    HistoryHandlers(ui_store).review("ui/beta", 2, "rev", "revise", "remove the jar box")
    assert ui_store.get_item("ui/beta")["version"] == 3
    with pytest.raises(EditError, match="ann wrote the changes of version 2, not yet "
                                        "approved by anyone else, and version 3 still "
                                        "holds ann's question,"):
        HistoryHandlers(ui_store).review("ui/beta", 3, "ann", "approve")
    assert ui_store.get_item("ui/beta")["status"] == "in_review"
    HistoryHandlers(ui_store).review("ui/beta", 3, "rev", "approve")     # rev looks again
    assert ui_store.get_item("ui/beta")["status"] == "verified"
    # a comment is no proof: a save of new content that says "review:" is its author's
    fresh = ui_store.get_item("ui/beta")
    ui_store.save_item({**fresh, "question": "Sneaky?", "status": "in_review"},
                       fresh["version"], "ann", "review: approve")
    with pytest.raises(EditError, match="ann saved version 5"):
        HistoryHandlers(ui_store).review("ui/beta", 5, "ann", "approve")


@pytest.mark.parametrize("version", [1e308, 10 ** 30, 2 ** 63, 0, -4, "1e400"])
def test_a_version_past_any_item_is_refused_in_words(ui_store, version):
    """diff_revisions [1e308, 1] and restore_revision [2**63] failed binding the number to
    SQLite: "Something went wrong on the server (OverflowError)" and a traceback."""
    history = HistoryHandlers(ui_store)
    for call in (lambda: history.diff("ui/alpha", version, 1),
                 lambda: history.review("ui/alpha", version, "rev", "approve"),
                 lambda: history.restore("ui/alpha", version, 1, "ann")):
        with pytest.raises(EditError, match="version"):
            call()
