"""Experiments tab: wiring of a run's name, note and deletion (handlers in
experiments_labels). Who may call them (researchers and admins, like steering) is declared
in ui/access.py.

Events: `label_run` (save name and note), `ask_delete_run` (show what would be deleted),
`delete_run` (delete the run the confirmation was shown for), `keep_run` (close it).
"""
from __future__ import annotations

import gradio as gr

from ui import experiments_labels as xl
from ui import messages
from ui import experiments_runs as xr
from ui.experiments_common import ExperimentError
from ui.session import login_name


def wire_labels(store, ui) -> None:
    def save_labels(run_id, name, note, request: gr.Request):
        try:
            xr.owned_run(store, run_id, login_name(request), "rename")
            message = xl.save(store, run_id, name, note)
        except ExperimentError as err:
            raise messages.error(err) from None
        messages.info(message)
        return (messages.status(message), xr.runs_table(store),   # a name is shown as text
                gr.update(choices=xr.clue_run_choices(store)))

    ui.save_labels.click(save_labels, [ui.run_id, ui.run_name, ui.run_note],
                         [ui.control_message, ui.runs, ui.clue_run], api_name="label_run")

    def ask_delete(run_id, request: gr.Request):
        try:
            xr.owned_run(store, run_id, login_name(request), "delete")
            question, pending = xl.ask(store, run_id)
        except ExperimentError as err:
            raise messages.error(err) from None
        return question, gr.update(visible=True), pending

    ui.ask_delete.click(ask_delete, ui.run_id,
                        [ui.confirm_text, ui.confirm_panel, ui.pending_delete],
                        api_name="ask_delete_run")

    def delete(pending, run_id, request: gr.Request):
        try:
            xr.owned_run(store, (pending or {}).get("run_id") or run_id, login_name(request),
                         "delete")
            message = xl.delete(store, pending, run_id)
        except ExperimentError as err:
            raise messages.error(err) from None
        messages.info(message)
        return (messages.status(message), xr.runs_table(store), gr.update(visible=False), None, "",
                xr.progress_html(store, None), "", "", [], "", "",
                gr.update(choices=xr.clue_run_choices(store), value=None))

    ui.confirm_delete.click(delete, [ui.pending_delete, ui.run_id],
                            [ui.control_message, ui.runs, ui.confirm_panel, ui.pending_delete,
                             ui.run_id, ui.progress, ui.run_name, ui.run_note, ui.responses,
                             ui.response_text, ui.response_extracted, ui.clue_run],
                            api_name="delete_run")
    ui.keep_run.click(lambda: (gr.update(visible=False), None), None,
                      [ui.confirm_panel, ui.pending_delete], api_name="keep_run")
