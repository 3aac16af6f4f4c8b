"""VLMEvalKit TSV import (`--format vlmevalkit`).

Columns: `index`, `question`, `answer`, `image` (base64; a Python-literal list of base64
strings for multi-image rows; 64 characters or fewer = the index of another row whose image
is reused), optional `image_path`, options in single-letter columns `A`, `B`, … (non-empty
ones), optional `category` (-> subtask), `l2-category` (-> domain), `hint`, and `prediction`
in prediction files. Every other column lands in metadata. ClueLab's own exports add
`item_id`, `reasoning_type` and `cluelab_metadata` (JSON) so that they import back unchanged;
an option written as `<image N>` is an image option (the N-th image of the row).
"""
from __future__ import annotations

import ast
import base64
import binascii
import csv
import io
import json
import re
import sys
from pathlib import Path

from domain.item_ids import dataset_from_file

from .records import ImageRef, gold_not_an_option, guess_answer_type, new_record
from .report import FormatError
from .safepath import image_ref
from .seekworld import parse_location_answer
from .sources import read_text

REFERENCE_MAX = 64
OPTION_COLUMN = re.compile(r"^[A-Z]$")
IMAGE_OPTION = re.compile(r"^<image (\d+)>$")
STANDARD = {"question", "answer", "image", "category", "l2-category", "item_id",
            "reasoning_type", "cluelab_metadata"}


def read_rows(path: Path) -> tuple[list[str], list[tuple[int, dict, str | None]]]:
    """(header, [(row number, {column: value}, problem)]) of a TSV file."""
    text = read_text(path)
    csv.field_size_limit(min(sys.maxsize, 2 ** 31 - 1))
    reader = csv.reader(io.StringIO(text, newline=""), delimiter="\t")
    try:
        rows = list(reader)
    except csv.Error as exc:
        raise FormatError(path, f"not a readable TSV (line {reader.line_num}: "
                                f"{_csv_reason(exc)})") from None
    if not rows:
        raise FormatError(path, "empty file")
    header = [h.strip() for h in rows[0]]
    missing = [c for c in ("index", "question") if c not in header]
    if missing:
        raise FormatError(path, f"not a VLMEvalKit TSV: missing column(s) in the header "
                                f"line; expected tab-separated columns including "
                                f"{', '.join(missing)}")
    out = []
    for number, row in enumerate(rows[1:], start=2):
        if not any(cell.strip() for cell in row):
            continue
        problem = None if len(row) == len(header) else \
            f"malformed row: line {number} has {len(row)} fields, the header has {len(header)}"
        out.append((number, dict(zip(header, row)), problem))
    return header, out


def _csv_reason(exc: csv.Error) -> str:
    """csv's error in our own words: a message never passes on a parser's text."""
    text = str(exc)
    if "field larger" in text:
        return "a field is larger than the field limit"
    if "NUL" in text:
        return "the file holds NUL bytes, so it is not text"
    return "malformed quoting"


def read(path: Path, images_dir: Path | None = None, dataset: str | None = None) -> list[dict]:
    base = Path(images_dir) if images_dir else Path(path).parent
    header, rows = read_rows(path)
    by_index = {}
    for _number, row, _problem in rows:
        by_index.setdefault(row.get("index", "").strip(), row.get("image", ""))
    decoded: dict[str, list] = {}     # index -> decoded images, so a reused image is decoded once
    records = []
    for number, row, problem in rows:
        records.append(row_to_record(row, number, problem, header, base, dataset,
                                     dataset_from_file(path), by_index, decoded))
    return records


