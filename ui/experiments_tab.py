"""Experiments tab: builder (experiments_layout) and wiring; logic in experiments_endpoints
(endpoints, prices), experiments_handlers (the run form), experiments_preview,
experiments_runs (watching runs) and experiments_steering (pause, cancel, resume).

Every event has an api_name; who may call it is declared in ui/access.py (researchers and
admins). A handler that fails shows one message and leaves the outputs as they were
(ui/handler_errors.py).
Long work (a run) happens in its own process; the page polls `model_runs` with a gr.Timer
that starts when the tab is first opened, and skips updates that did not change.
"""
from __future__ import annotations

import hashlib
import json

import gradio as gr

from ui import experiments_endpoints as xe
from ui.experiments_config import config_text
from ui import experiments_handlers as xh
from ui import experiments_labels as xl
from ui import experiments_runs as xr
from ui import experiments_steering as xs
from ui import access, messages
from ui.browser_handlers import BrowserHandlers
from ui.experiments_labels_tab import wire_labels
from ui.experiments_layout import SAMPLE_LABEL, build_layout, sample_label
from ui.experiments_preset import wire_preset
from ui.experiments_preview import SHOW_PREVIEW_JS, marked_stale, preview
from ui.experiments_owners import may_steer, off_note, owner_controls
from ui.handler_errors import from_script, messages_for_errors
from ui.session import login_name, user_of


SET_UP = ("ep_save", "ep_test", "ep_delete", "price_save", "price_delete", "ep_name", "ep_url",
          "ep_model", "ep_env", "ep_concurrency", "ep_pixels", "price_pattern", "price_in",
          "price_out")
"""The endpoint and price controls, fields with their buttons: offered to the roles that may
use them (the fields stayed editable under disabled buttons, an invitation to nothing)."""


def _digest(value) -> str:
    return hashlib.sha1(json.dumps(value, default=str).encode()).hexdigest()


def build_experiments_tab(store, opened) -> None:
    """Build the page's components and wire them; `opened` is the event that fires when the
    page opens (`demo.load` in its route). A handler that fails shows one message and leaves
    the page as it was (ui/handler_errors.py)."""
    ui = build_layout()
    with messages_for_errors():
        _wire(store, ui, opened)


