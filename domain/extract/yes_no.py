"""Yes/no answers: the first word of a marker's content, else of the first line, else of the
last line; both ("Yes and no"; "No, it isn't. Actually yes.": a yes or no opening and ending
a clause of its own, a few lead-in words allowed, stated after the first word; not the no of
"says no parking"), the answer taken back or left open in a clause of its own after it ("Yes,
probably not though.", "Yes, not really", "No, not sure"; not "No, it is not.", which agrees),
or neither, or first and last lines disagreeing: unparsed. Its own module so answers.py keeps
one job per reader kind; the reader's signature is answers.py's.
"""
from __future__ import annotations

import re

from domain.extract.clues import prose
from domain.extract.statements import CUT_OFF, final, lead, lines, unwrap

_YES_OR_NO = re.compile(r"(?i)(yes|no)\b")
# a dash ends a clause too: "yes — the sign says no parking" is yes (it was unparsed)
_CLAUSE_END = re.compile(r"[,.;:!?\n—–]|\s-\s")
_YES_NO_WORDS = re.compile(r"(?i)\b(?:yes|no)\b")


# a yes or no standing as an answer of its own: opening a clause (after nothing, or after
# punctuation or a dash, and at most two words of the kind that come before a changed mind:
# "Actually yes.", "so, no", "the answer is yes") and ending it (punctuation, a dash or the
# end). A no inside a phrase ("the sign says no parking", "yes, no car is parked") is none.
_LEAD_INS = (r"(?:actually|so|well|wait|but|or|hmm+|oh|ok|okay|rather|correction|"
             r"i mean|i think|i guess|hence|therefore|thus|then|finally|the answer is|answer|"
             r"probably|maybe|perhaps|possibly|likely)")
_OPENS = r"(?i)(?:^|[,.;:!?\n(—–]|\s-)\s*(?:" + _LEAD_INS + r"[\s,:]+){0,2}"
_ENDS = r"(?=\s*(?:[,.;:!?)—–]|\s-|$))"
_STANDING = re.compile(_OPENS + r"[*_\"'“”]*(yes|no)[*_\"'“”]*" + _ENDS)
# a clause that takes the answer back or leaves it open: "Yes, probably not though.", "Yes,
# not really", "No, not sure" (they read Yes and No); a "not" or "no" inside a phrase is none
# ("Yes, no vehicles are parked", "Yes, not the red one"), and "No, it is not." agrees
_TAKEN_BACK = {
    "yes": re.compile(_OPENS + r"(?:not(?:\s+(?:really|quite|exactly|necessarily|sure|"
                      r"certain|likely))?|i\s+don'?t\s+think\s+so|i\s+doubt\s+it)"
                      r"(?:\s+though)?" + _ENDS),
    "no": re.compile(_OPENS + r"not\s+(?:sure|certain)(?:\s+though)?" + _ENDS)}


def _stated(body: str) -> set[str]:
    """The answers `body` states as yes/no words standing alone (`_STANDING`), lower case."""
    return {m.group(1).lower() for m in _STANDING.finditer(body)}


def _yes_no_reader(content: str):
    body = unwrap(content)
    m = _YES_OR_NO.match(body)
    if not m:
        return None, None, False
    clause = _CLAUSE_END.split(body)[0]
    # both in its first clause ("Yes and no"), or both stated on the line ("No, it isn't.
    # Actually yes.": read "No" from its first word before)
    both = len({w.lower() for w in _YES_NO_WORDS.findall(clause)}) > 1 or \
        len(_stated(body) | {m.group(1).lower()}) > 1 or \
        bool(_TAKEN_BACK[m.group(1).lower()].search(body, m.end()))
    return m.group(1).capitalize(), lead(content) + m.end(), both


def yes_no(text: str, options, whole: bool, complete: bool = True) -> tuple[str | None, str]:
    decided = None if whole else final(text, _yes_no_reader, complete_only=not complete)
    if decided is not None or not complete:
        return decided or (None, CUT_OFF)
    found = lines(prose(text))
    reads = [_yes_no_reader(line) for line in (found[:1] + found[-1:] if found else [])]
    values = {value for value, _, _ in reads if value}
    if any(both for _, _, both in reads) or len(values) > 1:
        return None, "ambiguous: both yes and no"
    if values:
        return values.pop(), "first word yes/no"
    return None, "neither yes nor no"
