"""Boxes: which convention a model's boxes use, and where they fall on the original image.

A model sees its images downscaled to the run's `image_max_pixels` (`fit_within`) and answers
with boxes in one of three scales: pixels of the image as sent, 0-1 or 0-1000 normalised
(as Qwen-VL prints them), and in one of two layouts: corners x0, y0, x1, y1 (xyxy), or a
corner and a size x, y, width, height (xywh, as COCO writes boxes). GT boxes are pixels of the
original image. `box_to_pixels` is the one rule that takes a model's box to original pixels:
the grounded score compares it with the GT boxes and the Inspect overlay draws it, so the two
cannot disagree.

Which convention a reply's boxes use is detected (`detect_box_convention`: the scale only;
corners are assumed, since four numbers do not tell a size from a corner) unless the run
states it (`box_convention`, a run setting: `BOX_CONVENTIONS`, "auto" by default): a
researcher who knows the model writes xywh, or 0-1000 on a small image the detection would
read as pixels, says so once for the run instead of each reply being guessed alone.

Detection first heeds what was said: a reply that says its scale (`said_box_scale`: "0-1000",
"in pixels") is read so, and a reply to a prompt that asked for one scale (ClueLab's
Structured prompt asks for pixel coordinates of the image as sent) is read in that scale
unless its coordinates cannot be in it (0-1 fractions, or a box beyond the image as sent).
Only when nothing was asked does the size of the image decide between pixels and 0-1000: a
Structured reply in pixels on a 1300x900 image had every box read as 0-1000.
"""
from __future__ import annotations

import math
import re


def fit_within(width: int, height: int, max_pixels: int | None) -> tuple[int, int]:
    """The largest size with the same aspect ratio and width × height ≤ max_pixels."""
    if not max_pixels or width * height <= max_pixels:
        return width, height
    scale = math.sqrt(max_pixels / (width * height))
    new_width, new_height = max(1, int(width * scale)), max(1, int(height * scale))
    while new_width * new_height > max_pixels and (new_width > 1 or new_height > 1):
        if new_width >= new_height:
            new_width -= 1
        else:
            new_height -= 1
    return new_width, new_height


AUTO = "auto"
SCALES = {"pixels": "pixels", "normalized_1": "0-1", "normalized_1000": "0-1000"}
XYWH = "xywh_"
BOX_CONVENTIONS = (*SCALES, *(XYWH + scale for scale in SCALES))
"""What a response records as its boxes' convention: a scale ("pixels", "normalized_1",
"normalized_1000": corners, as recorded before xywh was known), or "xywh_" and a scale."""
STATED_CONVENTIONS = (AUTO, *BOX_CONVENTIONS)
"""What a run may state: auto (detect each reply's scale, corners assumed) or a convention."""


def convention_text(convention: str | None) -> str:
    """'xyxy pixels', 'xywh 0-1000', 'auto': a convention as a person reads it."""
    if not convention or convention == AUTO:
        return AUTO
    layout, scale = ("xywh", convention[len(XYWH):]) if convention.startswith(XYWH) \
        else ("xyxy", convention)
    return f"{layout} {SCALES.get(scale, scale)}"


_SAID = (("pixels", re.compile(r"\bpixel (?:coordinates|coords|units|values)\b|\bin pixels\b",
                               re.I)),
         ("normalized_1000", re.compile(r"\b0\s*(?:-|\u2013|to|\.\.)\s*1,?000\b|"
                                        r"\bnormali[sz]ed\b[^\n.]{0,40}?\b1,?000\b", re.I)))


def said_box_scale(text: str | None) -> str | None:
    """"pixels" or "normalized_1000" when `text` (a prompt, a reply) speaks of that scale of
    coordinates alone ("in pixel coordinates", "normalised to 0-1000"), else None."""
    said = {scale for scale, pattern in _SAID if pattern.search(text or "")}
    return said.pop() if len(said) == 1 else None


def reply_box_convention(clues: list[dict], image_size: tuple[int, int] | None = None,
                         stated: str = AUTO, asked: str | None = None,
                         said: str | None = None) -> tuple[str | None, str]:
    """The convention of a reply's boxes and why: the run's `stated` one when it states one
    (None when the reply has no box), else `detect_box_convention` (`asked`: the scale the
    prompt asked for, `said`: the one the reply says it uses)."""
    if stated in (None, "", AUTO):
        return detect_box_convention(clues, image_size, asked, said)
    if stated not in BOX_CONVENTIONS:
        raise ValueError(f"box convention must be one of {', '.join(STATED_CONVENTIONS)}, "
                         f"not {stated!r}")
    if not _boxes(clues):
        return None, ""
    return stated, f"{convention_text(stated)}, as the run states"


