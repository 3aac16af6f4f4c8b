"""Inspect tab, part 2: wiring of the failure tags of a response (save, remove), the tag
vocabulary (add, rename, delete), notes, tag counts and the export of tagged cases to the
plain handlers in ui/inspect_tags.py. (Part 1, the browser and the response views, is
ui/inspect_tab.py, which calls `wire_tags`.)

Writing needs a role that may edit items (admin, researcher, annotator; `local` in
single-user mode); every write records that user and the time.
"""
from __future__ import annotations

import gradio as gr

from ui import inspect_browser as ib
from ui import inspect_handlers as ih
from ui import inspect_tags as it
from ui import messages
from ui.session import user_of


def _open_id(work_id) -> int | None:
    try:
        return ih.parse_work_id(work_id)
    except ih.InspectError:
        return None


def tag_updates(state: dict) -> list:
    """(tags, tag log, tag to remove) of one response's tag state."""
    return [gr.update(choices=state["choices"], value=state["value"]), state["log"],
            gr.update(choices=state["value"], value=None)]


def vocabulary_updates(store) -> list:
    """(tag filter, vocabulary table, tag to rename) after the vocabulary changed."""
    return [gr.update(choices=ib.tag_filter_choices(store)), it.vocabulary_rows(store),
            gr.update(choices=it.vocabulary(store), value=None)]


def wire_tags(store, ui, errors: tuple, fail) -> None:
    """Connect the tag, vocabulary, note, count and export widgets of `ui`; `fail(error)`
    turns one of `errors` into the on-screen message."""
    def guarded(call, *args):
        try:
            return call(*args)
        except errors as error:
            fail(error)

    response_outputs = [ui.tag_message, ui.tags, ui.tag_log, ui.remove_tag]

    def on_response(change):
        """A handler applying `change(store, work id, value, user)` (it.save_tags or
        it.remove_tag) to the open response, then showing its tags."""
        def handler(work_id, value, request: gr.Request):
            user = user_of(request)
            wid = guarded(ih.parse_work_id, work_id)
            message, state = guarded(change, store, wid, value, user)
            return [message, *tag_updates(state)]
        return handler

    def relist(nav):
        """The list's page again, its tags column showing what was just saved (it showed
        the old tags until the list was filtered again)."""
        result = guarded(ib.relisted, store, nav)
        if result is None:
            return [gr.skip()] * 3
        return [result["rows"], result["count"], ib.nav_state(result)]

    list_outputs = [ui.results, ui.count, ui.nav]
    def counts(run):
        """The tag counts of the run chosen in the list's filter (all runs: every run)."""
        run_ids = [run] if run and run != ib.ALL else [r["id"] for r in store.list_runs()]
        return it.tag_counts_frame(store, run_ids)

    ui.save_tags.click(on_response(it.save_tags), [ui.work_id, ui.tags], response_outputs,
                       api_name="inspect_save_tags") \
        .success(relist, ui.nav, list_outputs, api_name="inspect_relist_saved",
                 show_progress="hidden") \
        .then(counts, ui.run, ui.counts, api_name="inspect_counts_saved",
              show_progress="hidden")
    ui.remove_tag_button.click(on_response(it.remove_tag), [ui.work_id, ui.remove_tag],
                               response_outputs, api_name="inspect_remove_tag") \
        .success(relist, ui.nav, list_outputs, api_name="inspect_relist_removed",
                 show_progress="hidden") \
        .then(counts, ui.run, ui.counts, api_name="inspect_counts_removed",
              show_progress="hidden")

    vocabulary_outputs = [ui.tag_filter, ui.vocabulary, ui.rename_from]

    def after_vocabulary(message, work_id, current, renamed=None) -> list:
        """The message, the open response's tags (unsaved ticks kept, a renamed tag under
        its new name), and the vocabulary's widgets."""
        names = it.vocabulary(store)
        old, new = renamed or (None, None)
        value = [new if old and v.casefold() == old.casefold() else v
                 for v in current or [] if v in names or (old and v.casefold() == old.casefold())]
        wid = _open_id(work_id)
        state = it.tag_state(store, wid) if wid is not None else None
        return [message, gr.update(choices=names, value=value),
                state["log"] if state else gr.skip(),
                gr.update(choices=state["value"], value=None) if state else gr.skip(),
                *vocabulary_updates(store)]

    def add_tag(name, work_id, current, request: gr.Request):
        user = user_of(request)
        message, _ = guarded(it.add_vocabulary_tag, store, name, user)
        return after_vocabulary(message, work_id, current) + [""]

    gr.on([ui.add_tag.click, ui.new_tag.submit], add_tag, [ui.new_tag, ui.work_id, ui.tags],
          response_outputs + vocabulary_outputs + [ui.new_tag], api_name="inspect_add_tag")

    def rename(name, new_name, work_id, current, request: gr.Request):
        user = user_of(request)
        message, renamed = guarded(it.rename_vocabulary_tag, store, name, new_name, user)
        return after_vocabulary(message, work_id, current, renamed) + [""]

    gr.on([ui.rename.click, ui.rename_to.submit], rename,
          [ui.rename_from, ui.rename_to, ui.work_id, ui.tags],
          response_outputs + vocabulary_outputs + [ui.rename_to],
          api_name="inspect_rename_tag")

    def delete(name, work_id, current, request: gr.Request):
        user = user_of(request)
        message, _ = guarded(it.delete_vocabulary_tag, store, name, user)
        return after_vocabulary(message, work_id, current)

    ui.delete_tag.click(delete, [ui.rename_from, ui.work_id, ui.tags],
                        response_outputs + vocabulary_outputs, api_name="inspect_delete_tag")

    def add_note(work_id, note, request: gr.Request):
        user = user_of(request)
        wid = guarded(ih.parse_work_id, work_id)
        message, state = guarded(it.add_note, store, wid, note, user)
        return message, "", state["notes"]

    ui.add_note.click(add_note, [ui.work_id, ui.note], [ui.tag_message, ui.note, ui.notes],
                      api_name="inspect_add_note")

    ui.counts_button.click(counts, ui.run, ui.counts, api_name="inspect_tag_counts")
    ui.counts_panel.expand(counts, ui.run, ui.counts, api_name="inspect_counts_opened",
                           show_progress="hidden")

    def export(run, fmt, tag, request: gr.Request):
        """The file of the run and tag chosen in the list's filters, named by them, and the
        line saying what it covers ("2 tagged cases, tag 'format error', all runs (CSV)"):
        a tag filter is never followed silently."""
        path, line = guarded(it.export_tagged, store, None if run == ib.ALL else run, fmt,
                             None if tag in (ib.ANY, ib.TAGGED, ib.UNTAGGED) else tag,
                             user_of(request))
        messages.info(f"Exported {line}")
        return path

    ui.export.click(export, [ui.run, ui.export_format, ui.tag_filter], ui.export_file,
                    api_name="inspect_export")
