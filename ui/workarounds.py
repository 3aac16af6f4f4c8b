"""Where ClueLab works around a limitation of Gradio or of the box annotator component, and
why: each entry names the limitation, the ClueLab code that works around it, and a check
that the installed front end still has that limitation.

tests/test_workarounds.py runs every check. When an upgrade of Gradio or of
gradio_image_annotation removes a limitation, its check fails: remove the workaround (it may
now fight the fix) and its entry. Access control's reach into Gradio is in ui/gradio_hooks.py
(tested by tests/test_access.py); the annotator's asset loading in ui/annotator_assets.py.
"""
from __future__ import annotations

import inspect
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import gradio

from ui.annotator_assets import ROUNDED_HEIGHT, SCALE_DOWN_BRANCH, component_dir

GRADIO_SERVER = Path(gradio.__file__).parent
GRADIO_FRONTEND = GRADIO_SERVER / "templates" / "frontend" / "assets"


@dataclass(frozen=True)
class Workaround:
    name: str
    limitation: str
    where: str
    still_needed: Callable[[], bool]


def read_all(folder: Path, pattern: str) -> str:
    return "".join(path.read_text(encoding="utf-8") for path in sorted(folder.glob(pattern)))


def component_js() -> str:
    return read_all(component_dir(), "Index-*.js")


def component_python() -> str:
    """The component's Python side (its preprocess, postprocess)."""
    source = component_dir().parent.parent / "image_annotator.py"
    return source.read_text() if source.is_file() else ""


def component_css() -> str:
    return read_all(component_dir(), "style.css")


def box_dialog_source() -> str:
    """The component's box label dialog (#model-box-edit) and what follows it."""
    js = component_js()
    start = js.find('id="model-box-edit"')
    return js[start:start + 6000] if start >= 0 else ""


def blurs_the_screen() -> bool:
    return bool(re.search(r"\.modal\.svelte-[\w-]+\{[^}]*backdrop-filter:\s*blur", component_css()))


def has_colour_picker() -> bool:
    dialog = box_dialog_source()
    return '<input type="color"' in component_js() and 'label: "Color"' in dialog


def typed_label_keeps_colour() -> bool:
    """The dialog's change handler: a picked choice (its index) sets colour and label, any
    other value (typed text) sets the label alone."""
    return bool(re.search(r"Number\.isInteger\((\w+)\)\s*\?\s*\(.{0,200}?\)\s*:\s*\w+\(\1\)",
                          box_dialog_source(), re.DOTALL))


def rotate_turns_only_the_view() -> bool:
    """The component offers Rotate buttons, and a turn changes the value's `orientation` and
    turns every box with it (`box.onRotate`): the stored image is not turned, its boxes are
    recorded in the turned frame."""
    js = component_js()
    buttons = all(f'aria-label="Rotate {way}"' in js for way in ("clockwise",
                                                                  "counterclockwise"))
    turn = re.search(r"\.orientation\s*=\s*\(\(\w+\(\)\.orientation\s*\+\s*(\w+)\)\s*%\s*4"
                     r".{0,200}?\.onRotate\(\1\)", js, re.DOTALL)
    return buttons and turn is not None


def failed_event_marks_its_outputs() -> bool:
    """Gradio's front end: an event that fails (a refusal by the access table among them)
    puts an "Error" badge on each of its outputs, beside the toast that says why."""
    return event_script_throw_is_an_error() and '<span class="error' in read_all(
        GRADIO_FRONTEND, "statustracker-*.js")


def dialog_is_centred_at_the_top() -> bool:
    """The dialog's own place: centred (left 50%, translated back) 10% below the top."""
    return bool(re.search(r"\.modal-container\.svelte-[\w-]+\{[^}]*margin-top:\s*10%[^}]*"
                          r"left:\s*50%", component_css()))


def dialog_acts_on_the_selected_index() -> bool:
    """The new box's label dialog, as it closes: OK labels, and anything else removes, the
    box at the annotator's selected index in the boxes it shows by then (`boxes[F]`), not
    the box the dialog was opened for."""
    js = component_js()
    closed = re.search(r"let \w+ = \w+\(\)\.boxes\[(\w+)\((\w+)\)\];\s*\w+ == 1 \? "
                       r"\(.{0,200}?\) : (\w+)\(\);", js, re.DOTALL)
    if not closed:
        return False
    read, index, remove = (re.escape(name) for name in closed.groups())
    return bool(re.search(rf"function {remove}\(\) \{{\s*{read}\({index}\) >= 0 .{{0,80}}?"
                          rf"\.boxes\.splice\({read}\({index}\), 1\)", js, re.DOTALL))


def label_walk_takes_every_entry() -> bool:
    """The component's label list: ArrowDown/ArrowUp walk every listed entry from the first
    (no entry can be left out of the walk), and Enter commits the one walked to."""
    return bool(re.search(r'\.key === "ArrowDown" \? \w+\[0\] : \w+\[\w+\.length - 1\]',
                          component_js()))


def dataframe_has_no_rest_width() -> bool:
    """Gradio's Dataframe: every body cell is fixed at its measured width (flex: 0 0 Npx),
    so no column can take the width the others leave."""
    return bool(re.search(r"return`width: \$\{[^`]{0,40}\}px; flex: 0 0 \$\{",
                          read_all(GRADIO_FRONTEND, "Index-*.js")))


def new_row_selects_first_cell() -> bool:
    """Gradio's Dataframe: a row added from the cell menu is inserted and its first cell
    selected (column 0), whether that column takes typing or not."""
    return bool(re.search(r"\.splice\(\w+,0,\w+\),[^;{}]{0,40}\(\[\w+\?\?\w+\.length-1,0\]\)",
                          read_all(GRADIO_FRONTEND, "Index-*.js")))


