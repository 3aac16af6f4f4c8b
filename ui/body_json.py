"""A request's JSON body, read once at the door (ui/route_access.py) and refused, with a 400
that names the rule and quotes nothing, when Gradio would choke on it.

Why, per refusal:
- nested too deep ('[' x 100,000): Gradio's reading of it, and ClueLab's own, failed with a
  RecursionError, a 500 and a traceback per request from any signed-in account;
- NaN, Infinity or a number past a float's range (1e309): Python's reader takes them, but
  they are not JSON; a join whose fn_index was NaN answered a 500 "Server error" (Gradio's
  422 quoting the value could not be written as JSON) and logged a line per request;
- an array (or object) longer than MAX_JSON_ARRAY, or more than MAX_JSON_VALUES values in
  all: a save_item whose clue table had 1,000,000 empty rows (15 MB, within the body's
  limit) held the server 13.8 s in Gradio's Dataframe preprocessing, before any of
  ClueLab's checks, and a few at once stalled every other user's calls for 40-50 s. The
  bounds (domain/limits.py) are far above what any input of the app holds.

A body that is not JSON at all (a form, nothing) is not refused here: Gradio answers it.
"""
from __future__ import annotations

import json
import math

from domain.limits import MAX_JSON_ARRAY, MAX_JSON_VALUES

NOT_JSON = object()
"""`read`'s value for a body that is not JSON: the route behind answers it."""
TOO_DEEP = {"detail": "The request's JSON is nested too deep to read."}
NOT_PLAIN = {"detail": "The request's body is not plain JSON: NaN, Infinity and numbers "
                       "past a float's range are not allowed."}
TOO_LONG = {"detail": f"The request's JSON holds an array or object of more than "
                      f"{MAX_JSON_ARRAY:,} values, or more than {MAX_JSON_VALUES:,} in all: "
                      f"no input of this app takes that many."}


class _NotPlain(ValueError):
    """NaN, Infinity or an overflowing number met while reading."""


def _constant(name: str):
    raise _NotPlain(name)


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _NotPlain(text)
    return value


def read(body: bytes) -> tuple[object, dict | None]:
    """(the body's JSON value, None), (NOT_JSON, None) for a body that is not JSON (or
    none), or (NOT_JSON, the 400's body) for one refused (see the module docstring)."""
    if not body:
        return NOT_JSON, None
    try:
        value = json.loads(body, parse_constant=_constant, parse_float=_finite)
    except RecursionError:
        return NOT_JSON, TOO_DEEP
    except _NotPlain:
        return NOT_JSON, NOT_PLAIN
    except ValueError:              # not JSON (nor UTF-8): Gradio answers it
        return NOT_JSON, None
    return (NOT_JSON, TOO_LONG) if too_long(value) else (value, None)


def too_long(value) -> bool:
    """Does `value` hold an array or object of more than MAX_JSON_ARRAY values, or more than
    MAX_JSON_VALUES in all? Walked without recursion, stopping at the first one too long."""
    pending, total = [value], 0
    while pending:
        current = pending.pop()
        if isinstance(current, dict):
            current = current.values()
        elif not isinstance(current, list):
            continue
        total += len(current)
        if len(current) > MAX_JSON_ARRAY or total > MAX_JSON_VALUES:
            return True
        pending.extend(v for v in current if isinstance(v, (list, dict)))
    return False
