"""Extraction of what scoring needs from a model's text: the answer, the clues, their boxes.

Pure functions, no I/O. The rules go from strict to lenient and always end in "unparsed" rather
than a guess: a random fallback (as in VLMEvalKit and lmms-eval) inflates scores, and a
non-answer is a result of its own, reported as a rate.

Multiple choice. Explicit markers first, anywhere in the text: `Answer: C` (also `# Answer: C`,
`**Answer:** C`, `Final answer: (C)`, `the answer is C`), `\\boxed{C}`, `<answer>C</answer>`.
The *final* statement wins ("Answer: B ... wait ... Answer: C" gives C); markers with nothing
but spaces, punctuation, "or" and "and" between them form one statement, and two different
letters in it ("Answer: B or C", "\\boxed{B} \\boxed{C}") make the output unparsed. Without a
marker: the last non-empty line starting with `C.`, `C)` or `(C)`, a line that is exactly one
letter, a single `(C)` in the last line, or an option's full text instead of its letter (a unique
match). A letter inside a word or sentence never counts: "# Answer: C\\nThis matches the blue
cube." is C, not the E of "cubE." (MMR-Life's own regex reads E). Only option labels count
(A-J when no options are given).

Yes/no: the first word of a marker's content, else of the first line, else of the last line;
both ("Yes and no") or neither, or first and last lines disagreeing: unparsed.
Location: `$country,admin1$` (last one; inside <answer> first), else "Country: X, Region: Y",
else a marker's "X, Y"; normalised to lower case and single spaces.
Numeric: the first number of the final marker's content, else the last number in the text;
thousands separators and units are dropped ("12,000 km" gives "12000").
Open: the final marker's content (for `Answer:` all text after it), else the last non-empty line.
Text inside <think>...</think> is ignored when an answer follows it.

Clues: from a JSON object (VER-Bench's structured output), fenced or not, else from free-text
lists ("Clue 1: ...", or "- ..." items under a "Visual clues:" heading). Box conventions: see
detect_box_convention().
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation

ANSWER_TYPES = ("multiple_choice", "yes_no", "location", "numeric", "open")
DEFAULT_LABELS = "ABCDEFGHIJ"


@dataclass
class Extraction:
    status: str                     # "ok" | "unparsed"
    answer: str | None
    clues: list[dict] = field(default_factory=list)  # {"text", "reasoning", "box"[, "boxes"]}
    box_convention: str | None = None  # "pixels" | "normalized_1" | "normalized_1000" | None
    reason: str = ""                # which rules matched, or why unparsed


@dataclass
class Marker:
    """An explicit answer statement: `Answer: ...`, `\\boxed{...}` or `<answer>...</answer>`."""
    start: int
    content_start: int
    content: str    # what the marker says the answer is (the rest of its line for "Answer:")
    rest: str       # for "Answer:", all text after it (open answers); else the content
    end: int | None  # end of a \boxed{}/<answer> statement; None: known once the content is read


def extract(text: str | None, answer_type: str, options: list[dict] | None = None, *,
            image_size: tuple[int, int] | None = None) -> Extraction:
    """Answer, clues and box convention of one model output. `image_size` (width, height) of
    the item's first image helps to tell pixel boxes from 0-1000 normalised ones."""
    if answer_type not in ANSWER_TYPES:
        raise ValueError(f"answer_type must be one of {ANSWER_TYPES}, not {answer_type!r}")
    body = _without_thinking(text or "")
    data = find_json(body)
    clues = clues_from_json(data) if data else []
    clue_source = "JSON" if clues else ""
    if not clues:
        clues = clues_from_text(body)
        clue_source = "a text list" if clues else ""
    convention, box_reason = detect_box_convention(clues, image_size)
    answer, how = None, "no answer found"
    value = _json_answer(data) if data else None
    if value is not None:
        answer, how = READERS[answer_type](value, options, True)
        how = f"JSON answer field, {how}"
    if answer is None and "ambiguous" not in how:
        answer, how = READERS[answer_type](body, options, False)
    notes = [f"answer: {how}"] + ([f"clues: {len(clues)} from {clue_source}"] if clues else [])
    notes += [f"boxes: {box_reason}"] if convention else []
    return Extraction("ok" if answer is not None else "unparsed", answer, clues, convention,
                      "; ".join(notes))


