"""Inspect tab, part 1: wiring of inspect_layout's components to the plain handlers in
inspect_handlers (one response, zoom, compare), inspect_version (the item's version then,
links) and inspect_browser (filters, pages, next and previous). Tags, notes, the vocabulary,
counts and export are wired by inspect_tag_wiring.

Every event has an api_name; `inspect_open` is the one that opens a response by work id
(what the benchmark times). A page address with `?response=<id>` opens the Inspect tab on
that response (`inspect_deep_link`, at page load). Writing tags and notes needs a role that
may edit items (admin, researcher, annotator; `local` in single-user mode); anyone may look.
"""
from __future__ import annotations

import gradio as gr

from store import StoreError
from ui import inspect_browser as ib
from ui import messages
from ui import inspect_compare as ic
from ui import inspect_handlers as ih
from ui import inspect_tags as it
from ui import inspect_version as iv
from ui.browser_handlers import BrowserHandlers
from ui.inspect_layout import build_layout
from ui.inspect_overlay import Overlays
from ui.handler_errors import messages_for_errors
from ui.inspect_tag_wiring import wire_tags

_ERRORS = (ih.InspectError, ib.BrowseError, it.TagError, StoreError)


def _fail(error: Exception):
    """The error as a toast (it may quote a tag or an id: ui.messages shows it as text)."""
    raise messages.error(error) from None


# The page opens either as usual (open_tab) or on the response its URL names (deep_link).
# Each is sent after a page-only check with no outputs (OPEN_TAB_JS, DEEP_LINK_JS) that
# throws when the other one applies: a throw stops the chain quietly only in an event with no
# outputs (Gradio 6 marks a throwing event's outputs "Error": ui/workarounds.py,
# GRADIO_JS_THROW); in the events themselves it put twenty red badges on every opened page.
OPEN_TAB_JS = ("() => { if (!new URLSearchParams(window.location.search).has('response'))"
               " return []; throw new Error('not sent: the deep link opens the page'); }")
DEEP_LINK_JS = ("() => { if (new URLSearchParams(window.location.search).has('response')) "
                "return []; throw new Error('not sent: no response in the URL'); }")


def build_inspect_tab(store, opened, demo=None) -> None:
    """The Inspect page's content and events; `opened` fires when the page opens
    (`demo.load` in its route). With the app (`demo`), a page opened with `?response=<id>`
    shows that response. A handler that fails (a filter refused, say) shows one message and
    leaves the page as it was (ui/handler_errors.py)."""
    ui = build_layout()
    with messages_for_errors():
        _wire(store, ui, opened, demo)


