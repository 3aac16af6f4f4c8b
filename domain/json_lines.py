"""One JSON value per line, as JSON Lines means it: lines end at "\\n" (a "\\r" before it
taken off), never at the other characters Python's `str.splitlines` breaks at.

`json.dumps(..., ensure_ascii=False)` writes U+2028, U+2029 and U+0085 raw, and
`splitlines` broke a line at each: an exported item holding one came back as two broken
`line-N` items, the item lost (a review, round 29). Writers escape them (`dumps_line`);
readers split at "\\n" only (`lines`), so files written before still read whole."""
from __future__ import annotations

import json

BREAKS_IN_SPLITLINES = {"\u2028": "\\u2028", "\u2029": "\\u2029", "\u0085": "\\u0085",
                        "\x0b": "\\u000b", "\x0c": "\\u000c", "\x1c": "\\u001c",
                        "\x1d": "\\u001d", "\x1e": "\\u001e"}
"""The characters `str.splitlines` ends a line at besides \\n and \\r, as JSON escapes (the
C0 ones json.dumps escapes itself; listed so that any writer's text is safe)."""


def dumps_line(value, **options) -> str:
    """`value` as one JSON line (json.dumps' `options`, ensure_ascii False unless given),
    with no character any line splitter breaks at."""
    options.setdefault("ensure_ascii", False)
    text = json.dumps(value, **options)
    for raw, escaped in BREAKS_IN_SPLITLINES.items():
        if raw in text:        # only inside strings: outside them JSON allows none of these
            text = text.replace(raw, escaped)
    return text


def lines(text: str) -> list[str]:
    """The lines of a JSON Lines text: split at "\\n", a line's trailing "\\r" taken off."""
    return [line[:-1] if line.endswith("\r") else line for line in text.split("\n")]
