"""Split MMR-Life's inline option text ("A. ... B. ... E. ...") into labelled options.

MMR-Life writes the options of text questions into the question string after `Options:`.
The release has a few malformed ones (a label glued to its text, a label glued to the end of
the previous option, a label written twice so another is missing). This module finds the
options anyway and reports every deviation as a problem sentence, so that the importer can
flag the item instead of guessing silently.

How markers are found: every `X.` (X from A to `last_label`) that is not part of a word is a
candidate. Candidates are walked in order; one is taken as the next option when its label is
the expected next letter. Otherwise it is taken only if it is well formed (whitespace on both
sides) and the expected letter does not occur later (a duplicated label, or a skipped one);
everything else is ordinary text such as "vitamin C." or "the U.S. team".
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

_CANDIDATE = re.compile(r"(?<![A-Za-z0-9])([A-Z])\.")


@dataclass
class ParsedOptions:
    """Options found in one text, with the problems met on the way."""

    options: list[tuple[str, str]] = field(default_factory=list)   # (label, text)
    problems: list[str] = field(default_factory=list)
    preamble: str = ""     # text before the first label (normally empty)


def _next_label(label: str) -> str:
    return chr(ord(label) + 1)


def _well_formed(text: str, match) -> bool:
    before_ok = match.start() == 0 or text[match.start() - 1].isspace()
    after_ok = match.end() == len(text) or text[match.end()].isspace()
    return before_ok and after_ok


def split_options(text: str, last_label: str = "E") -> ParsedOptions:
    """Parse `text` (what follows `Options:`) into (label, text) pairs plus problems."""
    result = ParsedOptions()
    candidates = [m for m in _CANDIDATE.finditer(text) if m.group(1) <= last_label]
    chosen = []
    expected = "A"
    for i, match in enumerate(candidates):
        label = match.group(1)
        if label == expected:
            chosen.append(match)
            expected = _next_label(label)
            continue
        later = {m.group(1) for m in candidates[i + 1:]}
        if expected in later or not _well_formed(text, match):
            continue                      # ordinary text
        last = chosen[-1].group(1) if chosen else None
        if label == last:
            result.problems.append(f"duplicated option label: {label}")
            chosen.append(match)
        elif label > expected:
            missing = ", ".join(chr(c) for c in range(ord(expected), ord(label)))
            result.problems.append(f"missing option label: {missing} (text jumps to {label})")
            chosen.append(match)
            expected = _next_label(label)
    if not chosen:
        if text.strip():
            result.problems.append("unparsed options: no 'A.' label found in the option text")
        result.preamble = text.strip()
        return result
    result.preamble = text[:chosen[0].start()].strip()
    if result.preamble:
        result.problems.append(f"text before first option: {len(result.preamble)} characters "
                               f"before the 'A.' label (kept in metadata.options_raw)")
    for k, match in enumerate(chosen):
        end = chosen[k + 1].start() if k + 1 < len(chosen) else len(text)
        label = match.group(1)
        body = text[match.end():end]
        start = match.start()
        if start > 0 and not text[start - 1].isspace():
            result.problems.append(f"missing space before option label: {label}")
        if body and not body[0].isspace():
            result.problems.append(f"missing space after option label: {label}")
        body = body.strip()
        if not body:
            result.problems.append(f"empty option text: {label}")
        result.options.append((label, body))
    return result


def split_question(raw: str) -> tuple[str, str | None]:
    """(question stem, option text or None) of an MMR-Life question string.

    The stem loses the leading `Question: ` and surrounding whitespace; the raw string is
    kept by the caller so nothing is lost.
    """
    if "Options:" in raw:
        stem, option_text = raw.rsplit("Options:", 1) if raw.count("Options:") > 1 \
            else raw.split("Options:", 1)
    else:
        stem, option_text = raw, None
    stem = stem.strip()
    if stem.startswith("Question:"):
        stem = stem[len("Question:"):].strip()
    return stem, option_text
