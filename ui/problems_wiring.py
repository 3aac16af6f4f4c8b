"""Import problems on the Annotate page: the list above the editor, and marking one resolved.

A save checks the problems of the shared rules again and drops those the item no longer has
(ui/save_rules.settle_problems); a problem no rule can check on the item ("image file not
found" at import: the annotator has added the image since) is marked resolved here, one by
one. The mark is an edit of the working copy (kept in its draft) and the next Save records
it in the revision's comment, with its author and time; the item's flag follows the
problems that remain, so the "flagged" filter lists what is left to do.
"""
from __future__ import annotations

import gradio as gr

from domain.limits import SHOWN_RAW_LINE
from judges.gold_check import still_holds
from ui import messages
from ui import save_rules as rules
from ui.annotate_drafts import edited
from ui.editor_model import EditError
from ui.text import escape_html


def build_problem_actions(ui) -> None:
    """Under the notice, shown while the open item has import problems: one closed line
    (listed open, the problems pushed the image under the save bar); opened, tick those you
    have resolved, then Mark resolved."""
    with gr.Accordion("Mark import problems resolved", open=False, visible=False,
                      elem_id="problems-resolve") as ui.problems_row:
        with gr.Row():
            ui.problems_pick = gr.CheckboxGroup([], label="Import problems you have resolved",
                                                elem_id="problems-pick", scale=4)
            ui.problems_resolve = gr.Button("Mark resolved", size="sm", scale=0,
                                            min_width=130, elem_id="problems-resolve-button")


def problems_html(item: dict) -> str:
    """The working copy's import problems as one line with their count; the list opens in
    the page on a click, above the row that marks them resolved (assets/cluelab.css,
    .cl-problems). Those a save checks again say so, and
    those marked resolved (not saved yet) are listed apart."""
    problems = item.get("problems") or []
    resolved = item.get(rules.RESOLVED) or []
    if not problems and not resolved:
        return ""
    lines = "".join(
        f"<li>{escape_html(p)}"
        + (" <i>(checked again when you save)</i>" if still_holds(p, item) is not None else "")
        + (raw_line_html(item) if p.startswith("malformed line") else "")
        + "</li>" for p in problems)
    done = "".join(f"<li><s>{escape_html(p)}</s> <i>marked resolved: recorded when you "
                   f"save</i></li>" for p in resolved)
    count = f"{len(problems)} import problem{'s' if len(problems) != 1 else ''}" + (
        f", {len(resolved)} marked resolved" if resolved else "")
    return (f'<details class="cl-pop cl-problems"><summary><b>⚑ {count}</b></summary>'
            f'<ul>{lines}{done}</ul></details>')


def raw_line_html(item: dict) -> str:
    """A malformed line's text as the file had it (metadata.raw_line), under its problem:
    "malformed line: … column 53" alone let no annotator recover the id or the question.
    Escaped, shown as plain text; cut at SHOWN_RAW_LINE characters, its length said."""
    raw = (item.get("metadata") or {}).get("raw_line")
    if not isinstance(raw, str) or not raw:
        return ""
    cut = len(raw) > SHOWN_RAW_LINE
    said = (f"the line as the file has it (first {SHOWN_RAW_LINE:,} of {len(raw):,} "
            f"characters; all of it in metadata.raw_line)" if cut else
            "the line as the file has it")
    return (f'<br><i>{said}:</i><pre class="cl-raw-line">{escape_html(raw[:SHOWN_RAW_LINE])}'
            f"{'…' if cut else ''}</pre>")


QUESTION_HINTS = {"raw_line": "no question: the imported line could not be read — type it",
                  "raw": "no question: the imported entry could not be read — type it"}
NO_QUESTION_HINT = "no question: the imported file gave none — type it"


def question_hint(item: dict) -> str:
    """The question box's placeholder for an item its import left without a question (an
    entry it could not read keeps its text in metadata.raw_line or .raw; a line with no
    question says so in its problems), "" for any other. The box showed the made-up question
    "[missing question]" as the question's text, as if the annotator could keep it; the
    question is empty now (store/legacy.py reads older items so), and the hint says why."""
    metadata = item.get("metadata") or {}
    for key, hint in QUESTION_HINTS.items():
        if metadata.get(key):
            return hint
    problems = item.get("problems") or []
    if any(p.startswith("malformed line") for p in problems):    # its text not kept
        return QUESTION_HINTS["raw_line"]
    if any(p.startswith(("missing field: question", "missing question")) for p in problems):
        return NO_QUESTION_HINT
    return ""


def question_value(item: dict, before: dict | None):
    """The question box's output: a plain value while its hint stays the one of the item
    shown before (an update of the placeholder rebuilds the box: ui/annotate_render), the
    value with its hint otherwise. A fresh page's box (`before` None) has no hint."""
    hint = question_hint(item)
    was = question_hint(before["item"]) if before and before.get("item") else ""
    if hint == was:
        return item.get("question", "")
    return gr.update(value=item.get("question", ""), placeholder=hint)


def problem_choices(item: dict) -> list:
    """The problem row's updates (row, checkboxes) for the item shown. The checkboxes are
    sent only when there is something to tick: a choices update rebuilds the component."""
    problems = item.get("problems") or []
    if not problems:
        return [gr.update(visible=False), gr.skip()]
    return [gr.update(visible=True), gr.update(choices=problems, value=[])]


def wire_problems(editor, renderer, ui, form, split, notice_html) -> None:
    """`notice_html(work)`: the notice above the editor for a work state (annotate_wiring)."""
    def resolve(request: gr.Request, work, picked, *values):
        messages.require_open(work)
        form_values, annot = split(values)
        try:
            item = rules.mark_resolved(editor.collect(work, form_values, annot), picked)
        except EditError as err:
            raise messages.error(err) from None
        out = edited(editor, renderer, work, item, request)
        shown = {**work, "item": item}
        return out + [notice_html(shown), *problem_choices(item)]

    ui.problems_resolve.click(
        resolve, [ui.work, ui.problems_pick, *form, ui.annotator],
        renderer.structural_outputs + [ui.draft_state, ui.draft_choice, ui.notice,
                                       ui.problems_row, ui.problems_pick],
        api_name="resolve_problems")
