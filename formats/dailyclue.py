"""DailyClue (`--format dailyclue`): question-clue-answer triplets.

DailyClue has no published file format, so this reader accepts the shape of the paper's
pipeline example and its obvious variants (documented in docs/FORMATS.md): a JSON array,
`{"items": [...]}` or JSON Lines of objects with `question`, `clues` or `visual_clues`
(ordered sentences, or objects with text/reasoning/boxes), `answer`, optional `options`,
`domain`, `subtask`, and `image` / `images` paths relative to the image folder. Every other
field is kept in metadata.
"""
from __future__ import annotations

from pathlib import Path

from domain.vocabulary import ANSWER_TYPES

from .mmr_options import split_options
from .records import (describe, gold_not_an_option, guess_answer_type, new_record,
                      option_labels, text_or_empty, unparsed_record)
from .safepath import image_ref
from .seekworld import parse_location_answer
from .sources import read_json_or_lines

DATASET = "dailyclue"
MISSING_IMAGE = "missing image: the item names no image (give image or images)"
KNOWN = {"id", "question", "clues", "visual_clues", "answer", "options", "domain", "subtask",
         "reasoning_type", "image", "images", "answer_type", "question_type", "aliases",
         "gt_reasoning", "reasoning"}
QUESTION_TYPES = {"open-ended": "open", "open": "open", "multiple-choice": "multiple_choice",
                  "multiple choice": "multiple_choice", "yes-no": "yes_no", "yes/no": "yes_no"}


def read(path: Path, images_dir: Path | None = None, dataset: str | None = None) -> list[dict]:
    base = Path(images_dir) if images_dir else Path(path).parent
    name = dataset or DATASET
    records = []
    for number, value, error in read_json_or_lines(path):
        if error:
            record = unparsed_record(f"{name}/{number}", name, f"malformed item: {error}",
                                     "raw", value)
        else:
            record = triplet_to_record(value, number, base, name)
        records.append(record)
    return records


def triplet_to_record(entry: dict, number: int, base: Path, dataset: str) -> dict:
    problems: list[str] = []
    metadata = {k: v for k, v in entry.items() if k not in KNOWN}
    source_id = text_or_empty(entry.get("id")).strip() or str(number)
    for key in ("question", "answer"):
        if key not in entry:
            problems.append(f"missing field: {key}")
    record = new_record(f"{dataset}/{source_id}", dataset, text_or_empty(entry.get("question")),
                        answer=text_or_empty(entry.get("answer")).strip(),
                        problems=problems, metadata=metadata)
    for field in ("domain", "subtask", "reasoning_type"):
        record[field] = text_or_empty(entry[field]) if entry.get(field) is not None else None
    record["gt_reasoning"] = text_or_empty(entry.get("gt_reasoning", entry.get("reasoning")))
    record["images"] = [image_ref(base, text_or_empty(p)) for p in _paths(entry, problems)]
    if not record["images"]:      # a visual-clue item without its image, as SeekWorld flags it
        problems.append(MISSING_IMAGE)
    record["options"] = _options(entry.get("options"), problems, metadata)
    record["clues"] = [_clue(c, i, len(record["images"]), problems, metadata)
                       for i, c in enumerate(_clue_list(entry, problems, metadata))]
    labels = [o["label"] for o in record["options"]]
    record["answer_type"] = _answer_type(entry, record["answer"], labels, problems, metadata)
    aliases = entry.get("aliases")
    if isinstance(aliases, list):
        record["aliases"] = [text_or_empty(a) for a in aliases]
    if record["answer_type"] == "location":
        country, region_aliases, problem = parse_location_answer(record["answer"])
        record["aliases"] = record["aliases"] or region_aliases
        metadata["country"] = country
        if problem:
            problems.append(problem)
    return record


def _paths(entry: dict, problems: list) -> list:
    paths = []
    if entry.get("image") is not None:
        paths.append(entry["image"])
    images = entry.get("images")
    if isinstance(images, list):
        paths.extend(images)
    elif isinstance(images, str):
        paths.append(images)
    elif images is not None:
        problems.append("malformed field: images is not a list of paths")
    return paths


