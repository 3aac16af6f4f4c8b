"""Import / Export tab: builder and wiring only (logic in io_handlers)."""
from __future__ import annotations

import gradio as gr

from formats import EXPORT_FORMATS, IMPORT_FORMATS
from ui import messages
from ui.io_handlers import IoError, IoHandlers, import_summary, server_paths_hint


def build_io_tab(store, import_roots=None) -> None:
    handlers = IoHandlers(store, import_roots)
    with gr.Row():
        with gr.Column():
            gr.Markdown("### Import\nA file, or a ZIP holding the file and its images. "
                        "Paths on the server work too (large image trees).")
            fmt = gr.Dropdown(sorted(IMPORT_FORMATS), label="Format", elem_id="import-format")
            upload = gr.File(label="File or ZIP", type="filepath", elem_id="import-file",
                             file_types=[".json", ".jsonl", ".tsv", ".zip"])
            server_path = gr.Textbox(label="…or a path on the server", elem_id="import-path",
                                     info=server_paths_hint(handlers.roots))
            images = gr.Textbox(label="Image folder on the server (optional; default: the format's "
                                      "own, e.g. the file's folder)",
                                elem_id="import-images")
            dataset = gr.Textbox(label="Dataset name (optional)", elem_id="import-dataset")
            start = gr.Button("Import", variant="primary", elem_id="import-start")
            report = gr.Markdown(elem_id="import-report")
        with gr.Column():
            gr.Markdown("### Export")
            out_fmt = gr.Dropdown(sorted(EXPORT_FORMATS), label="Format",
                                  elem_id="export-format")
            out_dataset = gr.Dropdown([], label="Dataset (empty: all)", allow_custom_value=False,
                                      elem_id="export-dataset")
            export = gr.Button("Export", elem_id="export-start")
            download = gr.File(label="Download", elem_id="export-file", interactive=False)
            summary = gr.JSON(label="Summary")

    def do_import(fmt, upload, path, images_dir, name, progress=gr.Progress()):
        def tick(done, total):
            progress((done, total), desc="importing", unit="items")
        try:
            result = handlers.run_import(fmt, upload, path, images_dir, name, progress=tick)
        except IoError as err:
            raise messages.error(err) from None
        warn, message = import_summary(result)
        (messages.warn if warn else messages.info)(message)
        return "```\n" + result["text"].replace("```", "'''") + "\n```", \
            gr.update(choices=store.facets().get("dataset", []))

    start.click(do_import, [fmt, upload, server_path, images, dataset], [report, out_dataset],
                api_name="import_file")

    def do_export(fmt, name):
        try:
            path, info = handlers.run_export(fmt, name)
        except IoError as err:
            raise messages.error(err) from None
        return path, info

    export.click(do_export, [out_fmt, out_dataset], [download, summary], api_name="export_file")
    out_fmt.focus(lambda: gr.update(choices=store.facets().get("dataset", [])), None,
                  out_dataset, api_name="export_datasets", show_progress="hidden")