def dropdown_opens_on_focus() -> bool:
    """Gradio's Dropdown: its input's focus handler shows the option list, with no setting
    to open it on a click or a key only."""
    js = read_all(GRADIO_FRONTEND, "Index-*.js")
    return any(re.search(r"function " + re.escape(name) + r"\(e\)\{D\(\w+,!0\)[^}]*on_focus",
                         js) for name in set(re.findall(r"se\(`focus`,\w+,(\w+)\)", js)))


def dropdown_select_on_click_only() -> bool:
    """Gradio's Dropdown: `select` is sent by the handler of a click on an option only; a
    choice made with the keys (Enter on the option typed or reached with the arrows) sets
    the value, which sends `change`, and no `select`."""
    js = read_all(GRADIO_FRONTEND, "Index-*.js")
    clicked = re.search(r"function \w+\(e\)\{if\(\w+\(\w+,parseInt\(e\),!0\),isNaN\([^{}]*\)\)"
                        r"\{[^{}]*\}[^{}]*?on_select\?\.\(", js)
    entered = re.search(r"e\.key===`Enter`&&\(\w+=\w+\(\w+\),(.*?)\}function ", js)
    return bool(clicked and entered) and "on_select" not in entered.group(1)


def dropdown_typed_text_stays() -> bool:
    """Gradio's Dropdown: Enter on a typed text that matches no choice (and no custom value
    allowed) picks nothing and leaves the text in the field, focused, until a blur; and its
    focus handler does not select the text, so a key goes in at the cursor."""
    js = read_all(GRADIO_FRONTEND, "Index-*.js")
    entered = re.search(r"e\.key===`Enter`&&\(\w+=\w+\(\w+\),(.*?)\}function ", js)
    return bool(entered) and re.search(r":\w+\(\)&&\(\w+\(\w+\(\w+\)\),", entered.group(1)) \
        is not None and not re.search(r"\.select\(\)[^}]*on_focus", js)


def event_script_throw_is_an_error() -> bool:
    """Gradio's front end: an event whose page script throws marks its outputs "error"."""
    return bool(re.search(r"catch\{this\.update_loading_status\(\{status:`error`",
                          read_all(GRADIO_FRONTEND, "Blocks-*.js")))


def hidden_title_is_screen_reader_only() -> bool:
    """Gradio's block title: a label not shown (a Textbox with container=False shows none)
    is kept for screen readers only, class `sr-only`."""
    return bool(re.search(r'hide:!\w+\(\),"has-info":[^}]*"sr-only":!\w+\(\)',
                          read_all(GRADIO_FRONTEND, "*.js")))


def login_page_shows_only_400() -> bool:
    """Gradio's login page: a 400 shows its fixed "Incorrect credentials", a 200 reloads,
    any other answer (ClueLab's 429 for a locked name) shows nothing."""
    return bool(re.search(r"\.status===400\?.{0,80}:\w+\.status==200&&location\.reload\(\)",
                          read_all(GRADIO_FRONTEND, "Login-*.js"), re.DOTALL))


def login_page_embeds_the_api() -> bool:
    """Gradio's page template embeds the API description (window.gradio_api_info), and its
    page route fills it in before it looks at the login, for a caller not logged in too."""
    template = GRADIO_FRONTEND.parent / "index.html"
    if not template.is_file():
        return False
    from gradio import routes
    source = inspect.getsource(routes)
    login = source.find('"auth_required": True')
    return ("window.gradio_api_info = {{ gradio_api_info | toorjson }}" in template.read_text()
            and login > 0 and source.find("gradio_api_info = get_api_info(", login) > login)


def login_checks_on_the_event_loop() -> bool:
    """Gradio's /login (an `async def`) calls a synchronous login check directly, on the
    event loop, and has no way to set a cookie of the app's. Read from the routes.py beside
    the installed front end (a test's fake front end has none)."""
    routes = GRADIO_FRONTEND.parents[2] / "routes.py"
    source = routes.read_text(encoding="utf-8") if routes.is_file() else ""
    return bool(re.search(r"async def login\(.{0,1200}?else app\.auth\(username, password\)",
                          source, re.DOTALL))


def container_hides_overflow() -> bool:
    """Gradio's page container is `overflow: hidden`, which makes it (not the page) the
    scroller of anything sticky inside it: a sticky bar then never sticks."""
    return bool(re.search(r"\.gradio-container(-[\d-]+)?\{[^}]*overflow:hidden",
                          read_all(GRADIO_FRONTEND, "*.css")))


def dataframe_pins_nothing() -> bool:
    """Gradio's Dataframe: pinned_columns marks the columns pinned in its table model
    (`isPinned`), but no style keeps a pinned cell in place: it scrolls away sideways."""
    js, css = read_all(GRADIO_FRONTEND, "Index-*.js"), read_all(GRADIO_FRONTEND, "Index-*.css")
    return "isPinned:" in js and not re.search(
        r"(pinned|frozen)[\w-]*(\.svelte-[\w-]+)?\{[^}]*position:sticky", css)


def dataframe_scrollbar_is_thin() -> bool:
    """Gradio's Dataframe: its scroller's scrollbar is thin (4 px, half-transparent grey)."""
    css = read_all(GRADIO_FRONTEND, "Index-*.css")
    return bool(re.search(r"\.virtual-table-viewport\.svelte-[\w-]+\{[^}]*scrollbar-width:thin",
                          css)) and bool(re.search(
        r"\.virtual-table-viewport\.svelte-[\w-]+::-webkit-scrollbar\{width:4px;height:4px\}",
        css))


def dataframe_height_is_pixels() -> bool:
    """Gradio's Dataframe: its scroller's height is the max_height prop, in pixels, written
    on the element (whatever the window's size)."""
    return bool(re.search(r"virtual-table-viewport[^`]*`,null.{0,80}`max-height: \$\{\w+\(\)"
                          r"\?\?``\}px;`", read_all(GRADIO_FRONTEND, "Index-*.js")))


