"""The import orchestrator: records from a format parser -> items in the store.

Why one orchestrator: every format shares the same rules, and they are easier to trust when
written once.

1. The whole file is parsed first. Anything fatal (unreadable file, wrong format, a file
   whose every image points outside the image folder) raises `FormatError` before the
   database is touched.
2. Then, inside ONE `store.atomic()` transaction, images are added, image refs become
   sha256, box indices become image shas, and items are created. An exception escaping
   the loop rolls the whole import back, so the database is exactly as it was.
3. Per-item trouble never aborts: an unreadable image, a box outside its image, an id that
   already exists. The item is created with the problem in its `problems` (so it is
   flagged) and the raw data in its metadata; only an id already in the store, or one the
   store cannot take (a control or invisible character in it), is skipped, with its reason.
"""
from __future__ import annotations

import time
from pathlib import Path

from domain.item_ids import (NAME_MARKUP, has_hidden_characters, id_problem, label_problem,
                             without_direction_marks, without_hidden)
from judges.gold_check import gold_problems

from .direction_flags import direction_flags, image_names
from .image_adder import ImageAdder, Unread
from .records import UNPARSED, ImageRef
from .report import FormatError, ImportReport, problem

SKIPPED_EXISTING = "skipped: an item with this id is already in the store"
IN_STORE = "id already in the store"               # the reasons a report counts skips by
REFUSED = "refused by the store"


def run_import(store, fmt: str, reader, path, images_dir=None, dataset=None,
               author="import", progress=None, source_name=None,
               replace=False, may_release=False) -> ImportReport:
    """Parse `path` with `reader`, then store every record in one transaction.

    With `replace`, a record whose id is in the store replaces that item when it differs
    (a new revision: history kept) and leaves it untouched when it is the same."""
    # imported late: the parsers work (and are tested) without the store
    from store import DuplicateItemError, MediaError, ReadOnlyError, ValidationError

    started = time.monotonic()
    path = Path(path)
    records = reader(path, Path(images_dir) if images_dir else None, dataset)
    _refuse_if_all_unsafe(path, records)
    _rename_duplicate_ids(records)
    # shown in the report and stored in History's "import jsonl …": no direction controls
    source_name = without_direction_marks(source_name or str(path))
    report = ImportReport(format=fmt, path=source_name, items_read=len(records),
                          dataset=dataset or _single_dataset(records))
    comment = f"import {fmt} {Path(source_name).name}"
    images = ImageAdder(store, MediaError)
    total = len(records)
    # progress counts image files first, then items: both take real time on big imports
    n_images = images.prepare_all([ref for record in records for ref in _all_refs(record)],
                                  lambda done, n: progress(done, n + total) if progress else None)
    with store.atomic():
        images.register()
        existing = set(store.item_ids())
        fresh = {name for name in {r["dataset"] for r in records}
                 if not store.dataset_exists(name)}
        for done, record in enumerate(records, start=1):
            item_id = record["id"]
            bad_id = id_problem(item_id)
            if bad_id:                  # the store would refuse it: said as it is, counted
                report.skip(item_id, bad_id, problem("not imported", bad_id))
            elif replace and (item_id in existing or store.item_exists(item_id)):  # or deleted
                item = materialize(record, images)
                was = store.item_status(item_id)
                try:
                    with store.atomic():
                        outcome = store.replace_item(item, author, f"import --replace {fmt} "
                                                                   f"{Path(source_name).name}",
                                                     may_release=may_release)
                except (ReadOnlyError, ValidationError) as exc:
                    report.skip(item_id, "not replaced: " + (
                        "read-only" if isinstance(exc, ReadOnlyError) else REFUSED),
                        problem("not replaced", "the item", _store_reason(exc)))
                else:
                    setattr(report, outcome, getattr(report, outcome) + 1)
                    report.back_to_review += outcome == "replaced" and was == "verified" and \
                        store.item_status(item_id) == "in_review" and \
                        item["status"] == "verified"
                    if outcome != "unchanged":
                        report.went_into(record["dataset"], record["dataset"] in fresh)
                    report.flagged += bool(item["problems"]) and outcome != "unchanged"
                    if outcome != "unchanged":
                        report.add_item_problems(item_id, item["problems"],
                                                 record.get("carried_problems", 0))
            elif item_id in existing:
                report.skip(item_id, IN_STORE, SKIPPED_EXISTING)
            else:
                item = materialize(record, images)
                try:
                    with store.atomic():
                        store.create_item(item, author, comment=comment,
                                          may_release=may_release, imported=True)
                except DuplicateItemError:        # created meanwhile by another writer
                    report.skip(item_id, IN_STORE, SKIPPED_EXISTING)
                except ValidationError as exc:
                    report.skip(item_id, REFUSED, problem("not imported", REFUSED,
                                                          _store_reason(exc)))
                else:
                    report.imported += 1
                    report.went_into(record["dataset"], record["dataset"] in fresh)
                    report.flagged += bool(item["problems"])
                    report.add_item_problems(item_id, item["problems"],
                                             record.get("carried_problems", 0))
            if progress is not None:
                progress(n_images + done, n_images + total)
    report.images = images.stored_count
    report.seconds = time.monotonic() - started
    return report