# -- explicit markers and the final statement ---------------------------------------------------

_ANSWER_PHRASE = re.compile(
    r"(?i)(?<![a-z])(?:final\s+answer|correct\s+answer|answer|correct\s+(?:option|choice)|"
    r"best\s+(?:option|choice))(?:\s*\*\*|\s*__)?\s*(?::|：|-|–|\bis\b|\b(?:would|should|must"
    r"|will)\s+be\b)")
_BOXED = re.compile(r"\\boxed\s*\{((?:[^{}]|\{[^{}]*\})*)\}")
_ANSWER_TAG = re.compile(r"(?is)<answer>(.*?)</answer>")
_DECORATION = " \t*_#`>\"'“”:：-–"


def _markers(text: str) -> list[Marker]:
    found = [Marker(m.start(), m.start(1), m.group(1), m.group(1), m.end())
             for regex in (_BOXED, _ANSWER_TAG) for m in regex.finditer(text)]
    for m in _ANSWER_PHRASE.finditer(text):
        line_end = text.find("\n", m.end())
        line = text[m.end(): len(text) if line_end < 0 else line_end]
        content_start = m.end()
        if not line.strip(_DECORATION) and line_end >= 0:  # "Answer:\n\nC"
            following = re.search(r"\S[^\n]*", text[line_end:])
            if following:
                content_start, line = line_end + following.start(), following.group()
        found.append(Marker(m.start(), content_start, line, text[m.end():], None))
    return sorted(found, key=lambda marker: marker.start)


def _unwrap(content: str) -> str:
    content = re.sub(r"\\(?:boxed|text|textbf|mathrm)\s*\{([^{}]*)\}", r"\1", content)
    return content.strip(_DECORATION)


def _final(text: str, read) -> tuple[str | None, str] | None:
    """The value of the final statement made by explicit markers, or None without markers.

    read(content) -> (value, offset where the value ends in content, has_alternative).
    Markers with only spaces, punctuation, "or" and "and" between them are one statement;
    different values within it (or "B or C" inside one marker) give (None, "ambiguous ...").
    """
    decided = []
    for marker in _markers(text):
        value, offset, alternative = read(marker.content)
        if value is not None:
            end = marker.end if marker.end is not None else marker.content_start + offset
            decided.append((marker.start, end, value, alternative))
    if not decided:
        return None
    start, _, value, alternative = decided[-1]
    values = {value}
    for previous_start, previous_end, previous_value, _ in reversed(decided[:-1]):
        if re.sub(r"(?i)\bor\b|\band\b|[\W_]", "", text[previous_end:start]):
            break
        values.add(previous_value)
        start = previous_start
    if alternative:
        return None, f"ambiguous: the final answer gives {value} and an alternative"
    if len(values) > 1:
        return None, "ambiguous: the final statement gives " + " and ".join(sorted(values))
    return value, "final answer marker"


def _lines(text: str) -> list[str]:
    return [line.strip(_DECORATION) for line in text.splitlines() if line.strip(_DECORATION)]


# -- multiple choice ----------------------------------------------------------------------------

def _labels(options: list[dict] | None) -> list[str]:
    labels = [str(o.get("label", "")).strip().upper() for o in options or []]
    return [label for label in labels if label] or list(DEFAULT_LABELS)


def _normal(text: str) -> str:
    """Lower case, punctuation to spaces, single spaces, no leading article."""
    words = re.sub(r"[^\w\s]", " ", text.lower()).split()
    return " ".join(words[1:] if words[:1] in (["a"], ["an"], ["the"]) and len(words) > 1
                    else words)


