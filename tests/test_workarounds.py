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
