"""Who may do what: the one access table of the app, for every event and every HTTP route.

Every event of every page is listed below by its api_name, in the group of the work it
belongs to, with the roles that may call it. ui/gradio_hooks.py applies the table before any
handler runs (the event's inputs are not even preprocessed); an event that is not in the
table is refused, so a new event stays closed until someone declares who may call it.
Handlers do not check roles themselves.

Why these roles:
- annotators curate items: everything on the Annotate page (reading an item shows its gold
  answer, so listing and searching items are annotation events too: search matches the gold
  and would answer questions for anyone else), item statistics and exports of the dataset;
- annotators also create, duplicate and delete items (a deletion is undoable); restoring a
  deleted item, reopening a released one and deleting a dataset (final) are for admins;
- importing writes many items at once and reads files on the server: admins and researchers;
- experiments spend money and read endpoint settings (base URL, model, the name of the key's
  environment variable); results and judges (LLM judges spend money too), human baselines
  and Inspect (gold answers beside model output) are research: admins and researchers;
- participants answer questionnaires without seeing any answer, so they get none of the
  above (the studies issue, #14, adds their own events); anonymous callers get nothing.

Local mode (a server on loopback started without a login, cli/serve_command.py) has one
user with every role. It is a property of the server, never of a user's name: under a login
a user named `local` has exactly the role an admin gave it.

Routes (ROUTES, applied by ui/gradio_hooks.RouteAccess): every route of the app is declared
with who may reach it, and the middleware checks it itself, whatever Gradio checks behind it
(Gradio leaves some routes open, e.g. /gradio_api/cancel and the heartbeat). ANYONE is only
what the login page needs; every other route wants a logged-in user, and files (item media
among them), uploads and the description of the pages and events (/config, the API
description) want staff (not participants, for now); the routes of Gradio features ClueLab
does not use are closed. A route not declared is refused.
"""
from __future__ import annotations

from dataclasses import dataclass

from store import NotFoundError

ROLES = ("admin", "researcher", "annotator", "participant")
STAFF = frozenset({"admin", "researcher", "annotator"})
RESEARCH = frozenset({"admin", "researcher"})
ADMIN = frozenset({"admin"})
NOBODY = frozenset()
SIGNED_IN = frozenset(ROLES)
ANYONE = frozenset({*ROLES, "anonymous"})
"""Routes only: reached without a login (the login page and the files it is made of)."""


@dataclass(frozen=True)
class Group:
    """Events that do one kind of work: `action` names it in a refusal."""
    action: str
    roles: frozenset
    events: frozenset


def _group(action: str, roles: frozenset, names: str) -> Group:
    return Group(action, roles, frozenset(names.split()))


IMPORTING = _group("import datasets", RESEARCH,
                   "import_file import_file_confirmed import_file_cancel")

GROUPS = (
    # undo_delete restores only an item the caller deleted (store/lifecycle.restore_deleted
    # checks who deleted it); restoring anyone else's is an admin's, below
    _group("annotate items", STAFF, """
        open_initial init_browser filter_items search_on_leave search_items list_prev_page
        list_next_page refresh_list dataset_filter_choices domain_filter_choices
        subtask_filter_choices status_filter_choices
        select_item load_item domain_choices subtask_choices status_choices next_item prev_item sync_url sync_url_image
        save_item save_item_by_enter save_over_conflict compare_with_saved reload_saved
        save_item_list save_item_by_enter_list save_over_conflict_list restore_revision_list
        submit_review_list
        autosave_draft box_edits_only stale_save_line autosave_boxes undo_box_change box_counts_fit show_box_counts
        discard_draft
        keep_this_tabs_draft open_other_tabs_draft clue_rows_counted edit_clue_rows_gate
        edit_clue_rows add_clue_rows_gate add_clue_rows
        clue_rows_unnumbered number_clue_rows add_clue remove_clue move_clue_up
        move_clue_down select_clue select_image add_image remove_image move_image_left
        move_image_right set_option_image clear_option_image switch_answer_type answer_type_chosen add_option
        remove_option pick_option answer_note resolve_problems show_history diff_revisions
        diff_revisions_reviews history_diff_open refresh_notice recheck_draft
        recheck_draft_on_return
        restore_revision submit_review open_latest_version response_link show_item_menu
        check_new_item create_item
        duplicate_item delete_item undo_delete create_item_list duplicate_item_list
        delete_item_list undo_delete_list
        restore_deleted_item_list reopen_item_list delete_dataset_list"""),
    # final, or undoing another user's deletion or a release: admins (ui/annotate_lifecycle.py)
    _group("restore deleted items, reopen released items or delete datasets", ADMIN, """
        restore_deleted_item reopen_item dataset_delete_preview delete_dataset"""),
    _group("see statistics or export datasets", STAFF, """
        stats stats_on_open export_file export_datasets import_on_open"""),
    IMPORTING,
    _group("use results and judges", RESEARCH, """
        results_runs results_on_open score_runs judge_update scored_judge show_results
        rerender rerender_1 rerender_2 rerender_3 rerender_4 rerender_5 rerender_6 scored_shown
        shown_judges add_human clear_refused_human
        export_results choice_changed choice_changed_1 choice_changed_2"""),
    # an endpoint's settings decide where the server sends the key held in the environment
    # variable they name (and Test connection fetches any URL given): whoever may set them
    # can send any of the server's variables to an address of their choice, so only admins
    # (and the one user of local mode) may; researchers use the endpoints admins set up
    _group("set up or test endpoints", ADMIN, """
        save_endpoint delete_endpoint test_endpoint"""),
    # prices decide every run's budget stop and the costs everyone reads: a researcher who set
    # a model's price to $0 ran past any budget
    _group("set model prices", ADMIN, "save_price delete_price"),
    _group("run experiments or read endpoint settings", RESEARCH, """
        experiments_open select_endpoint select_price clue_source_options image_mode_options
        preset_protocol preset_after_setting preset_after_clues
        preset_after_image_mode preview_run show_preview preview_stale start_run poll_runs refresh_runs watch_run select_run
        list_responses show_response pause_run cancel_run resume_run label_run
        ask_delete_run delete_run keep_run"""),
    _group("inspect model responses", RESEARCH, """
        inspect_no_link inspect_has_link inspect_open_tab inspect_judges inspect_filter
        inspect_next_page inspect_prev_page
        inspect_open inspect_link inspect_deep_link inspect_select inspect_next inspect_prev
        inspect_image inspect_zoom_gt inspect_zoom_model inspect_verdict_detail
        inspect_compare inspect_save_tags inspect_remove_tag inspect_add_tag
        inspect_rename_tag inspect_delete_tag inspect_add_note inspect_tag_counts
        inspect_export inspect_relist_saved inspect_relist_removed inspect_counts_saved
        inspect_counts_removed inspect_counts_opened inspect_recolour"""),
)

