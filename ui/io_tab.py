"""Import / Export tab: builder and wiring only (logic in io_handlers)."""
from __future__ import annotations

import gradio as gr

from formats import EXPORT_FORMATS, IMPORT_FORMATS, dataset_refusal
from ui import access, messages
from ui.gradio_hooks import event_caller, login_required
from ui.handler_errors import from_script
from ui.io_handlers import IoError, IoHandlers, import_summary, server_paths_hint
from ui.io_lines import dataset_choices, export_line, failed_import
from ui.session import user_of


def import_refusal(store, username: str | None, needs_login: bool) -> str | None:
    """Why the caller may not import (the access table's own sentence), None if they may."""
    return access.refusal("import_file", access.caller(store, username, needs_login))


def build_io_tab(store, import_roots=None, demo=None) -> None:
    """`demo` (the app, None in tests): its page load shows the Import form disabled, with
    the line saying who may import, to a role that may not."""
    handlers = IoHandlers(store, import_roots)
    with gr.Row():
        with gr.Column():
            # without import roots the server reads no paths: the two path fields are not
            # shown, one line says uploads are the way (they pushed Import below the fold)
            reads_paths = bool(handlers.roots.roots)
            gr.Markdown("### Import\nA file, or a ZIP holding the file and its images. " + (
                "Paths on the server work too (large image trees)." if reads_paths else
                "Upload it here: this server reads no paths from its disk."),
                elem_id="import-intro")
            refused = gr.Markdown(visible=False, elem_id="import-refused")
            fmt = gr.Dropdown(sorted(IMPORT_FORMATS), value="jsonl", label="Format",
                              elem_id="import-format")   # ClueLab's own, lossless
            upload = gr.File(label="File or ZIP", type="filepath", elem_id="import-file",
                             file_types=[".json", ".jsonl", ".tsv", ".zip"])
            server_path = gr.Textbox(label="…or a path on the server", elem_id="import-path",
                                     info=server_paths_hint(handlers.roots),
                                     visible=reads_paths)
            images = gr.Textbox(label="Image folder on the server (optional; default: the format's "
                                      "own, e.g. the file's folder)",
                                elem_id="import-images", visible=reads_paths)
            dataset = gr.Textbox(label="Dataset name (optional)", elem_id="import-dataset")
            replace = gr.Checkbox(False, label="Replace items already in the store that differ "
                                               "(a new revision each, history kept; as "
                                               "import --replace)", elem_id="import-replace")
            start = gr.Button("Import", variant="primary", elem_id="import-start")
            # replace is asked first, with the counts of what it would replace
            with gr.Group(visible=False, elem_id="import-confirm") as confirm_box:
                confirm_text = gr.Markdown(elem_id="import-confirm-text")
                with gr.Row():
                    confirm = gr.Button("Replace them", variant="stop",
                                        elem_id="import-confirm-replace")
                    cancel = gr.Button("Cancel", elem_id="import-confirm-cancel")
            question = gr.State(None)
            report = gr.Markdown(elem_id="import-report")
        with gr.Column():
            gr.Markdown("### Export")
            out_fmt = gr.Dropdown(sorted(EXPORT_FORMATS), value="jsonl", label="Format",
                                  elem_id="export-format")
            # the datasets with their item counts, filled when the page opens; a name typed
            # is taken as it is, and refused unless it is one of them (never read as "all")
            out_dataset = gr.Dropdown([], label="Dataset (empty: all)", allow_custom_value=True,
                                      elem_id="export-dataset")
            export = gr.Button("Export", elem_id="export-start")
            exported = gr.Markdown(elem_id="export-summary")
            download = gr.File(label="Download", elem_id="export-file", interactive=False)
            summary = gr.JSON(label="Summary")

    def do_import(request: gr.Request, fmt, upload, path, images_dir, name, replace_them,
                  confirmed=None, progress=gr.Progress()):
        def tick(done, total):
            progress((done, total), desc="importing", unit="items")
        try:
            result = handlers.run_import(fmt, upload, path, images_dir, name, progress=tick,
                                         replace=bool(replace_them), confirmed=confirmed,
                                         author=user_of(request), may_release=access.may(
                                             event_caller(store, request, demo),
                                             "release_item"))
        except IoError as err:
            if from_script(request):
                raise messages.error(err) from None
            messages.warn(err)        # the toast fades: the report keeps what failed
            return (failed_import(str(err)), gr.skip(), gr.update(visible=False), "", None)
        if "confirm" in result:
            return (gr.skip(), gr.skip(), gr.update(visible=True),
                    messages.status(result["confirm"]), result["confirm"])
        warn, message = import_summary(result)
        (messages.warn if warn else messages.info)(message)
        return ("```\n" + result["text"].replace("```", "'''") + "\n```",
                gr.update(choices=dataset_choices(store)),
                gr.update(visible=False), "", None)

    def do_confirmed(request: gr.Request, fmt, upload, path, images_dir, name, replace_them,
                     asked, progress=gr.Progress()):
        return do_import(request, fmt, upload, path, images_dir, name, replace_them, asked,
                         progress)

    form = [fmt, upload, server_path, images, dataset, replace]
    if demo is not None:
        def offer(request: gr.Request):
            why = import_refusal(store, getattr(request, "username", None), login_required(demo))
            line = gr.update(visible=bool(why), value=messages.status(
                f"{why} The Import form is disabled; Export works." if why else ""))
            return [line, *[gr.update(interactive=why is None) for _ in (*form, start)]]

        demo.load(offer, None, [refused, *form, start], api_name="import_on_open",
                  show_progress="hidden")
    outputs = [report, out_dataset, confirm_box, confirm_text, question]
    start.click(do_import, form, outputs, api_name="import_file")
    confirm.click(do_confirmed, [*form, question], outputs, api_name="import_file_confirmed")
    cancel.click(lambda: (gr.update(visible=False), None), None, [confirm_box, question],
                 api_name="import_file_cancel", api_visibility="private")

    def do_export(request: gr.Request, fmt, name):
        name = (name or "").strip() or None
        refused = dataset_refusal(store, name)
        try:
            if refused:
                raise IoError(f"{refused}; choose one of the list, or leave it empty for all")
            path, info = handlers.run_export(fmt, name, user_of(request))
        except IoError as err:
            if from_script(request):
                raise messages.error(f"Not exported: {err}") from None
            messages.warn(f"Not exported: {err}")   # and no download of an earlier export
            return None, None, messages.status(f"Not exported: {err}")
        return path, info, messages.status(export_line(info))

    export.click(do_export, [out_fmt, out_dataset], [download, summary, exported],
                 api_name="export_file")
    if demo is not None:
        demo.load(lambda: gr.update(choices=dataset_choices(store)), None, out_dataset,
                  api_name="export_datasets", show_progress="hidden")