def _option_in(text: str, options: list[dict] | None, exact: bool) -> tuple[str | None, str]:
    """The label of the one option whose text `text` is (exact) or contains as whole words.
    An option contained in another matching option's text ("cat" in "black cat") yields."""
    said = _normal(text)
    texts = {str(o["label"]).upper(): _normal(str(o.get("text") or ""))
             for o in options or [] if o.get("label") and o.get("text")}
    hits = {label: t for label, t in texts.items() if t and (
        said == t if exact else re.search(rf"(?<!\w){re.escape(t)}(?!\w)", said))}
    hits = {label: t for label, t in hits.items()
            if not any(t != other and t in other for other in hits.values())}
    if len(hits) == 1:
        return next(iter(hits)), ""
    return None, ("ambiguous: option texts " + ", ".join(sorted(hits))) if hits else ""


def _letter_reader(options: list[dict] | None):
    labels = set(_labels(options))
    alternative = re.compile(r"\s*[)\].]?\s*(?:,|/|&|\bor\b|\band\b)\s*[(\[]?([A-Z])(?![\w])")

    def read(content: str):
        body = _unwrap(content)
        lead = len(content) - len(content.lstrip(_DECORATION))
        exact = re.fullmatch(r"[(\[]?([A-Za-z])[)\].]?", body)
        if exact and exact.group(1).upper() in labels:
            return exact.group(1).upper(), lead + len(body), False
        m = re.match(r"[(\[]?([A-Z])(?![\w])([)\].:]?)", body)
        if m and m.group(1) in labels:
            weak = not m.group(2) and re.match(r"\s+[a-z]", body[m.end():])
            by_text, _ = _option_in(body, options, exact=True) if weak else (None, "")
            if by_text:  # "Answer: A dog" where "a dog" is option B's text
                return by_text, lead + len(body), False
            other = alternative.match(body, m.end())
            return m.group(1), lead + m.end(), bool(other and other.group(1) in labels
                                                    and other.group(1) != m.group(1))
        label, _ = _option_in(re.split(r"[.\n]", body)[0], options, exact=True)
        return label, lead + len(body), False

    return read


def _multiple_choice(text: str, options, whole: bool) -> tuple[str | None, str]:
    read = _letter_reader(options)
    if whole:  # a JSON answer field: the value itself is the statement
        value, _, alternative = read(text)
        return (value, "letter") if value and not alternative else (
            None, "ambiguous: two letters" if value else "no option letter or text")
    final = _final(text, read)
    if final is not None:
        return final
    labels = set(_labels(options))
    lines = _lines(text)
    if lines:
        last = lines[-1]
        m = re.match(r"[(\[]?([A-Z])(?:[)\].:](?:\s|$)|$)", last)
        if m and m.group(1) in labels:
            return m.group(1), "last line starts with the letter"
        bare = {line.strip("().[] ").upper() for line in lines
                if re.fullmatch(r"[(\[]?[A-Za-z][)\].]?", line)} & labels
        if len(bare) == 1:
            return bare.pop(), "a line that is just the letter"
        if len(bare) > 1:
            return None, "ambiguous: lines with different single letters"
        inline = set(re.findall(r"\(([A-Z])\)", last)) & labels
        if len(inline) == 1:
            return inline.pop(), "a single (X) in the last line"
    for candidate, exact, rule in ((text, True, "the whole answer is an option's text"),
                                   (lines[-1] if lines else "", False,
                                    "the last line names one option's text")):
        label, why = _option_in(candidate, options, exact)
        if label or why:
            return label, why or rule
    return None, "no option letter or text"


# -- yes/no, location, numeric, open ------------------------------------------------------------

def _yes_no_reader(content: str):
    body = _unwrap(content)
    lead = len(content) - len(content.lstrip(_DECORATION))
    m = re.match(r"(?i)(yes|no)\b", body)
    if not m:
        return None, None, False
    clause = re.split(r"[,.;:!?\n]", body)[0]
    both = len({w.lower() for w in re.findall(r"(?i)\b(?:yes|no)\b", clause)}) > 1
    return m.group(1).capitalize(), lead + m.end(), both


def _yes_no(text: str, options, whole: bool) -> tuple[str | None, str]:
    final = None if whole else _final(text, _yes_no_reader)
    if final is not None:
        return final
    lines = _lines(text)
    reads = [_yes_no_reader(line) for line in (lines[:1] + lines[-1:] if lines else [])]
    values = {value for value, _, _ in reads if value}
    if any(both for _, _, both in reads) or len(values) > 1:
        return None, "ambiguous: both yes and no"
    if values:
        return values.pop(), "first word yes/no"
    return None, "neither yes nor no"


