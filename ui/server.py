"""Build the Blocks app and serve it.

Media files are registered as static paths, so Gradio serves the originals straight from
the media folder instead of hashing and copying a possibly 50 MB image on every load.
With a login required, Gradio's auth guards every page, file and API route, and the access
table (ui/access.py) says which roles may call each event and reach each route; it is
applied to every event and route in one place (ui/gradio_hooks.py).
"""
from __future__ import annotations

import os
import re
from pathlib import Path

import gradio as gr
from starlette.middleware import Middleware

from domain.limits import STATE_SESSIONS
from ui import annotator_assets, connection_limits, table_cells
from ui.annotate_layout import build_browser, build_editor
from ui.annotate_wiring import wire
from ui.asset_cache import AssetCache
from ui.downloads import downloads_for
from ui.file_limits import keep_seconds
from ui.media_http import MediaFiles
from ui.experiments_tab import build_experiments_tab
from ui.forwarded import Forwarded
from ui.gradio_hooks import GuardedBlocks
from ui.route_access import RouteAccess
from ui.handler_errors import shown_as_message
from ui.device_cookie import DeviceCookies, key_file, load_key
from ui.login_route import LoginRoute
from ui.login_throttle import LoginThrottle
from ui.inspect_tab import build_inspect_tab
from ui.io_tab import build_io_tab
from ui.queue_share import cap_waiting_per_user
from ui.session_owners import bind_sessions
from ui.results_tab import build_results_tab
from ui.stats_tab import build_stats_tab

ASSETS = Path(__file__).resolve().parent.parent / "assets"


def static_media(store) -> None:
    """Register the media folder as static, first in Gradio's list.

    Gradio checks every file in every response against its static paths in order,
    resolving both paths each time (several lstat calls), and stops at the first match.
    It registers a couple of its own icons at import, so our folder would come last and
    an item with ten images would pay for thirty resolutions twice per load. Moving it to
    the front makes the first comparison the one that matches.
    """
    from gradio.data_classes import _StaticFiles

    media = Path(store.media_dir).resolve()
    gr.set_static_paths([str(media)])
    paths = _StaticFiles.all_paths
    paths[:] = [media] + [p for p in paths if p != media]


# The scripting API as documented in the API description (gradio_client's view_api). Every
# other event keeps its api_name and stays callable (gradio_client, tests) but is left out of
# the API description: Gradio embeds that description in every page it serves, and with all 80
# events (most returning the whole editor) it was 600 KB and 0.2 s of server time per page.
PUBLIC_API = {
    "load_item", "save_item", "next_item", "prev_item", "search_items", "diff_revisions",
    "restore_revision", "submit_review", "import_file", "export_file", "stats",
    "save_endpoint", "test_endpoint", "preview_run", "start_run", "pause_run", "cancel_run",
    "resume_run", "poll_runs", "score_runs", "show_results", "export_results", "inspect_open",
    "inspect_filter", "inspect_compare", "inspect_save_tags", "inspect_add_tag",
    "inspect_remove_tag", "inspect_rename_tag", "inspect_add_note", "inspect_export",
}


def document_public_api(demo: gr.Blocks) -> None:
    """Mark every public event outside PUBLIC_API as undocumented (still callable), and name
    each parameter of the documented ones (name_parameters)."""
    for fn in demo.fns.values():
        if fn.api_visibility == "public" and fn.api_name not in PUBLIC_API:
            fn.api_visibility = "undocumented"
        elif fn.api_visibility == "public":
            name_parameters(fn)


def name_parameters(block_fn) -> None:
    """A handler that takes `*values` (start_run's 25 fields) leaves Gradio nothing to name
    its parameters by: the API page listed param_0 … param_24. Each unnamed one is named
    after its control's elem_id, less the prefix those controls share ("run-image-mode":
    image_mode); a name taken already gets its position appended."""
    names = list(block_fn.input_parameter_names or [None] * len(block_fn.inputs))
    unnamed = [i for i, name in enumerate(names) if name is None and i < len(block_fn.inputs)]
    ids = {i: getattr(block_fn.inputs[i], "elem_id", None) or "" for i in unnamed}
    prefix = os.path.commonprefix([v for v in ids.values() if v]) if all(ids.values()) else ""
    prefix = prefix[:prefix.rfind("-") + 1]
    for i in unnamed:
        name = re.sub(r"\W+", "_", ids[i][len(prefix):]).strip("_").lower() or f"value_{i}"
        names[i] = name if name not in names else f"{name}_{i}"
    block_fn.input_parameter_names = names


RESPONSE_LINK_JS = ("() => { if (new URLSearchParams(window.location.search).has('response'))"
                    " window.location.replace('inspect' + window.location.search); }")