def dataframe_wrap_breaks_words() -> bool:
    """Gradio's Dataframe with wrap=True breaks a cell's text inside words (overflow-wrap and
    word-break: break-word), so a narrow column reads "unknow/n", "concurr/ency"."""
    return bool(re.search(r"\.wrap\.svelte-[\w-]+,\.wrap\.expanded\.svelte-[\w-]+\{[^}]*"
                          r"word-break:break-word", read_all(GRADIO_FRONTEND, "Index-*.css")))


def gallery_cells_are_square() -> bool:
    """Gradio's Gallery: every grid cell is a square (aspect-ratio 1), its image fitted in."""
    return bool(re.search(r"\.thumbnail-item\.svelte-[\w-]+\{[^}]*aspect-ratio:var\(--ratio-"
                          r"square\)", read_all(GRADIO_FRONTEND, "Gallery-*.css")))


def textbox_input_on_keypress_only() -> bool:
    """Gradio's Textbox: its `input` event is sent from the keypress handler of its field
    (after the Enter/submit check), not from the field's DOM `input` event."""
    js = read_all(GRADIO_FRONTEND, "Index-*.js")
    handlers = re.findall(r"async function (\w+)\(e\)\{\(e\.key===`Enter`[^}]{0,300}?"
                          r"\.oninput\?\.\(\w+\(\)\)\}", js)
    return any(re.search(r"\w\(`keypress`,\w+," + re.escape(name) + r"\)", js)
               for name in handlers)


def values_required_in_the_api() -> bool:
    """Gradio's API description: a parameter of a component with no initial value is
    optional only when the handler's parameter of that name defaults to None, and a
    `*values` parameter has no name (gradio.utils.get_function_params stops at it)."""
    utils, blocks = GRADIO_SERVER / "utils.py", GRADIO_SERVER / "blocks.py"
    if not (utils.is_file() and blocks.is_file()):
        return False
    params = re.search(r"def get_function_params\(.*?\n    return params_info",
                       utils.read_text(encoding="utf-8"), re.S)
    return bool(params) and re.search(r"VAR_POSITIONAL,[\s\w.,]*\):\s*break", params.group(0)) \
        is not None and "info[2] is None" in blocks.read_text(encoding="utf-8")


def dataframe_rings_the_clicked_cell() -> bool:
    """Gradio's Dataframe: the cell clicked last is ringed (`.cell-selected`), a selection
    the server can neither set nor clear."""
    return bool(re.search(r"\.body-cell\.cell-selected\.svelte-[\w-]+\{[^}]*box-shadow:",
                          read_all(GRADIO_FRONTEND, "Index-*.css")))


def triggers_while_running_coalesce() -> bool:
    """Gradio's front end: an event triggered while it runs is skipped (trigger_mode
    "once", a click's default) or deferred ("always_last") into a Set of events to run once
    more when it ends, however many times it was triggered."""
    js = read_all(GRADIO_FRONTEND, "Blocks-*.js")
    return bool(re.search(r"===`always_last`\?`defer`:\w+===`multiple`\?`run`:\w+===`once`"
                          r"\?`skip`", js)) and "queue=new Set" in js and \
        bool(re.search(r"`defer`\)\{this\.queue\.add\(\w+\.id\)", js))


def dataframe_script() -> str:
    """The script of Gradio's Dataframe (its virtual table)."""
    return "".join(js for js in (path.read_text(encoding="utf-8")
                                 for path in sorted(GRADIO_FRONTEND.glob("Index-*.js")))
                   if "virtual-table-viewport" in js)


def dataframe_keeps_its_scroll() -> bool:
    """Gradio's Dataframe scrolls its rows to the top from its ↑ button's click only: rows
    it is given anew are shown at the scroll position the old ones had."""
    js = dataframe_script()
    top = re.search(r"function (\w+)\(\)\{\w+\?\.scrollTo\(\{top:0\}\)\}", js)
    return bool(top) and js.count("scrollTo({top:0})") == 1 and "scrollTop=0" not in js \
        and re.search(r"\(`click`,\w+," + re.escape(top.group(1)) + r"\)", js) is not None


def dataframe_has_no_row_event() -> bool:
    """Gradio's Dataframe: its events (change, input, select, edit) do not tell a row added
    or deleted with its own "+" or cell menu from a cell's edit."""
    names = {getattr(event, "event_name", event) for event in gradio.Dataframe.EVENTS}
    return names <= {"change", "input", "select", "edit"}


def dataframe_header_edits() -> bool:
    """Gradio's Dataframe: a click on a header of an editable table starts editing its text
    (unless its column is static, which locks the column's cells too), as do Enter and F2 on
    a focused header."""
    js = read_all(GRADIO_FRONTEND, "Index-*.js")
    click = re.search(r"function \w+\(e,t\)\{e\.target instanceof HTMLAnchorElement\|\|"
                      r"\([^}]{0,200}?L\((\w+),\w+\(\)&&!\w+\(t\)\?t:!1,!0\)", js)
    keys = re.search(r"case`Enter`:case`F2`:e\.preventDefault\(\),\w+\(\)&&!\w+\(\w+\)&&"
                     r"L\(\w+,\w+,!0\)", js)
    return bool(click or keys)


def toasts_are_top_right() -> bool:
    """Gradio's toasts: fixed at the top right of the screen, with no setting for where."""
    return bool(re.search(r"\.toast-wrap\.svelte-[\w-]+\{[^}]*top:calc\(var\(--toast-top\)"
                          r"[^}]*right:var\(--size-3\)[^}]*position:fixed",
                          read_all(GRADIO_FRONTEND, "statustracker-*.css")))


