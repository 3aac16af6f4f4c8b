"""VLMEvalKit TSV export (`export --format vlmevalkit`).

Writes what VLMEvalKit's `ImageBaseDataset` reads: `index, question, answer, image` (base64,
or a Python-literal list of base64 strings for multi-image items), option columns `A`, `B`, …
(single capital letters, VLMEvalKit's own; an option labelled otherwise has no column and is
left out, each such item and label listed in the summary's `lost_options`),
`category` (subtask), `l2-category` (domain) and `hint`/`prediction`/`image_path` when the
item has them in metadata. A single-image row whose image equals an earlier single-image row
refers to that row's index (VLMEvalKit's own space saving). Image options are appended to the
row's images and the option column reads `<image N>`.

Extra columns VLMEvalKit ignores keep the rest: `item_id`, `reasoning_type` and
`cluelab_metadata` (JSON), so that import -> export -> import gives the same items.
"""
from __future__ import annotations

import base64
import json
from pathlib import Path

from domain.item_ids import INVISIBLE_CONTROLS
from judges.cells import FORMULA_STARTS

from .media_export import image_bytes

SCALAR_COLUMNS = ("hint", "prediction", "image_path")   # metadata keys written as columns


def export(store, out: Path, dataset: str | None = None, images=None) -> dict:
    """`images` is not used: the images are in the TSV (base64)."""
    out = Path(out)
    items = list(store.iter_items(dataset=dataset))
    labels = sorted({o["label"] for item in items for o in item.get("options") or []
                     if len(o["label"]) == 1 and o["label"].isupper()})
    rows = [item_row(item, index, labels) for item, index in zip(items, _indexes(items))]
    header = (["index", "question", "answer", "image"] + labels
              + ["category", "l2-category", "reasoning_type"] + list(SCALAR_COLUMNS)
              + ["item_id", "cluelab_metadata"])
    required = {"index", "question", "answer", "image", *labels}
    header = [c for c in header if c in required or any(row.get(c) for row in rows)]
    first_row_of: dict[str, str] = {}   # sha -> index of the first single-image row using it
    images = set()
    out.parent.mkdir(parents=True, exist_ok=True)
    formulas = controls = 0
    with open(out, "w", encoding="utf-8", newline="") as handle:
        handle.write(tsv_line(header))
        for row in rows:             # images are encoded row by row: exports can be large
            shas = row.pop("_shas")
            images.update(shas)
            formulas += sum(map(formula_like, row.values()))
            controls += sum(map(holds_control, row.values()))
            row["image"] = _image_cell(store, shas, row["index"], first_row_of)
            handle.write(tsv_line([row.get(column, "") for column in header]))
    lost = {item["id"]: left for item in items
            if (left := [o["label"] for o in item.get("options") or []
                         if o["label"] not in labels])}
    return {"format": "vlmevalkit", "items": len(items), "images": len(images),
            "formula_cells": formulas, "control_cells": controls, "lost_options": lost,
            "paths": [str(out)]}


def holds_control(value) -> bool:
    """Does this cell hold an invisible control character (a NUL, ESC, U+FEFF…:
    domain.item_ids.INVISIBLE_CONTROLS)? Only an import brings one in (flagged there; a save
    refuses it); the TSV keeps it exact and the export counts such cells, so that the person
    who downloads it is told (a NUL stops some readers)."""
    return isinstance(value, str) and any(ord(ch) in INVISIBLE_CONTROLS for ch in value)


def formula_like(value) -> bool:
    """Would a spreadsheet run this cell as a formula (= + - @ first, and no plain number:
    "-3" is a number)? The TSV keeps such cells exact; the export counts them so that the
    person who downloads it is told (an annotator can type "=HYPERLINK(…)" as a question)."""
    if not isinstance(value, str) or not value.startswith(FORMULA_STARTS):
        return False
    try:
        float(value)
    except ValueError:
        return True
    return False


def tsv_line(values) -> str:
    """One TSV line. Values stay exact (a data file: no spreadsheet neutralising, as README
    and docs/FORMATS.md tell users who would open it in a spreadsheet); a field
    holding a tab, CR, LF or a double quote is quoted, its quotes doubled, as pandas and
    csv.reader read it. Python's csv writer with a "\\n" line end leaves a lone CR
    unquoted, and readers that end lines at CR then split the row."""
    return "\t".join(_tsv_field("" if value is None else str(value)) for value in values) + "\n"


def _tsv_field(text: str) -> str:
    if any(c in text for c in '\t\r\n"'):
        return '"' + text.replace('"', '""') + '"'
    return text


def _indexes(items: list[dict]) -> list[str]:
    """The items' original VLMEvalKit indexes when all present and unique, else 0..n-1."""
    original = [str(item.get("metadata", {}).get("index", "")).strip() for item in items]
    if all(original) and len(set(original)) == len(original):
        return original
    return [str(i) for i in range(len(items))]


def _image_cell(store, shas: list[str], index: str, first_row_of: dict) -> str:
    if not shas:
        return ""
    if len(shas) == 1:
        if shas[0] in first_row_of:
            return first_row_of[shas[0]]
        first_row_of[shas[0]] = index
    encoded = [base64.b64encode(image_bytes(store, sha)).decode("ascii") for sha in shas]
    return encoded[0] if len(encoded) == 1 else repr(encoded)


def item_row(item: dict, index: str, labels: list[str]) -> dict:
    """The row of one item, with `_shas` (its images, option images last) instead of image."""
    shas = list(item.get("images") or [])
    option_cells = {}
    for option in item.get("options") or []:
        if option.get("image"):
            shas.append(option["image"])
            option_cells[option["label"]] = f"<image {len(shas)}>"
        else:
            option_cells[option["label"]] = option.get("text", "")
    metadata = dict(item.get("metadata") or {})
    metadata.pop("index", None)
    row = {"index": index, "question": item.get("question", ""),
           "answer": item.get("answer", ""), "_shas": shas,
           "category": item.get("subtask") or "", "l2-category": item.get("domain") or "",
           "reasoning_type": item.get("reasoning_type") or "", "item_id": item["id"]}
    for column in SCALAR_COLUMNS:
        if isinstance(metadata.get(column), str):
            row[column] = metadata.pop(column)
    row.update({label: text for label, text in option_cells.items() if label in labels})
    row["cluelab_metadata"] = json.dumps(metadata, ensure_ascii=False, sort_keys=True) \
        if metadata else ""
    return row
