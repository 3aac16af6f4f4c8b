"""A U+202E in user text quoted by the app's own messages reversed everything after it:
removing a clue "tiny cat \\u202eevil" said 'Removed clue 1 "tiny cat ti sgnirb tfard…'
mirrored, and the browser's confirm ("Remove clue 1 "…" with its reasoning and 0 boxes?")
got the same raw string. Quoted text now drops its text-direction controls and, when it held
one or holds right-to-left letters, sits in an isolate (FSI … PDI): ui/text.quoted, and
assets/confirm.js's `quoted` (its confirm questions: tests/browser/
test_annfix24b_confirm_isolated.py); every toast and status line drops any control left
(ui/text.without_overrides)."""

from domain.item_ids import DIRECTION_MARKS
from ui import editor_ops as ops
from ui import editor_notices as notices
from ui.messages import as_toast_text, status
from ui.text import FSI, PDI, quoted

RLO = "\u202e"
REACHING = {chr(c) for c in DIRECTION_MARKS} - {FSI, PDI}


def test_a_removed_clues_text_is_quoted_without_its_control():
    item = {"clues": [{"text": f"tiny cat {RLO}evil", "boxes": []}]}
    said = ops.removed_clue_note(item, 0)
    assert said.startswith(f'Removed clue 1 "{FSI}tiny cat evil{PDI}". '), repr(said)
    assert not REACHING & set(said)
    option = {"label": "B", "text": f"x\u2069{RLO}y"}    # a PDI of its own closes nothing
    assert ops.option_named(option) == f'option B "{FSI}xy{PDI}"'
    # plain text reads as before; Hebrew sits in an isolate
    assert ops.removed_clue_note({"clues": [{"text": "plain", "boxes": []}]}, 0) \
        .startswith('Removed clue 1 "plain".')
    assert quoted("שלום 12") == f'"{FSI}שלום 12{PDI}"'
    assert quoted("a" * 50, 40) == f'"{"a" * 40}…"'
    assert notices.unassigned_said({"clues": []}, [
        {"label": f"cl{RLO}ue", "image": "a", "x0": 0, "y0": 0, "x1": 1, "y1": 1}]) == [
        f"a new box labelled “{FSI}clue{PDI}”, no such clue"]


def test_every_toast_and_status_drops_a_control_quoted_raw():
    said = f"No clue named 'tiny {RLO}cat' ({FSI}kept{PDI})"
    for shown in (as_toast_text(said), status(said)):
        assert RLO not in shown and FSI in shown and PDI in shown, repr(shown)