def toasts_stay_their_time() -> bool:
    """Gradio's toasts: one per type, its messages piled up in it, gone by its timer or its
    close button only (no server message closes one)."""
    js = read_all(GRADIO_FRONTEND, "*.js")
    return 'class="toast-messages' in js and 'data-testid="toast-close"' in js


def cell_editor_grows_over_the_rows_below() -> bool:
    """Gradio's Dataframe: a cell's editor is an absolutely placed textarea whose height
    follows its text (its scrollHeight), while the rows below keep their place."""
    css = read_all(GRADIO_FRONTEND, "Index-*.css")
    js = read_all(GRADIO_FRONTEND, "Index-*.js")
    return bool(re.search(r"textarea\.svelte-[\w-]+\{cursor:text;[^}]*resize:none;height:100%"
                          r"[^}]*position:absolute", css)) and \
        "e.style.height=`auto`,e.style.height=`${e.scrollHeight}px`" in js


def dataframe_scroll_top_over_rows() -> bool:
    """Gradio's Dataframe: once scrolled it floats its "scroll to top" button (↑) at its
    bottom-right corner, over the last rows."""
    css = read_all(GRADIO_FRONTEND, "Index-*.css")
    return bool(re.search(r"\.scroll-top-button\.svelte-[\w-]+\{right:var\(--size-4\);"
                          r"bottom:var\(--size-4\);[^}]*position:absolute", css))


def cell_first_key_is_lost() -> bool:
    """Gradio's Dataframe: a printable key on a selected cell only marks the cell as being
    edited (the key itself goes nowhere); its editor is focused a frame later."""
    js = read_all(GRADIO_FRONTEND, "Index-*.js")
    starts = re.search(r"default:\w+\(\)&&!\w+\(\w+\)&&e\.key\.length===1&&!e\.ctrlKey&&"
                       r"!e\.metaKey&&[^;]{0,80}?\w+\(\w+,\[\w+,\w+\],!0\)", js)
    later = re.search(r"function \w+\(e\)\{return requestAnimationFrame\(\(\)=>\{e\.focus"
                      r"\(\)\}\),\{\}\}", js)
    return bool(starts and later)


def cell_edits_after_enter() -> bool:
    """Gradio's Dataframe: Enter in a cell's editor closes it and keeps the cell selected,
    and a printable key on a selected cell starts editing it again (its words kept, the key
    added after them)."""
    js = read_all(GRADIO_FRONTEND, "Index-*.js")
    closes = re.search(r"case`Enter`:if\(\w+\(\w+\)&&e\.shiftKey\)return;if\(e\."
                       r"preventDefault\(\),\w+\(\w+\)\)\w+\(\w+,!1\),\w+\(\[\w+,\w+\]\)", js)
    return bool(closes) and cell_first_key_is_lost()


def box_colour_in_is_text_only() -> bool:
    """The annotator's preprocess reads a box's colour with a regex (text only), while its
    postprocess hands the colour out as given: [r, g, b] from ClueLab's handlers."""
    return bool(re.search(r"re\.match\(r'rgb\\\(.{0,60}box\[\"color\"\]\)", component_python()))


def pages_show_no_account() -> bool:
    """Gradio's front end calls /logout only from the Hugging Face LoginButton (the script
    that also clears `hf_token`): no page shows the signed-in name or links Log out."""
    scripts = [path.read_text(encoding="utf-8") for path in GRADIO_FRONTEND.glob("*.js")]
    calls = [js for js in scripts if "`/logout`" in js or '"/logout"' in js]
    return bool(calls) and all("hf_token" in js for js in calls)


def status_complete_has_no_words() -> bool:
    """Gradio's status tracker announces a finished event as i18n(`common.complete`), and
    its English `common` words (the ones with `loading:`Loading``) have no `complete`."""
    tracker = "i18n(`common.complete`)" in read_all(GRADIO_FRONTEND, "statustracker-*.js")
    words = re.search(r"\{built_with:`built with`[^}]*\}", read_all(GRADIO_FRONTEND, "core-*.js"))
    return tracker and bool(words) and "complete:" not in words.group(0)


def annotator_never_scales_up() -> bool:
    """The component scales the image to its canvas only when it is wider than the canvas
    (`if (view.imageRotatedWidth > width)`); a smaller one is drawn at its own size."""
    return SCALE_DOWN_BRANCH.search(component_js()) is not None and re.search(
        r"imageRotatedWidth > \w+\)\s*\n?\s*\w+ = \w+ / \w+\(\w+\)\.imageRotatedWidth",
        component_js()) is not None


def height_rounded_but_saved_with_the_width_scale() -> bool:
    """The component draws a scaled image at a rounded height (`fe = Math.round(view.
    imageRotatedHeight * W)`), and its Python side divides a box's y by the one scaleFactor
    the box carries, the width's, as its x."""
    return ROUNDED_HEIGHT.search(component_js()) is not None and \
        'round(box["ymin"] / scale_factor)' in component_python()


def box_kept_unless_under_a_pixel() -> bool:
    """The component drops a box just drawn only when its area is under one canvas pixel
    (`boxes[i].getArea() < 1 ? remove() : open the label dialog`)."""
    return re.search(r"\.getArea\(\) < 1 \? \w+\(\) : \(", component_js()) is not None


def upload_error_is_raw() -> bool:
    """Gradio's client: an upload answered with an error status becomes the error
    `HTTP <status>: <the reply's body>`, shown as a toast as it is."""
    return "{error:`HTTP ${" in read_all(GRADIO_FRONTEND, "index-*.js")


def gradio_routes_source() -> str:
    return read_all(GRADIO_SERVER, "routes.py")


