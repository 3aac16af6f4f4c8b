"""ClueLab JSONL (`--format jsonl`): the lossless interchange format of docs/FORMAT_JSONL.md.

Export writes one canonical line per item (sorted keys, fixed separators) and the images
beside the file, so export -> import into a fresh database -> export is byte-identical.
Import reads the same lines back; images resolve relative to the JSONL file's folder (or
`--images`), never outside it.
"""
from __future__ import annotations

import json
from pathlib import Path

from domain.item_ids import dataset_from_file
from domain.json_lines import dumps_line
from domain.vocabulary import ANSWER_TYPES, ITEM_STATUSES
from judges.lost_parts import NO_IMAGE_OF_THE_ITEM

from .media_export import ImageWriter
from .report import problem
from .records import ImageRef, describe, new_record, text_or_empty, unparsed_line
from .safepath import image_ref
from .sources import read_json_lines

ITEM_FIELDS = ("id", "dataset", "domain", "subtask", "reasoning_type", "question",
               "answer_type", "options", "answer", "aliases", "gt_reasoning", "status",
               "problems", "metadata", "images", "clues")
IGNORED_FIELDS = ("version", "updated_at", "updated_by", "flagged")   # one database's history


# ----------------------------------------------------------------------------- export
def export(store, out: Path, dataset: str | None = None, images=None) -> dict:
    """`images`: formats/media_export.ImageSink (None: the folder beside `out`)."""
    out = Path(out)
    writer = ImageWriter(store, out, images)
    count = 0
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out, "w", encoding="utf-8", newline="\n") as handle:
        for item in store.iter_items(dataset=dataset):
            handle.write(item_line(item, writer) + "\n")
            count += 1
    return {"format": "jsonl", "items": count, "images": writer.count,
            "paths": [str(out)] + ([str(writer.folder)] if writer.count else [])}


def item_line(item: dict, writer: ImageWriter) -> str:
    """The canonical JSONL line of one item."""
    images = list(item.get("images") or [])
    line = {field: item.get(field) for field in ITEM_FIELDS}
    line["images"] = [writer.relative(sha) for sha in images]
    line["options"] = [{"label": o.get("label", ""), "text": o.get("text", ""),
                        **({"image": writer.relative(o["image"])} if o.get("image") else {})}
                       for o in item.get("options") or []]
    line["clues"] = [{"text": c.get("text", ""), "reasoning": c.get("reasoning", ""),
                      "boxes": [{"image": images.index(b["image"]),
                                 "x0": b["x0"], "y0": b["y0"], "x1": b["x1"], "y1": b["y1"]}
                                for b in c.get("boxes") or []]}
                     for c in item.get("clues") or []]
    return dumps_line(line, sort_keys=True, separators=(", ", ": "))


# ----------------------------------------------------------------------------- import
def read(path: Path, images_dir: Path | None = None, dataset: str | None = None) -> list[dict]:
    base = Path(images_dir) if images_dir else Path(path).parent
    records = []
    for number, value, error in read_json_lines(path):
        if error:
            name = dataset or dataset_from_file(path)
            records.append(unparsed_line(f"{name}/line-{number}", name, error, value))
        else:
            records.append(line_to_record(value, number, base, dataset,
                                          dataset_from_file(path)))
    return records


def line_to_record(line: dict, number: int, base: Path, dataset: str | None,
                   fallback_dataset: str) -> dict:
    problems: list[str] = []
    item_id = line.get("id")
    if not isinstance(item_id, str) or not item_id.strip():
        item_id = f"{dataset or line.get('dataset') or fallback_dataset}/line-{number}"
        problems.append(f"missing field: id (line {number}; imported as {item_id!r})")
    item_id = item_id.strip()
    name = dataset or line.get("dataset") or (item_id.split("/", 1)[0] if "/" in item_id
                                              else None)
    if not name:
        name = fallback_dataset
        problems.append(f"missing field: dataset (used {name!r})")
    metadata = line.get("metadata") if isinstance(line.get("metadata"), dict) else {}
    metadata = dict(metadata)
    if "metadata" in line and not isinstance(line["metadata"], dict):
        metadata["raw_metadata"] = line["metadata"]
        problems.append("malformed field: metadata is not an object "
                        "(kept as metadata.raw_metadata)")
    for key, value in line.items():
        if key not in ITEM_FIELDS and key not in IGNORED_FIELDS:
            if key in metadata:
                problems.append(problem("unknown field dropped", f"line {number}",
                                        "a field named like one in metadata"))
            else:
                metadata[key] = value
    record = new_record(item_id, name, text_or_empty(line.get("question")), metadata=metadata,
                        problems=problems)
    if "question" not in line:
        problems.append("missing field: question")
    for field in ("domain", "subtask", "reasoning_type"):
        value = line.get(field)
        record[field] = None if value is None else text_or_empty(value)
    record["answer"] = text_or_empty(line.get("answer"))
    record["gt_reasoning"] = text_or_empty(line.get("gt_reasoning"))
    record["answer_type"] = _choice(line, "answer_type", ANSWER_TYPES, "open", problems, metadata)
    record["status"] = _choice(line, "status", ITEM_STATUSES, "draft", problems, metadata)
    record["aliases"] = _strings(line, "aliases", problems)
    source_problems = _strings(line, "problems", problems)
    record["images"] = [_ref(base, path, problems) for path in _list(line, "images", problems)]
    record["options"] = [_option(base, o, i, problems)
                         for i, o in enumerate(_list(line, "options", problems))]
    record["clues"] = [_clue(c, i, len(record["images"]), problems, metadata)
                       for i, c in enumerate(_list(line, "clues", problems))]
    record["problems"] = source_problems + [p for p in problems if p not in source_problems]
    # the file's own problem sentences are kept on the item but never quoted by the import
    # report (formats/report.py: no message quotes the file)
    record["carried_problems"] = len(source_problems)
    return record


