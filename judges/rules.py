"""Rule-based judges: multiple choice, yes/no, numeric, open (pre-check) and the dispatcher.

Reading the answer out of the model's text is `domain.extract`'s job (strict to
lenient, never a guess); a judge only compares what was read with the gold answer, so the same
reading is shown in the UI, stored with the response and scored. A judge accepts either the raw
text (it then calls `domain.extract.extract`) or an extraction already made.

Multiple choice and yes/no are exact after normalisation (DailyClue §4.2: "exact string
matching"); numeric allows an absolute and/or relative tolerance; open answers get a cheap
normalised match against gold and aliases, and anything it cannot confirm is left `unscored`
for the LLM judge (a lexical miss is no proof that the answer is wrong). Location lives in
`judges.location`. MMR-Life's own regex is in `judges.mmr_life`, for comparison with the paper.
"""
from __future__ import annotations

import math
import re
import unicodedata

from domain.extract import Extraction, extract
from domain.numbers import number_in
from domain.vocabulary import ANSWER_TYPES

from judges.location import judge_location
from judges.verdict import Verdict, error, from_match, unparsed, unscored, wrong


def read_answer(answer_type: str, text_or_extraction, options=None,
                image_size=None, complete: bool = True) -> tuple[str | None, str]:
    """(answer, how it was read) from raw text, a runner `Extraction`, or a dict with "answer".
    `complete` False: raw text of a reply cut off by max_tokens (`domain.extract`)."""
    if isinstance(text_or_extraction, Extraction):
        return text_or_extraction.answer, text_or_extraction.reason
    if isinstance(text_or_extraction, dict):
        answer = text_or_extraction.get("answer")
        return (answer or None), str(text_or_extraction.get("reason") or "given extraction")
    found = extract(text_or_extraction, answer_type, options, image_size=image_size,
                    complete=complete)
    return found.answer, found.reason


# -- multiple choice ---------------------------------------------------------------------------

def _plain(text: str) -> str:
    """Lower case, no accents, punctuation to spaces, no articles, single spaces."""
    text = unicodedata.normalize("NFKD", str(text).lower())
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    words = re.sub(r"[^\w\s]", " ", text).split()
    return " ".join(word for word in words if word not in ("a", "an", "the"))


def gold_label(gold, options=None) -> str | None:
    """The gold option's letter: the gold itself ("C", "(C)", "c.") or the label of the option
    whose text the gold is. None when the gold names no option."""
    text = str(gold or "").strip()
    labels = [str(o.get("label", "")).strip().upper() for o in options or []]
    letter = re.fullmatch(r"[(\[]?([A-Za-z])[)\].]?", text)
    if letter and (not labels or letter.group(1).upper() in labels):
        return letter.group(1).upper()
    hits = [label for label, o in zip(labels, options or [])
            if o.get("text") and _plain(o["text"]) == _plain(text)]
    return hits[0] if len(hits) == 1 else None


def judge_multiple_choice(answer: str | None, gold, options=None, how: str = "") -> Verdict:
    judge = "rule:multiple_choice"
    expected = gold_label(gold, options)
    if expected is None:
        return unscored(f"gold {gold!r} names no option", judge=judge, answer=answer)
    if not answer:
        return unparsed(how or "no option letter found", judge=judge)
    return from_match(answer.upper() == expected, f"chose {answer}, gold {expected} ({how})",
                      judge=judge, answer=answer.upper(), details={"gold": expected})


# -- yes / no ----------------------------------------------------------------------------------

def yes_no_value(text) -> str | None:
    """"Yes"/"No" from a gold or an answer ("yes.", "No, because...", "true"), else None."""
    words = _plain(str(text or "")).split()
    first = words[0] if words else ""
    return {"yes": "Yes", "true": "Yes", "no": "No", "false": "No"}.get(first)


def judge_yes_no(answer: str | None, gold, how: str = "") -> Verdict:
    judge = "rule:yes_no"
    expected = yes_no_value(gold)
    if expected is None:
        return unscored(f"gold {gold!r} is neither yes nor no", judge=judge, answer=answer)
    said = yes_no_value(answer)
    if said is None:
        return unparsed(how or "neither yes nor no", judge=judge, answer=answer)
    return from_match(said == expected, f"said {said}, gold {expected} ({how})", judge=judge,
                      answer=said, details={"gold": expected})


# -- numeric -----------------------------------------------------------------------------------