def sessions_unbounded() -> bool:
    """Gradio's state holder forgets a session only beyond its capacity (whoever made it),
    its heartbeat's end only marks the session closed, and it has what
    ui/session_caps.GradioSessions.release uses: delete_state and its tables under its lock."""
    source = read_all(GRADIO_SERVER, "state_holder.py")
    update = re.search(r"def update\(self, session_id: str\):(.*?)\n    def ", source, re.DOTALL)
    closed = re.search(r"def heartbeat\(.*?\.is_closed = True", gradio_routes_source(), re.DOTALL)
    release = all(part in source for part in (
        "def delete_state(self, session_id: str", "self.session_data: OrderedDict",
        "self.time_last_used", "self.lock = threading.Lock()"))
    return bool(update and closed and release) and \
        "len(self.session_data) > self.capacity" in update.group(1)


def believes_forwarded_host() -> bool:
    """Gradio builds the root URL from X-Forwarded-Host whoever sends it."""
    source = GRADIO_SERVER / "route_utils.py"
    return source.is_file() and \
        'get_first_header_value(request, "x-forwarded-host")' in source.read_text("utf-8")


def sessions_are_anyones() -> bool:
    """Gradio's routes that stream a session's messages take the session (or the event id)
    from the request and ask nothing of the user: no `username` in their definitions."""
    source = gradio_routes_source()
    found = [re.search(rf"async def {name}\((.*?)\n\s*(?:return|def )", source, re.DOTALL)
             for name in ("simple_predict_get", "queue_data")]
    return all(found) and not any("username" in m.group(1) or "user" in m.group(1)
                                  for m in found)


def call_read_waits() -> bool:
    """Gradio's GET /call/<api>/<event id> takes a finished event its queue still keeps for
    one waiting to be read, and streams its session with no end: it never asks whether the
    id is still among the session's pending ids, nor answers a 404 of its own."""
    found = re.search(r"async def simple_predict_get\((.*?)return await queue_data_helper",
                      gradio_routes_source(), re.DOTALL)
    return found is not None and "event_ids_to_events.get(event_id)" in found.group(1) and \
        "404" not in found.group(1)


def component_route_prints() -> bool:
    """Gradio's route for components' front-end files prints its path parts, as asked."""
    return re.search(r'def custom_component_path\(.*?print\(\s*f"id=\{id\}', gradio_routes_source(),
                     re.DOTALL) is not None


def uploads_are_anyones() -> bool:
    """Gradio's upload route asks nothing of the user (no `username` in its definition), and
    its Blocks still read and write an event's data through the hooks GuardedBlocks wraps."""
    found = re.search(r"async def upload_file\((.*?)\):", gradio_routes_source(), re.DOTALL)
    hooks = all(hasattr(gradio.Blocks, name) for name in ("preprocess_data",
                                                          "postprocess_data"))
    return bool(found) and "user" not in found.group(1) and hooks


def uploaded_files_are_anyones() -> bool:
    """Gradio's file route asks nothing of the user, and serves any file in the upload
    folder (file_fetch's created_paths) to whoever names it."""
    route = re.search(r"async def file\((.*?)\):", gradio_routes_source(), re.DOTALL)
    fetch = read_all(GRADIO_SERVER, "route_utils.py")
    return bool(route) and "user" not in route.group(1) and \
        "created_paths=[upload_dir" in fetch


def upload_files_per_request() -> bool:
    """Gradio's upload route (upload_fn) parses its body with route_utils'
    GradioMultiPartParser, looked up when called, with a fixed max_files per request; the
    parser counts a file as its part's headers end (on_headers_finished), and the route
    answers a MultiPartException from it: there is no hook for what an account has left."""
    source = read_all(GRADIO_SERVER, "route_utils.py")
    built = re.search(r"async def upload_fn\(.*?= GradioMultiPartParser\((.*?)\n    \)",
                      source, re.DOTALL)
    counted = re.search(r"def on_headers_finished\(self\).*?self\._current_files \+= 1",
                        source, re.DOTALL)
    answered = re.search(r"async def upload_file\(.*?await upload_fn\(.*?"
                         r"except MultiPartException", gradio_routes_source(), re.DOTALL)
    return bool(built and counted and answered) and "max_files=1000" in built.group(1)


def no_frame_headers() -> bool:
    """Gradio's server says nothing of who may show its pages in a frame."""
    source = read_all(GRADIO_SERVER, "*.py")
    return "frame-ancestors" not in source and "x-frame-options" not in source.lower()


def uvicorn_with_defaults() -> bool:
    """Gradio starts uvicorn with its defaults (no header deadline, no pace for a body, no
    cap per address), through the Server class of gradio/http_server.py, which ClueLab's replaces."""
    path = GRADIO_SERVER / "http_server.py"
    source = path.read_text(encoding="utf-8") if path.is_file() else ""
    config = re.search(r"uvicorn\.Config\((.*?)\)", source, re.DOTALL)
    return bool(config) and "timeout" not in config.group(1) and \
        "limit_concurrency" not in config.group(1) and "Server(config=config" in source