def _choice(line, field, allowed, default, problems, metadata):
    value = line.get(field)
    if value is None and field == "status":
        return default
    if value in allowed:
        return value
    if value is None:
        problems.append(f"missing field: {field} (imported as {default!r})")
        return default
    metadata[f"source_{field}"] = value
    problems.append(f"unknown {field}: expected one of {', '.join(allowed)} (imported as "
                    f"{default!r}; original kept in metadata.source_{field})")
    return default


def _list(line, field, problems) -> list:
    value = line.get(field)
    if value is None:
        return []
    if not isinstance(value, list):
        problems.append(f"malformed field: {field} is not a list; ignored")
        return []
    return value


def _strings(line, field, problems) -> list[str]:
    return [value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
            for value in _list(line, field, problems)]


def _ref(base: Path, path, problems) -> ImageRef:
    if not isinstance(path, str):
        return ImageRef(name=describe(path), error="malformed image path",
                        expected=f"a file path, found {describe(path)}")
    return image_ref(base, path)


def _option(base, option, index, problems) -> dict:
    if not isinstance(option, dict):
        problems.append(f"malformed option {index + 1}: {describe(option)}, expected an object "
                        f"with label and text")
        return {"label": "", "text": text_or_empty(option), "image": None}
    image = option.get("image")
    return {"label": text_or_empty(option.get("label")), "text": text_or_empty(option.get("text")),
            "image": _ref(base, image, problems) if image else None}


def _box_fault(box, image_count: int) -> str:
    """Why a clue's box cannot be kept on the item, or "": its real cause (a box with all
    four coordinates and "image": 5 on a line of one image was told "a box needs image …
    and x0, y0, x1, y1", as if a field were missing; docs/FORMATS.md)."""
    if not isinstance(box, dict):
        return f"a box is {describe(box)}, expected an object with image, x0, y0, x1, y1"
    image = box.get("image")
    if not isinstance(image, int) or isinstance(image, bool):
        return ("a box needs image (an index into images)" if image is None else
                f"its image is {describe(image)}, expected an index into images")
    if not 0 <= image < image_count:
        listed = f"the line's {image_count} image{'s' * (image_count != 1)}" if image_count \
            else "the line's images: it lists none"     # "the line's no image" read garbled
        # the page and the other problems number images from 1 ("image file not found:
        # image 1"); the file's index, from 0, is said with it
        shown = f"image index {image} — image {image + 1} —" if image >= 0 else \
            f"image index {image}"
        return f"its {shown} is beyond {listed}, {NO_IMAGE_OF_THE_ITEM}"
    missing = [k for k in ("x0", "y0", "x1", "y1") if k not in box]
    return f"a box needs x0, y0, x1, y1 (missing: {', '.join(missing)})" if missing else ""


def _clue(clue, index, image_count, problems, metadata) -> dict:
    if isinstance(clue, str):
        return {"text": clue, "reasoning": "", "boxes": []}
    if not isinstance(clue, dict):
        problems.append(f"malformed clue {index + 1}: not an object")
        return {"text": text_or_empty(clue), "reasoning": "", "boxes": []}
    boxes = []
    for box in clue.get("boxes") or []:
        wrong = _box_fault(box, image_count)
        if not wrong:
            boxes.append({k: box[k] for k in ("image", "x0", "y0", "x1", "y1")})
        else:
            metadata.setdefault("invalid_boxes", []).append({"clue": index, "box": box})
            problems.append(f"invalid box: clue {index + 1}: {wrong} (kept in "
                            f"metadata.invalid_boxes)")
    return {"text": text_or_empty(clue.get("text")),
            "reasoning": text_or_empty(clue.get("reasoning")), "boxes": boxes}
