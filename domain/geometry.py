"""Boxes: which convention a model's boxes use, and where they fall on the original image.

A model sees its images downscaled to the run's `image_max_pixels` (`fit_within`) and answers
with boxes in one of three conventions: pixels of the image as sent, 0-1 or 0-1000 normalised
(as Qwen-VL prints them). GT boxes are pixels of the original image. `box_to_pixels` is the one
rule that takes a model's box to original pixels: the grounded score compares it with the GT
boxes and the Inspect overlay draws it, so the two cannot disagree.
"""
from __future__ import annotations

import math


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


def detect_box_convention(clues: list[dict], image_size: tuple[int, int] | None = None
                          ) -> tuple[str | None, str]:
    """Which coordinate system the model's boxes use, and the rule that decided it.

    1. every coordinate within 0..1                      -> normalized_1
    2. some coordinate above 1000                        -> pixels
    3. all within 0..1000 and the image size unknown     -> normalized_1000 (Qwen-VL style)
    4. known size, a box reaching beyond the image       -> normalized_1000
    5. known size, the image over 1000 px on some side   -> normalized_1000 (a model that gives
       pixels of a large image rarely keeps every box in its top-left 1000 px)
    6. otherwise (boxes fit an image of at most 1000 px) -> pixels
    """
    found = [box for c in clues for box in c.get("boxes") or ([c["box"]] if c.get("box") else [])]
    if not found:
        return None, ""
    coords = [v for box in found for v in box]
    if all(0 <= v <= 1 for v in coords):
        return "normalized_1", "all coordinates within 0-1"
    if max(coords) > 1000:
        return "pixels", "a coordinate above 1000"
    if image_size is None:
        return "normalized_1000", "coordinates within 0-1000, image size unknown"
    width, height = image_size
    if any(max(b[0], b[2]) > width or max(b[1], b[3]) > height for b in found):
        return "normalized_1000", f"within 0-1000 but outside the {width}x{height} image"
    if max(width, height) > 1000:
        return "normalized_1000", f"coordinates within 0-1000 on a {width}x{height} image"
    return "pixels", f"coordinates fit the {width}x{height} image"


def box_to_pixels(box: list[float], convention: str, image_size: tuple[int, int],
                  max_pixels: int | None = None) -> list[float]:
    """A model box in original-image pixels. `image_size` is the original's (width, height);
    pixel boxes refer to the image as sent, i.e. the original fitted within `max_pixels`."""
    width, height = image_size
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