_DOLLAR = re.compile(r"\$\s*([^$,\n]{1,100}?)\s*,\s*([^$\n]{0,100}?)\s*\$")
_COUNTRY = re.compile(r"(?im)\bcountry\s*\**\s*[:：]\s*\**\s*([^,;\n*]+)")
_REGION = re.compile(r"(?im)\b(?:region|province|state|prefecture|admin(?:istrative)?[\s_-]*"
                     r"(?:1|area|region|division)?)\s*\**\s*[:：]\s*\**\s*([^,;\n*]+)")


def _location_text(country: str, admin: str) -> str:
    tidy = [" ".join(part.lower().split()).strip(" .*") for part in (country, admin)]
    return f"${tidy[0]},{tidy[1]}$"


def _location(text: str, options, whole: bool) -> tuple[str | None, str]:
    for where, rule in ((" ".join(_ANSWER_TAG.findall(text)), "$country,admin1$ in <answer>"),
                        (text, "$country,admin1$")):
        found = _DOLLAR.findall(where)
        if found:
            return _location_text(*found[-1]), rule
    countries = _COUNTRY.findall(text)
    if countries:
        regions = _REGION.findall(text)
        return _location_text(countries[-1], regions[-1] if regions else ""), "Country:/Region:"

    def read(content: str):
        parts = _unwrap(content).rstrip(".").split(",")
        return (_location_text(parts[0], parts[1]), len(content), False) \
            if len(parts) == 2 and parts[0].strip() else (None, None, False)

    if whole:
        return read(text)[0], "country, admin1"
    final = _final(text, read)
    return final if final is not None else (None, "no $country,admin1$ found")


_NUMBER = re.compile(r"(?<![\w.])[-−]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?!\d)"
                     r"|(?<![\w.])[-−]?\.\d+(?!\d)")


def _number_text(raw: str) -> str:
    value = Decimal(raw.replace(",", "").replace("−", "-"))
    text = format(value.normalize(), "f")
    return "0" if text in ("-0", "0") else text


def _numeric(text: str, options, whole: bool) -> tuple[str | None, str]:
    def read(content: str):
        m = _NUMBER.search(_unwrap(content))
        return (_number_text(m.group()), len(content) - len(content.lstrip(_DECORATION))
                + m.end(), False) if m else (None, None, False)

    if whole:
        return read(text)[0], "number"
    final = _final(text, read)
    if final is not None:
        return final
    numbers = _NUMBER.findall(text)
    try:
        return (_number_text(numbers[-1]), "the last number in the text") if numbers \
            else (None, "no number found")
    except InvalidOperation:
        return None, "no number found"


def _open(text: str, options, whole: bool) -> tuple[str | None, str]:
    if whole:
        return _unwrap(text) or None, "text"
    markers = _markers(text)
    if markers:
        last = markers[-1]
        value = _unwrap(last.rest if last.end is None else last.content)
        if value:
            return value, "text of the final answer marker"
    lines = _lines(text)
    return (lines[-1], "the last non-empty line") if lines else (None, "empty output")


READERS = {"multiple_choice": _multiple_choice, "yes_no": _yes_no, "location": _location,
           "numeric": _numeric, "open": _open}


def _without_thinking(text: str) -> str:
    """The text after the last </think> when there is one; else the text without the tags."""
    if "</think>" in text:
        after = text.rsplit("</think>", 1)[1]
        if after.strip():
            return after
    return text.replace("<think>", "").replace("</think>", "")


# -- structured JSON ------------------------------------------------------------------------------

_FENCE = re.compile(r"```[A-Za-z]*[ \t]*\n?(.*?)```", re.S)
_ANSWER_KEYS = ("answer", "final_answer", "final answer", "finalanswer")
_CLUE_LIST_KEYS = ("clues", "visual_clues", "visual clues", "evidence", "visual_evidence",
                   "clue_list")


