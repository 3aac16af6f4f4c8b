"""Check an item dict and bring it to canonical form before anything is written.

One function, `normalize_item`, so create, save and restore apply exactly the same rules, and
the dict stored as a revision snapshot is exactly what `get_item` will return. Every error is a
`ValidationError` whose message starts with the item id and names the field, e.g.
"item demo/Q_1: clues[0].boxes[1]: x0 (30.0) must be < x1 (10.0)".
"""
from __future__ import annotations

import json
import math
from typing import Any, Callable

from domain.item_ids import (NAME_FIELDS, TOO_LONG, has_hidden_characters, id_problem,
                             name_problem, shown_id)
from domain.limits import MAX_ITEM_ID, too_long
from domain.vocabulary import ANSWER_TYPES, ITEM_STATUSES

from .errors import TooLargeError, ValidationError
from .item_limits import over_limit

DEFAULT_STATUS = "draft"

BOX_TOLERANCE_PX = 0.01
"""How far (in pixels) a box may stick out of its image: absorbs float rounding only."""

EDITABLE_FIELDS = ("id", "dataset", "domain", "subtask", "reasoning_type", "question",
                   "answer_type", "options", "answer", "aliases", "gt_reasoning", "status",
                   "problems", "metadata", "images", "clues")
READ_ONLY_FIELDS = ("version", "updated_at", "updated_by", "flagged")
OPTION_FIELDS = ("label", "text", "image")
CLUE_FIELDS = ("text", "reasoning", "boxes")
BOX_FIELDS = ("image", "x0", "y0", "x1", "y1")


def normalize_item(item: Any, image_sizes: Callable[[list[str]], dict[str, tuple[int, int]]],
                   stored: dict | None = None) -> dict:
    """Return the canonical editable item dict, or raise ValidationError.

    `image_sizes(shas)` returns {sha: (width, height)} for the shas that exist in the store.
    Read-only fields (version, updated_*, flagged) are ignored; unknown fields are refused
    (they belong in `metadata`, otherwise they would be silently lost). Missing fields get
    defaults: dataset from the id's prefix ("mmr-life/HAA_1" -> "mmr-life"), status "draft",
    empty text and lists; a numeric answer is stored as text ("42").
    `stored`: the names (NAME_FIELDS) the item has in the store now, kept even where a newer
    rule would refuse them (domain/item_ids.name_problem: markup in a domain).
    """
    if not isinstance(item, dict):
        raise ValidationError(f"an item must be a dict, got {type(item).__name__}")
    item_id = item.get("id")
    label = item_id if isinstance(item_id, str) and item_id.strip() else "<no id>"
    long_id = label != "<no id>" and len(item_id) > MAX_ITEM_ID
    hidden = label != "<no id>" and not long_id and has_hidden_characters(item_id)
    if hidden or long_id:
        label = shown_id(item_id)          # "rtl\u202eevil": shown, never acting; cut short

    def fail(field: str, message: str) -> ValidationError:
        return ValidationError(f"item {label}: {field}: {message}", item_id=item_id, field=field)

    def too_large(field: str, message: str) -> TooLargeError:
        return TooLargeError(f"item {label}: {field}: {message}", item_id, field, message)

    problem = id_problem(item_id)                   # domain/item_ids.py: one rule
    if long_id:
        raise too_large("id", too_long("Item id", len(item_id), MAX_ITEM_ID) or TOO_LONG)
    if hidden:
        raise fail("id", "an id may not hold control, invisible or text-direction characters "
                         "(they make one id look like another)")
    if problem:
        raise fail("id", problem)
    unknown = sorted(set(item) - set(EDITABLE_FIELDS) - set(READ_ONLY_FIELDS))
    if unknown:
        raise fail(unknown[0], f"unknown field(s) {unknown}; keep extra data in 'metadata'")

    def text(field: str, value: Any, required: bool = False, optional: bool = False) -> Any:
        if value is None and optional:
            return None
        if value is None:
            value = ""
        if not isinstance(value, str):
            raise fail(field, f"must be text, got {type(value).__name__}")
        if required and not value.strip():
            raise fail(field, "missing or empty")
        return value

    def str_list(field: str, value: Any) -> list[str]:
        if value is None:
            return []
        if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
            raise fail(field, "must be a list of strings")
        return list(value)

    out: dict[str, Any] = {"id": item_id}
    dataset = item.get("dataset") or (item_id.split("/", 1)[0] if "/" in item_id else None)
    out["dataset"] = text("dataset", dataset, required=True)
    for field in ("domain", "subtask", "reasoning_type"):
        out[field] = text(field, item.get(field), optional=True)
    for field in NAME_FIELDS:
        if problem := name_problem(field, out[field], (stored or {}).get(field)):
            raise fail(field, problem)
    # may be empty, as the gold answer may: an imported line with no readable question
    # keeps none (no made-up text); the editor refuses an empty one (ui/editor_model)
    out["question"] = text("question", item.get("question"))
    out["answer_type"] = item.get("answer_type")
    if out["answer_type"] not in ANSWER_TYPES:
        raise fail("answer_type", f"unknown answer type {out['answer_type']!r}; "
                                  f"expected one of {', '.join(ANSWER_TYPES)}")
    answer = item.get("answer")
    if isinstance(answer, (int, float)) and not isinstance(answer, bool):
        answer = str(answer)  # numeric answers are stored as text, like every other answer
    out["answer"] = text("answer", answer)
    out["aliases"] = str_list("aliases", item.get("aliases"))
    out["gt_reasoning"] = text("gt_reasoning", item.get("gt_reasoning"))
    out["status"] = item.get("status") or DEFAULT_STATUS
    if out["status"] not in ITEM_STATUSES:
        raise fail("status", f"unknown status {out['status']!r}; "
                             f"expected one of {', '.join(ITEM_STATUSES)}")
    out["problems"] = str_list("problems", item.get("problems"))
    metadata = item.get("metadata") or {}
    if not isinstance(metadata, dict):
        raise fail("metadata", "must be a dict")
    try:
        out["metadata"] = json.loads(json.dumps(metadata, allow_nan=False))
    except (TypeError, ValueError) as e:
        raise fail("metadata", f"not JSON-serialisable ({e})") from e

    images = str_list("images", item.get("images"))
    raw_options = item.get("options") or []
    if not isinstance(raw_options, (list, tuple)):
        raise fail("options", "must be a list")
    option_images = [o.get("image") for o in raw_options if isinstance(o, dict) and o.get("image")]
    sizes = image_sizes(sorted(set(images) | set(i for i in option_images if isinstance(i, str))))
    for i, sha in enumerate(images):
        if sha not in sizes:
            raise fail(f"images[{i}]", f"unknown image {sha} (add it with add_image first)")

    out["options"] = []
    for i, option in enumerate(raw_options):
        where = f"options[{i}]"
        if not isinstance(option, dict):
            raise fail(where, "must be a dict with label, text, image")
        extra = sorted(set(option) - set(OPTION_FIELDS))
        if extra:
            raise fail(f"{where}.{extra[0]}", "unknown option field")
        image = option.get("image")
        if image is not None and (not isinstance(image, str) or image not in sizes):
            raise fail(f"{where}.image", f"unknown image {image}")
        out["options"].append({"label": text(f"{where}.label", option.get("label")),
                               "text": text(f"{where}.text", option.get("text")),
                               "image": image})

    raw_clues = item.get("clues") or []
    if not isinstance(raw_clues, (list, tuple)):
        raise fail("clues", "must be a list")
    out["clues"] = []
    for c, clue in enumerate(raw_clues):
        where = f"clues[{c}]"
        if not isinstance(clue, dict):
            raise fail(where, "must be a dict with text, reasoning, boxes")
        extra = sorted(set(clue) - set(CLUE_FIELDS))
        if extra:
            raise fail(f"{where}.{extra[0]}", "unknown clue field")
        raw_boxes = clue.get("boxes") or []
        if not isinstance(raw_boxes, (list, tuple)):
            raise fail(f"{where}.boxes", "must be a list")
        boxes = [_box(box, f"{where}.boxes[{b}]", images, sizes, fail)
                 for b, box in enumerate(raw_boxes)]
        out["clues"].append({"text": text(f"{where}.text", clue.get("text")),
                             "reasoning": text(f"{where}.reasoning", clue.get("reasoning")),
                             "boxes": boxes})
    out["images"] = images
    found = over_limit(out)                         # domain/limits.py: every size limit
    if found:
        raise too_large(*found)
    return {field: out[field] for field in EDITABLE_FIELDS}


