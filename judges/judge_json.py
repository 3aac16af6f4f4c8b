"""Reading an LLM judge's reply: its JSON object, wherever the reply put it, and its values as
a person reads them.

A judge is asked for one JSON object, and answers with it fenced, bare, or inside prose; its
keys in any case. What it gives as text (a reason) may come as a list or an object: shown as
it was parsed, it read as a Python repr ("['clue 1 matches']"), so it is written out as plain
text (`plain_text`); an entry a message quotes is quoted as JSON (`quoted`). Pure.
"""
from __future__ import annotations

import json
import re

_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.S)


def reply_json(reply: str | None) -> dict | None:
    """The judge's JSON object: a fenced block, else the first `{...}` that parses."""
    text = (reply or "").strip()
    for block in _FENCE.findall(text):
        try:
            data = json.loads(block.strip())
        except ValueError:
            continue
        if isinstance(data, dict):
            return data
    decoder, start = json.JSONDecoder(), text.find("{")
    while start >= 0:
        try:
            data, _ = decoder.raw_decode(text[start:])
        except ValueError:
            start = text.find("{", start + 1)
            continue
        if isinstance(data, dict):
            return data
        start = text.find("{", start + 1)
    return None


def lower_keys(data: dict) -> dict:
    """The object's keys stripped and lower-cased ("Verdict", " AC " read as the others)."""
    return {str(k).strip().lower(): v for k, v in data.items()}


def plain_text(value) -> str:
    """A value of the judge's JSON as a person reads it: a text as it is, a list's items
    joined by "; ", an object's "key: value" pairs by ", ", a number or true/false as JSON
    writes it. A judge that gives its reason as a list or an object was shown as a Python
    repr ("['clue 1 matches']", "{'clue': 1, ...}")."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, list):
        return "; ".join(t for t in map(plain_text, value) if t)
    if isinstance(value, dict):
        return ", ".join(f"{k}: {plain_text(v)}" if plain_text(v) else str(k)
                         for k, v in value.items())
    return json.dumps(value)


def quoted(entry) -> str:
    """An entry of the judge's reply as a message quotes it: JSON, at most 200 characters."""
    text = json.dumps(entry, ensure_ascii=False, default=str)
    return text if len(text) <= 200 else text[:197] + "..."


def reason_text(data: dict) -> str:
    """The judge's reason ("reason", else "rationale") as plain text (`plain_text`)."""
    return plain_text(data.get("reason") or data.get("rationale"))