def _keyed(data: dict, keys: tuple[str, ...]):
    lowered = {str(k).lower(): v for k, v in data.items()}
    return next((lowered[k] for k in keys if k in lowered), None)


def _structured(data) -> bool:
    return isinstance(data, dict) and (_keyed(data, _ANSWER_KEYS) is not None
                                       or _keyed(data, _CLUE_LIST_KEYS) is not None)


def find_json(text: str) -> dict | None:
    """The structured output object: the last fenced block that holds one, else the first
    `{...}` in the text that parses (trailing text and trailing commas tolerated)."""
    for block in reversed(_FENCE.findall(text)):
        for candidate in (block.strip(), re.sub(r",\s*([}\]])", r"\1", block.strip())):
            try:
                data = json.loads(candidate)
            except ValueError:
                continue
            if _structured(data):
                return data
    decoder = json.JSONDecoder()
    start, tries = text.find("{"), 0
    while start >= 0 and tries < 100:
        for candidate in (text[start:], re.sub(r",\s*([}\]])", r"\1", text[start:])):
            try:
                data, _ = decoder.raw_decode(candidate)
            except ValueError:
                continue
            if _structured(data):
                return data
            break
        start, tries = text.find("{", start + 1), tries + 1
    return None


def _json_answer(data: dict) -> str | None:
    value = _keyed(data, _ANSWER_KEYS)
    if isinstance(value, list):
        value = " or ".join(str(v) for v in value) if value else None
    if isinstance(value, bool):
        value = "Yes" if value else "No"
    if value is None or isinstance(value, dict):
        return None
    return str(value).strip() or None


# -- clues and boxes ------------------------------------------------------------------------------

_TEXT_KEYS = ("clue", "text", "description", "content", "visual_clue", "evidence")
_REASON_KEYS = ("reasoning", "reason", "rationale", "explanation")
_BOX_KEYS = ("box", "bbox", "bbox_2d", "boxes", "bboxes", "bounding_box", "box_2d")
_BOX_IN_TEXT = re.compile(r"[\[(]\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*,\s*"
                          r"(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*[\])]")


def _boxes(value) -> list[list[float]]:
    """Boxes from [x0,y0,x1,y1], a list of those, {"x0".."y1"} / {"xmin".."ymax"}, or text."""
    if isinstance(value, str):
        return [[float(v) for v in m] for m in _BOX_IN_TEXT.findall(value)]
    if isinstance(value, dict):
        for keys in (("x0", "y0", "x1", "y1"), ("xmin", "ymin", "xmax", "ymax"),
                     ("left", "top", "right", "bottom")):
            if all(isinstance(value.get(k), (int, float)) for k in keys):
                return [[float(value[k]) for k in keys]]
        return []
    if isinstance(value, (list, tuple)):
        if len(value) == 4 and all(isinstance(v, (int, float)) and not isinstance(v, bool)
                                   for v in value):
            return [[float(v) for v in value]]
        return [box for item in value for box in _boxes(item)]
    return []


def _clue(text, reasoning=None, boxes=()) -> dict:
    boxes = list(boxes)
    clue = {"text": str(text).strip(), "reasoning": str(reasoning).strip() if reasoning else None,
            "box": boxes[0] if boxes else None}
    if len(boxes) > 1:
        clue["boxes"] = boxes
    return clue


def clues_from_json(data: dict) -> list[dict]:
    """Clues of a structured output: entries as objects (key variants accepted), [clue,
    reasoning(, box)] pairs, or plain strings."""
    entries = _keyed(data, _CLUE_LIST_KEYS)
    clues = []
    for entry in entries if isinstance(entries, list) else []:
        if isinstance(entry, str):
            clues.append(_clue(entry))
        elif isinstance(entry, (list, tuple)) and entry and isinstance(entry[0], str):
            clues.append(_clue(entry[0], entry[1] if len(entry) > 1 else None,
                               _boxes(list(entry[2:]))))
        elif isinstance(entry, dict):
            text = _keyed(entry, _TEXT_KEYS)
            if text is None:  # VER-Bench annotation style: {"clue3": ..., "reasoning": ...}
                text = next((v for k, v in entry.items() if re.fullmatch(r"(?i)clue\s*\d+", k)),
                            None)
            box_value = _keyed(entry, _BOX_KEYS)
            if text is not None:
                clues.append(_clue(text, _keyed(entry, _REASON_KEYS),
                                   _boxes(box_value) if box_value is not None else []))
    return clues


