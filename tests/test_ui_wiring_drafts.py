"""How the Annotate page's events reach the draft, read off the app as built (ui/server.build_app):
an event that changes the working copy keeps a draft of what it shows, and no field's own
input event both autosaves (reading the widgets as they were) and changes the item.

A switch of the answer type was both: the autosave of the switch read the aliases box and
the gold before the switch changed them, and wrote that as the draft. A location item
switched to numeric and back showed its three aliases, and lost them at the next reload
(and saved them as []); a multiple-choice item lost its gold the same way."""
from __future__ import annotations

from ui.annotate_render import Renderer
from ui.server import build_app


def events(store) -> dict:
    return {fn.api_name: fn for fn in build_app(store).fns.values()}


def test_every_event_that_changes_the_working_copy_keeps_its_draft(store):
    fns = events(store)
    work = fns["autosave_draft"].inputs[1]       # after the draft key
    draft_line = fns["autosave_draft"].outputs[0]
    header = fns["load_item"].outputs[Renderer.OUTPUTS.index("header")]
    # events that show a stored state (an item opened, saved, restored) render it whole,
    # header included; every other event that hands back a new working copy is an edit
    edits = {name for name, fn in fns.items()
             if any(block is work for block in fn.outputs)
             and not any(block is header for block in fn.outputs)}
    assert {"switch_answer_type", "add_option", "remove_option", "add_clue"} <= edits
    undrafted = sorted(name for name in edits
                       if not any(block is draft_line for block in fns[name].outputs))
    assert not undrafted, f"edits the draft never hears of: {undrafted}"


def test_no_field_input_both_autosaves_and_changes_the_item(store):
    fns = events(store)
    work = fns["autosave_draft"].inputs[1]       # after the draft key
    autosaved = set(fns["autosave_draft"].targets)       # (component id, event name)
    both = sorted(name for name, fn in fns.items() if name != "autosave_draft"
                  and any(block is work for block in fn.outputs)
                  and autosaved & set(fn.targets))
    assert not both, f"these events race the autosave of their own trigger: {both}"


def test_a_box_edit_sends_the_clue_tables_box_counts_only_when_they_change():
    """The page puts the counts into the table as it is now (SHOW_BOX_COUNTS): the table
    as the event's output erased what was typed during the round trip (the clue typed
    right after Add clue was lost under load)."""
    from ui.annotate_drafts import recounted
    rows = [["clue 1", "a sign", "", "1 (img 1)"], ["clue 2", "", "", "0"]]
    sent = [["clue 1", "a sign", None, "1 (img 1)"], ["clue 2", None, None, "0"]]
    assert recounted(rows, sent) is None
    drawn = [["clue 1", "a sign", "", "1 (img 1)"], ["clue 2", "", "", "1 (img 1)"]]
    assert recounted(drawn, sent) == ["1 (img 1)", "1 (img 1)"]
    assert recounted(None, sent) is None
    # a row added with "+" and not typed in keeps its place and its (empty) count
    plus = [sent[0], ["", "", "", ""], sent[1]]
    assert recounted(drawn, plus) == ["1 (img 1)", "", "1 (img 1)"]