# acts within an event, decided by what it is given: setting an item's status to `released`
# (a save) makes it read-only until an admin reopens it, so releasing is an admin's act, as
# reopening is (DESIGN: "admins manage ... releases"); an annotator's save of it is refused
ACTS = {"release_item": Group("release items", ADMIN, frozenset({"release_item"})),
        # a new item (New item from images, Duplicate) in a dataset not there yet makes that
        # dataset, listed in everyone's filters, exports and statistics: datasets are made by
        # importing, so only by those who may import (an annotator's Duplicate made
        # "javascript:alert(1)" a dataset); deleting one is an admin's (above)
        "make_dataset": Group("make datasets (by importing)", IMPORTING.roles,
                              frozenset({"make_dataset"}))}

GROUP_OF_EVENT = {name: group for group in GROUPS for name in group.events}
assert len(GROUP_OF_EVENT) == sum(len(g.events) for g in GROUPS), "an event in two groups"

# HTTP routes: an exact path (a trailing slash also matches) or, ending in `*`, a prefix; the
# longest match applies and a route not declared is refused. The events behind the API
# routes are checked against GROUPS as well. Each tool's page is for the roles its events
# are for: an anonymous caller gets Gradio's login page there, any other signed-in user who
# may not use it (a participant; an annotator on a research page) a page saying there is
# nothing for them there (assets/no_page.html) instead of a workspace whose every event is
# refused. A route that names a session or an event of the queue (its heartbeat, its
# messages, an event's result, a cancel) is checked further: it is refused to any account
# but the one that opened the session (ui/session_owners.py).
PAGE_ROLES = {"/": STAFF, "/io": STAFF, "/stats": STAFF, "/results": RESEARCH,
              "/experiments": RESEARCH, "/inspect": RESEARCH}
PAGES = tuple(PAGE_ROLES)
PAGE_TITLES = {"/": "Annotate", "/io": "Import / Export", "/stats": "Statistics",
               "/results": "Results", "/experiments": "Experiments", "/inspect": "Inspect"}