def upload_cache() -> tuple[int, int]:
    """Gradio's delete_cache (frequency, age in seconds): the files this app's Gradio keeps
    (uploads) are deleted CLUELAB_UPLOAD_KEEP_S (3600) seconds after they were
    made, looked for every quarter of an hour at most, and all at a restart. An upload is
    used by the event that follows it (an import's confirmation, an added image, which the
    store copies into its media folder); before, any signed-in user's uploads, whatever no
    action used, stayed in /tmp/gradio for good."""
    age = keep_seconds()
    return min(age, 900), age


def build_app(store, import_roots=None) -> gr.Blocks:
    """The app: the annotation workspace at `/`, each other tool on its own page.

    Pages, not tabs: Gradio's front end walks the whole component tree on every update of
    every event, and re-reads the value of every component that ever showed a loading status.
    With all six tools in one page, the Results and Inspect widgets made each Next and Save in
    the editor ~0.3 s slower and the first paint ~1 s later (docs/PERFORMANCE.md). On its own
    page each tool pays only for its own widgets. A page's opening event is `demo.load` in
    that page's route. Every event is checked against the access table before it runs.
    `import_roots` (ui/import_roots.ImportRoots) are the folders the Import page may read
    server paths from; None: none.
    """
    table_cells.install()              # every read-only table shows its direction controls
    downloads_for(store).start()       # before static_media, which puts the media first
    static_media(store)
    with GuardedBlocks(store, title="ClueLab", delete_cache=upload_cache()) as demo:
        with gr.Row(elem_id="annotate-page"):
            browser = build_browser()
            editor = build_editor()
        wire(store, demo, browser, editor)
        # `/?response=<id>` (a link to the app's root) is sent on to the Inspect page
        demo.load(None, None, None, js=RESPONSE_LINK_JS, api_name="response_link",
                  api_visibility="private")
    demo.pages[0] = ("", "Annotate", True)       # the navbar's name for `/` (Gradio: "Home")
    with demo.route("Import / Export", "/io"):
        build_io_tab(store, import_roots, demo)
    with demo.route("Statistics", "/stats"):
        build_stats_tab(store, demo.load)
    with demo.route("Results", "/results"):
        build_results_tab(store, demo.load)
    with demo.route("Experiments", "/experiments"):
        build_experiments_tab(store, demo.load)
    with demo.route("Inspect", "/inspect"):
        build_inspect_tab(store, demo.load, demo)
    document_public_api(demo)
    # every page: a failed handler shows one message and leaves its outputs as they were
    # (no red "Error" badge on each output; ui/handler_errors.py)
    for block_fn in demo.fns.values():
        if block_fn.fn is not None:
            block_fn.fn = shown_as_message(block_fn.fn, len(block_fn.outputs))
    return demo


MISSING_WORDS = {"common": {"complete": "Done"}}
"""Gradio's status tracker announces each finished event (a screen reader's live region) as
i18n("common.complete"), a key its English words do not have, so the key itself was read."""


def refuse_all(_name: str, _password: str) -> bool:
    """Gradio's login check: never asked (RouteAccess answers /login), and says no if it is."""
    return False