def _wire(store, ui, opened, demo) -> None:
    overlays = Overlays(store)
    filters = [ui.run, ui.dataset, ui.domain, ui.subtask, ui.item, ui.status, ui.judge,
               ui.general, ui.rigorous, ui.grounded, ui.verbench, ui.wrong_reason,
               ui.flip_run, ui.flip, ui.flip_protocol, ui.disagree, ui.tag_filter]
    list_outputs = [ui.results, ui.count, ui.nav]
    choice_outputs = [ui.run, ui.flip_run, ui.judge, ui.dataset, ui.domain, ui.subtask,
                      ui.tag_filter, ui.vocabulary, ui.rename_from]

    def listing(result):
        return [result["rows"], result["count"], ib.nav_state(result)]

    # ---- opening the tab, filtering and paging ----------------------------------------------
    def choices(run) -> tuple[list, str]:
        """(updates of choice_outputs with `run` chosen, the judge chosen)."""
        facets = BrowserHandlers(store).facet_choices()
        judges = ib.judge_choices(store, run)
        judge = ib.default_judge(store, run, judges)
        return [gr.update(choices=ib.run_choices(store), value=run),
                gr.update(choices=ib.flip_run_choices(store, run)),
                gr.update(choices=judges, value=judge),
                *[gr.update(choices=facets[k]) for k in ("dataset", "domain", "subtask")],
                gr.update(choices=ib.tag_filter_choices(store)), it.vocabulary_rows(store),
                gr.update(choices=it.vocabulary(store))], judge

    def open_tab(run, nav):
        """Fill the choices; on the first opening, list the newest run's responses."""
        run = ib.opening_run(store, run, first=nav is None)
        out, judge = choices(run)
        shown = gr.update(visible=bool(store.list_runs(limit=1)))
        if nav is not None:
            return out + [gr.skip()] * len(list_outputs) + [shown]
        return out + listing(ib.browse(store, ib.run_filters(run, judge), "run order", 1)) \
            + [shown]

    opened(None, None, None, js=OPEN_TAB_JS, api_name="inspect_no_link",
           api_visibility="private").success(
        open_tab, [ui.run, ui.nav], choice_outputs + list_outputs + [ui.workspace],
        api_name="inspect_open_tab", show_progress="hidden")

    def run_chosen(sort, *values):
        """Another run: its judges, and its responses listed at once (not on Filter)."""
        try:
            judges, judge, result = ib.run_chosen(store, sort, values)
        except _ERRORS as error:
            _fail(error)
        same = values[12] == values[0]      # the run compared against is now this run
        return [gr.update(choices=judges, value=judge),
                gr.update(choices=ib.flip_run_choices(store, values[0]),
                          value=ib.NO_RUN if same else values[12]),
                gr.update(value=ib.FLIP_CHOICES[0] if same else values[13]),
                *listing(result)]

    ui.run.input(run_chosen, [ui.sort, *filters], [ui.judge, ui.flip_run, ui.flip,
                                                  *list_outputs],
                 api_name="inspect_judges", show_progress="hidden")

    def do_filter(sort, *values):
        try:
            return listing(ib.browse(store, ib.filters_from(*values), sort, 1))
        except _ERRORS as error:
            _fail(error)

    gr.on([ui.apply.click, ui.item.submit, ui.sort.input], do_filter, [ui.sort, *filters],
          list_outputs, api_name="inspect_filter")

    def turn(nav, delta):
        if not nav:
            raise messages.error("filter the responses first")
        try:
            return listing(ib.browse(store, nav["filters"], nav["sort"], nav["page"] + delta,
                                     nav.get("size", ib.PAGE_SIZE)))
        except _ERRORS as error:
            _fail(error)

    ui.next_page.click(lambda nav: turn(nav, 1), ui.nav, list_outputs,
                       api_name="inspect_next_page")
    ui.prev_page.click(lambda nav: turn(nav, -1), ui.nav, list_outputs,
                       api_name="inspect_prev_page")

    # ---- one response ----------------------------------------------------------------------
    view_outputs = [ui.work_id, ui.header, ui.version, ui.item_link, ui.image, ui.gt_image,
                    ui.gold, ui.gt_clues, ui.old_gt, ui.model_image, ui.answer, ui.model_clues,
                    ui.output, ui.verdicts, ui.verdict_detail, ui.zoom, ui.zoom_caption,
                    ui.tags, ui.tag_log, ui.remove_tag, ui.notes, ui.tag_message,
                    ui.compare_with, ui.compare_summary]

    def zoom_shown(path, caption) -> list:
        """The zoom panel only with a crop in it; else its caption alone (a hint, or why
        there is nothing to zoom to)."""
        return [gr.update(value=path, visible=path is not None), caption]

    def shown(view) -> list:
        gt_path, model_path = ih.overlays_for(overlays, view, 0)
        images = ih.image_choices(view)
        tags = it.tag_state(store, view["response"]["work_id"])
        compare = ic.compare_choices(store, view)
        old_gt = iv.old_gt_md(view)
        return [str(view["response"]["work_id"]), ih.header_md(view), iv.version_md(view),
                iv.item_link_html(view["response"]["item_id"]),
                gr.update(choices=images, value=images[0][1] if images else None,
                          visible=len(images) > 1),
                gt_path, ih.gold_md(view), ih.gt_table(view),
                gr.update(value=old_gt, visible=bool(old_gt)), model_path, ih.answer_md(view),
                gr.update(value=ih.model_table(view), label=ih.model_clues_label(view)),
                ih.output_text(view),
                ih.verdict_table(view), "", *zoom_shown(None, ih.ZOOM_HINT),
                gr.update(choices=tags["choices"], value=tags["value"]), tags["log"],
                gr.update(choices=tags["value"], value=None), tags["notes"], "",
                gr.update(choices=compare, value=ic.default_compare(store, view)), ""]

    def render(work_id, judge=None) -> list:
        """The response `work_id`, its model clues coloured as `judge` (the list's judge)
        matched them."""
        try:
            view = ih.open_view(store, work_id, judge)
        except _ERRORS as error:
            _fail(error)
        return shown(view)

    ui.work_id.submit(render, [ui.work_id, ui.judge], view_outputs, api_name="inspect_open")
    # the link box: this page's address with ?response=<id>, built in the browser whenever a
    # response is shown (the header changes then; the id box also while one types in it)
    ui.header.change(None, ui.work_id, ui.link, js=iv.LINK_JS, api_visibility="private",
                     api_name="inspect_link")

    def deep_link(request: gr.Request):
        """`?response=<id>` in the page address: show this tab on that response, with its
        run listed (on the page that holds it, so that J / K walk on from there)."""
        def as_opened():
            """A link that shows nothing still opens the page as usual (its opening event
            stood aside for this one)."""
            return open_tab(None, None) + [gr.skip()] * len(view_outputs)   # workspace too

        try:
            work_id = iv.deep_link_id(request.query_params if request else None)
            if work_id is None:
                return as_opened()
            run = ih.open_view(store, work_id)["response"]["run_id"]
            out, judge = choices(run)
            view = ih.open_view(store, work_id, judge)
            wanted = ib.run_filters(run, judge)
            page = ib.browse(store, wanted, "run order",
                             ib.page_of(store, wanted, "run order", work_id))
        except _ERRORS as error:
            messages.warn(f"Link to a response: {error}")
            return as_opened()
        return out + listing(page) + [gr.update(visible=True)] + shown(view)

    if demo is not None:
        # Only a page opened with ?response= asks the server: the js cancels the event
        # (throws) on every other page load, which then costs no round trip (and the page's
        # ordinary opening event, above, stands aside for it).
        demo.load(None, None, None, js=DEEP_LINK_JS, api_name="inspect_has_link",
                  api_visibility="private").success(
            deep_link, None, choice_outputs + list_outputs + [ui.workspace] + view_outputs,
            api_name="inspect_deep_link", show_progress="hidden")

    def select_row(nav, judge, evt: gr.SelectData):
        row = evt.row_value or []
        if not row:
            return [gr.skip()] * len(view_outputs)
        out = render(row[0], judge)
        ids = (nav or {}).get("ids") or []
        if row[0] in ids and ids.index(row[0]) + 1 < len(ids):
            ih.prefetch(store, overlays, ids[ids.index(row[0]) + 1])
        return out

    ui.results.select(select_row, [ui.nav, ui.judge], view_outputs, api_name="inspect_select")

    def walk(nav, current, delta, judge=None):
        try:
            target, page = ib.step(store, nav, current, delta)
        except _ERRORS as error:
            _fail(error)
        moved = listing(page) if page else [gr.skip()] * len(list_outputs)
        out = render(target, judge) + moved
        ids = (page or nav)["ids"]
        if target in ids and 0 <= ids.index(target) + delta < len(ids):
            ih.prefetch(store, overlays, ids[ids.index(target) + delta])
        return out

    ui.next.click(lambda nav, cur, judge=None: walk(nav, cur, 1, judge),
                  [ui.nav, ui.work_id, ui.judge], view_outputs + list_outputs,
                  api_name="inspect_next")
    ui.prev.click(lambda nav, cur, judge=None: walk(nav, cur, -1, judge),
                  [ui.nav, ui.work_id, ui.judge], view_outputs + list_outputs,
                  api_name="inspect_prev")

    def recolour(work_id, choice, judge):
        """Another judge chosen: the open response's model clues and boxes coloured as that
        judge matched them (the rest of the view, unsaved tag ticks too, stays)."""
        if not str(work_id or "").strip():
            return [gr.skip()] * 2
        try:
            view = ih.open_view(store, work_id, judge)
        except _ERRORS as error:
            _fail(error)
        return [ih.overlays_for(overlays, view, ih.image_index(choice))[1],
                gr.update(value=ih.model_table(view), label=ih.model_clues_label(view))]

    ui.judge.input(recolour, [ui.work_id, ui.image, ui.judge], [ui.model_image, ui.model_clues],
                   api_name="inspect_recolour", show_progress="hidden")

    def show_image(work_id, choice, judge=None):
        try:
            view = ih.open_view(store, work_id, judge)
        except _ERRORS as error:
            _fail(error)
        return list(ih.overlays_for(overlays, view, ih.image_index(choice)))

    ui.image.input(show_image, [ui.work_id, ui.image, ui.judge], [ui.gt_image, ui.model_image],
                   api_name="inspect_image")

    def zoom_on(kind):
        def handler(work_id, judge, evt: gr.SelectData):
            try:
                return zoom_shown(*ih.zoom(overlays, ih.open_view(store, work_id, judge), kind,
                                           evt.index[0] if evt.index else None))
            except _ERRORS as error:
                _fail(error)
        return handler

    ui.gt_clues.select(zoom_on("gt"), [ui.work_id, ui.judge], [ui.zoom, ui.zoom_caption],
                       api_name="inspect_zoom_gt")
    ui.model_clues.select(zoom_on("model"), [ui.work_id, ui.judge], [ui.zoom, ui.zoom_caption],
                          api_name="inspect_zoom_model")

    def verdict_detail(work_id, evt: gr.SelectData):
        try:
            return ih.verdict_detail(ih.open_view(store, work_id),
                                     evt.index[0] if evt.index else None)
        except _ERRORS as error:
            _fail(error)

    ui.verdicts.select(verdict_detail, ui.work_id, ui.verdict_detail,
                       api_name="inspect_verdict_detail")

    # ---- compare -----------------------------------------------------------------------------
    def compare(work_a, work_b, judge=None):
        if work_b in (None, ""):
            raise messages.error("choose response B (another response to the same item)")
        try:
            a, b = ih.open_view(store, work_a, judge), ih.open_view(store, work_b, judge)
        except _ERRORS as error:
            _fail(error)
        out = [ic.compare_summary(a, b), ic.compare_table(a, b)]
        for view in (a, b):
            out += [ih.header_md(view) + "\n\n" + ih.answer_md(view),
                    ih.model_overlays(overlays, view), ih.output_text(view)]
        return out

    ui.compare.click(compare, [ui.work_id, ui.compare_with, ui.judge],
                     [ui.compare_summary, ui.compare_verdicts, ui.a_answer, ui.a_images,
                      ui.a_output, ui.b_answer, ui.b_images, ui.b_output],
                     api_name="inspect_compare")

    wire_tags(store, ui, _ERRORS, _fail)
