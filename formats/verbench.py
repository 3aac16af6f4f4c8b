"""VER-Bench (`--format verbench`): a folder with `Annotation/`, `Box_annotation/`, `Image/`.

Per image `<name>`: `Annotation/<name>.json` holds one question (strings) or two (lists);
`visual_clues` is a list of `{"clueN": text, "reasoning": text}` (a list of such lists for two
questions; clue numbers continue across the questions). `Box_annotation/<name>_bbox.json`
holds pixel boxes [x0, y0, x1, y1] keyed by clue number, several per clue, as either a list
of `{"id": N, "bbox": [...]}` or a mapping `{"N": [[...], ...]}`; any other shape is refused
for that image with a problem. Each question becomes one item; answers are open-ended.
"""
from __future__ import annotations

import json
import os
import re
from pathlib import Path

from .mmr_life import IMAGE_EXTENSIONS
from .records import ImageRef, natural_key, new_record, text_or_empty
from .report import FormatError
from .safepath import UnsafePathError, image_ref, resolve_inside
from .sources import loads, parse_failure, require_folder

DATASET = "verbench"
_CLUE_KEY = re.compile(r"^clue\s*_?(\d+)$", re.IGNORECASE)
BOX_SHAPE_HELP = ('expected a list of {"id": N, "bbox": [x0, y0, x1, y1]} or a mapping '
                  '{"N": [[x0, y0, x1, y1], ...]}')


def read(path: Path, images_dir: Path | None = None, dataset: str | None = None) -> list[dict]:
    root = require_folder(path, "VER-Bench folder (with Annotation/, Box_annotation/, Image/)")
    annotation_dir = root / "Annotation"
    if not annotation_dir.is_dir():
        raise FormatError(root, "not a VER-Bench folder: no Annotation/ folder inside")
    image_dir = Path(images_dir) if images_dir else root / "Image"
    images = _files_by_stem(image_dir, IMAGE_EXTENSIONS)
    box_dir = root / "Box_annotation"
    names = sorted((e.name for e in os.scandir(annotation_dir)
                    if e.name.endswith(".json") and e.is_file()), key=natural_key)
    if not names:
        raise FormatError(annotation_dir, "not a VER-Bench folder: no .json annotation files")
    records = []
    for file_name in names:
        stem = file_name[:-len(".json")]
        image = images.get(stem)
        ref = (_image(image_dir, image) if image else
               ImageRef(name=f"Image/{stem}", error="image file not found",
                        expected="Image/ holds no image named like the annotation file"))
        records.extend(image_records(annotation_dir / file_name, box_dir / f"{stem}_bbox.json",
                                     ref, dataset or DATASET, root))
    return records


def _image(image_dir: Path, file_name: str) -> ImageRef:
    """The image file, checked like any named path (a symlink may not leave the folder)."""
    ref = image_ref(image_dir, file_name)
    ref.name = f"Image/{file_name}"
    return ref


def _files_by_stem(folder: Path, extensions) -> dict[str, str]:
    if not folder.is_dir():
        return {}
    found = {}
    with os.scandir(folder) as entries:
        for entry in entries:
            stem, ext = os.path.splitext(entry.name)
            if ext.lower() in extensions and entry.is_file():
                found.setdefault(stem, entry.name)
    return found


def _leaves(root: Path | None, path: Path) -> bool:
    """A file (a symlink) whose target lies outside the VER-Bench folder: never read."""
    if root is None:
        return False
    try:
        resolve_inside(root, str(path.relative_to(root)))
    except (UnsafePathError, ValueError):
        return True
    return False