def launch_kwargs(store, require_login: bool, trusted_proxies: str = "",
                  host: str = "") -> dict:
    """Settings shared by the real server and the tests' servers; `trusted_proxies`: the
    operator's FORWARDED_ALLOW_IPS, `host`: the address it serves on (ui/forwarded.py)."""
    login = (LoginRoute(store.check_password, LoginThrottle(),
                        DeviceCookies(load_key(key_file(store.path))), store.get_user)
             if require_login else None)
    return {
        # Gradio asks for a login when it has a check; ClueLab's middleware answers every
        # login itself (ui/login_route.py), so Gradio's own /login is never reached
        "auth": refuse_all if require_login else None,
        "auth_message": "ClueLab: log in with the account an admin created for you.",
        "css": (ASSETS / "cluelab.css").read_text(),
        "head": "".join(f"<script>{(ASSETS / name).read_text()}</script>"
                        for name in ("shortcuts.js", "cell_confirmed.js", "field_input.js",
                                     "list_current.js", "annotator.js", "box_dialog_stay.js",
                                     "draft_choice_stay.js", "confirm.js",
                                     "login_lock.js", "toasts.js", "cell_edit.js", "read_only.js",
                                     "list_toggle.js", "list_filters.js", "table_headers.js",
                                     "conflict_panel.js", "account.js", "new_row.js",
                                     "clue_table.js", "cell_titles.js", "cell_keep.js",
                                     "box_undo.js", "image_moves.js", "type_choice.js",
                                     "box_slip.js", "steer_titles.js")),
        "allowed_paths": [str(store.media_dir)],
        "show_error": False,
        # sessions Gradio keeps state for, all accounts together (domain/limits.py: ~0.95 MB
        # each; Gradio's default of 10,000 is ~10 GB); per account: ui/session_caps.py
        "state_session_capacity": STATE_SESSIONS,
        # one upload (an image, or a ZIP of a dataset with its images) is at most this big;
        # without a limit any logged-in user could fill the server's disk
        "max_file_size": os.environ.get("CLUELAB_MAX_UPLOAD", "4gb"),
        # no "Use via API" link at every page's foot: annotators read it as theirs to use;
        # scripts read the API description with gradio_client (README: Scripting)
        "footer_links": [],
        # Gradio's run history would keep every event's inputs and outputs (gold answers,
        # model output) in the browser and offers to copy them to a Hugging Face bucket
        "run_history": False,
        # Soft's own font (Gradio's Montserrat) draws N and M hooked ("No" read "Πo", a
        # review: on a yes/no benchmark) and curls "fl": IBM Plex Sans, also shipped with
        # Gradio (no download), reads plainly
        "theme": gr.themes.Soft(font=(gr.themes.LocalFont("IBM Plex Sans", weights=(400, 700)),
                                      "ui-sans-serif", "system-ui", "sans-serif")),
        # the words Gradio's status tracker lacks: screen readers heard "common.complete"
        # after every event (ui/workarounds.py, STATUS_COMPLETE_KEY)
        "i18n": gr.I18n(en=MISSING_WORDS),
        # the access table's routes first (ui/gradio_hooks.py); Gradio's front-end files
        # from memory, compressed once (ui/asset_cache.py); the media route of ClueLab's own
        # HTML, and lasting browser-cache headers for the content-addressed media
        # (ui/media_http.py)
        "app_kwargs": {"middleware": [
            Middleware(Forwarded, trusted=trusted_proxies, loopback_only=not require_login,
                       host=host),
            Middleware(RouteAccess, store=store, require_login=require_login, login=login),
            Middleware(AssetCache, rewrites=annotator_assets.stylesheet_rewrites(),
                       component_ids=annotator_assets.component_ids(),
                       component_dirs=annotator_assets.component_dirs()),
            Middleware(annotator_assets.PreloadLinks),
            Middleware(MediaFiles, media_dir=store.media_dir)]},
    }


def relax_queue_polling(demo: gr.Blocks) -> None:
    """Gradio's queue looks for new events every 1 ms while it has none (and for progress
    every 10 ms): an idle server spent 8% of a core on it here (each timer wake-up costs
    ~0.23 ms of CPU on these VMs), taken from the browser on a 2-core machine or a laptop's
    battery. Every 10 ms (50 ms for progress) adds 5 ms on average to an event that takes
    50-100 ms, and idles at ~3% (docs/PERFORMANCE.md)."""
    queue = demo._queue
    if hasattr(queue, "sleep_when_free"):
        queue.sleep_when_free = max(queue.sleep_when_free, 0.01)
    if hasattr(queue, "progress_update_sleep_when_free"):
        queue.progress_update_sleep_when_free = max(queue.progress_update_sleep_when_free, 0.05)


def launch(store, host: str, port: int, require_login: bool, block: bool = True,
           import_roots=None):
    # Gradio recomputes a pandas summary of all past events after every event by default
    # (for its monitoring page), a cost that grows with uptime; once per 1000 is plenty.
    os.environ.setdefault("GRADIO_ANALYTICS_CACHE_FREQUENCY", "1000")
    # uvicorn takes the client's address from X-Forwarded-For when the connection comes from
    # 127.0.0.1, so any local client (or one behind a local proxy that passes the header on)
    # chose its own address and walked past the login lock, which is per address. No proxy
    # is trusted unless the operator names it (FORWARDED_ALLOW_IPS=<the proxy's address>),
    # and then ui/forwarded.py reads its headers (uvicorn, given none, keeps the proxy's
    # address for it to check)
    trusted_proxies = os.environ.get("FORWARDED_ALLOW_IPS", "")
    os.environ["FORWARDED_ALLOW_IPS"] = ""
    # a deadline for headers and a cap per address on the connections uvicorn accepts
    connection_limits.install(trusted_proxies)
    demo = build_app(store, import_roots)
    # api_open=False: Gradio's /gradio_api/run/<event> (and /api/<event>) ran any queued
    # event directly, outside the queue and its per-account limit (ui/queue_share.py)
    demo.queue(default_concurrency_limit=8, api_open=False)
    relax_queue_polling(demo)
    cap_waiting_per_user(demo)
    bind_sessions(demo)
    return demo.launch(server_name=host, server_port=port, prevent_thread_lock=not block,
                       quiet=False, **launch_kwargs(store, require_login, trusted_proxies, host))