WORKAROUNDS = [
    Workaround("GRADIO_UVICORN_DEFAULTS", "Gradio gives uvicorn none of its limits, and "
               "uvicorn waits for a request's headers, and then its body, for good: a client "
               "sending a byte now and then on thousands of connections held every file "
               "descriptor, and logins failed",
               "ui/connection_limits.py (BoundedH11, via gradio.http_server.Server)",
               uvicorn_with_defaults),
    Workaround("GRADIO_SESSIONS_OF_ANYONE", "the queue hands a session's messages (GET "
               "/gradio_api/queue/data) and an event's result (GET /gradio_api/call/<api>/<id>) "
               "to any logged-in caller who names them, and the first to ask takes them: a "
               "participant read an annotator's loaded item, gold answer included",
               "ui/session_owners.py (and ui/route_access.RouteAccess)", sessions_are_anyones),
    Workaround("GRADIO_SESSIONS_UNBOUNDED", "Gradio keeps a session's state (~1 MB) for "
               "every session hash an event is pushed with, up to 10,000 sessions whoever made "
               "them, and keeps it after its heartbeat ended: an annotator's joins with fresh "
               "session hashes grew the server by ~1 MB each", "ui/session_caps.py (release, "
               "and ui/session_owners.bind_sessions)", sessions_unbounded),
    Workaround("GRADIO_CALL_READ_WAITS", "a read of an event's result (GET /gradio_api/call/"
               "<api>/<id>) that comes just after the result was read, while the queue still "
               "keeps the finished event, waits for good (heartbeats, never an end): a "
               "script reading its result twice hung", "ui/session_owners.py (unheld_event)",
               call_read_waits),
    Workaround("GRADIO_UPLOADS_OF_ANYONE", "an event takes any path in the upload folder or "
               "the media folder as a file its caller uploaded: an annotator made an item from "
               "another account's upload", "ui/upload_owners.py (and ui/gradio_hooks."
               "GuardedBlocks.preprocess_data / postprocess_data)", uploads_are_anyones),
    Workaround("GRADIO_FILES_OF_ANYONE", "the file route serves any file in the upload folder "
               "to any signed-in account that names it: an annotator read another's upload",
               "ui/upload_owners.py (may_fetch, and ui/route_access.RouteAccess)",
               uploaded_files_are_anyones),
    Workaround("GRADIO_UPLOAD_FILES_PER_REQUEST", "the upload route counts files per "
               "request only (at most 1,000), with no hook for how many an account has left: "
               "counted after each upload, 900, 1 and 999 files in turn were all taken, and 5 "
               "parallel uploads of 1,000 files each", "ui/upload_limits.py (CountingParser, "
               "installed in route_utils by count_files_as_parsed)", upload_files_per_request),
    Workaround("COMPONENT_ROUTE_PRINTS", "the route of custom components' front-end files "
               "prints each request's component id and file name to the server's output: "
               "anyone could fill the log with text of their choosing",
               "ui/asset_cache.py (AssetCache._known_component_file)", component_route_prints),
    Workaround("GRADIO_FORWARDED_HOST", "the root URL of the pages, /config and /logout's "
               "redirect comes from X-Forwarded-Host/-Proto whoever sends them: any client "
               "named the host the Origin check took for the app's own",
               "ui/forwarded.py", believes_forwarded_host),
    Workaround("GRADIO_FRAMEABLE", "no answer says who may show the pages in a frame: "
               "another site could frame a page under its own buttons (clickjacking)",
               "ui/route_answers.py (SAFETY_HEADERS)", no_frame_headers),
    Workaround("BOX_DIALOG_BLUR", "the box label dialog blurs the whole screen, the box just "
               "drawn included", "assets/cluelab.css (#model-box-edit.modal)", blurs_the_screen),
    Workaround("BOX_DIALOG_COLOUR_PICKER", "the box label dialog offers a colour picker, with "
               "no setting to hide it; a clue's colour is ClueLab's",
               "assets/cluelab.css (#model-box-edit ... input[type=color])", has_colour_picker),
    Workaround("BOX_DIALOG_TYPED_LABEL", "a label typed into the box dialog sets the label "
               "only: the box keeps the first choice's grey", "assets/annotator.js "
               "(pickTypedClue)", typed_label_keeps_colour),
    Workaround("ANNOTATOR_ROTATE", "the annotator's Rotate buttons turn only the view: the "
               "boxes are then recorded in the turned frame, not on the image as stored (and "
               "as the model is shown it)", "assets/cluelab.css (#annotator button"
               "[aria-label^=Rotate])", rotate_turns_only_the_view),
    Workaround("GRADIO_ERROR_BADGES", "a failed event puts a red Error badge on each of its "
               "outputs, though they kept their values: a refused action (which fails for "
               "every client) marked the whole form", "assets/cluelab.css "
               "([data-testid=status-tracker] .error)", failed_event_marks_its_outputs),
    Workaround("BOX_DIALOG_POSITION", "the box label dialog opens centred near the top of "
               "the screen, whatever the box: far from a box low on the image, over one high "
               "up", "assets/annotator.js (placeNextToBox)", dialog_is_centred_at_the_top),
    Workaround("BOX_LABEL_PLACEHOLDER", "the box label dialog lists every label it is given "
               "and its ArrowDown/Enter walk and commit any of them, and takes any typed text "
               "as the label: the placeholder '(pick a clue)' a new box shows was committed as "
               "its label, and '2' typed after a click into the field as '(pick a clue)2'",
               "assets/annotator.js (labelDialogKey, labelDialogOk, dropPlaceholder)",
               label_walk_takes_every_entry),
    Workaround("BOX_DIALOG_INDEX", "the box label dialog acts, as it closes, on the box at "
               "the annotator's selected index in the boxes shown by then: Alt+→ with a new "
               "box's clue picker open opened the next item under it, and its Cancel removed "
               "that item's saved box (OK moved it to another clue)", "assets/box_dialog_stay.js "
               "(the page stays on the item while the dialog is open)",
               dialog_acts_on_the_selected_index),
    Workaround("LIST_REST", "a Dataframe column cannot take the width the others leave: "
               "each cell is fixed at its measured width, so the item list's question was cut "
               "to two characters", "assets/cluelab.css (#item-list ... last-child)",
               dataframe_has_no_rest_width),
    Workaround("DATAFRAME_HEADER_EDIT", "an editable table's header becomes a text field on "
               "a click (Enter or F2 on a focused header too), with no setting to stop it but "
               "static_columns, which locks the column's cells: the clue table's 'text' "
               "header could be renamed", "assets/table_headers.js", dataframe_header_edits),
    Workaround("DROPDOWN_OPENS_ON_FOCUS", "a Dropdown opens its option list whenever it "
               "gets the focus: Tab from the Question opened Answer type's list",
               "assets/shortcuts.js (focusin of input[role=combobox])", dropdown_opens_on_focus),
    Workaround("DROPDOWN_SELECT_MOUSE_ONLY", "a Dropdown sends `select` for a mouse pick "
               "only: Answer type chosen with the keys changed the list, not the form, and the "
               "save wrote the type over the other type's gold", "ui/answer_wiring.py "
               "(the switch on `change`)", dropdown_select_on_click_only),
    Workaround("DROPDOWN_TYPED_TEXT_STAYS", "a Dropdown that filters is a text box: keys "
               "go into its value at the cursor, and Enter on a text that matches no choice "
               "leaves it shown: Answer type read \"multiple_chopeoice\"",
               "assets/type_choice.js (the first key replaces the text; Enter that chose "
               "nothing blurs the field)", dropdown_typed_text_stays),
    Workaround("GRADIO_JS_THROW", "an event's page script cannot cancel it quietly: a throw "
               "shows a red Error badge on every output", "assets/confirm.js (asks before the "
               "click reaches Gradio)", event_script_throw_is_an_error),
    Workaround("TEXTBOX_LABEL_WITHOUT_CONTAINER", "a Textbox without its container keeps its "
               "label for screen readers only (a Dropdown too): the options' row box, what Remove "
               "option acts on, was a bare box reading \"click a row\"; the item's status a "
               "bare \"draft\" beside Next, read as a filter", "assets/cluelab.css "
               "(#option-label and #item-status: the label shown on its line)",
               hidden_title_is_screen_reader_only),
    Workaround("GRADIO_LOGIN_STATUS", "the login page shows no reason for an answer other "
               "than 400: a locked name's wait was not shown", "assets/login_lock.js",
               login_page_shows_only_400),
    Workaround("GRADIO_LOGIN_API_INFO", "the login page embeds the app's whole API description "
               "(every event, its parameters, code to call it) for a caller not logged in",
               "ui/route_answers.py (bare_login_page)", login_page_embeds_the_api),
    Workaround("GRADIO_LOGIN_ON_LOOP", "the login route runs the app's password check on the "
               "event loop: every attempt stopped the server for a scrypt hash (200 logins "
               "with random names made another user's call take 28 s); and it sets no cookie "
               "of the app's", "ui/login_route.py", login_checks_on_the_event_loop),
    Workaround("DATAFRAME_THIN_SCROLLBAR", "a Dataframe wider than its box scrolls with a thin "
               "half-transparent scrollbar: the Experiments runs list seemed to end at the "
               "box, its cost and by columns out of view", "assets/cluelab.css (#runs-list "
               ".virtual-table-viewport)", dataframe_scrollbar_is_thin),
    Workaround("DATAFRAME_PINNED_NOT_DRAWN", "a Dataframe takes pinned_columns but draws "
               "nothing pinned: the Results table scrolled sideways (a breakdown by 16 "
               "subtasks) took its model names out of view", "assets/cluelab.css "
               "(#results-table ... first-column)", dataframe_pins_nothing),
    Workaround("DATAFRAME_WRAP_BREAKS_WORDS", "a wrapping Dataframe breaks its cells inside "
               "words: the runs list's cost read \"unknow n\", the endpoints' header "
               "\"concurr ency\"", "assets/cluelab.css (Researcher tables at 1400 px)",
               dataframe_wrap_breaks_words),
    Workaround("CONTAINER_OVERFLOW_HIDDEN", "the page container hides its overflow, so "
               "nothing in a page can stick to the screen: Annotate's save bar scrolled away",
               "assets/cluelab.css (.gradio-container:has(#annotate-page))",
               container_hides_overflow),
    Workaround("DATAFRAME_HEIGHT_PX", "a Dataframe's height is a fixed number of pixels "
               "(max_height), whatever the window: the Experiments runs list showed 5 runs at "
               "1400x900 and 7 at 1920x1080, scrolling inside itself; the item list ran "
               "300 px below a 900 px screen, the open row under it",
               "assets/cluelab.css (#runs-list, #item-list and #conflict-diff "
               ".virtual-table-viewport max-height; assets/list_current.js fit)",
               dataframe_height_is_pixels),
    Workaround("GALLERY_SQUARE_CELLS", "a Gallery's cells are squares clipped at its height: "
               "a 1024x640 picture alone in Inspect's Compare showed as its top part",
               "assets/cluelab.css (.cl-whole-images, ui/galleries.py)",
               gallery_cells_are_square),
    Workaround("TOASTS_STAY", "a warning toast stays its seconds whatever happened since, "
               "and the server cannot close it: 'Not saved: changed by ...' stayed beside the "
               "'Saved' of Save merged; messages of one kind pile up in one toast, the "
               "latest below, out of view", "assets/toasts.js (closeStale, closeAll on a "
               "save) and assets/cluelab.css (.toast-messages, latest first)",
               toasts_stay_their_time),
    Workaround("TOAST_TOP_RIGHT", "toasts are fixed top-right, with no setting: after each "
               "save one covered the Annotate page's Next button and status dropdown for "
               "seconds (bottom-right, the Gold answer field, the review note and Submit "
               "review)", "assets/toasts.js (place) and assets/cluelab.css (.toast-wrap, "
               ".toast-body)", toasts_are_top_right),
    Workaround("DATAFRAME_SCROLL_TOP_OVER_ROWS", "a scrolled Dataframe floats its scroll to "
               "top button over its bottom-right corner: on the Annotate page's item list it "
               "covered the last row's question", "assets/cluelab.css (#item-list "
               ".scroll-top-button)", dataframe_scroll_top_over_rows),
    Workaround("DATAFRAME_NEW_ROW_FIRST_CELL", "a row added from a table's cell menu comes "
               "with its first cell selected, even a column that takes no typing: in the clue "
               "table that is the clue's label, and what was typed next went nowhere",
               "assets/clue_table.js (Add row above/below)", new_row_selects_first_cell),
    Workaround("CELL_EDITOR_OVERFLOWS", "an editable table's cell editor grows with its text "
               "over the rows below: a quick click on the next clue's cell landed in the "
               "editor of the one above, and the typing went into the wrong clue",
               "assets/cluelab.css (textarea[aria-label=\"Edit cell\"])",
               cell_editor_grows_over_the_rows_below),
    Workaround("CELL_FIRST_KEY_LOST", "typing on a selected table cell opens its editor but "
               "drops the key that opened it (and any typed before the editor had the focus)",
               "assets/cell_edit.js", cell_first_key_is_lost),
    Workaround("CELL_EDITS_AFTER_ENTER", "a table cell whose words Enter confirmed stays "
               "selected, and the next letter starts editing it again: C (the draw key) "
               "pressed after a clue's words and Enter made \"sun shadow\" \"sun shadowc\", "
               "Backspace emptied the cell", "assets/cell_confirmed.js",
               cell_edits_after_enter),
    Workaround("NO_ACCOUNT_LINE", "the pages show neither who is signed in nor a Log out "
               "(the page config holds the name and /logout exists, but only the Hugging Face "
               "login button links it): the Annotate and Import / Export pages had no way to "
               "tell whose account was in use or to leave it", "assets/account.js",
               pages_show_no_account),
    Workaround("STATUS_COMPLETE_KEY", "the status tracker's screen-reader line reads "
               "'common.complete' after every event: its English words lack that key",
               "ui/server.py (MISSING_WORDS)", status_complete_has_no_words),
    Workaround("ANNOTATOR_COLOUR_IN", "the annotator's preprocess takes a box colour only as "
               "the text 'rgb(r, g, b)' the browser sends; the [r, g, b] its postprocess hands "
               "out (load_item's value) failed, so a script's save of what it loaded was refused",
               "ui/annotator_values.py (_boxes_as_handed_out)", box_colour_in_is_text_only),
    Workaround("LIST_CURRENT_ROW", "a Dataframe rings the cell clicked last, a selection the "
               "server can neither set nor clear: an item opened from the id box or by Next "
               "left the previous row ringed", "assets/list_current.js (marks the open item's "
               "row), assets/cluelab.css (hides the ring in the list)",
               dataframe_rings_the_clicked_cell),
    Workaround("GRADIO_TRIGGERS_COALESCE", "an event triggered again while it runs is "
               "skipped (a click's default) or run once more when it ends, whatever the "
               "number of triggers: of three quick Alt+→ (Next) two were dropped",
               "assets/shortcuts.js (cluelabNavSteps; ui/annotate_steps.py sends the count)",
               triggers_while_running_coalesce),
    Workaround("DATAFRAME_KEEPS_SCROLL", "a Dataframe given new rows keeps the scroll "
               "position of the old ones: a new search or page of the item list showed its "
               "results from the middle", "assets/list_current.js (fresh)",
               dataframe_keeps_its_scroll),
    Workaround("GRADIO_VALUES_REQUIRED", "a handler's `*values` are required parameters of "
               "its API: given the form's values (to keep the keys typed just before it), "
               "a script's next_item() failed for want of the question",
               "ui/annotate_steps.py (optional_values: each a parameter defaulting to None)",
               values_required_in_the_api),
    Workaround("TEXTBOX_INPUT_ON_KEYPRESS", "a Textbox sends its input event from its keypress "
               "handler only: a pasted or dropped question was never autosaved",
               "assets/field_input.js (hands the field a keypress on every DOM input)",
               textbox_input_on_keypress_only),
    Workaround("DATAFRAME_NO_ROW_EVENT", "a Dataframe has no event for a row added or deleted "
               "with its own \"+\" or cell menu, and one sent on every cell edit (the table its "
               "output) lost keys typed during the round trip: such a clue took no box until "
               "the next save", "ui/annotate_structure.py (CLUE_ROWS_CHANGED: the page sends "
               "only edits that add, drop or move a clue)", dataframe_has_no_row_event),
    Workaround("ANNOTATOR_NO_UPSCALE", "the annotator scales an image down to its canvas, "
               "never up: a 40x30 image was drawn 40x30 in a canvas 30 px tall, where no box "
               "could be drawn", "ui/annotator_assets.py (upscale_small_images)",
               annotator_never_scales_up),
    Workaround("ANNOTATOR_HEIGHT_ROUNDED", "the annotator draws a scaled image at a height "
               "rounded to whole canvas pixels but saves a box's y with the width's scale: a "
               "box drawn exactly on a feature at y 3000 of an 8000x6000 photo was saved at "
               "y 3003 (and shown on it again when loaded)",
               "ui/annotator_assets.py (exact_image_height)",
               height_rounded_but_saved_with_the_width_scale),
    Workaround("BOX_SLIP_KEPT", "the annotator keeps a box just drawn unless its area is "
               "under one canvas pixel: a click in the drawing mode that slipped 2 px made a "
               "1x1 px box and opened the clue picker for it", "assets/box_slip.js",
               box_kept_unless_under_a_pixel),
    Workaround("UPLOAD_ERROR_RAW", "an upload the server refuses shows as a toast of the "
               "status and the reply's raw JSON: 'HTTP 413: {\"detail\": \"Upload refused: "
               "…\"}'", "assets/toasts.js (plain)", upload_error_is_raw),
]
