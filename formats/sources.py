"""Reading source files (text, JSON, JSON Lines) with errors that name the file.

Anything that makes a whole file unusable (missing, unreadable, not UTF-8, broken JSON)
becomes a `FormatError`, raised before the database is touched. Parser exceptions are
translated by `parse_failure` into where and what was expected, never passed on as text:
their messages may quote the file, and the file may be a secret. A JSON Lines file is read
line by line: a single bad line is a per-item problem for the caller, but a file with no
JSON object at all is not JSON Lines and is refused.
"""
from __future__ import annotations

import json
import math
from pathlib import Path

from domain import json_lines

from .report import FormatError

# Large enough for any real benchmark file, small enough to refuse a disk image by mistake.
MAX_FILE_BYTES = 8 * 1024 ** 3


def require_file(path: Path) -> Path:
    path = Path(path)
    if not path.exists():
        raise FormatError(path, "file not found")
    if not path.is_file():
        raise FormatError(path, "not a file")
    if path.stat().st_size > MAX_FILE_BYTES:
        raise FormatError(path, "file too large")
    return path


def require_folder(path: Path, what: str = "folder") -> Path:
    path = Path(path)
    if not path.exists():
        raise FormatError(path, f"{what} not found")
    if not path.is_dir():
        raise FormatError(path, f"not a folder (expected the {what})")
    return path


def read_text(path: Path) -> str:
    """The file as text: UTF-8 (a BOM is tolerated), else a FormatError."""
    path = require_file(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise FormatError(path, parse_failure(exc)) from None
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise FormatError(path, parse_failure(exc)) from None


def json_error(exc: BaseException, one_line: bool = False) -> str:
    """What is wrong with a JSON text and where, never the content: the decoder's message
    with its position (`exc.msg` alone stops mid-sentence: "Unterminated string starting
    at"). `one_line`: the text is one line (of JSON Lines, a field), so only its column."""
    if not isinstance(exc, json.JSONDecodeError):
        return "nested too deeply"
    where = f"column {exc.colno}" if one_line else f"line {exc.lineno} column {exc.colno}"
    return f"{exc.msg}{'' if exc.msg.endswith(' at') else ' at'} {where}"


def parse_failure(exc: BaseException) -> str:
    """Why a file could not be read or parsed, naming the position, never the content."""
    if isinstance(exc, (json.JSONDecodeError, RecursionError)):
        return f"invalid JSON: {json_error(exc)}"
    if isinstance(exc, UnicodeDecodeError):
        return f"not UTF-8 text (byte {exc.start})"
    if isinstance(exc, OSError):
        return f"cannot read file: {exc.strerror or type(exc).__name__}"
    return f"unreadable ({type(exc).__name__})"


def _finite_or_written(literal: str):
    """A JSON number as a float, or, when it is none (1e400 overflows to inf), the text the
    file wrote: stored as "inf" it read as a number nobody wrote; as "1e400" a numeric gold
    or alias is flagged like any other that is no number (judges.gold_check)."""
    value = float(literal)
    return value if math.isfinite(value) else literal


def _int_or_written(literal: str):
    """A JSON integer, or its text when Python refuses to read it (over 4,300 digits: the
    ValueError ended the whole import with a traceback)."""
    return int(literal) if len(literal) <= 4_000 else literal


def loads(text: str):
    """json.loads for the files an import reads: a number that is no finite float (1e400),
    an integer too long to read, and Python's NaN / Infinity extensions are kept as the
    text the file wrote."""
    return json.loads(text, parse_float=_finite_or_written, parse_int=_int_or_written,
                      parse_constant=str)


def parse_json_text(text: str, path: Path):
    try:
        return loads(text)
    except (json.JSONDecodeError, RecursionError) as exc:
        raise FormatError(path, parse_failure(exc)) from None


def read_json(path: Path):
    return parse_json_text(read_text(path), path)


def read_json_lines(path: Path, text: str | None = None) -> list[tuple[int, object, str | None]]:
    """(line number, parsed value or raw line, error or None) for every non-empty line.

    Raises FormatError when not a single line is a JSON object: then the file is not JSON
    Lines (a JSON array, a CSV, a binary file...).
    """
    if text is None:
        text = read_text(path)
    rows = []
    objects = 0
    for number, line in enumerate(json_lines.lines(text), start=1):
        if not line.strip():
            continue
        try:
            value = loads(line)
        except (json.JSONDecodeError, RecursionError) as exc:
            rows.append((number, line, f"invalid JSON on line {number}: "
                                       f"{json_error(exc, one_line=True)}"))
            continue
        if isinstance(value, dict):
            objects += 1
            rows.append((number, value, None))
        else:
            rows.append((number, line, f"line {number} is not a JSON object"))
    if objects == 0:
        first_error = rows[0][2] if rows else "file is empty"
        raise FormatError(path, f"not JSON Lines: no line holds a JSON object ({first_error}); "
                                "is it the file you meant, and is Format (--format) its format?")
    return rows


def read_json_or_lines(path: Path) -> list[tuple[int, object, str | None]]:
    """Items of a file that is a JSON array, `{"items": [...]}`, or JSON Lines.

    Returns the same triples as `read_json_lines` (position instead of line number for
    JSON documents).
    """
    text = read_text(path)
    stripped = text.lstrip()
    if stripped.startswith("["):
        data = parse_json_text(text, path)
    elif stripped.startswith("{"):
        try:
            data = loads(text)
        except json.JSONDecodeError:
            return read_json_lines(path, text)          # several objects: JSON Lines
        if isinstance(data, dict) and isinstance(data.get("items"), list):
            data = data["items"]
        else:
            data = [data]
    else:
        raise FormatError(path, "expected a JSON array, an object with \"items\", or JSON Lines")
    if not isinstance(data, list):
        raise FormatError(path, "expected a list of items")
    return [(i + 1, v, None if isinstance(v, dict) else f"item {i + 1} is not a JSON object")
            for i, v in enumerate(data)]
