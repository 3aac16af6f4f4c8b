"""Explicit answer statements, shared by every answer reader, and which one is final.

A marker is `Answer: C` (also `# Answer: C`, `**Answer:** C`, `Final answer: (C)`, `the
answer is C`, `the correct option would be C`), `\\boxed{C}` or `<answer>C</answer>`,
anywhere in the text. For `Answer:` the content is the rest of its line (a newline ends it),
or the next non-empty line when nothing follows the colon ("Answer:\\n\\nC") unless that
line is a clue ("Clue 1: ...") or a clues heading: a clue is never the answer.

The *final* statement wins ("Answer: B ... wait ... Answer: C" gives C). Markers with nothing
but spaces, punctuation, "or" and "and" between them form one statement, and two different
values in it ("Answer: B or C", "\\boxed{B} \\boxed{C}") make the output unparsed: a
hedge is not an answer.

A reply cut off by max_tokens (finish_reason length) is read with `complete_only`: only
statements the cut left whole count (`\\boxed{C}` and `<answer>C</answer>` closed, an
`Answer: C` line ended by a newline), and a statement the cut left unfinished after the last
whole one (an unended `Answer:` line, an unclosed `\\boxed{` or `<answer>`) makes the reply
unparsed: the model was stating its answer when it was cut, and a fragment ("Answer: 12" of
"Answer: 125") is no answer.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

DECORATION = " \t*_#`>\"'“”:：-–"
"""Characters around an answer that say nothing: markdown emphasis, quotes, colons, dashes."""

ANSWER_PHRASE = re.compile(
    r"(?i)(?<![a-z])(?:final\s+answer|correct\s+answer|answer|correct\s+(?:option|choice)|"
    r"best\s+(?:option|choice))(?:\s*\*\*|\s*__)?\s*(?::|：|-|–|\bis\b|\b(?:would|should|must"
    r"|will)\s+be\b)")
BOXED = re.compile(r"\\boxed\s*\{((?:[^{}]|\{[^{}]*\})*)\}")
ANSWER_TAG = re.compile(r"(?is)<answer>(.*?)</answer>")
_FOLLOWING_LINE = re.compile(r"\S[^\n]*")
CLUE_LINE = re.compile(r"(?i)^[\s*_#>-]*clue\s*\d+[\s*_]*[:.)\-–][\s*_]*(.+)$")
CLUE_HEADING = re.compile(r"(?i)^[\s*_#]*(?:key\s+|visual\s+)?(?:clues|evidence)[\s*_]*:?[\s*_]*$")
"""A "Clue 1: ..." line and a "Visual clues:" heading (clues.py reads clues by them): never
the line an empty `Answer:` gives as its answer."""
_WRAPPER = re.compile(r"\\(?:boxed|text|textbf|mathrm)\s*\{([^{}]*)\}")
_JOINERS = re.compile(r"(?i)\bor\b|\band\b|[\W_]")


@dataclass
class Marker:
    """An explicit answer statement: `Answer: ...`, `\\boxed{...}` or `<answer>...</answer>`."""
    start: int
    content_start: int
    content: str    # what the marker says the answer is (the rest of its line for "Answer:")
    end: int | None  # end of a \boxed{}/<answer> statement; None: known once the content is read
    complete: bool = True  # False: an `Answer:` line that the end of the text cut (no newline)
    said: str = "final answer marker"   # what was read, as the parse reason names it


_THE = re.compile(r"(?i)\bthe\s+$")


def _said(text: str, match: re.Match) -> str:
    """What a reason names a marker of `ANSWER_PHRASE` by: 'final answer marker' for an
    `Answer:` line, the phrase read for one without a colon ('"the answer is …" phrase':
    "I think the answer is C" was said to be read from a "final answer marker")."""
    words = " ".join(match.group().strip(" \t*_").split()).lower()
    if not re.search(r"\bis$|\bbe$", words):
        return "final answer marker"
    the = "the " if _THE.search(text[max(0, match.start() - 8):match.start()]) else ""
    return f'"{the}{words} …" phrase'


def markers(text: str) -> list[Marker]:
    """Every marker in the text, in order of position."""
    found = [Marker(m.start(), m.start(1), m.group(1), m.end())
             for regex in (BOXED, ANSWER_TAG) for m in regex.finditer(text)]
    for m in ANSWER_PHRASE.finditer(text):
        line_end = text.find("\n", m.end())
        line = text[m.end(): len(text) if line_end < 0 else line_end]
        content_start = m.end()
        if not line.strip(DECORATION) and line_end >= 0:  # "Answer:\n\nC"
            following = _FOLLOWING_LINE.search(text, line_end)
            if following and not (CLUE_LINE.match(following.group())
                                  or CLUE_HEADING.match(following.group())):
                content_start, line = following.start(), following.group()
        whole = content_start + len(line) < len(text)   # a newline ends the content's line
        found.append(Marker(m.start(), content_start, line, None, whole, _said(text, m)))
    return sorted(found, key=lambda marker: marker.start)


_OPENING = re.compile(r"(?i)\\boxed\s*\{|<answer>")


def cut_statement(text: str) -> int | None:
    """Where an answer statement starts that the end of the text cut unfinished: an
    `Answer:` line no newline ends, or a `\\boxed{` / `<answer>` never closed; None if none."""
    closed = {m.start() for regex in (BOXED, ANSWER_TAG) for m in regex.finditer(text)}
    starts = [m.start() for m in _OPENING.finditer(text) if m.start() not in closed]
    starts += [m.start for m in markers(text) if not m.complete]
    return max(starts) if starts else None


def unwrap(content: str) -> str:
    """The content without LaTeX wrappers (\\boxed{}, \\text{}, ...) and decoration."""
    return _WRAPPER.sub(r"\1", content).strip(DECORATION)


CUT_OFF = "the reply was cut off (finish_reason length) before a complete answer statement"


def final(text: str, read, complete_only: bool = False) -> tuple[str | None, str] | None:
    """The value of the final statement made by explicit markers, or None without markers.

    read(content) -> (value, offset where the value ends in content, has_alternative).
    Markers with only spaces, punctuation, "or" and "and" between them are one statement;
    different values within it (or "B or C" inside one marker) give (None, "ambiguous ...").
    `complete_only` (a cut-off reply): only whole statements count, and one the cut left
    unfinished after them gives (None, why).
    """
    decided = []
    for marker in markers(text):
        if complete_only and not marker.complete:
            continue
        value, offset, alternative = read(marker.content)
        if value is not None:
            end = marker.end if marker.end is not None else marker.content_start + offset
            decided.append((marker.start, end, value, alternative, marker.said))
    if not decided:
        return None
    cut = cut_statement(text) if complete_only else None
    if cut is not None and cut > decided[-1][0]:
        return None, "the reply was cut off (finish_reason length) inside an answer " \
            "statement after the last complete one"
    start, _, value, alternative, said = decided[-1]
    values = {value}
    for previous_start, previous_end, previous_value, *_ in reversed(decided[:-1]):
        if _JOINERS.sub("", text[previous_end:start]):
            break
        values.add(previous_value)
        start = previous_start
    if alternative:
        return None, f"ambiguous: the final answer gives {value} and an alternative"
    if len(values) > 1:
        return None, "ambiguous: the final statement gives " + " and ".join(sorted(values))
    return value, said


def lines(text: str) -> list[str]:
    """The non-empty lines of the text, without decoration."""
    return [line.strip(DECORATION) for line in text.splitlines() if line.strip(DECORATION)]


def lead(content: str) -> int:
    """How many characters of decoration the content starts with."""
    return len(content) - len(content.lstrip(DECORATION))


def without_thinking(text: str, complete: bool = True) -> str:
    """The text after the last </think> when there is one; else the text without the tags.
    A cut-off reply (`complete` False) still thinking when it was cut (a <think> not
    closed, or nothing after </think>) has said no answer: ""."""
    if "</think>" in text:
        after = text.rsplit("</think>", 1)[1]
        if after.strip() or not complete:
            return after
    if not complete and "<think>" in text:
        return ""
    return text.replace("<think>", "").replace("</think>", "")


def whole_lines(text: str) -> str:
    """The text up to its last newline: the lines a cut-off reply wrote whole (its last,
    unended line is a fragment)."""
    return text[: text.rfind("\n") + 1]


_SENTENCE_END = re.compile(r"[.!?]\s|\n")


def whole_sentences(text: str) -> str:
    """The text up to the end of its last sentence or line (with the space after it): what a
    cut-off reply wrote whole as prose ("... 110 cm wide. The bookca" keeps "... wide. ").
    Applied again it gives the same text."""
    ends = [m.end() for m in _SENTENCE_END.finditer(text)]
    return text[: ends[-1]] if ends else ""