def _box(box: Any, where: str, images: list[str], sizes: dict[str, tuple[int, int]],
         fail: Callable[[str, str], ValidationError]) -> dict:
    """Check one box: on one of the item's images, numeric, well ordered, inside the image."""
    if not isinstance(box, dict):
        raise fail(where, "must be a dict with image, x0, y0, x1, y1")
    extra = sorted(set(box) - set(BOX_FIELDS))
    if extra:
        raise fail(f"{where}.{extra[0]}", "unknown box field")
    image = box.get("image")
    if image not in images:
        raise fail(f"{where}.image", f"image {image} is not one of the item's images")
    coords = {}
    for key in ("x0", "y0", "x1", "y1"):
        value = box.get(key)
        if isinstance(value, bool) or not isinstance(value, (int, float)) \
                or not math.isfinite(value):
            raise fail(f"{where}.{key}", f"must be a finite number, got {value!r}")
        coords[key] = float(value)
    if coords["x0"] >= coords["x1"]:
        raise fail(where, f"x0 ({coords['x0']}) must be < x1 ({coords['x1']})")
    if coords["y0"] >= coords["y1"]:
        raise fail(where, f"y0 ({coords['y0']}) must be < y1 ({coords['y1']})")
    width, height = sizes[image]
    tol = BOX_TOLERANCE_PX
    if coords["x0"] < -tol or coords["y0"] < -tol or coords["x1"] > width + tol \
            or coords["y1"] > height + tol:
        raise fail(where, f"box ({coords['x0']}, {coords['y0']}, {coords['x1']}, "
                          f"{coords['y1']}) is outside the {width}x{height} image")
    return {"image": image, **coords}