def materialize(record: dict, images: ImageAdder) -> dict:
    """The store item for `record`: images added, refs replaced by shas, boxes checked."""
    item = {key: value for key, value in record.items()
            if key not in ("carried_problems", UNPARSED)}
    problems = list(record["problems"])
    metadata = dict(record["metadata"])
    if not str(item.get("question") or "").strip():
        # kept empty, never made up: the page shows an empty box that says why, and the
        # editor refuses it past draft (the problem below, or the line's, says what is wrong)
        item["question"] = ""
        if not record.get(UNPARSED) and \
                not any(p.startswith("missing field: question") for p in problems):
            problems.append("missing field: question (empty question text)")

    if any(ch in NAME_MARKUP for ch in str(item.get("id") or "")):
        # kept (the dataset names its items; a new id typed in the app may hold none of
        # these), flagged so that a curator sees it before it travels into exports
        problems.append(problem("id with markup characters", "the id",
                                "ids made in the app hold none of < > `; this one is kept"))
    for field in ("domain", "subtask", "reasoning_type"):
        value = item.get(field)
        if isinstance(value, str) and has_hidden_characters(value):
            # the store refuses such a name (it reads as another): cleaned, never dropped
            metadata[f"original_{field}"] = value
            item[field] = without_hidden(value) or None
            problems.append(problem("hidden characters removed", field,
                                    f"the original is in metadata.original_{field}"))
        value = item.get(field)
        if isinstance(value, str) and any(ch in NAME_MARKUP for ch in value):
            # nor one with markup (`<img onerror=...>` as a domain): cleaned, never dropped
            metadata.setdefault(f"original_{field}", value)
            item[field] = "".join(ch for ch in value if ch not in NAME_MARKUP).strip() or None
            problems.append(problem("markup characters removed", field,
                                    f"the original is in metadata.original_{field}"))

    shas, sizes = [], {}
    for index, ref in enumerate(record["images"]):
        result = images.add(ref)
        if isinstance(result, Unread):
            _add_once(problems, problem(result.kind, f"image {index + 1}", result.expected))
            continue
        sizes[index] = result
        shas.append(result[0])
    item["images"] = shas

    options = []
    for position, option in enumerate(record["options"], start=1):
        option = dict(option)
        if label_problem(str(option.get("label") or "")):
            # flagged, never relabelled: the gold and the history name the label
            _add_once(problems, problem("option label with markup", f"option {position}",
                                        "a letter or a short name, with no character that "
                                        "reads as markup"))
        ref = option.get("image")
        if isinstance(ref, ImageRef):
            result = images.add(ref)
            if isinstance(result, Unread):
                _add_once(problems, problem(result.kind, f"the image of option {position}",
                                            result.expected))
                option["image"] = None
            else:
                option["image"] = result[0]
        options.append(option)
    item["options"] = options

    item["clues"] = [_place_boxes(clue_index, clue, record["images"], sizes, problems, metadata)
                     for clue_index, clue in enumerate(record["clues"])]
    item["metadata"] = metadata
    # an entry never read has its parse error alone: no complaint about fields it never had
    item["problems"] = problems if record.get(UNPARSED) else \
        problems + gold_flags(item, problems) + direction_flags(item, image_names(record))
    return item


def gold_flags(item: dict, problems: list[str]) -> list[str]:
    """The shared gold-answer rules (judges.gold_check, which the editor applies too), as
    import problems; a kind the format's parser already reported is not repeated."""
    reported = {problem.split(":", 1)[0] for problem in problems}
    return [p.message for p in gold_problems(item, quote=False) if p.kind not in reported]


