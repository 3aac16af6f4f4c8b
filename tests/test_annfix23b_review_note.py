"""A review note of many lines was shown in the notice above the editor as one run-on line
(its line breaks collapsed by the page). Its lines are kept (escaped, as <br>), blank runs
as one, at most SHOWN_NOTE_LINES of them, a longer note ending in "…"."""
from __future__ import annotations

from domain.limits import SHOWN_NOTE_LINES
from tests.test_ui_handlers import ui_store  # noqa: F401  (the fixture: a real store)
from ui.annotate_render import notice_html
from ui.editor_handlers import EditorHandlers
from ui.history_handlers import HistoryHandlers


def test_a_notes_lines_are_shown_as_lines_escaped(ui_store):
    note = "Box the sign.\n<b>not bold</b>\n\n\n\nThen the clock.\r\nThanks"
    HistoryHandlers(ui_store).review("ui/beta", 1, "rev", "revise", note)
    shown = notice_html(EditorHandlers(ui_store).load("ui/beta", "ann"))
    assert ("“Box the sign.<br>&lt;b&gt;not bold&lt;/b&gt;<br><br>Then the clock.<br>"
            "Thanks”") in shown, shown
    assert "<b>" not in shown


def test_a_long_note_is_cut_to_its_first_lines(ui_store):
    note = "\n".join(f"point {n}" for n in range(1, 41))
    HistoryHandlers(ui_store).review("ui/beta", 1, "rev", "revise", note)
    shown = notice_html(EditorHandlers(ui_store).load("ui/beta", "ann"))
    assert f"point {SHOWN_NOTE_LINES}<br>" in shown, shown
    assert f"point {SHOWN_NOTE_LINES + 1}" not in shown
    assert (f"<br>… ({40 - SHOWN_NOTE_LINES} more lines: the whole note is under History and "
            "review)”") in shown, shown
