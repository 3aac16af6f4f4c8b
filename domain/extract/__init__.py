"""Extraction of what scoring needs from a model's text: the answer, the clues, their boxes.

Pure functions, no I/O. The rules go from strict to lenient and always end in "unparsed" rather
than a guess: a random fallback (as in VLMEvalKit and lmms-eval) inflates scores, and a
non-answer is a result of its own, reported as a rate.

`extract()` is the entry point; the rules live with their subject:
- statements.py   explicit answer markers (`Answer: C`, `\\boxed{C}`, `<answer>C</answer>`)
                  and which statement is the final one
- choice.py       multiple choice: the option letter (or an option's text)
- yes_no.py       yes/no: the first word, unparsed when both or a taken-back answer
- answers.py      location (`$country,admin1$`), numeric and open answers
- structured.py   the JSON object of structured output: its answer field and its clues
- clues.py        clues written as text, and the boxes in them (their convention:
                  domain.geometry)

Text inside <think>...</think> is ignored when an answer follows it. A JSON answer field is
read first; the text's own statements only when the JSON gives none (and is not ambiguous).
Clues come from the JSON object, else from free-text lists.

A reply cut off by max_tokens (`complete=False`: the runner's status truncated, finish_reason
length) yields an answer only from a whole explicit statement: a JSON object that parses, an
`Answer: X` line ended by a newline, a closed `\\boxed{X}` or `<answer>X</answer>` (or a
closed `$country,admin1$`), and none cut unfinished after it; never from a fallback (the last
line, an option's text, a bare number, free text), which on a fragment reads whatever the cut
left ("Departures at :05, :25, " is no answer 25). Its clues are those it wrote whole: the
last, unended line is a fragment, so a clue on it is left out (a JSON object's clues are
whole).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from domain.extract.answers import location, numeric, open_answer
from domain.extract.yes_no import yes_no
from domain.extract.choice import multiple_choice
from domain.extract.clues import clues_from_text
from domain.extract.statements import whole_lines, whole_sentences, without_thinking
from domain.extract.structured import clues_from_json, find_json, json_answer
from domain.geometry import AUTO, reply_box_convention, said_box_scale
from domain.vocabulary import ANSWER_TYPES

__all__ = ["Extraction", "extract", "clues_of", "clues_from_json", "clues_from_text", "find_json",
           "whole_lines", "whole_sentences"]

READERS = {"multiple_choice": multiple_choice, "yes_no": yes_no, "location": location,
           "numeric": numeric, "open": open_answer}
"""answer type -> reader(text, options, whole, complete) -> (answer or None, the rule that
decided)."""


@dataclass
class Extraction:
    status: str                     # "ok" | "unparsed"
    answer: str | None
    clues: list[dict] = field(default_factory=list)  # {"text", "reasoning", "box"[, "boxes"]}
    box_convention: str | None = None  # "pixels" | "normalized_1" | "normalized_1000" | None
    reason: str = ""                # which rules matched, or why unparsed


def clues_of(text: str | None, complete: bool = True) -> list[dict]:
    """The clues of one model output, as `extract` reads them (a cut reply's whole ones)."""
    body = without_thinking(text or "", complete)
    return _clues(body, find_json(body), complete)[0]


def _clues(body: str, data: dict | None, complete: bool) -> tuple[list[dict], str]:
    """(clues, where from): the JSON object's, else a text list's (its whole lines when the
    reply was cut off)."""
    clues = clues_from_json(data) if data else []
    if clues:
        return clues, "JSON"
    clues = clues_from_text(body if complete else whole_lines(body))
    return clues, ("a text list" if complete else
                   "a text list, its whole lines (the reply was cut off)") if clues else ""


def extract(text: str | None, answer_type: str, options: list[dict] | None = None, *,
            image_size: tuple[int, int] | None = None, complete: bool = True,
            box_convention: str = AUTO, asked_scale: str | None = None) -> Extraction:
    """Answer, clues and box convention of one model output. `image_size` (width, height) of
    the item's first image as sent helps to tell pixel boxes from 0-1000 normalised ones;
    `box_convention`: the one the run states (`domain.geometry.STATED_CONVENTIONS`), "auto"
    to detect it, heeding the scale the reply says it uses and `asked_scale`, the one the
    prompt asked for (`domain.geometry.said_box_scale` of the system prompt).
    `complete` False: the reply was cut off (finish_reason length), read as the module says."""
    if answer_type not in ANSWER_TYPES:
        raise ValueError(f"answer_type must be one of {ANSWER_TYPES}, not {answer_type!r}")
    body = without_thinking(text or "", complete)
    data = find_json(body)
    clues, clue_source = _clues(body, data, complete)
    convention, box_reason = reply_box_convention(clues, image_size, box_convention, asked_scale,
                                                  said_box_scale(text) if clues else None)
    read = READERS[answer_type]
    answer, how = None, "no answer found"
    value = json_answer(data) if data else None
    if value is not None:
        answer, how = read(value, options, True)
        how = f"JSON answer field, {how}"
    if value is None:
        # a structured object's answer field is the reply's answer: read whole or unparsed
        # (its fall-back to the text took "50", a box coordinate, for a numeric answer "A")
        answer, how = read(body, options, False, complete)
    notes = [f"answer: {how}"] + ([f"clues: {len(clues)} from {clue_source}"] if clues else [])
    notes += [f"boxes: {box_reason}"] if convention else []
    return Extraction("ok" if answer is not None else "unparsed", answer, clues, convention,
                      "; ".join(notes))
