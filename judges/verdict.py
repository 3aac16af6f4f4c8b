"""The verdict: what every judge returns, rule-based or LLM.

One shape for all judges so that scores can be stored, shown and aggregated the same way, and so
that every verdict explains itself (DESIGN.md: "judges return a verdict object (value, reason, raw
judge prompt and reply)"). The values keep apart four kinds of "not correct" on purpose:

- ``wrong``: the model answered and the answer is not the gold one.
- ``unparsed``: the model's output holds no readable answer (none, or two different final ones).
  Counted as wrong in accuracy and also reported as a rate, never replaced by a guess.
- ``error``: the model call failed (no output to judge). Counted as wrong, reported as a rate.
- ``unscored``: the *judge* could not score: an LLM judge whose reply cannot be parsed, an item
  without a gold answer, an open answer that no rule can decide. Not a 0: it is left out of the
  accuracy's denominator and reported as a count, so a broken judge never lowers a model's score.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field

CORRECT, WRONG, UNPARSED, UNSCORED, ERROR = "correct", "wrong", "unparsed", "unscored", "error"
VALUES = (CORRECT, WRONG, UNPARSED, UNSCORED, ERROR)
#: values that count as answered-but-not-correct in accuracy (they stay in the denominator)
COUNTED_AS_WRONG = (WRONG, UNPARSED, ERROR)


@dataclass
class Verdict:
    value: str                      # one of VALUES
    score: float | None = None      # 1.0 / 0.0 for rule judges; a sub-score for graded judges
    reason: str = ""                # why, in one line a person can read
    details: dict = field(default_factory=dict)  # rule-specific facts (e.g. strict vs normalised)
    judge: str = ""                 # which judge decided ("rule:multiple_choice", "llm:<endpoint>")
    answer: str | None = None       # the model's answer as the judge read it
    prompt: str | None = None       # LLM judges: the exact prompt sent
    reply: str | None = None        # LLM judges: the raw reply received

    def __post_init__(self):
        if self.value not in VALUES:
            raise ValueError(f"verdict value must be one of {VALUES}, not {self.value!r}")
        if self.score is None and self.value in (CORRECT, WRONG, UNPARSED, ERROR):
            self.score = 1.0 if self.value == CORRECT else 0.0

    @property
    def correct(self) -> bool:
        return self.value == CORRECT

    @property
    def scored(self) -> bool:
        """True when the verdict counts in an accuracy (everything but ``unscored``)."""
        return self.value != UNSCORED

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> "Verdict":
        known = {k: data[k] for k in cls.__dataclass_fields__ if k in data}
        return cls(**known)


def correct(reason: str = "", **kwargs) -> Verdict:
    return Verdict(CORRECT, reason=reason, **kwargs)


def wrong(reason: str = "", **kwargs) -> Verdict:
    return Verdict(WRONG, reason=reason, **kwargs)


def unparsed(reason: str = "", **kwargs) -> Verdict:
    return Verdict(UNPARSED, reason=reason, **kwargs)


def unscored(reason: str = "", **kwargs) -> Verdict:
    return Verdict(UNSCORED, reason=reason, **kwargs)


def error(reason: str = "", **kwargs) -> Verdict:
    return Verdict(ERROR, reason=reason, **kwargs)


def from_match(matched: bool, reason: str = "", **kwargs) -> Verdict:
    """``correct`` or ``wrong`` from a boolean, the common ending of every rule judge."""
    return Verdict(CORRECT if matched else WRONG, reason=reason, **kwargs)


NOT_ASKED = "not_asked"
"""details key of a general verdict on an item the model was never asked (a clue-injection
run whose source run has no clues for it): no answer, so nothing built on it is "not correct"."""


def not_correct_reason(answer: Verdict) -> str:
    """Why a verdict built on the general one (rigorous, grounded) is not correct, in the
    general verdict's own terms: an item never asked says so ("answer not correct: not
    asked" called a question nobody asked wrongly answered), an unscored answer is unscored."""
    if answer.details.get(NOT_ASKED):
        return answer.reason
    if answer.value == UNSCORED:
        return f"answer unscored: {answer.reason}"
    return f"answer not correct: {answer.reason}"
