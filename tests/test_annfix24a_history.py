"""History and review, on a real store and the page's own handlers (build_app):

- a Diff of a version the item lacks empties the diff table (it kept the diff shown before
  under the new numbers, reading as the diff of 7 → 3) and the line about that diff;
- a review note of many lines is shown in the review list with its lines (escaped), at most
  SHOWN_NOTE_LINES of them, the rest folded (it was one run-on line);
- History's comment cell shows a comment's first line, "…" where more follows (a review's
  comment of a 15-line note ran on, cut mid-word at the cell's edge)."""
from __future__ import annotations

import pytest

from domain.limits import SHOWN_COMMENT, SHOWN_NOTE_LINES
from tests.test_annfix23a_history_versions import two_more_versions
from tests.test_ui_handlers import ui_store  # noqa: F401  (the fixture: a real store)
from ui.annotate_render import reviews_md
from ui.history_handlers import HistoryHandlers, comment_cell

NOTE = "\n".join(f"Line {n} <b>of</b> the note" for n in range(1, 16))


def page_events(ui_store):
    from ui.server import build_app
    return {fn.api_name: fn for fn in build_app(ui_store).fns.values()}


def test_a_refused_diff_empties_the_table_and_the_line_about_it(ui_store):
    """On a page the refusal is a warning and the table is emptied (then the line above the
    reviews is drawn again, diff_revisions_reviews); a script's call still fails."""
    import gradio as gr

    from ui.editor_handlers import EditorHandlers
    events = page_events(ui_store)
    two_more_versions(ui_store, "ui/alpha")
    work = EditorHandlers(ui_store).load("ui/alpha", "local")
    page = gr.Request(headers={"origin": "http://127.0.0.1:7860"})
    diff = events["diff_revisions"].fn
    assert diff(work, 2, 3, page)                            # a diff shown
    with pytest.warns(UserWarning, match="there is no version 7"):
        assert diff(work, 7, 3, page) == []                  # emptied, not left as it was
    with pytest.raises(gr.Error, match="there is no version 7"):
        diff(work, 7, 3, gr.Request(headers={}))            # a script: the error


def test_a_notes_lines_are_kept_in_the_review_list_escaped_and_capped(ui_store):
    HistoryHandlers(ui_store).review("ui/beta", 1, "rev", "revise", NOTE + "\n\n\n")
    shown = reviews_md(ui_store, "ui/beta")
    assert shown.count("\n") == 0                          # one list item
    first, _, rest = shown.partition("<details")
    assert first.endswith(f"Line {SHOWN_NOTE_LINES} &lt;b&gt;of&lt;/b&gt; the note")
    assert first.count("<br>") == SHOWN_NOTE_LINES - 1 and "<b>" not in shown
    assert f"<summary>… ({15 - SHOWN_NOTE_LINES} more lines)</summary>" in rest
    assert rest.endswith("Line 15 &lt;b&gt;of&lt;/b&gt; the note</details>")


def test_historys_comment_cell_is_the_first_line_shortened(ui_store):
    HistoryHandlers(ui_store).review("ui/beta", 1, "rev", "revise", NOTE)
    latest = HistoryHandlers(ui_store).rows("ui/beta")[0]
    assert latest[3] == "review: revise (Line 1 <b>of</b> the note …"
    assert comment_cell("x" * 500) == "x" * (SHOWN_COMMENT - 1) + "…"
    assert comment_cell("saved over version 2 by bob") == "saved over version 2 by bob"