_CLUE_LINE = re.compile(r"(?i)^[\s*_#>-]*clue\s*\d+[\s*_]*[:.)\-–][\s*_]*(.+)$")
_HEADING = re.compile(r"(?i)^[\s*_#]*(?:key\s+|visual\s+)?(?:clues|evidence)[\s*_]*:?[\s*_]*$")
_ITEM = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s+(.+)$")
_REASONING = re.compile(r"(?i)[\s*_(]*reasoning[\s*_]*:[\s*_]*")


def clues_from_text(text: str) -> list[dict]:
    """Clues written as "Clue 1: ..." lines, or as list items under a "Visual clues:" heading.
    A following "Reasoning: ..." line, or one inside the item, is the clue's reasoning; a
    [x0, y0, x1, y1] in the item is its box."""
    items: list[list[str]] = []
    lines = text.splitlines()
    for line in lines:
        m = _CLUE_LINE.match(line)
        if m:
            items.append([m.group(1)])
        elif items and _REASONING.match(line):
            items[-1].append(line)
    if not items:
        heading = next((i for i, line in enumerate(lines) if _HEADING.match(line)), None)
        for line in lines[heading + 1:] if heading is not None else []:
            m = _ITEM.match(line)
            if m:
                items.append([m.group(1)])
            elif items and _REASONING.match(line):
                items[-1].append(line)
            elif line.strip() and items:
                break
    clues = []
    for parts in items:
        whole = " ".join(parts)
        boxes = _boxes(whole)
        whole = _BOX_IN_TEXT.sub("", whole)
        split = _REASONING.split(whole, maxsplit=1)
        text_part = split[0].strip(_DECORATION + " .;,")
        if text_part:
            clues.append(_clue(text_part, split[1].strip() if len(split) > 1 else None, boxes))
    return clues


def detect_box_convention(clues: list[dict], image_size: tuple[int, int] | None = None
                          ) -> tuple[str | None, str]:
    """Which coordinate system the model's boxes use, and the rule that decided it.

    1. every coordinate within 0..1                      -> normalized_1
    2. some coordinate above 1000                        -> pixels
    3. all within 0..1000 and the image size unknown     -> normalized_1000 (Qwen-VL style)
    4. known size, a box reaching beyond the image       -> normalized_1000
    5. known size, the image over 1000 px on some side   -> normalized_1000 (a model that gives
       pixels of a large image rarely keeps every box in its top-left 1000 px)
    6. otherwise (boxes fit an image of at most 1000 px) -> pixels
    """
    boxes = [box for clue in clues for box in clue.get("boxes") or
             ([clue["box"]] if clue.get("box") else [])]
    if not boxes:
        return None, ""
    coords = [v for box in boxes for v in box]
    if all(0 <= v <= 1 for v in coords):
        return "normalized_1", "all coordinates within 0-1"
    if max(coords) > 1000:
        return "pixels", "a coordinate above 1000"
    if image_size is None:
        return "normalized_1000", "coordinates within 0-1000, image size unknown"
    width, height = image_size
    if any(max(b[0], b[2]) > width or max(b[1], b[3]) > height for b in boxes):
        return "normalized_1000", f"within 0-1000 but outside the {width}x{height} image"
    if max(width, height) > 1000:
        return "normalized_1000", f"coordinates within 0-1000 on a {width}x{height} image"
    return "pixels", f"coordinates fit the {width}x{height} image"


def box_to_pixels(box: list[float], convention: str, image_size: tuple[int, int]) -> list[float]:
    """A model box in original-image pixels, given its convention and the image's size."""
    if convention == "pixels":
        return list(box)
    unit = 1.0 if convention == "normalized_1" else 1000.0
    width, height = image_size
    return [box[0] / unit * width, box[1] / unit * height, box[2] / unit * width,
            box[3] / unit * height]