ROUTES = {
    **PAGE_ROLES,
    # the login page: its form, its front-end files, its theme, and whether a login is needed
    **{path: ANYONE for path in (
        "/login", "/logout", "/theme.css", "/favicon.ico", "/robots.txt", "/manifest.json",
        "/pwa_icon*", "/assets/*", "/svelte/*", "/static/*", "/gradio_api/login_check",
        "/gradio_api/theme.css",
        # Gradio's launch calls it, without a login; it runs the startup events once only
        "/gradio_api/startup-events")},
    # the description of the pages and their events (components, event names and
    # parameters: 530 KB, 225 KB): for those who have them; participants have no page and
    # no event yet (the studies bring theirs), and fetched it only to make everyone wait
    # (each is built outside the queue: ui/document_cache.py)
    **{path: STAFF for path in (
        "/config", "/openapi.json", "/gradio_api/info", "/gradio_api/openapi.json")},
    **{path: SIGNED_IN for path in (
        "/gradio_api/user", "/gradio_api/app_id",
        "/gradio_api/heartbeat/*", "/gradio_api/reset", "/gradio_api/cancel",
        "/gradio_api/queue/*", "/gradio_api/call/*", "/gradio_api/custom_component/*")},
    # files (item media: originals and previews, also on ClueLab's own /media/ route,
    # ui/media_http.py; exports; drawn images), uploads and streams
    **{path: STAFF for path in (
        "/media/*", "/gradio_api/file=*", "/gradio_api/file/*", "/gradio_api/proxy=*",
        "/gradio_api/upload", "/gradio_api/upload_progress", "/gradio_api/stream/*")},
    # Gradio features ClueLab does not use: run history (keeps every event's inputs and
    # outputs, can copy them to a Hugging Face bucket), monitoring, live code editing, the
    # screen recorder (a video of any size copied, and cut by ffmpeg, outside the queue);
    # Gradio's deep links (a session's component values saved on the server and served to
    # whoever opens `?deep_link=<id>`, gold answers included) are not used either: the route
    # is closed, and a page or /config asked with the parameter is refused (gradio_hooks)
    **{path: NOBODY for path in (
        "/gradio_api/deep_link", "/gradio_api/runs", "/gradio_api/run-history/*", "/gradio_api/vibe-*",
        "/gradio_api/undo-vibe-edit", "/gradio_api/dev/reload", "/monitoring*",
        "/gradio_api/process_recording",
        # components' own server functions: no component of the app has one, and Gradio made
        # a session's state (~1 MB) for the session hash of each call before it found none,
        # outside the cap on an account's sessions (ui/session_caps.py)
        "/gradio_api/component_server",
        # Gradio's direct calls, outside the queue: every event is queued (launch's
        # api_open=False), so they ran nothing, but answered 404 for an event and 500
        # (FnIndexInferError, a traceback in the log) for any other name
        "/gradio_api/run/*", "/gradio_api/api/*",
        # the session cookie's value (HttpOnly, so that no page script reads it) handed to
        # any page script that asks: Gradio's front end never does
        "/gradio_api/token")},
}


# the routes whose answer may stay open as long as the client keeps it (an event stream):
# a GET of one of them counts towards its account's MAX_OPEN_STREAMS (ui/stream_caps.py)
STREAMS = ("/gradio_api/heartbeat/*", "/gradio_api/queue/*", "/gradio_api/call/*",
           "/gradio_api/upload_progress", "/gradio_api/stream/*")
assert set(STREAMS) <= set(ROUTES), "a stream route not in ROUTES"


@dataclass(frozen=True)
class Caller:
    """Who is calling: `name` for messages and author fields; `roles` for the table."""
    name: str
    roles: frozenset

    @property
    def role(self) -> str:
        if self.roles == SIGNED_IN:
            return "local single-user mode"
        return next(iter(self.roles), "none")


LOCAL = Caller("local", SIGNED_IN)


def caller(store, username: str | None, login_required: bool) -> Caller:
    """The caller of a request: everyone is the one local user when the server has no login;
    with one, the user's role from the store (none for anonymous, unknown or disabled names:
    `user disable`)."""
    if not login_required:
        return LOCAL
    if not username:
        return Caller("anonymous", NOBODY)
    try:
        user = store.get_user(username)
    except NotFoundError:
        return Caller(username, NOBODY)
    return Caller(username, NOBODY if user.get("disabled_at") else frozenset({user["role"]}))


NOT_ALLOWED = "not allowed for your role"
"""In every refusal of an event: what any client can look for in the error."""


def refusal(api_name: str | None, who: Caller) -> str | None:
    """Why `who` may not call the event `api_name` (plain text), or None if they may."""
    group = GROUP_OF_EVENT.get(api_name or "") or ACTS.get(api_name or "")
    if group is None:
        return (f"The action {api_name or '(unnamed)'} is not in the access table "
                f"(ui/access.py): {NOT_ALLOWED}, nor for any other.")
    if who.roles & group.roles:
        return None
    return (f"{who.name} may not {group.action}: {NOT_ALLOWED} ({who.role}; "
            f"{', '.join(r for r in ROLES if r in group.roles)} may).")


def roles_that_may(api_name: str) -> str:
    """The roles that may call the event (or do the act) `api_name`, in words: "admin or
    researcher"."""
    group = GROUP_OF_EVENT.get(api_name) or ACTS[api_name]
    return " or ".join(r for r in ROLES if r in group.roles)


def may(who: Caller, api_name: str) -> bool:
    """May `who` call the event (or do the act of ACTS) `api_name`? What the page offers
    follows the table too."""
    return refusal(api_name, who) is None


def may_open(who: Caller, path: str) -> bool:
    """May `who` reach the route `path` (a page: is it one of the top bar's for them)?"""
    return bool(who.roles & route_roles(path))


def route_entry(path: str) -> str | None:
    """The ROUTES entry that applies to `path` (the longest match), None if none does."""
    matches = [key for key in ROUTES
               if (path.startswith(key[:-1]) if key.endswith("*")
                   else path.rstrip("/") == key.rstrip("/"))]
    return max(matches, key=len, default=None)


def route_roles(path: str) -> frozenset:
    """The roles that may reach the HTTP route `path`; nobody for an undeclared one."""
    entry = route_entry(path)
    return NOBODY if entry is None else ROUTES[entry]