def _wire(store, ui, opened) -> None:
    form = [getattr(ui, name) for name in xh.RUN_FIELDS]

    def as_form(values) -> dict:
        return dict(zip(xh.RUN_FIELDS, values))

    def endpoint_list():
        """The endpoints list's rows, its columns fitted to them (xe.endpoint_widths)."""
        rows = xe.endpoint_rows(store)
        return gr.update(value=rows, column_widths=xe.endpoint_widths(rows))

    # ---- opening the tab -----------------------------------------------------------------
    def set_up_controls(request):
        """Endpoints and prices are an admin's to set up: a researcher met a working form
        whose every button, Test connection too, was refused. Disabled for a role that may
        not, the line under them saying who may."""
        name = getattr(request, "username", None)
        who = access.caller(store, name, name is not None)     # no login: the local user
        why = access.refusal("save_endpoint", who)
        controls = [gr.update(interactive=why is None)] * len(SET_UP)
        return [*controls, messages.status(f"{why} The lists show what is set up.")
                if why else gr.skip()]

    def open_tab(request: gr.Request, run_id, endpoint):
        facets = BrowserHandlers(store).facet_choices()
        names = xe.endpoint_names(store)
        keep = endpoint if endpoint in names else xe.default_endpoint(store, names)
        name = getattr(request, "username", None)
        who = access.caller(store, name, name is not None)     # the label says who may edit
        return [{**endpoint_list(), "label": xe.list_label("endpoints", who)},
                gr.update(choices=names, value=keep),
                gr.update(open=True) if not names else gr.skip(),
                gr.update(value=xe.price_rows(store), label=xe.list_label("prices", who)),
                xr.runs_table(store),
                gr.update(choices=xr.clue_run_choices(store)),
                *[gr.update(choices=facets[k]) for k in ("dataset", "domain", "subtask",
                                                         "status")],
                xr.progress_html(store, run_id, login_name(request)), gr.Timer(active=True),
                *set_up_controls(request)]

    open_outputs = [ui.endpoints, ui.endpoint, ui.endpoints_panel, ui.prices, ui.runs,
                    ui.clue_run, ui.dataset, ui.domain, ui.subtask, ui.status, ui.progress,
                    ui.timer, *[getattr(ui, name) for name in SET_UP], ui.ep_result]
    opened(open_tab, [ui.run_id, ui.endpoint], open_outputs, api_name="experiments_open",
           show_progress="hidden")

    # ---- endpoints -------------------------------------------------------------------------
    def endpoint_lists():
        return endpoint_list(), xe.endpoint_names(store)

    def select_endpoint(evt: gr.SelectData):
        row = evt.row_value or []
        try:
            return xe.endpoint_form(store, str(row[0])) if row else [gr.skip()] * 6
        except xh.ExperimentError as err:
            raise messages.error(err) from None

    ui.endpoints.select(select_endpoint, None, [ui.ep_name, ui.ep_url, ui.ep_model, ui.ep_env,
                                                ui.ep_concurrency, ui.ep_pixels],
                        api_name="select_endpoint")

    def save_endpoint(name, url, model, env, concurrency, pixels, chosen=None,
                      request: gr.Request = None):
        try:
            message = xe.save_endpoint(store, name, url, model, env, concurrency, pixels)
        except xh.ExperimentError as err:
            raise messages.error(err) from None
        messages.info(message)
        rows, names = endpoint_lists()
        return rows, gr.update(choices=names, value=xe.run_endpoint_after(chosen, names)), \
            messages.status(message)

    ui.ep_save.click(save_endpoint, [ui.ep_name, ui.ep_url, ui.ep_model, ui.ep_env,
                                     ui.ep_concurrency, ui.ep_pixels, ui.endpoint],
                     [ui.endpoints, ui.endpoint, ui.ep_result], api_name="save_endpoint")

    def delete_endpoint(name, chosen=None, request: gr.Request = None):
        try:
            message = xe.delete_endpoint(store, name)
        except xh.ExperimentError as err:
            raise messages.error(err) from None
        rows, names = endpoint_lists()
        return rows, gr.update(choices=names, value=xe.run_endpoint_after(chosen, names)), \
            messages.status(message)

    ui.ep_delete.click(delete_endpoint, [ui.ep_name, ui.endpoint],
                       [ui.endpoints, ui.endpoint, ui.ep_result], api_name="delete_endpoint")

    def test_endpoint(name, url, model, env):
        """Tests the form's values as they are (saved or not); with no base URL and no
        model given (a script passing only a name), the saved endpoint of that name."""
        blank = not (url or "").strip() and not (model or "").strip()
        try:
            result = xe.test_connection(store, name, *((None, None) if blank else
                                                       (url or "", model or "")), env)
        except xh.ExperimentError as err:
            raise messages.error(err) from None
        if not result["ok"]:
            messages.warn(result["message"])
        return result["markdown"]

    ui.ep_test.click(test_endpoint, [ui.ep_name, ui.ep_url, ui.ep_model, ui.ep_env],
                     ui.ep_result, api_name="test_endpoint")

    # ---- prices ----------------------------------------------------------------------------
    def select_price(evt: gr.SelectData):
        row = evt.row_value or []
        return row[:3] if len(row) >= 3 else [gr.skip()] * 3

    ui.prices.select(select_price, None, [ui.price_pattern, ui.price_in, ui.price_out],
                     api_name="select_price")

    def change_price(action, pattern, input_per_m, output_per_m, request):
        try:
            message = (xe.save_price(store, pattern, input_per_m, output_per_m)
                       if action == "save" else xe.delete_price(store, pattern))
        except xh.ExperimentError as err:
            raise messages.error(err) from None
        messages.info(message)
        return xe.price_rows(store)

    def save_price(pattern, input_per_m, output_per_m, request: gr.Request):
        return change_price("save", pattern, input_per_m, output_per_m, request)

    def delete_price(pattern, request: gr.Request):
        return change_price("delete", pattern, None, None, request)

    ui.price_save.click(save_price, [ui.price_pattern, ui.price_in, ui.price_out], ui.prices,
                        api_name="save_price")
    ui.price_delete.click(delete_price, ui.price_pattern, ui.prices, api_name="delete_price")

    # ---- the run form ----------------------------------------------------------------------
    def clue_options(source):
        runs = gr.update(visible=True, choices=xr.clue_run_choices(store)) \
            if source == "run" else gr.update(visible=False)
        return runs, gr.update(visible=source == "self")

    ui.clues.change(clue_options, ui.clues, [ui.clue_run, ui.clue_pass],
                    api_name="clue_source_options", show_progress="hidden")
    ui.image_mode.change(lambda mode: gr.update(visible=mode == "clue_masked"), ui.image_mode,
                         ui.mask_style, api_name="image_mode_options", show_progress="hidden")
    wire_preset(ui)

    def do_preview(request: gr.Request, item_id, *values):
        name = getattr(request, "username", None)   # prices are an admin's to set
        may_price = access.may(access.caller(store, name, name is not None), "save_price")
        try:
            out = preview(store, as_form(values), item_id, may_price)
        except xh.ExperimentError as err:
            raise messages.error(err) from None
        return (out["summary"], out["transcript"], out["thumbnails"], out["payload"],
                out["summary"])

    ui.preview.click(do_preview, [ui.preview_item, *form],
                     [ui.summary, ui.transcript, ui.thumbs, ui.payload, ui.previewed],
                     api_name="preview_run") \
        .success(None, None, None, js=SHOW_PREVIEW_JS, api_name="show_preview")

    def stale(previewed):
        marked = marked_stale(previewed)
        return gr.skip() if marked is None else marked

    gr.on([c.change for c in (*form, ui.preview_item, ui.prices)], stale, ui.previewed,
          ui.summary, api_name="preview_stale", show_progress="hidden")

    def do_start(request: gr.Request, *values):
        user = user_of(request)
        try:
            started = xh.start_run(store, as_form(values), user)
        except xh.ExperimentError as err:
            if from_script(request):
                raise messages.error(err) from None
            # the toast goes in seconds: the refusal stays where a started run's line goes
            messages.warn(err)
            return gr.skip(), messages.status(f"{err}"), *[gr.skip()] * 15
        if started["warning"]:
            messages.warn(started["warning"])
        # "Run … started" in the panel's own line only: as a toast it covered the progress
        # panel's latency figures for seconds
        run_id = started["run_id"]
        return (run_id, messages.status(started["message"]), xr.runs_table(store),
                xr.progress_html(store, run_id), gr.Timer(active=True),
                gr.update(value=[], label=SAMPLE_LABEL), "", "",
                *[gr.update(**b) for b in xs.buttons("running")],
                *[gr.update(**b) for b in owner_controls(   # the user's own, no label yet
                    True, run_name={"value": ""}, run_note={"value": ""},
                    resume_budget=xs.budget_box(store.get_run(run_id))).values()])

    # steering a run: 'retry errors' is Resume's option, on and off with it
    steer_controls = [ui.pause, ui.cancel, ui.resume, ui.retry_errors]
    ui.start.click(do_start, form, [ui.run_id, ui.control_message, ui.runs, ui.progress,
                                    ui.timer, ui.responses, ui.response_text,
                                    ui.response_extracted, *steer_controls,
                                    *[getattr(ui, name) for name in owner_controls(True)]],
                   api_name="start_run")

    # ---- watching runs ---------------------------------------------------------------------
    def sample_of(run_id, status_filter):
        """The response sample, captioned 'no responses match' when the filter finds none."""
        rows = xr.responses(store, run_id, status_filter)
        return gr.update(value=rows, label=sample_label(rows, status_filter))

    def poll(run_id, status_filter, seen, request: gr.Request):
        """The runs list and the watched run's counters (unchanged: skipped); the sample of
        responses is reloaded when the watched run changes status (e.g. becomes done)."""
        run_id = (run_id or "").strip()
        rows = xr.runs_table(store)
        panel, status = xr.progress(store, run_id, login_name(request))
        digest = _digest([rows, panel])
        if digest == (seen or {}).get("digest"):
            # a skip for each steering control and the line (4 skips for 5 outputs failed
            # every unchanged poll: "returned 8 values for 9 outputs", the panel went stale)
            return gr.skip(), gr.skip(), gr.skip(), seen, *[gr.skip()] * (len(steer_controls) + 1)
        watched, before = f"{run_id}:{status}", (seen or {}).get("watched") or ""
        sample = gr.skip()
        if status and watched != before:
            sample = sample_of(run_id, status_filter)
        # "Asked run … to pause" stayed after the run had paused: a line about the watched
        # run goes when its status changes (the panel says the new one)
        line = (messages.status(off_note(store, run_id, login_name(request)))
                if before.startswith(f"{run_id}:") and watched != before else gr.skip())
        return (rows, panel, sample, {"digest": digest, "watched": watched},
                *steer_buttons(status, run_id, request), line)

    def steer_buttons(status, run_id, request):
        """Pause, Cancel, Resume and 'retry errors' as the run's status allows, all off for
        a watcher who may not steer it (ui/experiments_owners.py)."""
        allowed = may_steer(store, run_id, login_name(request))
        return [gr.update(**b) for b in xs.buttons(status, allowed)]

    poll_io = ([ui.run_id, ui.response_filter, ui.seen],
               [ui.runs, ui.progress, ui.responses, ui.seen, *steer_controls,
                ui.control_message])
    ui.timer.tick(poll, *poll_io, api_name="poll_runs", show_progress="hidden")
    ui.refresh.click(poll, *poll_io, api_name="refresh_runs", show_progress="hidden")

    def watch(run_id, status_filter, request: gr.Request):
        try:
            run = xr.chosen_run(store, run_id)       # a name typed in the box: its id
            run_id = run["id"]
            user = login_name(request)
            name, note = xl.labels(store, run_id)
            # name, note, Save and Delete off too for one who may not (the server refuses)
            owned = {k: gr.update(**v) for k, v in owner_controls(
                may_steer(store, run_id, user), run_name={"value": name},
                run_note={"value": note}, resume_budget=xs.budget_box(run)).items()}
            return (run_id, xr.progress_html(store, run_id, user),
                    config_text(xr.run_config(store, run_id)),
                    sample_of(run_id, status_filter), "", "",
                    owned["run_name"], owned["run_note"], gr.update(visible=False), None,
                    owned["resume_budget"], owned["save_labels"], owned["ask_delete"],
                    *steer_buttons(xr.progress(store, run_id, user)[1], run_id, request),
                    messages.status(off_note(store, run_id, user)))   # why they are off
        except xh.ExperimentError as err:
            raise messages.error(err) from None

    watch_outputs = [ui.run_id, ui.progress, ui.config, ui.responses, ui.response_text,
                     ui.response_extracted, ui.run_name, ui.run_note, ui.confirm_panel,
                     ui.pending_delete, ui.resume_budget, ui.save_labels, ui.ask_delete,
                     *steer_controls, ui.control_message]
    ui.run_id.submit(watch, [ui.run_id, ui.response_filter], watch_outputs, api_name="watch_run")

    def select_run(status_filter, evt: gr.SelectData, request: gr.Request):
        row = evt.row_value or []
        return watch(str(row[1]) if len(row) > 1 else "", status_filter, request)   # its id

    ui.runs.select(select_run, ui.response_filter, watch_outputs, api_name="select_run")

    def list_responses(run_id, status_filter):
        try:
            return sample_of(run_id, status_filter)
        except xh.ExperimentError as err:
            raise messages.error(err) from None

    gr.on([ui.responses_refresh.click, ui.response_filter.input], list_responses,
          [ui.run_id, ui.response_filter], ui.responses, api_name="list_responses")

    def show_response(run_id, evt: gr.SelectData):
        row = evt.row_value or []
        try:
            return xr.response_detail(store, run_id, row[0] if row else None)
        except xh.ExperimentError as err:
            raise messages.error(err) from None

    ui.responses.select(show_response, ui.run_id, [ui.response_text, ui.response_extracted],
                        api_name="show_response")

    # ---- steering --------------------------------------------------------------------------
    def steer(action, run_id, retry_errors, budget, request):
        """Pause, cancel or resume; the progress panel as the run is now (a resumed run
        already running: experiments_steering)."""
        try:
            run_id = xr.owned_run(store, run_id, login_name(request), action)["id"]
            message = (xs.resume(store, run_id, retry_errors, budget) if action == "resume"
                       else xs.control(store, run_id, action))
        except xh.ExperimentError as err:
            raise messages.error(err) from None
        messages.info(message)
        panel, status = xr.progress(store, run_id, login_name(request))
        # the poll drops a line about the watched run when its status changes; the status
        # the line is about goes with it, so a poll that saw 'paused' before this reply
        # landed still drops "Asked run … to pause" at its next tick (CI: it stayed)
        seen = {"digest": None, "watched": f"{run_id}:{status}"}
        return (messages.status(message), panel, gr.Timer(active=True), seen,
                *steer_buttons(status, run_id, request))

    def pause_run(run_id, request: gr.Request):
        return steer("pause", run_id, False, None, request)

    def cancel_run(run_id, request: gr.Request):
        return steer("cancel", run_id, False, None, request)

    def resume_run(run_id, retry_errors, budget, request: gr.Request):
        return steer("resume", run_id, retry_errors, budget, request)

    steer_outputs = [ui.control_message, ui.progress, ui.timer, ui.seen, *steer_controls]
    ui.pause.click(pause_run, ui.run_id, steer_outputs, api_name="pause_run")
    ui.cancel.click(cancel_run, ui.run_id, steer_outputs, api_name="cancel_run")
    ui.resume.click(resume_run, [ui.run_id, ui.retry_errors, ui.resume_budget], steer_outputs,
                    api_name="resume_run")
    wire_labels(store, ui)