def _place_boxes(clue_index, clue, refs, sizes, problems, metadata) -> dict:
    """Clue with boxes on stored images; boxes that cannot be placed go to metadata."""
    placed = []
    for box in clue.get("boxes", []):
        index = box["image"]
        coords = [box[k] for k in ("x0", "y0", "x1", "y1")]
        lost = {"clue": clue_index, "image": refs[index].name if 0 <= index < len(refs)
                else index, "x0": coords[0], "y0": coords[1], "x1": coords[2], "y1": coords[3]}
        if index not in sizes:
            metadata.setdefault("unplaced_boxes", []).append(lost)
            _add_once(problems, f"box not placed: clue {clue_index + 1} has a box on an image "
                                f"that could not be imported (kept in metadata.unplaced_boxes)")
            continue
        sha, width, height = sizes[index]
        reason = box_problem(coords, width, height)
        if reason:
            metadata.setdefault("invalid_boxes", []).append(lost)
            problems.append(f"invalid box: clue {clue_index + 1}: {reason} "
                            f"(kept in metadata.invalid_boxes)")
            continue
        placed.append({"image": sha, "x0": coords[0], "y0": coords[1],
                       "x1": coords[2], "y1": coords[3]})
    return {"text": clue.get("text", ""), "reasoning": clue.get("reasoning", ""),
            "boxes": placed}


def box_problem(coords, width: int, height: int) -> str | None:
    """Why a pixel box [x0, y0, x1, y1] is not valid on a width x height image, or None."""
    if any(isinstance(c, bool) or not isinstance(c, (int, float)) or c != c
           or c in (float("inf"), float("-inf")) for c in coords):
        return "coordinates are not numbers"
    x0, y0, x1, y1 = coords
    if x0 >= x1 or y0 >= y1:
        return "the box is empty or reversed (need x0 < x1 and y0 < y1)"
    if x0 < 0 or y0 < 0 or x1 > width or y1 > height:
        return f"the box lies outside the {width}x{height} image"
    return None


def _store_reason(exc) -> str:
    """Why the store refused an item: its field, never its message, which may quote the
    value it refused (read from the file). A read-only item's message is the store's own,
    and so is a refused release's (who may set `released`): neither quotes a value; a part
    over its size limit is named with the limit (TooLargeError.reason quotes no value)."""
    from store import ReadOnlyError, ReleaseRefusedError, TooLargeError
    if isinstance(exc, (ReadOnlyError, ReleaseRefusedError)):
        return str(exc)
    if isinstance(exc, TooLargeError):
        return f"its {exc.field}: {exc.reason}"
    return f"its {exc.field} breaks the store's rules" if exc.field else \
        "it breaks the store's rules"


def _add_once(problems: list, reason: str) -> None:
    if reason not in problems:
        problems.append(reason)


def _refuse_if_all_unsafe(path: Path, records: list[dict]) -> None:
    """A file whose every image path leaves the image folder is hostile or wrong: refuse it."""
    refs = [ref for record in records for ref in _all_refs(record)]
    if refs and all(ref.unsafe for ref in refs):
        raise FormatError(path, f"every image path ({len(refs)}) leaves the image folder; "
                                f"nothing imported")


def _all_refs(record: dict):
    yield from record["images"]
    for option in record["options"]:
        if isinstance(option.get("image"), ImageRef):
            yield option["image"]


def _rename_duplicate_ids(records: list[dict]) -> None:
    """A second item with the same id in one file is kept under `<id>~2` and flagged."""
    seen: dict[str, int] = {}
    taken = {record["id"] for record in records}
    for record in records:
        original = record["id"]
        if original not in seen:
            seen[original] = 1
            continue
        n = seen[original]
        while True:
            n += 1
            candidate = f"{original}~{n}"
            if candidate not in taken:
                break
        seen[original] = n
        taken.add(candidate)
        record["id"] = candidate
        record["problems"].append(problem("duplicate id in file", f"imported as {candidate!r}",
                                          "each id once; an earlier item has this one"))


def _single_dataset(records: list[dict]) -> str | None:
    datasets = {record["dataset"] for record in records}
    return datasets.pop() if len(datasets) == 1 else None
