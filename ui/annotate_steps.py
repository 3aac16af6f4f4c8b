"""Next and Previous on the Annotate page: one item on in the filtered list per press.

Pressed again while the next item opens (three quick Alt+→), each press moves one item more:
the page counts the presses (assets/shortcuts.js, cluelabNavSteps) and sends their number,
in a hidden field, with the one event Gradio runs for them (trigger_mode always_last;
ui/workarounds.py GRADIO_TRIGGERS_COALESCE: a click's default dropped every press made
while one ran). A script's call without the count is one press.

Each press also sends the form's values and the item they were typed into (after the count,
which keeps its place for scripts): the keys typed just before Alt+→ are kept as the draft of
the item left before the next one opens (ui/annotate_drafts.py, keep_typed).

A press made before the page's first list has arrived (it is sent once the first image is
drawn, and may still be on its way) walks the list as the filters this browser kept will
draw it (assets/list_filters.js): with no list yet, Next said "no items match the filters"
or, under load, did nothing at all.
"""
from __future__ import annotations

import inspect

import gradio as gr

from ui import messages
from ui.browser_wiring import open_id

# the event's page script: the filters this browser kept (JSON, the first input) and the
# presses (the sixth input, the hidden count: STEPS_AT)
STEPS_AT = 5
COUNTED = ("(...v) => {{ const f = window.cluelabListFilters; v[0] = f ? f.json() : ''; "
           "return window.cluelabNavSteps ? window.cluelabNavSteps('{button}', v, "
           f"{STEPS_AT}) : v; }}}}")


def presses(steps) -> int:
    """The number of Next (or Previous) presses an event stands for: at least one."""
    try:
        return max(1, int(float(steps or 1)))
    except (TypeError, ValueError):
        return 1


def listed_ids(items, ids, shown, kept) -> list:
    """The ids Next and Previous walk: the list's, or, before the first list has arrived
    (no ids, and `shown` is None), the ids the kept filters (`kept`, JSON) select."""
    if ids or shown is not None:
        return ids or []
    return items.store.item_ids(**items.filters(*items.parse_kept(kept)))


def end_line(item_id: str, delta: int, count: int) -> str:
    """What a press past an end says ("the last of the 1 items" for a list of one)."""
    if count == 1:
        return f"{item_id} is the only item the filters list."
    end = "last" if delta > 0 else "first"
    return f"{item_id} is the {end} of the {count} items the filters list."


def optional_values(fn, names: list[str]):
    """`fn(..., *values)` as Gradio's API sees it: each value a parameter named after its
    control and None unless given (a script's call sends none: ui/workarounds.py,
    GRADIO_VALUES_REQUIRED). Next's form values had made a script's next_item() fail."""
    signature = inspect.signature(fn)
    named = [p for p in signature.parameters.values() if p.kind is not p.VAR_POSITIONAL]
    fn.__signature__ = signature.replace(parameters=named + [
        inspect.Parameter(name, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=None)
        for name in names])
    return fn


def wire_steps(ui, browser, items, open_listed, opened: list, typed: dict, keep) -> None:
    """`items`: ui.browser_handlers.BrowserHandlers; `open_listed(id, request, work, rows,
    ids, shown)` opens an item with the list following it, in the outputs `opened`;
    `keep(request, work, key, values)` keeps `values` (those of `typed`, {name: control}:
    the form and the annotator; none from a script) as the draft of the item `key` names, if it is `work`'s,
    and returns (the draft line, the tab-choice row) when another tab's draft stopped it."""
    def step(kept, ids, work, rows, shown, delta, request, key, values):
        held = keep(request, work, key, values)   # the keys typed just before: the item left's
        if held:        # this tab's edits are on the page only: it stays, asking to choose
            out = [gr.skip()] * len(opened)
            out[opened.index(ui.draft_state)], out[opened.index(ui.draft_choice)] = held
            return out
        ids = listed_ids(items, ids, shown, kept)
        current = open_id(work)
        target = items.neighbour(ids, current, delta)
        if target is None:
            raise messages.error("no items match the filters")
        if target == current:           # at an end: said, and the item is not opened again
            messages.info(end_line(current, delta, len(ids)))
            return [gr.skip()] * len(opened)
        out = open_listed(target, request, work, rows, ids, shown)
        if current in ids and not 0 <= ids.index(current) + delta < len(ids):
            # presses past the end (a second Next while the last item opened) stopped at
            # it saying nothing: the press on the last item seemed lost
            messages.info(end_line(target, delta, len(ids)))
        return out

    # (the request where the count's inputs end: scripts and tests pass it there)
    def go_next(kept="", ids=None, work=None, rows=None, shown=None, steps="1",
                request: gr.Request = None, key=None, *values):
        return step(kept, ids, work, rows, shown, presses(steps), request, key, values)

    def go_prev(kept="", ids=None, work=None, rows=None, shown=None, steps="1",
                request: gr.Request = None, key=None, *values):
        return step(kept, ids, work, rows, shown, -presses(steps), request, key, values)

    stepped = [browser.kept, browser.nav_ids, ui.work, browser.items, browser.shown,
               ui.nav_steps, ui.draft_key, *typed.values()]
    assert stepped[STEPS_AT] is ui.nav_steps
    for button, handler, name in ((ui.next, go_next, "next_item"),
                                  (ui.prev, go_prev, "prev_item")):
        handler = optional_values(handler, list(typed))
        button.click(handler, stepped, opened, api_name=name, show_progress_on=ui.annotator,
                     trigger_mode="always_last", js=COUNTED.format(button=button.elem_id))