def _boxes(clues: list[dict]) -> list:
    return [box for c in clues for box in c.get("boxes") or ([c["box"]] if c.get("box") else [])]


def detect_box_convention(clues: list[dict], image_size: tuple[int, int] | None = None,
                          asked: str | None = None, said: str | None = None
                          ) -> tuple[str | None, str]:
    """Which coordinate system the model's boxes use, and the rule that decided it.
    `image_size`: the image as sent (what pixel boxes refer to); `asked`: the scale the
    prompt asked for, `said`: the one the reply says (`said_box_scale`), None when unsaid.

    1. every coordinate within 0..1                      -> normalized_1
    a. the reply says 0-1000, no coordinate above 1000   -> normalized_1000
    b. the reply says pixels, no box beyond the image    -> pixels
    2. some coordinate above 1000                        -> pixels
    c. the prompt asked for pixels                       -> pixels, unless a box reaches beyond
       the image as sent (then normalized_1000: they cannot be its pixels)
    d. the prompt asked for 0-1000                       -> normalized_1000
    Nothing said or asked:
    3. all within 0..1000 and the image size unknown     -> normalized_1000 (Qwen-VL style)
    4. known size, a box reaching beyond the image       -> normalized_1000
    5. known size, the image over 1000 px on some side   -> normalized_1000 (a model that gives
       pixels of a large image rarely keeps every box in its top-left 1000 px)
    6. otherwise (boxes fit an image of at most 1000 px) -> pixels
    """
    found = _boxes(clues)
    if not found:
        return None, ""
    coords = [v for box in found for v in box]
    if all(0 <= v <= 1 for v in coords):
        return "normalized_1", "all coordinates within 0-1"
    beyond = image_size is not None and any(
        max(b[0], b[2]) > image_size[0] or max(b[1], b[3]) > image_size[1] for b in found)
    sent = f"the {image_size[0]}x{image_size[1]} image as sent" if image_size else "the image"
    if said == "normalized_1000" and max(coords) <= 1000:
        return "normalized_1000", "the reply says its coordinates are 0-1000"
    if said == "pixels" and not beyond:
        return "pixels", "the reply says its coordinates are pixels"
    if max(coords) > 1000:
        return "pixels", "a coordinate above 1000"
    if asked == "pixels":
        if beyond:
            return "normalized_1000", (f"the prompt asked for pixels, but a box reaches beyond "
                                       f"{sent}: read as 0-1000")
        return "pixels", f"pixels of {sent}, as the prompt asked"
    if asked == "normalized_1000":
        return "normalized_1000", "0-1000, as the prompt asked"
    if image_size is None:
        return "normalized_1000", "coordinates within 0-1000, image size unknown"
    width, height = image_size
    if beyond:
        return "normalized_1000", f"within 0-1000 but outside the {width}x{height} image"
    if max(width, height) > 1000:
        return "normalized_1000", f"coordinates within 0-1000 on a {width}x{height} image"
    return "pixels", f"coordinates fit the {width}x{height} image"


def box_to_pixels(box: list[float], convention: str, image_size: tuple[int, int],
                  max_pixels: int | None = None) -> list[float]:
    """A model box in original-image pixels, as corners. `image_size` is the original's
    (width, height); pixel boxes refer to the image as sent, i.e. the original fitted within
    `max_pixels`; an xywh box is a corner and a size."""
    width, height = image_size
    if convention.startswith(XYWH):
        x, y, w, h = box
        box, convention = [x, y, x + w, y + h], convention[len(XYWH):]
    if convention == "pixels":
        sent_width, sent_height = fit_within(width, height, max_pixels)
        if (sent_width, sent_height) == (width, height):
            return list(box)
        fx, fy = width / sent_width, height / sent_height
        return [box[0] * fx, box[1] * fy, box[2] * fx, box[3] * fy]
    unit = 1.0 if convention == "normalized_1" else 1000.0
    return [box[0] / unit * width, box[1] / unit * height, box[2] / unit * width,
            box[3] / unit * height]


def gt_clue_boxes(item: dict) -> list[list[dict]]:
    """Per GT clue of a stored item, its boxes as {"box": [x0, y0, x1, y1], "image": k}, k the
    index of the box's image among the item's images (stored boxes name the image's sha)."""
    index = {sha: k for k, sha in enumerate(item.get("images") or [])}
    return [[{"box": [b["x0"], b["y0"], b["x1"], b["y1"]], "image": index.get(b.get("image"), 0)}
             for b in clue.get("boxes") or []]
            for clue in item.get("clues") or []]
