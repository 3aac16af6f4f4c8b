"""Where ClueLab works around a limitation of Gradio or of the box annotator component, and
why: each entry names the limitation, the ClueLab code that works around it, and a check
that the installed front end still has that limitation.

tests/test_workarounds.py runs every check. When an upgrade of Gradio or of
gradio_image_annotation removes a limitation, its check fails: remove the workaround (it may
now fight the fix) and its entry. Access control's reach into Gradio is in ui/gradio_hooks.py
(tested by tests/test_access.py); the annotator's asset loading in ui/annotator_assets.py.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import gradio

from ui.annotator_assets import component_dir

GRADIO_FRONTEND = Path(gradio.__file__).parent / "templates" / "frontend" / "assets"


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


def event_script_throw_is_an_error() -> bool:
    """Gradio's front end: an event whose page script throws marks its outputs "error"."""
    return bool(re.search(r"catch\{this\.update_loading_status\(\{status:`error`",
                          read_all(GRADIO_FRONTEND, "Blocks-*.js")))


def login_page_shows_only_400() -> bool:
    """Gradio's login page: a 400 shows its fixed "Incorrect credentials", a 200 reloads,
    any other answer (ClueLab's 429 for a locked name) shows nothing."""
    return bool(re.search(r"\.status===400\?.{0,80}:\w+\.status==200&&location\.reload\(\)",
                          read_all(GRADIO_FRONTEND, "Login-*.js"), re.DOTALL))


def dataframe_scrollbar_is_thin() -> bool:
    """Gradio's Dataframe: its scroller's scrollbar is thin (4 px, half-transparent grey)."""
    css = read_all(GRADIO_FRONTEND, "Index-*.css")
    return bool(re.search(r"\.virtual-table-viewport\.svelte-[\w-]+\{[^}]*scrollbar-width:thin",
                          css)) and bool(re.search(
        r"\.virtual-table-viewport\.svelte-[\w-]+::-webkit-scrollbar\{width:4px;height:4px\}",
        css))


WORKAROUNDS = [
    Workaround("BOX_DIALOG_BLUR", "the box label dialog blurs the whole screen, the box just "
               "drawn included", "assets/cluelab.css (#model-box-edit.modal)", blurs_the_screen),
    Workaround("BOX_DIALOG_COLOUR_PICKER", "the box label dialog offers a colour picker, with "
               "no setting to hide it; a clue's colour is ClueLab's",
               "assets/cluelab.css (#model-box-edit ... input[type=color])", has_colour_picker),
    Workaround("BOX_DIALOG_TYPED_LABEL", "a label typed into the box dialog sets the label "
               "only: the box keeps the first choice's grey", "assets/annotator.js "
               "(pickTypedClue)", typed_label_keeps_colour),
    Workaround("GRADIO_JS_THROW", "an event's page script cannot cancel it quietly: a throw "
               "shows a red Error badge on every output", "assets/confirm.js (asks before the "
               "click reaches Gradio)", event_script_throw_is_an_error),
    Workaround("GRADIO_LOGIN_STATUS", "the login page shows no reason for an answer other "
               "than 400: a locked name's wait was not shown", "assets/login_lock.js",
               login_page_shows_only_400),
    Workaround("DATAFRAME_THIN_SCROLLBAR", "a Dataframe wider than its box scrolls with a thin "
               "half-transparent scrollbar: the Experiments runs list seemed to end at the "
               "box, its cost and by columns out of view", "assets/cluelab.css (#runs-list "
               ".virtual-table-viewport)", dataframe_scrollbar_is_thin),
]
