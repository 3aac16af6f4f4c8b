"""MMR-Life (`--format mmr-life`): the authors' JSON array plus their image tree.

Each entry is `{id, img_path, question, golden_answer}`. `img_path` is relative to the image
folder (default: the folder holding the JSON file) and looks like
`images/<reasoning type>/<task name>/<n>`; the folder holds the context images and, for image
options, an `options/` folder with one image per option (A-E in natural order). Text options
are written inline after `Options:` and are split by `mmr_options`.

Every folder is listed once with os.scandir (no globbing, no walking): the release has about
19,000 images and the import must stay fast.
"""
from __future__ import annotations

import os
from pathlib import Path

from .report import problem

from .mmr_options import split_options, split_question
from .records import (ImageRef, gold_not_an_option, natural_key, new_record, text_or_empty,
                      unparsed_record)
from .report import FormatError
from .safepath import UnsafePathError, image_ref, resolve_inside
from .sources import read_json

DATASET = "mmr-life"
OPTION_COUNT = 5
IMAGE_EXTENSIONS = {".png", ".jpg", ".jpeg", ".webp", ".gif", ".bmp", ".tif", ".tiff"}
REQUIRED = ("id", "img_path", "question", "golden_answer")


def read(path: Path, images_dir: Path | None = None, dataset: str | None = None) -> list[dict]:
    """All MMR-Life entries of `path` as import records."""
    data = read_json(path)
    if isinstance(data, dict) and isinstance(data.get("data"), list):
        data = data["data"]
    if not isinstance(data, list):
        raise FormatError(path, "not MMR-Life: expected a JSON array of items")
    if data and not any(isinstance(e, dict) and "img_path" in e and "golden_answer" in e
                        for e in data):
        raise FormatError(path, "not MMR-Life: no item has 'img_path' and 'golden_answer'")
    base = Path(images_dir) if images_dir else Path(path).parent
    # `--images .../images` (the folder itself rather than its parent) is an easy mistake:
    # img_path then resolves without its leading "images/", still inside the given folder.
    inside_images = base.name == "images" and not (base / "images").is_dir()
    name = dataset or DATASET
    return [entry_to_record(entry, position, base, name, inside_images)
            for position, entry in enumerate(data, start=1)]


def entry_to_record(entry, position: int, base: Path, dataset: str,
                    inside_images: bool = False) -> dict:
    """One MMR-Life entry as a record; every deviation becomes a problem sentence."""
    if not isinstance(entry, dict):
        return unparsed_record(f"{dataset}/#{position}", dataset,
                               f"malformed item: entry {position} is not a JSON object",
                               "raw", entry, answer_type="multiple_choice")
    problems = [f"missing field: {key}" for key in REQUIRED if key not in entry]
    source_id = text_or_empty(entry.get("id")).strip() or f"#{position}"
    raw_question = text_or_empty(entry.get("question"))
    img_path = text_or_empty(entry.get("img_path"))
    gold = text_or_empty(entry.get("golden_answer")).strip()
    stem, option_text = split_question(raw_question)
    metadata = {"source_id": source_id, "img_path": img_path,
                "original_question": raw_question, "task_code": source_id.split("_")[0]}
    metadata.update({k: v for k, v in entry.items() if k not in REQUIRED})
    record = new_record(f"{dataset}/{source_id}", dataset, stem,
                        answer_type="multiple_choice", answer=gold, metadata=metadata)
    reasoning_type, task = _type_and_task(img_path)
    record["reasoning_type"], record["subtask"] = reasoning_type, task
    if img_path and task is None:
        problems.append(problem("unexpected image path", "img_path",
                                "images/<reasoning type>/<task>/<n>"))
    if option_text is None and "question" in entry:
        problems.append("no 'Options:' in question")

    folder = img_path.replace("\\", "/")
    if inside_images and folder.startswith("images/"):
        folder = folder[len("images/"):]
    folder_ok, context, option_images = _list_images(base, folder, problems) \
        if img_path else (False, [], [])
    record["images"] = context
    if folder_ok and not context:
        problems.append(problem("no context images", "the img_path folder",
                                "image files in it"))
    text_options = _text_options(option_text, problems, metadata)
    record["options"] = _merge_options(text_options, option_images, problems, metadata)

    labels = [option["label"] for option in record["options"]]
    if len(labels) != OPTION_COUNT and (labels or folder_ok):
        problems.append(f"option count: expected {OPTION_COUNT}, found {len(labels)}")
    if gold and gold not in labels and labels:
        problems.append(gold_not_an_option(labels))
    elif not gold and "golden_answer" in entry:
        problems.append("empty gold answer")
    record["problems"] = problems
    return record


