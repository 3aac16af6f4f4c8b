#!/usr/bin/env python3
"""Bench-only what-if server: `app.py serve` with candidate fixes applied in memory.

The UI and store code are not changed; this lets `python -m bench.browser_paint --what-if` measure
what a fix would buy before anyone writes it. BENCH_PATCHES (comma-separated) selects them:

  preprocess  (already in the code since commit b410d4e; kept to measure older builds)
              the annotator's path-only preprocess set on the component CLASS.
              ui/annotate_layout.py sets it on the one instance, but Gradio replaces that
              instance in the session state on the first gr.update(...) to the annotator
              (blocks.postprocess_data: state[id] = block.__class__(**kwargs)); from then on
              the library's preprocess runs: it opens the full image, converts it and
              re-encodes it into the Gradio cache on every event with the annotator as input
              (save, autosave draft, compare, ...).
  preview     the annotator is given the cached display preview (longest side 2048,
              Store.preview_path) instead of the original. Box coordinates are NOT rescaled
              here, so saved boxes are wrong in this mode: a timing experiment only. A real
              fix must scale boxes between preview and original pixels.

  annotate-only  the other pages left empty (what their widgets cost the Annotate page)
  floor       not ClueLab's page at all: a bare Gradio page with only the item-id box and the
              annotator, which shows the `?item=` item's first image on load. Its first
              paint is the floor that Gradio and the annotator component set on this machine.
              With `md` / `df` also: plus one Markdown / one Dataframe; with `kept`: plus one
              of each type a page without Markdown, Radio, Number and Accordion still needs;
              with `rest`: plus one Radio, Number and Accordion.
  no-browser  the item browser column (filters, list, pager) created but not shown, so the
              page does not build it (what it costs the first paint)
  no-asset-cache  without ui/asset_cache.py (Gradio serves its front-end files itself)
  no-slim-css  the annotator's stylesheet served as installed (1.49 MB with its inlined KaTeX
              fonts) instead of slimmed by ui/annotator_assets.py
  no-preload  without the page head's preload links for the annotator's files
  default-theme  Gradio's default theme instead of Soft
  progress-everywhere  as before commit 87e29a2: the events that open an item show
              their progress on each of their ~30 outputs, not on the annotator alone
  no-css      without assets/cluelab.css and the head's scripts
  no-defer    the item list, the form, the save bar and every table, radio, number and the
              status built with the page, as before commit 6d30fd1, instead of after the first
              image (ui/annotate_layout.DEFER_PANELS)

Usage: BENCH_PATCHES=preprocess python -m bench._patched_server serve --db DB --port P --no-auth
"""
import os
import runpy
import sys

import gradio as gr
from gradio_image_annotation import image_annotator

import ui.server
from bench._common import REPO
from store.core import Store
from ui import annotate_layout, annotator_assets

patches = {p.strip() for p in os.environ.get("BENCH_PATCHES", "").split(",") if p.strip()}

if "preprocess" in patches:
    image_annotator.preprocess_image = lambda self, fd: None if fd is None else fd.path
if "preview" in patches:
    Store.image_path = lambda self, sha: self.preview_path(sha)
if "no-defer" in patches:
    annotate_layout.DEFER_PANELS = False
if "no-slim-css" in patches:
    annotator_assets.stylesheet_rewrites = lambda: {}
if "no-preload" in patches:
    annotator_assets.preload_links = lambda: ""
if patches & {"no-asset-cache", "default-theme", "no-css"}:
    base_kwargs = ui.server.launch_kwargs

    def patched_kwargs(store, require_login):
        kwargs = base_kwargs(store, require_login)
        if "no-asset-cache" in patches:
            kwargs["app_kwargs"]["middleware"] = [
                m for m in kwargs["app_kwargs"]["middleware"]
                if m.cls is not ui.server.AssetCache]
        if "default-theme" in patches:
            kwargs.pop("theme", None)
        if "no-css" in patches:
            kwargs.pop("css", None)
            kwargs.pop("head", None)
        return kwargs

    ui.server.launch_kwargs = patched_kwargs
if "progress-everywhere" in patches:
    full_app = ui.server.build_app

    def noisier_app(store, import_roots=None):
        demo = full_app(store, import_roots)
        for fn in demo.fns.values():
            if fn.api_name in ("open_initial", "next_item", "prev_item", "load_item",
                               "select_item", "init_browser"):
                fn.show_progress_on = None
        return demo

    ui.server.build_app = noisier_app
if "annotate-only" in patches:
    for builder in ("build_io_tab", "build_stats_tab", "build_results_tab",
                    "build_experiments_tab", "build_inspect_tab"):
        setattr(ui.server, builder, lambda *args, **kwargs: None)
if "floor" in patches:
    def bare_page(store, import_roots=None):
        ui.server.static_media(store)
        with gr.Blocks(title="floor") as demo:
            item_id = gr.Textbox(label="Item id", elem_id="item-id")
            if "md" in patches:      # floor,md: plus one Markdown (its module's cost)
                gr.Markdown("**one** markdown")
            if "df" in patches:      # floor,df: plus one Dataframe
                gr.Dataframe([["a", "b"]], headers=["x", "y"])
            if "kept" in patches:    # floor,kept: one of each type the slimmed page keeps
                with gr.Row():
                    gr.Button("a button")
                    gr.Dropdown(["a", "b"], label="a dropdown")
                    gr.UploadButton("an upload", file_types=["image"])
                with gr.Group():
                    gr.HTML("<b>some html</b>")
                gr.Dataframe([["a", "b"]], headers=["x", "y"])
            if "rest" in patches:    # floor,rest: plus the Radio, Number and Accordion types
                gr.Radio(["a", "b"], label="a radio")
                with gr.Accordion("an accordion", open=False):
                    gr.Number(1, label="a number")
            annotator = image_annotator(elem_id="annotator", image_type="filepath", sources=[],
                                        height="70vh", label_list=["clue 1"])

            def open_item(request: gr.Request):
                wanted = request.query_params.get("item")
                item = store.get_item(wanted)
                return wanted, {"image": str(store.image_path(item["images"][0])), "boxes": []}

            demo.load(open_item, None, [item_id, annotator], api_name="open_item")
        return demo

    ui.server.build_app = bare_page
if "no-browser" in patches:
    original_browser = ui.server.build_browser

    def hidden_browser():
        with gr.Column(visible=False):
            return original_browser()

    ui.server.build_browser = hidden_browser
print(f"bench what-if patches: {sorted(patches)}", flush=True)
sys.argv = [str(REPO / "app.py"), *sys.argv[1:]]
runpy.run_path(str(REPO / "app.py"), run_name="__main__")
