"""SeekWorld (`--format seekworld`): JSON Lines of `{"message": "<chat JSON>", "answer": ...}`.

`message` is a JSON-encoded chat list; the user turn holds `{"type": "image", "image": path}`
and `{"type": "text", "text": question}` parts. The answer is `$country,alias1/alias2$`:
kept verbatim as the gold answer, with the de-duplicated admin-1 aliases as `aliases` and the
country in metadata. Image paths are absolute paths from the authors' machine, so they are
looked up by file name inside the image folder (`--images`, default: the JSONL's folder),
never opened where they point.
"""
from __future__ import annotations

import json
from pathlib import Path, PurePosixPath

from .records import ImageRef, dedupe, new_record, text_or_empty, unparsed_line
from .safepath import BasenameIndex, image_ref
from .sources import json_error, read_json_lines

DATASET = "seekworld"


def parse_location_answer(answer: str) -> tuple[str | None, list[str], str | None]:
    """(country, admin-1 aliases, problem) of `$country,alias1/alias2$`."""
    text = answer.strip()
    if not (len(text) >= 2 and text.startswith("$") and text.endswith("$")):
        return None, [], "malformed location answer: expected $country,region$"
    body = text[1:-1]
    if "," not in body:
        return body.strip() or None, [], \
            "malformed location answer: no ',' between country and region in $country,region$"
    country, regions = body.split(",", 1)
    aliases = dedupe(a.strip() for a in regions.split("/") if a.strip())
    problem = None if country.strip() and aliases else \
        "malformed location answer: a country or a region is missing in $country,region$"
    return country.strip() or None, aliases, problem


def read(path: Path, images_dir: Path | None = None, dataset: str | None = None) -> list[dict]:
    base = Path(images_dir) if images_dir else Path(path).parent
    index = BasenameIndex(base)
    name = dataset or DATASET
    records = []
    for number, value, error in read_json_lines(path):
        if error:
            record = unparsed_line(f"{name}/line-{number}", name, error, value,
                                   answer_type="location")
        else:
            record = line_to_record(value, number, base, index, name)
        records.append(record)
    return records


def line_to_record(line: dict, number: int, base: Path, index: BasenameIndex,
                   dataset: str) -> dict:
    problems: list[str] = []
    metadata = {k: v for k, v in line.items() if k not in ("message", "answer")}
    metadata["line"] = number
    chat = _chat(line.get("message"), problems, metadata)
    question, image_paths, system = _user_turn(chat, problems)
    if system:
        metadata["system_prompt"] = system
    refs = [_image(base, index, p) for p in image_paths]
    metadata["image_paths"] = image_paths
    answer = text_or_empty(line.get("answer"))
    if "answer" not in line:
        problems.append("missing field: answer")
    country, aliases, problem = parse_location_answer(answer)
    if problem and "answer" in line:
        problems.append(problem)
    metadata["country"] = country
    source_id = text_or_empty(line.get("id")).strip()
    if not source_id and image_paths:
        source_id = PurePosixPath(image_paths[0].replace("\\", "/")).stem
    source_id = source_id or f"line-{number}"
    return new_record(f"{dataset}/{source_id}", dataset, question, answer_type="location",
                      answer=answer, aliases=aliases, images=refs, problems=problems,
                      metadata=metadata)


def _chat(message, problems: list, metadata: dict) -> list:
    if isinstance(message, list):
        return message
    if not isinstance(message, str):
        problems.append("missing field: message" if message is None
                        else "malformed message: not a JSON-encoded chat list")
        return []
    try:
        chat = json.loads(message)
    except json.JSONDecodeError as exc:
        problems.append(f"malformed message: invalid JSON ({json_error(exc)})")
        metadata["raw_message"] = message
        return []
    if not isinstance(chat, list):
        problems.append("malformed message: not a chat list")
        metadata["raw_message"] = message
        return []
    return chat


def _user_turn(chat: list, problems: list) -> tuple[str, list[str], str]:
    """(question text, image paths, system prompt) of the chat."""
    texts, images, system = [], [], ""
    for turn in chat:
        if not isinstance(turn, dict):
            continue
        content = turn.get("content")
        if turn.get("role") == "system":
            system = content if isinstance(content, str) else json.dumps(content)
            continue
        if turn.get("role") != "user":
            continue
        parts = content if isinstance(content, list) else [{"type": "text", "text": content}]
        for part in parts:
            if isinstance(part, str):
                texts.append(part)
            elif isinstance(part, dict) and part.get("type") == "image":
                images.append(text_or_empty(part.get("image")))
            elif isinstance(part, dict) and part.get("type") == "text":
                texts.append(text_or_empty(part.get("text")))
    if chat and not texts:
        problems.append("missing question: the user turn has no text")
    if chat and not images:
        problems.append("missing image: the user turn has no image")
    return "\n".join(texts), images, system


def _image(base: Path, index: BasenameIndex, path: str) -> ImageRef:
    """Absolute foreign paths: by file name. Relative paths: inside the folder."""
    text = path.replace("\\", "/")
    if PurePosixPath(text).is_absolute() or (len(text) > 2 and text[1] == ":"):
        return index.lookup(path)
    return image_ref(base, path)
