"""The box annotator's value on its way in: what the handlers get from the component.

Both patches are on the class: Gradio replaces the instance in session state after the
first update, so a patch of one instance would not last.
"""
from __future__ import annotations

from gradio_image_annotation import image_annotator

_LIBRARY_BOXES = image_annotator.preprocess_boxes


def _path_only(self, image):
    """The annotator's image is one of ours (in the media folder): its path is all the
    handlers need. The library's own preprocess decodes and re-encodes the whole image,
    possibly 8000×6000 px, on every event that takes the annotator as input."""
    return None if image is None else image.path


def sent_colour(color):
    """A box colour as the library's preprocess reads it ("rgb(r, g, b)"): the browser sends
    that text, but the value the server hands out (load_item's boxes, ui/editor_model.py)
    gives it as [r, g, b], and a script sends back what it was given."""
    if isinstance(color, (list, tuple)) and len(color) == 3 and all(
            isinstance(c, int) and not isinstance(c, bool) for c in color):
        return "rgb({}, {}, {})".format(*color)
    return color


def _boxes_as_handed_out(self, boxes):
    """The library's preprocess of the boxes, taking a colour in the form its postprocess
    hands out too (ui/workarounds.py, ANNOTATOR_COLOUR_IN). Before, a script's save_item
    with the exact value load_item returned was refused as "not of the kind its control
    takes" (the library matched a regex against a list)."""
    fixed = [{**box, "color": sent_colour(box["color"])}
             if isinstance(box, dict) and "color" in box else box for box in boxes or []]
    return _LIBRARY_BOXES(self, fixed)


image_annotator.preprocess_image = _path_only
image_annotator.preprocess_boxes = _boxes_as_handed_out