def _type_and_task(img_path: str) -> tuple[str | None, str | None]:
    parts = [p for p in img_path.replace("\\", "/").split("/") if p]
    if len(parts) == 4 and parts[0] == "images":
        return parts[1], parts[2]
    return None, None


def _image_files(folder: Path) -> tuple[list[tuple[str, bool]], bool]:
    """([(image file name, is a symlink)] directly in `folder`, natural order; and whether
    an options/ folder exists). Symlinks are marked so that they can be checked."""
    names, has_options = [], False
    with os.scandir(folder) as entries:
        for entry in entries:
            if entry.name.startswith("."):
                continue
            if entry.name == "options" and entry.is_dir():
                has_options = True
            elif os.path.splitext(entry.name)[1].lower() in IMAGE_EXTENSIONS and entry.is_file():
                names.append((entry.name, entry.is_symlink()))
    names.sort(key=lambda pair: natural_key(pair[0]))
    return names, has_options


def _refs(base: Path, folder: Path, rel: str, names) -> list[ImageRef]:
    """Refs for files of one folder; a symlink is followed only if it stays inside base."""
    return [image_ref(base, f"{rel}/{name}") if is_link
            else ImageRef(name=f"{rel}/{name}", path=folder / name)
            for name, is_link in names]


def _list_images(base: Path, img_path: str, problems: list) -> tuple[bool, list, list]:
    """(folder readable, context image refs, option image refs) of one item folder.

    An unsafe path yields one errored ref, so the importer can refuse a file whose every
    path leaves the image folder; the problem itself is reported from that ref.
    """
    try:
        folder = resolve_inside(base, img_path)
    except UnsafePathError as exc:
        return False, [ImageRef(name=img_path, error="unsafe image path", expected=str(exc),
                                unsafe=True)], []
    try:
        names, has_options = _image_files(folder)
    except (FileNotFoundError, NotADirectoryError):
        problems.append(problem("missing image folder", "img_path",
                                "a folder inside the image folder"))
        return False, [], []
    except OSError as exc:
        problems.append(problem("unreadable image folder", "img_path",
                                exc.strerror or type(exc).__name__))
        return False, [], []
    context = _refs(base, folder, img_path, names)
    if not has_options:
        return True, context, []
    try:
        options_folder = resolve_inside(base, f"{img_path}/options")
        option_names = _image_files(options_folder)[0]
    except UnsafePathError as exc:
        problems.append(problem("unsafe image path", "the img_path options folder", str(exc)))
        return True, context, []
    except OSError as exc:
        problems.append(problem("unreadable image folder", "the img_path options folder",
                                exc.strerror or type(exc).__name__))
        return True, context, []
    return True, context, _refs(base, options_folder, f"{img_path}/options", option_names)


def _text_options(option_text: str | None, problems: list, metadata: dict) -> list:
    if option_text is None or not option_text.strip():
        return []
    metadata["options_raw"] = option_text
    parsed = split_options(option_text, last_label="E")
    problems.extend(parsed.problems)
    return parsed.options


def _merge_options(text_options: list, option_images: list, problems: list,
                   metadata: dict) -> list[dict]:
    """Text options, image options, or (flagged) both paired by position."""
    if text_options and option_images:
        problems.append("both inline options and an options folder: images paired by position")
        if len(option_images) > len(text_options):
            metadata["unpaired_option_images"] = [r.name for r in
                                                  option_images[len(text_options):]]
    if not text_options:
        labels = [chr(ord("A") + i) for i in range(len(option_images))]
        return [{"label": label, "text": "", "image": ref}
                for label, ref in zip(labels, option_images)]
    return [{"label": label, "text": text,
             "image": option_images[i] if i < len(option_images) else None}
            for i, (label, text) in enumerate(text_options)]