def number_value(text) -> float | None:
    """A number from a gold or an answer: one number with its unit or currency as a gold is
    written ("5,30 €", "€5.30", "3 km": domain.numbers, the rule a gold is saved by), else
    read the runner's way ("the wait is 12,000 km" is 12000)."""
    if isinstance(text, (int, float)) and not isinstance(text, bool):
        return float(text)
    value = number_in(text)
    if value is not None:
        return value
    found = extract(str(text or ""), "numeric").answer
    return float(found) if found is not None else None


def judge_numeric(answer, gold, *, abs_tol: float = 0.0, rel_tol: float = 0.0,
                  how: str = "") -> Verdict:
    """Correct when |answer - gold| <= max(abs_tol, rel_tol * |gold|): the relative tolerance is
    taken from the gold (not from the larger of the two, as math.isclose does), so a wrong
    answer cannot widen its own tolerance."""
    judge = "rule:numeric"
    expected = number_value(gold)
    if expected is None:
        return unscored(f"gold {gold!r} is not a number", judge=judge, answer=answer)
    said = number_value(answer) if answer is not None else None
    if said is None or math.isnan(said):
        return unparsed(how or "no number found", judge=judge, answer=answer)
    allowed = max(abs_tol, rel_tol * abs(expected))
    gap = abs(said - expected)
    return from_match(gap <= allowed, f"{said:g} vs gold {expected:g}: off by {gap:g}, "
                      f"tolerance {allowed:g}", judge=judge, answer=str(answer),
                      details={"gold": expected, "difference": gap, "tolerance": allowed})


# -- open --------------------------------------------------------------------------------------

def judge_open(answer: str | None, gold, aliases=(), *, no_match: str = "unscored",
               how: str = "") -> Verdict:
    """A normalised exact match with the gold or an alias is `correct`; otherwise `unscored`
    (left to the LLM judge) unless `no_match="wrong"` asks for the strict reading."""
    judge = "rule:open"
    golds = [g for g in [gold, *aliases] if g is not None and _plain(g)]
    if not golds:
        return unscored("no gold answer", judge=judge, answer=answer)
    # unparsed only when nothing was extracted: an answer that normalises to nothing ("A" and
    # "The" are articles, "..." is punctuation) was still read, so the rules cannot decide it
    if not answer or not str(answer).strip():
        return unparsed(how or "empty answer", judge=judge)
    said = _plain(answer)
    hit = next((g for g in golds if _plain(g) == said), None)
    if hit is not None:
        return Verdict("correct", reason=f"matches {hit!r} after normalisation", judge=judge,
                       answer=answer, details={"matched": hit})
    reason = "no normalised match with the gold or an alias"
    if no_match == "wrong":
        return wrong(reason, judge=judge, answer=answer)
    return unscored(reason + "; needs the LLM judge", judge=judge, answer=answer,
                    details={"needs_llm_judge": True})


# -- the dispatcher ----------------------------------------------------------------------------

def judge_response(answer_type: str, text_or_extraction, gold, aliases=(), options=None,
                   **params) -> Verdict:
    """The rule verdict on one response.

    text_or_extraction: the model's raw text, a runner `Extraction`, or {"answer": ...}.
    params: status ("error" gives an `error` verdict without reading; "truncated" reads raw
    text as a cut-off reply: only a whole explicit statement answers), image_size,
    location `rule` ("normalised" | "strict"), numeric `abs_tol`/`rel_tol`, open `no_match`.
    """
    if answer_type not in ANSWER_TYPES:
        raise ValueError(f"answer_type must be one of {ANSWER_TYPES}, not {answer_type!r}")
    if params.get("status") == "error":
        return error("the model call failed", judge=f"rule:{answer_type}")
    aliases = list(aliases or [])
    answer, how = read_answer(answer_type, text_or_extraction, options, params.get("image_size"),
                              complete=params.get("status") != "truncated")
    if answer_type == "multiple_choice":
        return judge_multiple_choice(answer, gold, options, how)
    if answer_type == "yes_no":
        return judge_yes_no(answer, gold, how)
    if answer_type == "numeric":
        return judge_numeric(answer, gold, abs_tol=params.get("abs_tol", 0.0),
                             rel_tol=params.get("rel_tol", 0.0), how=how)
    if answer_type == "location":
        return judge_location(answer, gold, aliases, rule=params.get("rule", "normalised"),
                              extraction_reason=how)
    return judge_open(answer, gold, aliases, no_match=params.get("no_match", "unscored"),
                      how=how)
