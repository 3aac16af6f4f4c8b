"""Events of the answer part of the form: switching the answer type, adding and removing
options, picking an option by its row, and the note beside the gold answer (what is left to
do: ui/answer_form.answer_notes) kept as the controls change.

Switching the type reads the gold under the type shown until now and puts it in the new
type's control, converted or set aside with a note (ui/answer_form.switch_type): after a switch
only what the visible control holds counts, never a value left in a hidden one; the panels
of the other types are hidden. A multiple-choice item's options are set aside when it
switches to another type (their panel hides) and come back when it switches back; so do
its gold and the aliases the new type does not take (the aliases box shows the others).
The switch follows every way the list's value changes (mouse or keys); a save that
finds the list and the form at odds converts as the switch does (EditorHandlers.save).
Each event collects the widgets first, like the structural events (annotate_structure), so
nothing typed just before is lost, and keeps the item it shows as the draft
(annotate_drafts.draft_line): what a reload brings back is what the page showed.
"""
from __future__ import annotations

import gradio as gr

from ui import answer_form as af
from ui import messages
from ui.annotate_drafts import draft_line, edited
from ui.annotate_render import answer_note
from ui import editor_ops as ops
from ui import editor_model as em
from ui.editor_model import EditError
from ui.text import escape_md

SHOWN = ("answer", *af.ANSWER_FIELDS, "aliases")
TYPE_CHOSEN = "() => window.cluelabGates.answerTypeChosen()"


def wire_answer(editor, renderer, ui, form, split) -> None:
    def collected(work, values, **form_changes):
        messages.require_open(work)
        form_values, annot = split(values)
        try:
            return editor.collect(work, {**form_values, **form_changes}, annot)
        except EditError as err:
            raise messages.error(str(err)) from None

    drafted = [ui.draft_state, ui.draft_choice]

    def switch_type(request: gr.Request, work, *values):
        """(work, the answer controls' values, the panels' visibility, the draft line) for
        the new type; the draft is the item as switched (set-aside parts included)."""
        new_type = split(values)[0]["answer_type"]
        if not work or new_type == work["item"].get("answer_type"):
            # the type shown picked again, or the list set by the server (an item opened,
            # a draft restored, a save): the form shows that item's type already
            return [gr.skip()] * n_outputs
        item = collected(work, values, answer_type=work["item"].get("answer_type") if work
                         else None)
        item, note = af.switch_type(item, new_type)
        if note:
            messages.warn(note)
        work = {**work, "item": item}
        shown = {**af.widget_values(item), "aliases": "\n".join(item.get("aliases") or [])}
        panels = renderer.panels(item)
        return [work, *[shown[name] for name in SHOWN], em.option_rows(item),
                *[panels[name] for name in af.PANELS], escape_md(af.yes_no_warning(item)),
                escape_md(af.location_warning(item)), *draft_line(editor, work, item, request),
                "", answer_note(item)]

    # the option row selected goes too: the options it was one of are set aside or back
    switched = [ui.work, *[getattr(ui, name) for name in SHOWN], ui.options,
                *[getattr(ui, name) for name in af.PANELS], ui.yes_no_warning,
                ui.location_warning, *drafted, ui.option_label, ui.answer_note]
    n_outputs = len(switched)
    # `change`, fired once whenever the list's value changes, by mouse or by keyboard
    # (typing then Enter, arrows then Enter, typing then Tab): `select` fires for a mouse
    # pick only, so a type chosen with the keys changed the list but not the form, and the
    # save wrote the type over the other type's gold (ui/workarounds.py,
    # DROPDOWN_SELECT_MOUSE_ONLY); `input` fires twice for one pick, the second time with
    # the widgets as they were before the switch. A value the server sets (an item opened)
    # is the type of the work it sets with it: skipped above, and not even sent (a gate:
    # assets/clue_table.js answerTypeChosen), or every Next made a second request.
    ui.answer_type.change(None, None, None, js=TYPE_CHOSEN, api_name="answer_type_chosen",
                          api_visibility="private").success(
        switch_type, [ui.work, *form, ui.annotator], switched,
        api_name="switch_answer_type", show_progress="hidden")

    structural = renderer.structural_outputs + drafted
    option_inputs = [ui.work, ui.option_label, *form, ui.annotator]

    def add_option(request: gr.Request, work, _label, *values):
        try:
            item, label = ops.add_option(collected(work, values))
        except EditError as err:
            raise messages.error(str(err)) from None
        messages.info(ops.added_option_note(label))     # said, as a removal is
        return edited(editor, renderer, work, item, request) + [label, answer_note(item)]

    def remove_option(request: gr.Request, work, label, *values):
        """Remove the option of the Selected option box, saying which (a toast, as Remove
        clue does): it went without a word, whichever option the box still named."""
        before = collected(work, values)
        try:
            item = ops.remove_option(before, label)
        except EditError as err:
            raise messages.error(str(err)) from None
        messages.info(ops.removed_option_note(before, label))
        return edited(editor, renderer, work, item, request) + ["", answer_note(item)]

    option_outputs = structural + [ui.option_label, ui.answer_note]
    ui.add_option.click(add_option, option_inputs, option_outputs, api_name="add_option")
    ui.remove_option.click(remove_option, option_inputs, option_outputs,
                           api_name="remove_option")

    def note_as_typed(work, *values):
        """The note beside the gold as the controls are now: typing an option's label as
        the gold (or a gold into the new type's control) takes its line away."""
        if not work:
            return gr.skip()
        form_values, annot = split(values)
        try:
            return answer_note(editor.collect(work, form_values, annot))
        except EditError:
            return gr.skip()

    gr.on([getattr(ui, name).input for name in ("answer", *af.ANSWER_FIELDS, "options")],
          note_as_typed, [ui.work, *form, ui.annotator], ui.answer_note,
          trigger_mode="always_last", api_name="answer_note", api_visibility="private",
          show_progress="hidden")

    def pick_option(evt: gr.SelectData):
        row = evt.row_value or []
        return str(row[0]) if row else ""

    ui.options.select(pick_option, None, ui.option_label, api_name="pick_option",
                      show_progress="hidden")
