"""Import records: what every format parser produces and the importer consumes.

A record is the item dict of docs/STORE_API.md with two differences, so that parsers stay
pure (no store, no database) and can be tested on their own:

* images are `ImageRef`s (a file inside the image folder, or raw bytes) instead of sha256
  strings: `record["images"]` is a list of refs and an option's `"image"` is a ref or None;
* a box's `"image"` is an index into `record["images"]`.

A parser never drops a malformed item: it appends a sentence to `record["problems"]` and keeps
the raw source text in `record["metadata"]`. The importer turns refs into sha256 and boxes into
store boxes.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path



@dataclass(eq=False)
class ImageRef:
    """One image as the source file names it, plus where its bytes come from.

    Exactly one of `path`, `data` or `error` is set. `error` is the kind of reason the image
    cannot be read (image file not found, unsafe image path) and `expected` what was
    expected; the importer reports them as a problem of the item, naming the image by its
    place (formats.report.problem). Neither quotes `name`, which is the file's own text.
    `unsafe` marks refusals by `safepath` so that a file whose every image points outside
    the folder can be refused as a whole.
    """

    name: str
    path: Path | None = None
    data: bytes | None = None
    error: str | None = None
    unsafe: bool = False
    expected: str = ""

    def cache_key(self):
        """Same file or same bytes object -> same key, so a shared image is stored once."""
        if self.path is not None:
            return ("path", str(self.path))
        if self.data is not None:
            return ("data", id(self.data))
        return None


def new_record(item_id: str, dataset: str, question: str = "", **fields) -> dict:
    """A record with every item field present, defaults filled in."""
    record = {
        "id": item_id,
        "dataset": dataset,
        "domain": None,
        "subtask": None,
        "reasoning_type": None,
        "question": question,
        "answer_type": "open",
        "options": [],
        "answer": "",
        "aliases": [],
        "gt_reasoning": "",
        "status": "draft",
        "problems": [],
        "metadata": {},
        "images": [],
        "clues": [],
    }
    unknown = set(fields) - set(record)
    if unknown:
        raise TypeError(f"unknown record fields: {sorted(unknown)}")
    record.update(fields)
    return record


UNPARSED = "unparsed"
"""A record's key, set by `unparsed_record`: the source entry could not be read at all."""


def unparsed_record(item_id: str, dataset: str, reason: str, raw_key: str, raw,
                    **fields) -> dict:
    """The record of an entry the parser could not read (a line that is not JSON, an entry
    that is no object): its one problem is `reason`, the raw text kept in metadata[raw_key].
    Marked `UNPARSED`, so the importer adds no follow-on complaint about its fields (the
    report listed "missing field: question" under the parse error of the same line)."""
    record = new_record(item_id, dataset, **fields)
    record["problems"].append(reason)
    record["metadata"][raw_key] = raw
    record[UNPARSED] = True
    return record


def unparsed_line(item_id: str, dataset: str, error: str, line: str, **fields) -> dict:
    """The record of a JSON Lines line that could not be read: a broken JSON object keeps
    its text (metadata.raw_line, shown to annotators to recover its id and question); a line
    that opens no object keeps none, its problem says so. Why: "SECRET_API_KEY=sk-…" in a
    file with one JSON line was stored and shown to every annotator (a review, round 27):
    a line that is no object was never an item, and may be anything."""
    if line.lstrip().startswith("{"):
        return unparsed_record(item_id, dataset, f"malformed line: {error}", "raw_line", line,
                               **fields)
    record = unparsed_record(item_id, dataset, f"malformed line: {error} (it opens no JSON "
                             "object: its text is not kept)", "raw_line", None, **fields)
    del record["metadata"]["raw_line"]
    return record


def text_or_empty(value) -> str:
    """Source files use null, numbers or strings for text fields; the item wants a string."""
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def describe(value) -> str:
    """What a value from a file is, without quoting it.

    Why: problem sentences and error messages are shown in toasts, reports and logs, and a
    file imported by mistake may be a secret (`/proc/self/environ`). A message says where the
    problem is and what was expected; the value itself stays in the item's metadata.
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return f"a text of {len(value)} characters"
    if isinstance(value, dict):
        return f"an object with {len(value)} fields"
    if isinstance(value, (list, tuple)):
        return f"a list of {len(value)}"
    return "a value of another kind"


def gold_not_an_option(labels) -> str:
    """The problem of a multiple-choice gold answer that names no option."""
    return f"gold answer has no option: it is none of the {len(labels)} option labels"


def dedupe(values) -> list:
    """Keep the first occurrence of every value, in order."""
    seen, out = set(), []
    for value in values:
        if value not in seen:
            seen.add(value)
            out.append(value)
    return out


_DIGITS = re.compile(r"(\d+)")


def natural_key(text: str):
    """Sort key so that '2.png' < '10.png' (the order MMR-Life and humans use)."""
    return [(0, int(part), "") if part.isdigit() else (1, 0, part.lower())
            for part in _DIGITS.split(text) if part != ""]


def option_labels(count: int) -> list[str]:
    """A, B, C, ... for the given number of options."""
    return [chr(ord("A") + i) for i in range(count)]


def guess_answer_type(answer: str, labels) -> str:
    """Answer type from the gold answer: Yes/No, an option letter, $country,region$, or open."""
    text = answer.strip()
    bare = text.rstrip(".").strip().lower()
    if bare in ("yes", "no"):
        return "yes_no"
    if labels and text.rstrip(".").strip().strip("()").upper() in labels:
        return "multiple_choice"
    if text.startswith("$") and text.endswith("$") and "," in text:
        return "location"
    return "open"
