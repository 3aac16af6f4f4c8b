"""The Annotate page's handlers (ui.server.build_app's events, on a real store): a save
conflict said once, in the panel, with the save bar saying the save waits for the choice;
the structure buttons disabled on a released item; History's line for a clue moved as it
was."""
from __future__ import annotations

import warnings

from tests.test_annotate_page_fixes import PAGE, handlers, out, switch_values  # noqa: F401
from tests.test_ui_handlers import ui_store  # noqa: F401  (the fixture: a real store)
from ui import messages
from ui.annotate_render import Renderer
from ui.annotate_wiring import CONFLICT_WAITING
from ui.editor_handlers import EditorHandlers
from ui.history_handlers import HistoryHandlers


def test_a_conflict_is_said_once_in_the_panel_and_the_save_bar_says_it_waits(
        ui_store, handlers):
    """The message was shown twice, in the panel and as a toast over the bottom of the
    conflict table, and the save bar's line stayed empty."""
    work = EditorHandlers(ui_store).load("ui/alpha", "ann1")
    alpha = ui_store.get_item("ui/alpha")
    ui_store.save_item({**alpha, "gt_reasoning": "bob's reasoning"}, 1, "bob")
    values = switch_values(work["item"], question="My question?")
    with warnings.catch_warnings():
        warnings.simplefilter("error")              # a gr.Warning (a toast) would raise
        shown = handlers["save_item"](PAGE, work, *values, "", [])
    n = len(Renderer.OUTPUTS)
    panel, message = shown[n], shown[n + 1]
    assert panel["visible"] is True and "changed by bob" in message
    assert out(shown, "save_message") == messages.status(CONFLICT_WAITING)
    assert ui_store.get_item("ui/alpha")["version"] == 2


def _buttons(shown) -> dict:
    return {name: out(shown, name) for name in Renderer.EDIT_BUTTONS}


def test_the_structure_buttons_are_disabled_on_a_released_item(ui_store, handlers):
    """Add clue, Up, Down, Remove clue and the image buttons looked enabled on a released
    item and each press was refused; now they are disabled while it is read-only, enabled
    again on an editable item. The options' buttons too (they were only dimmed with the
    form, and looked pressable)."""
    assert {"add_option", "remove_option", "option_upload", "option_clear"} <= set(
        Renderer.EDIT_BUTTONS)
    gamma = ui_store.get_item("ui/gamma")
    ui_store.save_item({**gamma, "status": "released"}, 1, "admin", may_release=True)
    editable = EditorHandlers(ui_store).load("ui/beta", "local")
    shown = handlers["load_item"]("ui/gamma", editable, [], [], None, PAGE)
    assert out(shown, "work")["read_only"]
    assert all(b.get("interactive") is False for b in _buttons(shown).values()), shown
    # Next to an editable item: enabled again
    again = handlers["load_item"]("ui/alpha", out(shown, "work"), [], [], None, PAGE)
    assert all(b.get("interactive") is True for b in _buttons(again).values())
    # between two editable items nothing is sent (an update rebuilds the component)
    third = handlers["load_item"]("ui/beta", out(again, "work"), [], [], None, PAGE)
    assert all(b.get("__type__") == "update" and len(b) == 1
               for b in _buttons(third).values())
    # a page opening on the released item (nothing shown before) gets them disabled
    fresh = Renderer(ui_store, None, HistoryHandlers(ui_store)).render(
        EditorHandlers(ui_store).load("ui/gamma", "local"))
    assert all(b.get("interactive") is False for b in _buttons(fresh).values())


def test_history_says_a_clue_moved_as_it_was_in_one_short_line(ui_store):
    """A move (Up / Down) read "clue 1 (now 2)" with the clue's whole text, reasoning and
    boxes repeated, unchanged, before and after."""
    alpha = ui_store.get_item("ui/alpha")
    other = {"text": "A queue forms at the gate", "reasoning": "", "boxes": []}
    ui_store.save_item({**alpha, "clues": [*alpha["clues"], other]}, 1, "setup")
    two = ui_store.get_item("ui/alpha")
    ui_store.save_item({**two, "clues": list(reversed(two["clues"]))}, 2, "ann1")
    rows = HistoryHandlers(ui_store).diff("ui/alpha", 2, 3)
    assert rows == [["clue 1 moved to 2", "", ""]] or sorted(rows) == sorted(
        [["clue 1 moved to 2", "", ""], ["clue 2 moved to 1", "", ""]]), rows
    # moved and edited: still named by both places, with the part that changed
    three = ui_store.get_item("ui/alpha")
    clues = [three["clues"][1], {**three["clues"][0], "reasoning": "queues mean a train"}]
    ui_store.save_item({**three, "clues": clues}, 3, "ann1")
    rows = HistoryHandlers(ui_store).diff("ui/alpha", 3, 4)
    assert ["clue 1 (now 2) reasoning", "", "queues mean a train"] in rows, rows
