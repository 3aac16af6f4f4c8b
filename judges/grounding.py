"""Grounded rigor: a clue counts only when the model also points at it (no paper has this).

Rigorous accuracy asks whether the model *names* a GT clue; grounded rigor also asks whether it
*finds* it. In the structured setting a model returns a box with each clue. A model clue is
grounded when one of its boxes, converted to original-image pixels, has IoU >= threshold
(default 0.5, the usual detection cut-off) with a box of the GT clue it matched (the matching
comes from `judges.clue_match`). An item is grounded-rigorous when its answer is correct and at
least one model clue is grounded.

Model boxes come in three conventions (pixels of the image as sent, 0-1, 0-1000 as Qwen-VL
prints them); the runner detects which (`domain.geometry.detect_box_convention`) and records it
with the response, and `domain.geometry.box_to_pixels` converts (the Inspect overlay draws with
the same rule). GT boxes are pixels (DESIGN.md). On multi-image items a
box may carry the index of its image ({"box": [...], "image": k}); boxes on different images
never overlap. Reversed corners are put in order; a box with no area has IoU 0.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from domain.geometry import box_to_pixels, detect_box_convention

from judges.clue_match import ClueMatch
from judges.verdict import Verdict, from_match, not_correct_reason, unscored

DEFAULT_IOU = 0.5


def _ordered(box) -> tuple[float, float, float, float]:
    x0, y0, x1, y1 = (float(v) for v in box)
    return min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)


def iou(a, b) -> float:
    """Intersection over union of two [x0, y0, x1, y1] boxes."""
    ax0, ay0, ax1, ay1 = _ordered(a)
    bx0, by0, bx1, by1 = _ordered(b)
    inter = max(0.0, min(ax1, bx1) - max(ax0, bx0)) * max(0.0, min(ay1, by1) - max(ay0, by0))
    union = (ax1 - ax0) * (ay1 - ay0) + (bx1 - bx0) * (by1 - by0) - inter
    return inter / union if union > 0 else 0.0


def _image_boxes(value, default_image: int | None) -> list[tuple[int | None, list[float]]]:
    """(image index or None, box) pairs from a box, a list of boxes or {"box", "image"} dicts."""
    if isinstance(value, dict):
        image = value.get("image", default_image)
        box = value.get("box") or value.get("bbox")
        return [(image, list(box))] if box and len(box) == 4 else []
    if isinstance(value, (list, tuple)) and len(value) == 4 and all(
            isinstance(v, (int, float)) for v in value):
        return [(default_image, list(value))]
    if isinstance(value, (list, tuple)):
        return [pair for item in value for pair in _image_boxes(item, default_image)]
    return []


def clue_boxes(clue) -> list[tuple[int | None, list[float]]]:
    """The boxes of a model or GT clue: "boxes" if present, else "box"."""
    if not isinstance(clue, dict):
        return []
    value = clue.get("boxes") or clue.get("box") or clue.get("bbox")
    return _image_boxes(value, clue.get("image"))


def _size(image_size, image: int | None) -> tuple[int, int]:
    """The (width, height) of image `image`, from one size or a list of sizes per image."""
    if image_size and isinstance(image_size[0], (list, tuple)):
        return tuple(image_size[image or 0])
    return tuple(image_size)


@dataclass
class Grounding:
    threshold: float
    convention: str | None
    grounded: list[bool] = field(default_factory=list)        # per model clue
    best_iou: list[float | None] = field(default_factory=list)  # None: no box to compare
    note: str = ""

    @property
    def any_grounded(self) -> bool:
        return any(self.grounded)


def ground_clues(model_clues, gt_clues, match: ClueMatch, *, image_size, convention=None,
                 threshold: float = DEFAULT_IOU, max_pixels: int | None = None) -> Grounding:
    """Per model clue: IoU of its best box with the boxes of the GT clue it matched.

    `image_size`: the original's (width, height), or one per image; `max_pixels`: the run's
    image budget, which pixel boxes of the recorded `convention` were drawn on."""
    model_clues = list(model_clues or [])  # same order as the match's lists
    first_size = _size(image_size, 0) if image_size else None
    note = ""
    if convention is None:
        convention, note = detect_box_convention(
            [c for c in model_clues if isinstance(c, dict)], first_size)
        max_pixels = None  # no convention recorded: boxes are read as original pixels
    result = Grounding(threshold, convention, note=note)
    for i, clue in enumerate(model_clues):
        j = match.best_gt[i] if i < len(match.best_gt) else None
        matched = i < len(match.matched) and match.matched[i]
        boxes, targets = clue_boxes(clue), clue_boxes(gt_clues[j]) if j is not None else []
        if not (matched and boxes and targets and convention and image_size):
            result.grounded.append(False)
            result.best_iou.append(None)
            continue
        best = 0.0
        for image, box in boxes:
            pixels = box_to_pixels(box, convention, _size(image_size, image), max_pixels)
            for target_image, target in targets:
                if image is None or target_image is None or image == target_image:
                    best = max(best, iou(pixels, target))
        result.grounded.append(best >= threshold)
        result.best_iou.append(round(best, 4))
    return result


def grounded_verdict(answer: Verdict, match: ClueMatch, grounding: Grounding) -> Verdict:
    """Grounded-rigorous: the answer is correct and some matched clue's box finds its GT box."""
    judge = f"grounded:{match.method}:iou{grounding.threshold:g}"
    details = {"answer_value": answer.value, "best_iou": grounding.best_iou,
               "convention": grounding.convention, "best_gt": match.best_gt}
    if match.n_gt == 0:
        return unscored("the item has no GT clues", judge=judge, answer=answer.answer,
                        details=details)
    if not answer.correct:
        return Verdict(answer.value, reason=not_correct_reason(answer), judge=judge,
                       answer=answer.answer, details=details)
    ious = [v for v in grounding.best_iou if v is not None]
    if grounding.any_grounded:
        reason = f"answer correct; a matched clue's box has IoU {max(ious):.2f}"
    elif ious:
        reason = (f"answer correct but the best IoU is {max(ious):.2f}, a match from "
                  f"{grounding.threshold:g}")
    else:
        reason = "answer correct but no matched clue has a box to compare"
    return from_match(grounding.any_grounded, reason, judge=judge, answer=answer.answer,
                      details=details)
