"""Build the Blocks app and serve it.

Media files are registered as static paths, so Gradio serves the originals straight from
the media folder instead of hashing and copying a possibly 50 MB image on every load.
With a login required, Gradio's auth guards every page, file and API route.
"""
from __future__ import annotations

from pathlib import Path

import gradio as gr

from ui.annotate_layout import build_browser, build_editor
from ui.annotate_wiring import wire
from ui.experiments_tab import build_experiments_tab
from ui.inspect_tab import build_inspect_tab
from ui.io_tab import build_io_tab
from ui.results_tab import build_results_tab
from ui.stats_tab import build_stats_tab

ASSETS = Path(__file__).resolve().parent.parent / "assets"


def build_app(store) -> gr.Blocks:
    gr.set_static_paths([str(store.media_dir)])
    with gr.Blocks(title="ClueLab") as demo:
        with gr.Tabs(elem_id="main-tabs") as tabs:
            with gr.Tab("Annotate", id="annotate", elem_id="tab-annotate"):
                with gr.Row():
                    browser = build_browser()
                    editor = build_editor()
                wire(store, demo, browser, editor)
            with gr.Tab("Import / Export", id="io", elem_id="tab-io"):
                build_io_tab(store)
            with gr.Tab("Statistics", id="stats", elem_id="tab-stats") as stats_tab:
                build_stats_tab(store, stats_tab)
            with gr.Tab("Results", id="results", elem_id="tab-results"):
                build_results_tab(store)
            with gr.Tab("Experiments", id="experiments", elem_id="tab-experiments") as xp_tab:
                build_experiments_tab(store, xp_tab)
            with gr.Tab("Inspect", id="inspect", elem_id="tab-inspect") as inspect_tab:
                build_inspect_tab(store, inspect_tab, demo, tabs)
    return demo


def launch_kwargs(store, require_login: bool) -> dict:
    """Settings shared by the real server and the tests' servers."""
    return {
        "auth": (lambda user, password: store.check_password(user, password))
        if require_login else None,
        "auth_message": "ClueLab: log in with the account an admin created for you.",
        "css": (ASSETS / "cluelab.css").read_text(),
        "head": "<script>" + (ASSETS / "shortcuts.js").read_text() + "</script>",
        "allowed_paths": [str(store.media_dir)],
        "show_error": False,
        "footer_links": ["api"],
        "theme": gr.themes.Soft(),
    }


def launch(store, host: str, port: int, require_login: bool, block: bool = True):
    demo = build_app(store)
    demo.queue(default_concurrency_limit=8)
    return demo.launch(server_name=host, server_port=port, prevent_thread_lock=not block,
                       quiet=False, **launch_kwargs(store, require_login))