def _options(options, problems: list, metadata: dict) -> list[dict]:
    """Options as a list of strings, {"label", "text"} objects, a {label: text} mapping, or
    one "A. ... B. ..." string."""
    if options is None or options == [] or options == {}:
        return []
    if isinstance(options, dict):
        return [{"label": str(k), "text": text_or_empty(v), "image": None}
                for k, v in options.items()]
    if isinstance(options, str):
        metadata["options_raw"] = options
        parsed = split_options(options, last_label="Z")
        problems.extend(parsed.problems)
        return [{"label": label, "text": text, "image": None} for label, text in parsed.options]
    if not isinstance(options, list):
        problems.append("malformed field: options")
        metadata["options_raw"] = options
        return []
    out = []
    for label, option in zip(option_labels(len(options)), options):
        if isinstance(option, dict):
            out.append({"label": text_or_empty(option.get("label", label)),
                        "text": text_or_empty(option.get("text")), "image": None})
        else:
            out.append({"label": label, "text": text_or_empty(option), "image": None})
    return out


def _clue_list(entry: dict, problems: list, metadata: dict) -> list:
    clues = entry.get("clues", entry.get("visual_clues"))
    if "clues" in entry and "visual_clues" in entry:
        problems.append("both clues and visual_clues given: visual_clues not used "
                        "(kept in metadata.visual_clues)")
        metadata["visual_clues"] = entry["visual_clues"]
    if clues is None:
        return []
    if isinstance(clues, str):
        return [clues]
    if not isinstance(clues, list):
        problems.append("malformed field: clues is not a list")
        return []
    return clues


def _clue(clue, index: int, image_count: int, problems: list, metadata: dict) -> dict:
    if isinstance(clue, str):
        return {"text": clue, "reasoning": "", "boxes": []}
    if not isinstance(clue, dict):
        problems.append(f"malformed clue {index + 1}: {describe(clue)}, expected a sentence "
                        f"or an object with text")
        return {"text": text_or_empty(clue), "reasoning": "", "boxes": []}
    text = clue.get("text", clue.get("clue"))
    if text is None:   # VER-Bench style {"clue3": "...", "reasoning": "..."}
        text = next((v for k, v in clue.items() if str(k).lower().startswith("clue")), "")
    boxes = []
    for box in clue.get("boxes") or []:
        image, coords = (box.get("image", 0), box.get("bbox")) if isinstance(box, dict) \
            else (0, box)
        if (isinstance(image, int) and 0 <= image < image_count and isinstance(coords, list)
                and len(coords) == 4):
            boxes.append({"image": image, "x0": coords[0], "y0": coords[1],
                          "x1": coords[2], "y1": coords[3]})
        else:
            metadata.setdefault("invalid_boxes", []).append({"clue": index, "box": box})
            problems.append(f"invalid box: clue {index + 1}: expected [x0, y0, x1, y1] or "
                            f"{{\"image\": N, \"bbox\": [...]}} on one of the item's images "
                            f"(kept in metadata.invalid_boxes)")
    return {"text": text_or_empty(text), "reasoning": text_or_empty(clue.get("reasoning")),
            "boxes": boxes}


def _answer_type(entry, answer, labels, problems, metadata) -> str:
    given = entry.get("answer_type") or entry.get("question_type")
    if given is not None:
        value = QUESTION_TYPES.get(str(given).strip().lower(), str(given).strip())
        if value in ANSWER_TYPES:
            if value == "multiple_choice" and answer.rstrip(".") not in labels:
                problems.append(gold_not_an_option(labels))
            return value
        problems.append(f"unknown answer_type: expected one of {', '.join(ANSWER_TYPES)} "
                        f"(guessed from the answer instead; kept in metadata.source_answer_type)")
        metadata["source_answer_type"] = given
    guessed = guess_answer_type(answer, labels)
    if labels and guessed != "multiple_choice":
        problems.append(gold_not_an_option(labels))
    return guessed