def row_to_record(row, number, problem, header, base, dataset, stem, by_index, decoded) -> dict:
    problems = [problem] if problem else []
    index = row.get("index", "").strip()
    item_id = row.get("item_id", "").strip()
    name = dataset or (item_id.split("/", 1)[0] if "/" in item_id else stem)
    if not item_id or dataset:
        local = item_id.split("/", 1)[1] if "/" in item_id else (index or f"line-{number}")
        item_id = f"{name}/{local}"
    if not index:
        problems.append(f"missing field: index (line {number})")
    metadata = _metadata(row, problems)
    images = _images(row, index, base, by_index, decoded, problems)
    options = []
    for column in header:
        value = row.get(column, "")
        if OPTION_COLUMN.match(column) and value.strip():
            options.append(_option(column, value, images))
    used = {id(o["image"]) for o in options if o["image"] is not None}
    context = [ref for ref in images if id(ref) not in used]
    answer = row.get("answer", "")
    labels = [o["label"] for o in options]
    record = new_record(item_id, name, row.get("question", ""), answer=answer,
                        answer_type=guess_answer_type(answer, labels), options=options,
                        images=context, problems=problems, metadata=metadata)
    record["subtask"] = row.get("category") or None
    record["domain"] = row.get("l2-category") or None
    record["reasoning_type"] = row.get("reasoning_type") or None
    if "question" in row and not row["question"].strip():
        problems.append("missing field: question")
    if labels and answer and record["answer_type"] != "multiple_choice":
        problems.append(gold_not_an_option(labels))
    if record["answer_type"] == "location":
        record["aliases"] = parse_location_answer(answer)[1]
    return record


def _metadata(row: dict, problems: list) -> dict:
    metadata = {}
    raw = row.get("cluelab_metadata", "").strip()
    if raw:
        try:
            value = json.loads(raw)
            if not isinstance(value, dict):
                raise ValueError("not an object")
            metadata.update(value)
        except ValueError:
            problems.append("malformed cluelab_metadata: not a JSON object (kept as text)")
            metadata["cluelab_metadata"] = raw
    for column, value in row.items():
        if column in STANDARD or OPTION_COLUMN.match(column) or not value.strip():
            continue          # empty cells are absent values (pandas writes NaN as "")
        metadata[column] = value
    return metadata


def _option(label: str, value: str, images: list) -> dict:
    match = IMAGE_OPTION.match(value.strip())
    if match and 1 <= int(match.group(1)) <= len(images):
        return {"label": label, "text": "", "image": images[int(match.group(1)) - 1]}
    return {"label": label, "text": value, "image": None}


def _images(row, index, base, by_index, decoded, problems) -> list:
    """ImageRefs of a row: base64, a list of base64, another row's index, or image_path."""
    value = row.get("image", "").strip()
    name = row.get("image_path", "").strip() or f"row {index}"
    if not value:
        if row.get("image_path", "").strip():
            return [image_ref(base, p) for p in _as_list(row["image_path"])]
        if "image" in row:
            problems.append("missing image: empty image column and no image_path")
        return []
    if len(value) <= REFERENCE_MAX:
        target = by_index.get(value)
        if target is None or len(target.strip()) <= REFERENCE_MAX:
            problems.append("missing image: the image column names another row's index, "
                            "and no row with that index has image data")
            return []
        if value in decoded:
            return decoded[value]
        index, value = value, target.strip()
    refs = _decode(value, row, name, problems)
    if index and index not in decoded and by_index.get(index, "").strip() == value:
        decoded[index] = refs
    return refs


def _decode(value: str, row: dict, name: str, problems: list) -> list:
    names = _as_list(row.get("image_path", "")) or []
    if value.startswith("[") and value.endswith("]"):
        try:
            parts = ast.literal_eval(value)
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            problems.append("malformed image: not a Python list of base64 strings")
            return []
        if not isinstance(parts, (list, tuple)) or not all(isinstance(p, str) for p in parts):
            problems.append("malformed image: not a Python list of base64 strings")
            return []
    else:
        parts = [value]
    refs = []
    for k, part in enumerate(parts):
        label = names[k] if k < len(names) else (f"{name} image {k + 1}" if len(parts) > 1
                                                 else name)
        try:
            refs.append(ImageRef(name=label, data=base64.b64decode(part, validate=True)))
        except (binascii.Error, ValueError):
            refs.append(ImageRef(name=label, error="malformed image", expected="not valid base64"))
    return refs


def _as_list(value: str) -> list[str]:
    value = (value or "").strip()
    if value.startswith("[") and value.endswith("]"):
        try:
            parts = ast.literal_eval(value)
            if isinstance(parts, (list, tuple)):
                return [str(p) for p in parts]
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            pass
    return [value] if value else []
