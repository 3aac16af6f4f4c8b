"""Inspect tab: wiring of inspect_layout's components to the plain handlers in
inspect_handlers (one response, zoom, compare), inspect_browser (filters, pages, next and
previous) and inspect_tags (tags, notes, counts, export).

Every event has an api_name; `inspect_open` is the one that opens a response by work id
(what the benchmark times). Writing tags and notes needs a role that may edit items
(admin, researcher, annotator; `local` in single-user mode); anyone may look.
"""
from __future__ import annotations

import html

import gradio as gr

from store import StoreError
from ui import inspect_browser as ib
from ui import inspect_compare as ic
from ui import inspect_handlers as ih
from ui import inspect_tags as it
from ui.browser_handlers import BrowserHandlers
from ui.inspect_layout import build_layout
from ui.inspect_overlay import Overlays
from ui.session import require_editor

_ERRORS = (ih.InspectError, ib.BrowseError, it.TagError, StoreError)


def _fail(error: Exception):
    """Toasts render HTML: the message (it may quote a tag or an id) shown as text."""
    raise gr.Error(html.escape(str(error), quote=False)) from None


def build_inspect_tab(store, tab) -> None:
    ui = build_layout()
    overlays = Overlays(store)
    filters = [ui.run, ui.dataset, ui.domain, ui.subtask, ui.item, ui.status, ui.judge,
               ui.general, ui.rigorous, ui.grounded, ui.verbench, ui.wrong_reason,
               ui.flip_run, ui.flip, ui.disagree, ui.tag_filter]
    list_outputs = [ui.results, ui.count, ui.nav]

    def listing(result):
        return [result["rows"], result["count"], ib.nav_state(result)]

    # ---- opening the tab, filtering and paging ----------------------------------------------
    def open_tab(run, nav):
        """Fill the choices; on the first opening, list the newest run's responses."""
        facets = BrowserHandlers(store).facet_choices()
        runs = ib.run_choices(store)
        values = [v for _, v in runs]
        if nav is None or run not in values:
            run = runs[1][1] if len(runs) > 1 else ib.ALL
        judges = ib.judge_choices(store, run)
        judge = "offline" if "offline" in judges else judges[0]
        out = [gr.update(choices=runs, value=run), gr.update(choices=ib.flip_run_choices(store)),
               gr.update(choices=judges, value=judge),
               *[gr.update(choices=facets[k]) for k in ("dataset", "domain", "subtask")],
               gr.update(choices=ib.tag_filter_choices(store))]
        if nav is not None:
            return out + [gr.skip()] * len(list_outputs)
        first = ib.filters_from(run, *[None] * 5, judge, *[None] * 9)
        return out + listing(ib.browse(store, first, "run order", 1))

    tab.select(open_tab, [ui.run, ui.nav], [ui.run, ui.flip_run, ui.judge, ui.dataset,
                                            ui.domain, ui.subtask, ui.tag_filter,
                                            *list_outputs],
               api_name="inspect_open_tab", show_progress="hidden")

    def judges_for(run):
        names = ib.judge_choices(store, run)
        return gr.update(choices=names, value="offline" if "offline" in names else names[0])

    ui.run.input(judges_for, ui.run, ui.judge, api_name="inspect_judges",
                 show_progress="hidden")

    def do_filter(sort, *values):
        try:
            return listing(ib.browse(store, ib.filters_from(*values), sort, 1))
        except _ERRORS as error:
            _fail(error)

    gr.on([ui.apply.click, ui.item.submit, ui.sort.input], do_filter, [ui.sort, *filters],
          list_outputs, api_name="inspect_filter")

    def turn(nav, delta):
        if not nav:
            raise gr.Error("filter the responses first")
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
                    ui.gold, ui.gt_clues, ui.model_image, ui.answer, ui.model_clues, ui.output,
                    ui.verdicts, ui.verdict_detail, ui.zoom, ui.zoom_caption, ui.tags,
                    ui.tag_log, ui.notes, ui.tag_message, ui.compare_with, ui.compare_summary]

    def render(work_id) -> list:
        try:
            view = ih.open_view(store, work_id)
        except _ERRORS as error:
            _fail(error)
        gt_path, model_path = ih.overlays_for(overlays, view, 0)
        choices = ih.image_choices(view)
        tags = it.tag_state(store, view["response"]["work_id"])
        compare = ic.compare_choices(store, view)
        return [str(view["response"]["work_id"]), ih.header_md(view), ih.version_md(view),
                ih.item_link_html(view["response"]["item_id"]),
                gr.update(choices=choices, value=choices[0] if choices else None,
                          visible=len(choices) > 1),
                gt_path, ih.gold_md(view), ih.gt_table(view), model_path, ih.answer_md(view),
                ih.model_table(view), view["response"].get("text") or "",
                ih.verdict_table(view), "", None, "",
                gr.update(choices=tags["choices"], value=tags["value"]), tags["log"],
                tags["notes"], "",
                gr.update(choices=compare, value=ic.default_compare(compare, view)), ""]

    ui.work_id.submit(render, ui.work_id, view_outputs, api_name="inspect_open")

    def select_row(nav, evt: gr.SelectData):
        row = evt.row_value or []
        if not row:
            return [gr.skip()] * len(view_outputs)
        out = render(row[0])
        ids = (nav or {}).get("ids") or []
        if row[0] in ids and ids.index(row[0]) + 1 < len(ids):
            ih.prefetch(store, overlays, ids[ids.index(row[0]) + 1])
        return out

    ui.results.select(select_row, ui.nav, view_outputs, api_name="inspect_select")

    def walk(nav, current, delta):
        try:
            target, page = ib.step(store, nav, current, delta)
        except _ERRORS as error:
            _fail(error)
        moved = listing(page) if page else [gr.skip()] * len(list_outputs)
        out = render(target) + moved
        ids = (page or nav)["ids"]
        if target in ids and 0 <= ids.index(target) + delta < len(ids):
            ih.prefetch(store, overlays, ids[ids.index(target) + delta])
        return out

    ui.next.click(lambda nav, cur: walk(nav, cur, 1), [ui.nav, ui.work_id],
                  view_outputs + list_outputs, api_name="inspect_next")
    ui.prev.click(lambda nav, cur: walk(nav, cur, -1), [ui.nav, ui.work_id],
                  view_outputs + list_outputs, api_name="inspect_prev")

    def show_image(work_id, choice):
        try:
            view = ih.open_view(store, work_id)
        except _ERRORS as error:
            _fail(error)
        return list(ih.overlays_for(overlays, view, ih.image_index(choice)))

    ui.image.input(show_image, [ui.work_id, ui.image], [ui.gt_image, ui.model_image],
                   api_name="inspect_image")

    def zoom_on(kind):
        def handler(work_id, evt: gr.SelectData):
            try:
                return list(ih.zoom(overlays, ih.open_view(store, work_id), kind,
                                    evt.index[0] if evt.index else None))
            except _ERRORS as error:
                _fail(error)
        return handler

    ui.gt_clues.select(zoom_on("gt"), ui.work_id, [ui.zoom, ui.zoom_caption],
                       api_name="inspect_zoom_gt")
    ui.model_clues.select(zoom_on("model"), ui.work_id, [ui.zoom, ui.zoom_caption],
                          api_name="inspect_zoom_model")

    def verdict_detail(work_id, evt: gr.SelectData):
        try:
            return ih.verdict_detail(ih.open_view(store, work_id),
                                     evt.index[0] if evt.index else None)
        except _ERRORS as error:
            _fail(error)

    ui.verdicts.select(verdict_detail, ui.work_id, ui.verdict_detail,
                       api_name="inspect_verdict_detail")

    # ---- tags and notes ----------------------------------------------------------------------
    def save_tags(work_id, tags, request: gr.Request):
        user = require_editor(store, request)
        try:
            message, state = it.save_tags(store, ih.parse_work_id(work_id), tags, user)
        except _ERRORS as error:
            _fail(error)
        return message, gr.update(value=state["value"]), state["log"]

    ui.save_tags.click(save_tags, [ui.work_id, ui.tags], [ui.tag_message, ui.tags, ui.tag_log],
                       api_name="inspect_save_tags")

    def add_tag(name, current, request: gr.Request):
        user = require_editor(store, request)
        try:
            message, names = it.add_vocabulary_tag(store, name, user)
        except _ERRORS as error:
            _fail(error)
        return (message, gr.update(choices=names, value=list(current or [])), "",
                gr.update(choices=ib.tag_filter_choices(store)))

    gr.on([ui.add_tag.click, ui.new_tag.submit], add_tag, [ui.new_tag, ui.tags],
          [ui.tag_message, ui.tags, ui.new_tag, ui.tag_filter], api_name="inspect_add_tag")

    def add_note(work_id, note, request: gr.Request):
        user = require_editor(store, request)
        try:
            message, state = it.add_note(store, ih.parse_work_id(work_id), note, user)
        except _ERRORS as error:
            _fail(error)
        return message, "", state["notes"]

    ui.add_note.click(add_note, [ui.work_id, ui.note], [ui.tag_message, ui.note, ui.notes],
                      api_name="inspect_add_note")

    # ---- compare, counts, export -------------------------------------------------------------
    def compare(work_a, work_b):
        if work_b in (None, ""):
            raise gr.Error("choose response B (another response to the same item)")
        try:
            a, b = ih.open_view(store, work_a), ih.open_view(store, work_b)
        except _ERRORS as error:
            _fail(error)
        out = [ic.compare_summary(a, b), ic.compare_table(a, b)]
        for view in (a, b):
            out += [ih.header_md(view) + "\n\n" + ih.answer_md(view),
                    ih.overlays_for(overlays, view, 0)[1],
                    view["response"].get("text") or ""]
        return out

    ui.compare.click(compare, [ui.work_id, ui.compare_with],
                     [ui.compare_summary, ui.compare_verdicts, ui.a_answer, ui.a_image,
                      ui.a_output, ui.b_answer, ui.b_image, ui.b_output],
                     api_name="inspect_compare")

    def counts(run):
        run_ids = [run] if run and run != ib.ALL else [r["id"] for r in store.list_runs()]
        return it.tag_counts_frame(store, run_ids)

    ui.counts_button.click(counts, ui.run, ui.counts, api_name="inspect_tag_counts")

    def export(run, fmt, tag):
        try:
            return it.export_tagged(store, None if run == ib.ALL else run, fmt,
                                    None if tag in (ib.ANY, ib.TAGGED, ib.UNTAGGED) else tag)
        except _ERRORS as error:
            _fail(error)

    ui.export.click(export, [ui.run, ui.export_format, ui.tag_filter], ui.export_file,
                    api_name="inspect_export")
