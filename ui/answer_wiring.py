"""Events of the answer part of the form: switching the answer type, adding and removing
options, picking an option by its row.

Switching the type reads the gold under the type shown until now and puts it in the new
type's control, converted or set aside with a note (ui/answer_form.switch_type): after a switch
only what the visible control holds counts, never a value left in a hidden one; the panels
of the other types are hidden. A multiple-choice item's options are set aside when it
switches to another type (their panel hides) and come back when it switches back; so do
its gold and the aliases the new type does not take (the aliases box shows the others). Each event collects the widgets first, like the
structural events (annotate_structure), so nothing typed just before is lost.
"""
from __future__ import annotations

import gradio as gr

from ui import answer_form as af
from ui import messages
from ui import editor_ops as ops
from ui import editor_model as em
from ui.editor_model import EditError

SHOWN = ("answer", *af.ANSWER_FIELDS, "aliases")


def wire_answer(editor, renderer, ui, form, split) -> None:
    def collected(work, values, **form_changes):
        messages.require_open(work)
        form_values, annot = split(values)
        try:
            return editor.collect(work, {**form_values, **form_changes}, annot)
        except EditError as err:
            raise messages.error(str(err)) from None

    def switch_type(work, *values):
        """(work, the answer controls' values, the panels' visibility) for the new type."""
        new_type = split(values)[0]["answer_type"]
        item = collected(work, values, answer_type=work["item"].get("answer_type") if work
                         else None)
        item, note = af.switch_type(item, new_type)
        if note:
            messages.warn(note)
        shown = {**af.widget_values(item), "aliases": "\n".join(item.get("aliases") or [])}
        panels = renderer.panels(item)
        return [{**work, "item": item}, *[shown[name] for name in SHOWN],
                em.option_rows(item), *[panels[name] for name in af.PANELS]]

    ui.answer_type.input(switch_type, [ui.work, *form, ui.annotator],
                         [ui.work, *[getattr(ui, name) for name in SHOWN], ui.options,
                          *[getattr(ui, name) for name in af.PANELS]],
                         api_name="switch_answer_type", show_progress="hidden")

    structural = renderer.structural_outputs
    option_inputs = [ui.work, ui.option_label, *form, ui.annotator]

    def add_option(work, _label, *values):
        try:
            item, label = ops.add_option(collected(work, values))
        except EditError as err:
            raise messages.error(str(err)) from None
        return renderer.annotator_only({**work, "item": item}) + [label]

    def remove_option(work, label, *values):
        try:
            item = ops.remove_option(collected(work, values), label)
        except EditError as err:
            raise messages.error(str(err)) from None
        return renderer.annotator_only({**work, "item": item}) + [""]

    ui.add_option.click(add_option, option_inputs, structural + [ui.option_label],
                        api_name="add_option")
    ui.remove_option.click(remove_option, option_inputs, structural + [ui.option_label],
                           api_name="remove_option")

    def pick_option(evt: gr.SelectData):
        row = evt.row_value or []
        return str(row[0]) if row else ""

    ui.options.select(pick_option, None, ui.option_label, api_name="pick_option",
                      show_progress="hidden")