def image_records(annotation_path: Path, box_path: Path, image: ImageRef, dataset: str,
                  root: Path | None = None):
    """The items (one per question) of one annotated image."""
    stem = annotation_path.stem
    source = f"Annotation/{annotation_path.name}"
    if _leaves(root, annotation_path):
        record = new_record(f"{dataset}/{stem}", dataset, images=[image])
        record["problems"].append(f"unsafe annotation: {source} links outside the VER-Bench "
                                  f"folder; not read")
        return [record]
    raw = b""
    try:
        raw = annotation_path.read_bytes()
        data = loads(raw.decode("utf-8-sig"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        record = new_record(f"{dataset}/{stem}", dataset, images=[image])
        record["problems"].append(f"unreadable annotation: {source}: {parse_failure(exc)}")
        record["metadata"] = {"source_file": source,
                              "raw_annotation": raw.decode("utf-8", errors="replace")}
        return [record]
    boxes, box_problems, box_raw = read_boxes(box_path, root)
    questions, answers, clue_groups, shape_problems = _questions(data)
    clue_numbers = set()
    records = []
    for index, question in enumerate(questions):
        item_id = f"{dataset}/{stem}" if len(questions) == 1 else f"{dataset}/{stem}_q{index + 1}"
        metadata = {"source_file": source, "image_file": image.name}
        if len(questions) > 1:
            metadata["question_index"] = index + 1
        metadata.update({k: v for k, v in data.items()
                         if k not in ("question", "answer", "visual_clues")})
        record = new_record(item_id, dataset, text_or_empty(question), images=[image],
                            answer=text_or_empty(answers[index] if index < len(answers) else ""),
                            answer_type="open", metadata=metadata)
        problems = record["problems"]
        problems.extend(shape_problems)
        problems.extend(box_problems)
        if box_raw is not None:
            metadata["raw_boxes"] = box_raw
        clues = clue_groups[index] if index < len(clue_groups) else []
        for position, clue in enumerate(clues, start=1):
            number, text, reasoning, extra = _clue(clue, position, problems)
            if extra:
                metadata.setdefault("clue_extra_fields", {})[str(position)] = extra
            if number is not None:
                clue_numbers.add(number)
            clue_boxes = boxes.get(number, []) if number is not None else []
            if number is not None and box_raw is None and not clue_boxes and box_path.exists():
                problems.append(f"clue without box: clue{number}")
            record["clues"].append({"text": text, "reasoning": reasoning, "boxes": [
                {"image": 0, "x0": b[0], "y0": b[1], "x1": b[2], "y1": b[3]} for b in clue_boxes]})
        records.append(record)
    unmatched = {str(n): b for n, b in boxes.items() if n not in clue_numbers}
    for record in records:
        if unmatched:
            record["metadata"]["unmatched_boxes"] = unmatched
            record["problems"].append(f"box without clue: ids {', '.join(sorted(unmatched))} in "
                                      f"Box_annotation/{box_path.name} match no clue of this image "
                                      f"(kept in metadata.unmatched_boxes)")
    return records


def _questions(data) -> tuple[list, list, list, list[str]]:
    """(questions, answers, clue lists, problems) for one or two questions."""
    if not isinstance(data, dict):
        return [""], [""], [[]], ["unreadable annotation: not a JSON object"]
    problems = []
    question, answer, clues = data.get("question"), data.get("answer"), data.get("visual_clues")
    for key in ("question", "answer", "visual_clues"):
        if key not in data:
            problems.append(f"missing field: {key}")
    if isinstance(question, list):
        answers = answer if isinstance(answer, list) else [answer]
        if len(answers) != len(question):
            problems.append(f"answer count: {len(question)} questions but {len(answers)} answers")
        groups = clues if isinstance(clues, list) and all(isinstance(g, list) for g in clues) \
            else None
        if groups is None:
            problems.append("malformed visual_clues: two questions need one clue list each")
            groups = [clues if isinstance(clues, list) else []]
        elif len(groups) != len(question):
            problems.append(f"clue list count: {len(question)} questions but {len(groups)} "
                            f"clue lists")
        return question or [""], answers, groups, problems
    if isinstance(clues, list) and clues and all(isinstance(g, list) for g in clues):
        problems.append("malformed visual_clues: one question but several clue lists (merged)")
        clues = [c for group in clues for c in group]
    if clues is not None and not isinstance(clues, list):
        problems.append("malformed visual_clues: not a list")
        clues = []
    return [question], [answer], [clues or []], problems


def _clue(clue, position: int, problems: list):
    """(clue number, text, reasoning, extra fields) of one visual_clues entry."""
    if not isinstance(clue, dict):
        problems.append(f"malformed clue {position}: not an object")
        return None, text_or_empty(clue), "", {}
    number, text, extra = None, "", {}
    for key, value in clue.items():
        match = _CLUE_KEY.match(str(key))
        if match and number is None:
            number, text = int(match.group(1)), text_or_empty(value)
        elif key != "reasoning":
            extra[key] = value
    if number is None:
        problems.append(f"malformed clue {position}: no 'clueN' key")
    return number, text, text_or_empty(clue.get("reasoning")), extra


def read_boxes(path: Path, root: Path | None = None) -> tuple[dict[int, list], list[str], object]:
    """({clue number: [[x0, y0, x1, y1], ...]}, problems, raw data if refused)."""
    name = f"Box_annotation/{path.name}"
    if not path.exists():
        return {}, [f"missing box file: {name}"], None
    if _leaves(root, path):
        return {}, [f"unsafe box file: {name} links outside the VER-Bench folder; not read"], None
    raw = b""
    try:
        raw = path.read_bytes()
        data = loads(raw.decode("utf-8-sig"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        return {}, [f"unreadable box file: {name}: {parse_failure(exc)}"], \
            raw.decode("utf-8", errors="replace")
    pairs = None
    if isinstance(data, list) and all(isinstance(e, dict) and "id" in e and "bbox" in e
                                      for e in data):
        pairs = [(e["id"], e["bbox"]) for e in data]
    elif isinstance(data, dict):
        pairs = [(key, value) for key, value in data.items()]
    if pairs is None:
        return {}, [f"unsupported box file: {name}: {BOX_SHAPE_HELP}"], data
    boxes: dict[int, list] = {}
    problems = []
    for position, (key, value) in enumerate(pairs, start=1):
        number = _box_id(key)
        many = value if isinstance(value, list) and value and all(
            isinstance(v, list) for v in value) else [value]
        for box in many:
            if number is None or not _is_box(box):
                problems.append(f"malformed box in {name}: entry {position}; {BOX_SHAPE_HELP}")
                return {}, problems, data
            boxes.setdefault(number, []).append(list(box))
    return boxes, problems, None


def _box_id(key):
    if isinstance(key, int) and not isinstance(key, bool):
        return key
    match = re.fullmatch(r"\s*(?:clue\s*_?)?(\d+)\s*", str(key), re.IGNORECASE)
    return int(match.group(1)) if match else None


def _is_box(box) -> bool:
    return (isinstance(box, list) and len(box) == 4
            and all(isinstance(c, (int, float)) and not isinstance(c, bool) for c in box))
