"""Location answers (`$country,admin1$`): the SeekWorld rule exactly, and our normalised rule.

DailyClue scores Location Identification "aligned with SeekWorld", so `seekworld_strict` is a
line-by-line reading of the SeekWorld authors' verifier (`verify_location` in their
`location_verifier_process.py`), kept exact so our numbers can be compared with theirs:

- strip `$`, split on `,`: exactly two parts, else wrong; strip and lower-case both;
- the country must be the same text (so "usa" is not "united states": a known trap);
- the gold admin-1 is `/`-separated aliases; the authors' suffix list is stripped from the
  answer and each alias, *in that list's order, once each* (" province", " sheng", " län",
  " oblast", " governorate", " city", " state", " territory", " region", " district" --
  notably not " prefecture" or " county");
- both are split into words and matched greedily: each answer word takes the first unused alias
  word at Levenshtein distance < 3, and every alias word must be taken.
The rule is applied to the `$country,admin1$` that `domain.extract` read; SeekWorld's own
verifier reads only `<answer>$...$</answer>` and scores anything else 0, a format check that
ClueLab reports as `unparsed` instead.

`normalised_match` only ever adds matches to the strict rule (so `differs` means "accepted only
after normalisation"): the country also matches when pycountry resolves both names to one ISO
code (plus a short table of common names pycountry lacks: Russia, UK, Turkey, ...); the admin-1
also matches after accent folding, punctuation removal and a longer suffix/prefix list
(prefecture, county, autonomous region, ...), or when both resolve to the same
pycountry subdivision of that country (so "ca" is California and "guangdong sheng" Guangdong).
"""
from __future__ import annotations

from functools import lru_cache

from rapidfuzz.distance import Levenshtein

from domain.places import (COUNTRY_ALIASES, SEEKWORLD_SUFFIXES, country_code,  # noqa: F401
                           strip_admin, subdivision_codes)

from judges.verdict import Verdict, from_match, unparsed, unscored

# -- the SeekWorld rule, exactly ----------------------------------------------------------------

def _seekworld_standardize(region: str) -> str:
    region = region.lower().strip()
    for suffix in SEEKWORLD_SUFFIXES:
        if region.endswith(suffix):
            region = region[:-len(suffix)]
    return region.strip()


def _words_match(pred_words: list[str], true_words: list[str]) -> bool:
    """SeekWorld's greedy word matching: every word pairs with a distinct word at distance < 3."""
    if not pred_words or not true_words:
        return False
    used: set[int] = set()
    for pred_word in pred_words:
        for i, true_word in enumerate(true_words):
            if i not in used and Levenshtein.distance(pred_word, true_word) < 3:
                used.add(i)
                break
        else:
            return False
    return len(used) == len(true_words)


def _split(location: str) -> tuple[str, str] | None:
    parts = [part.strip().lower() for part in location.strip().strip("$").strip().split(",")]
    return (parts[0], parts[1]) if len(parts) == 2 else None


def seekworld_strict(answer: str, gold: str) -> tuple[bool, str]:
    """The SeekWorld authors' verdict on one answer against one gold, and why."""
    pred, true = _split(answer), _split(gold)
    if pred is None or true is None:
        return False, "not exactly one comma in " + ("the answer" if pred is None else "the gold")
    if pred[0] != true[0]:
        return False, f"country {pred[0]!r} is not {true[0]!r}"
    pred_words = _seekworld_standardize(pred[1]).split()
    for alias in true[1].split("/"):
        if _words_match(pred_words, _seekworld_standardize(alias).split()):
            return True, f"admin-1 matches {alias.strip()!r}"
    return False, f"admin-1 {pred[1]!r} matches no alias of {true[1]!r}"


# -- the normalised rule -------------------------------------------------------------------------

@lru_cache(maxsize=65536)
def normalised_match(answer: str, gold: str) -> tuple[bool, str]:
    """Our verdict: the strict rule, plus country names, accents, suffixes and subdivisions."""
    strict, why = seekworld_strict(answer, gold)
    if strict:
        return True, why
    pred, true = _split(answer), _split(gold)
    if pred is None or true is None:
        return False, why
    pred_code, true_code = country_code(pred[0]), country_code(true[0])
    if pred[0] != true[0] and not (pred_code and pred_code == true_code):
        return False, f"country {pred[0]!r} is not {true[0]!r} (ISO {pred_code} vs {true_code})"
    country = f"country {pred[0]!r} is {true[0]!r} (ISO {true_code}); " \
        if pred[0] != true[0] else ""
    pred_words, pred_subs = strip_admin(pred[1]).split(), subdivision_codes(true[0], pred[1])
    for alias in true[1].split("/"):
        if _words_match(pred_words, strip_admin(alias).split()):
            return True, f"{country}admin-1 matches {alias.strip()!r} after normalisation"
        shared = pred_subs & subdivision_codes(true[0], alias)
        if shared:
            return True, f"{country}admin-1 and {alias.strip()!r} are subdivision {min(shared)}"
    return False, f"{country}admin-1 {pred[1]!r} matches no alias of {true[1]!r}, even normalised"


def judge_location(answer: str | None, gold: str | None, aliases=(), *,
                   rule: str = "normalised", extraction_reason: str = "") -> Verdict:
    """Verdict on an extracted `$country,admin1$`; `details` carry both rules and `differs`.

    `rule` chooses which rule gives the value ("normalised" or "strict"); the other one is
    always computed too. Extra golds in `aliases` are full `$country,admin1$` answers."""
    if rule not in ("normalised", "strict"):
        raise ValueError(f"rule must be 'normalised' or 'strict', not {rule!r}")
    judge = f"rule:location:{rule}"
    golds = [g for g in [gold, *aliases] if g and str(g).strip()]
    if not golds:
        return unscored("no gold location", judge=judge, answer=answer)
    if not answer:
        return unparsed(extraction_reason or "no $country,admin1$ in the output", judge=judge)
    strict = [seekworld_strict(answer, g) for g in golds]
    normalised = [normalised_match(answer, g) for g in golds]
    strict_ok, normal_ok = any(ok for ok, _ in strict), any(ok for ok, _ in normalised)
    chosen = strict if rule == "strict" else normalised
    reason = next((why for ok, why in chosen if ok), chosen[0][1])
    pred = _split(answer)
    details = {"strict": strict_ok, "normalised": normal_ok, "differs": strict_ok != normal_ok,
               "strict_reason": next((w for ok, w in strict if ok), strict[0][1]),
               "country_code": country_code(pred[0]) if pred else None, "golds": golds}
    return from_match(strict_ok if rule == "strict" else normal_ok, reason, details=details,
                      judge=judge, answer=answer)
