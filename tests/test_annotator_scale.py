"""A box drawn on a scaled image is saved in the image pixels it covers, and a saved box is
drawn over those pixels again. The annotator drew a scaled image at a rounded height while it
saves a box's y with the width's scale: on an 8000x6000 photo in a 742 px canvas a box drawn
on y 3000 was saved at 3003 (ui/workarounds.py, ANNOTATOR_HEIGHT_ROUNDED).

The fit is the served script's own statement (ui/annotator_assets.component_script over the
installed component), run by Node for each image size and canvas width; the conversion back
to image pixels is the component's own Python preprocess."""
import json
import math
import re
import shutil
import subprocess

import pytest
from gradio_image_annotation import image_annotator

from ui.annotator_assets import component_dir, component_script

# the statement that scales the image to the canvas's width `z`:
# `W = z / l(B).imageRotatedWidth, ue = …, fe = …, Z = 0, me = 0, G = ue, $ = fe, V = …;`
FIT = re.compile(r"([\w$]+) = ([\w$]+) / (\w+)\((\w+)\)\.imageRotatedWidth, [^;]*;")
# (image width, image height): camera photos, one of an odd height, a portrait, an icon
SIZES = [(8000, 6000), (6000, 4001), (4001, 6000), (9000, 6751), (40, 30)]
# canvas widths the Annotate page gives the image, from a narrow window to a wide screen
WIDTHS = sorted({742, 494, 1180, *range(300, 1920, 13)})


def served_fit_statement() -> str:
    scripts = sorted(component_dir().glob("Index-*.js"))
    found = FIT.search(component_script(scripts[0].read_text(encoding="utf-8")))
    assert found, "the annotator's fit statement is not in its script any more"
    return found.group(0)


def fits(cases: list) -> list:
    """[(scale, drawn width, drawn height, canvas height)] for [(image w, image h, canvas w)],
    as the served script computes them."""
    statement = served_fit_statement()
    names = re.findall(r"(?:^|, )([\w$]+) = ", statement)
    view_fn, view, width = FIT.match(statement).group(3, 4, 2)
    program = (
        f"const {view_fn} = (v) => v;\n"
        "const out = JSON.parse(process.argv[1]).map(([w, h, cw]) => {\n"
        f"  const {view} = {{imageRotatedWidth: w, imageRotatedHeight: h}};\n"
        f"  let {width} = cw, {', '.join(names)};\n"
        f"  {statement}\n"
        f"  return [{names[0]}, {names[1]}, {names[2]}, {names[-1]}];\n"
        "});\nconsole.log(JSON.stringify(out));\n")
    node = shutil.which("node") or shutil.which("nodejs")
    if node is None:
        pytest.skip("Node is not installed: the served script cannot be run")
    done = subprocess.run([node, "-e", program, json.dumps(cases)], capture_output=True,
                          text=True, check=True)
    return json.loads(done.stdout)


def saved(canvas_edge: float, scale: float) -> int:
    """A box edge at `canvas_edge` (canvas pixels) as the component's Python side saves it."""
    box = {"xmin": canvas_edge, "ymin": canvas_edge, "xmax": canvas_edge,
           "ymax": canvas_edge, "scaleFactor": scale}
    return image_annotator.preprocess_boxes(None, [box])[0]["ymin"]


def edges(size: int) -> list:
    return sorted({0, 1, size // 2, size - 1, size, *range(0, size, max(1, size // 61))})


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_boxes_round_trip_to_the_pixel_at_every_canvas_width(size):
    w, h = size
    results = fits([[w, h, cw] for cw in WIDTHS])
    for cw, (scale, drawn_w, drawn_h, canvas_h) in zip(WIDTHS, results):
        # the canvas keeps the component's own height (Math.round): the layout is as it was
        assert canvas_h == math.floor(h * (cw / w) + 0.5), (cw, canvas_h)
        for image_size, drawn, axis in ((w, drawn_w, "x"), (h, drawn_h, "y")):
            for edge in edges(image_size):
                painted = edge * drawn / image_size        # where that pixel edge is drawn
                assert saved(painted, scale) == edge, (size, cw, axis, edge, painted / scale)
                loaded = edge * scale                       # a saved box, drawn again
                assert loaded * image_size / drawn == pytest.approx(edge, abs=0.01), \
                    (size, cw, axis, edge)


def test_the_reviewed_case():
    """The review's photo: 8000x6000 in a 742 px canvas (an exact height of 556.5 px), a box
    drawn on the edges of a patch at x 5000-5012, y 3000-3008 (was saved at y 3003-3012)."""
    [(scale, _, drawn_h, canvas_h)] = fits([[8000, 6000, 742]])
    assert [saved(y * drawn_h / 6000, scale) for y in (3000, 3009)] == [3000, 3009]
    assert (drawn_h, canvas_h) == (556.5, 557)
