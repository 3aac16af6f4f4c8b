"""Each workaround in ui/workarounds.py is still needed by the installed Gradio and box
annotator: when an upgrade fixes the limitation, this fails and the workaround is removed."""
import pytest

from ui import workarounds


@pytest.mark.parametrize("workaround", workarounds.WORKAROUNDS, ids=lambda w: w.name)
def test_the_limitation_is_still_there(workaround):
    assert workaround.still_needed(), (
        f"{workaround.name}: the installed front end no longer has this limitation "
        f"({workaround.limitation}); remove the workaround in {workaround.where}")


def test_the_checks_can_fail(monkeypatch, tmp_path):
    """Against a front end without these limitations every check says 'not needed'."""
    (tmp_path / "Index-x.js").write_text('<div id="model-box-edit"></div>')
    (tmp_path / "style.css").write_text(".modal.svelte-1{position:fixed}")
    (tmp_path / "Blocks-x.js").write_text("catch{this.update_loading_status({status:`done`")
    monkeypatch.setattr(workarounds, "component_dir", lambda: tmp_path)
    monkeypatch.setattr(workarounds, "GRADIO_FRONTEND", tmp_path)
    (tmp_path / "routes.py").write_text(          # sessions checked, frames refused
        "async def queue_data(request, session_hash, username=Depends(get_current_user)):\n"
        "    return 1\nasync def simple_predict_get(request, event_id, username):\n"
        "    return 2\nheaders['X-Frame-Options'] = 'DENY'\n")
    monkeypatch.setattr(workarounds, "GRADIO_SERVER", tmp_path)
    monkeypatch.setattr(workarounds.gradio.Dataframe, "EVENTS",      # a row event at last
                        [*workarounds.gradio.Dataframe.EVENTS, "delete_row"])
    assert [w.name for w in workarounds.WORKAROUNDS if w.still_needed()] == []


def test_every_workaround_points_at_code_that_points_back():
    from pathlib import Path
    root = Path(workarounds.__file__).resolve().parent.parent
    for workaround in workarounds.WORKAROUNDS:
        path = root / workaround.where.split(" ")[0]
        assert path.is_file(), workaround.where
        assert "ui/workarounds.py" in path.read_text(), workaround.where


ROTATE_BUTTONS = ('<button aria-label="Rotate counterclockwise"></button>'
                  '<button aria-label="Rotate clockwise"></button>')
TURNS_THE_BOXES = ("function tt(I) { c(c().orientation = ((c().orientation + I) % 4 + 4) % 4,"
                   " !0), Ke(); for (const z of c().boxes) z.onRotate(I); j(); }")


@pytest.mark.parametrize("component, needed", [
    (ROTATE_BUTTONS + TURNS_THE_BOXES, True),       # the installed component's shape
    (TURNS_THE_BOXES, False),                       # no Rotate buttons any more
    (ROTATE_BUTTONS + "function tt(I) { rotateImage(I); }", False),   # turns the image itself
])
def test_the_rotate_check_follows_the_component(monkeypatch, tmp_path, component, needed):
    """ANNOTATOR_ROTATE (the CSS rule hiding the buttons) is needed while the component has
    Rotate buttons whose turn changes only the view's orientation and turns the boxes."""
    (tmp_path / "Index-x.js").write_text(component)
    monkeypatch.setattr(workarounds, "component_dir", lambda: tmp_path)
    assert workarounds.rotate_turns_only_the_view() is needed


def test_the_rotate_buttons_are_hidden_by_the_rule_the_entry_names():
    from pathlib import Path
    css = (Path(workarounds.__file__).resolve().parent.parent / "assets" / "cluelab.css")
    assert '#annotator button[aria-label^="Rotate"] { display: none; }' in css.read_text()


TOAST_CSS = (".toast-wrap.svelte-1qhecvt{--toast-top:var(--size-4);top:calc(var(--toast-top) + "
             "var(--size-3));right:var(--size-3);left:var(--size-3);position:fixed}")
EDITOR_CSS = ("textarea.svelte-odwpey{cursor:text;width:100%;resize:none;height:100%;"
              "position:absolute}")
EDITOR_JS = "function t(){e.style.height=`auto`,e.style.height=`${e.scrollHeight}px`}"
HEADER_CLICK_JS = ("function rt(e,t){e.target instanceof HTMLAnchorElement||(e.preventDefault(),"
                   "L(X,t,!0),L(Ee,C()&&!Ge(t)?t:!1,!0),x(Ee)===!1&&Le(t))}")
HEADER_KEYS_JS = "case`Enter`:case`F2`:e.preventDefault(),C()&&!Ge(n)&&L(Ee,n,!0);break"
FIRST_KEY_JS = ("default:C()&&!x(Y)&&e.key.length===1&&!e.ctrlKey&&!e.metaKey&&!Ge(r)&&"
                "We(r)!==`bool`&&L(Y,[n,r],!0);break}"
                "function de(e){return requestAnimationFrame(()=>{e.focus()}),{}}")


@pytest.mark.parametrize("files, check, needed", [
    ({"statustracker-x.css": TOAST_CSS}, "toasts_are_top_right", True),
    ({"statustracker-x.css": TOAST_CSS.replace("top:calc", "bottom:calc")},
     "toasts_are_top_right", False),                                 # toasts moved down
    ({"Index-x.css": EDITOR_CSS, "Index-x.js": EDITOR_JS},
     "cell_editor_grows_over_the_rows_below", True),
    ({"Index-x.css": EDITOR_CSS.replace("position:absolute", "position:relative"),
      "Index-x.js": EDITOR_JS}, "cell_editor_grows_over_the_rows_below", False),
    ({"Index-x.js": HEADER_CLICK_JS}, "dataframe_header_edits", True),
    ({"Index-x.js": HEADER_KEYS_JS}, "dataframe_header_edits", True),
    ({"Index-x.js": HEADER_CLICK_JS.replace("C()&&!Ge(t)?t:!1", "!1")
      + HEADER_KEYS_JS.replace("C()&&!Ge(n)&&L(Ee,n,!0)", "0")},
     "dataframe_header_edits", False),                               # headers never edited
    ({"Index-x.js": FIRST_KEY_JS}, "cell_first_key_is_lost", True),
    ({"Index-x.js": FIRST_KEY_JS.replace("e.focus()", "e.focus(),e.value+=k")},
     "cell_first_key_is_lost", False),                               # the key is kept
])
def test_the_toast_and_cell_editor_checks_follow_the_front_end(monkeypatch, tmp_path, files,
                                                                check, needed):
    """TOAST_TOP_RIGHT, CELL_EDITOR_OVERFLOWS, CELL_FIRST_KEY_LOST and DATAFRAME_HEADER_EDIT
    are needed while Gradio's front end has these shapes, and no longer once it changes
    them."""
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    monkeypatch.setattr(workarounds, "GRADIO_FRONTEND", tmp_path)
    (tmp_path / "routes.py").write_text(          # sessions checked, frames refused
        "async def queue_data(request, session_hash, username=Depends(get_current_user)):\n"
        "    return 1\nasync def simple_predict_get(request, event_id, username):\n"
        "    return 2\nheaders['X-Frame-Options'] = 'DENY'\n")
    monkeypatch.setattr(workarounds, "GRADIO_SERVER", tmp_path)
    assert getattr(workarounds, check)() is needed
