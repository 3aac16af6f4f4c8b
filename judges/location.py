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

import re
import unicodedata
from functools import lru_cache

import pycountry
from rapidfuzz.distance import Levenshtein

from judges.verdict import Verdict, from_match, unparsed, unscored

SEEKWORLD_SUFFIXES = (" province", " sheng", " län", " oblast", " governorate", " city",
                      " province", " state", " territory", " region", " district")
EXTRA_SUFFIXES = (" prefecture", " county", " municipality", " autonomous region",
                  " special administrative region", " sar", " zizhiqu", " shi", " department",
                  " canton", " voivodeship", " metropolitan city", " autonomous community",
                  " federal district", " capital region", " oblast'", " kray", " krai", " ken")
ADMIN_PREFIXES = ("province of ", "state of ", "region of ", "prefecture of ", "county of ",
                  "autonomous community of ", "republic of ")
COUNTRY_ALIASES = {  # common names that pycountry does not resolve, normalised like the keys
    "russia": "RU", "uk": "GB", "britain": "GB", "great britain": "GB", "america": "US",
    "united states of america": "US", "turkey": "TR", "ivory coast": "CI", "macedonia": "MK",
    "holland": "NL", "brunei": "BN", "cape verde": "CV", "swaziland": "SZ", "burma": "MM",
    "palestine": "PS", "vatican": "VA", "vatican city": "VA", "micronesia": "FM",
    "dr congo": "CD", "drc": "CD", "democratic republic of the congo": "CD",
    "congo kinshasa": "CD", "republic of the congo": "CG", "congo brazzaville": "CG",
    "macau": "MO", "uae": "AE", "east timor": "TL", "slovak republic": "SK",
    "south korea": "KR", "republic of korea": "KR", "north korea": "KP",
}


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


# -- normalisation ------------------------------------------------------------------------------

def _fold(text: str) -> str:
    """Lower case without accents or punctuation, single spaces: the key both sides go through."""
    text = unicodedata.normalize("NFKD", text.lower().replace("&", " and "))
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    text = re.sub(r"[.'’`]", "", text)
    return " ".join(re.sub(r"[^\w]+", " ", text).split())


def _country_keys(country) -> set[str]:
    names = {country.name, getattr(country, "official_name", None),
             getattr(country, "common_name", None)}
    keys = {country.alpha_2.lower(), country.alpha_3.lower()}
    for name in filter(None, names):
        keys.add(_fold(name))
        keys.add(_fold(re.sub(r"\(.*?\)", "", name)))
    return keys


@lru_cache(maxsize=1)
def _country_index() -> dict[str, str]:
    index = {key: c.alpha_2 for c in pycountry.countries for key in _country_keys(c)}
    index.update(COUNTRY_ALIASES)
    return index


@lru_cache(maxsize=4096)
def country_code(name: str) -> str | None:
    """ISO alpha-2 code of a country name, code or common name; None when unknown."""
    key = _fold(name)
    key = key[4:] if key.startswith("the ") else key
    key = re.sub(r"^st ", "saint ", key)
    return _country_index().get(key)


@lru_cache(maxsize=1)
def _folded_suffixes() -> tuple[str, ...]:
    return tuple(dict.fromkeys(_fold(s) for s in (*SEEKWORLD_SUFFIXES, *EXTRA_SUFFIXES)))


@lru_cache(maxsize=65536)
def _strip_admin(text: str) -> str:
    name = _fold(text)
    changed = True
    while changed:
        changed = False
        for prefix in ADMIN_PREFIXES:
            if name.startswith(prefix) and len(name) > len(prefix):
                name, changed = name[len(prefix):], True
        for suffix in _folded_suffixes():
            if name.endswith(" " + suffix) and len(name) > len(suffix) + 1:
                name, changed = name[: -len(suffix) - 1], True
    return name


def _subdivision_names(name: str) -> set[str]:
    """A subdivision name and its alternates ("A Coruña [La Coruña]", "Murcia, Región de")."""
    names = {re.sub(r"[\[(].*?[\])]", "", name), *re.findall(r"[\[(](.*?)[\])]", name)}
    names |= {part for n in list(names) for part in n.split(" / ")}
    names |= {n.split(",")[0] for n in list(names)}
    return {key for key in map(_strip_admin, names) if key}


@lru_cache(maxsize=512)
def _subdivision_index(code: str) -> dict[str, frozenset[str]]:
    index: dict[str, set[str]] = {}
    for sub in pycountry.subdivisions.get(country_code=code) or []:
        keys = _subdivision_names(sub.name)
        suffix = sub.code.split("-", 1)[1].lower()
        if suffix.isalpha() and len(suffix) >= 2:
            keys.add(suffix)
        for key in keys:
            index.setdefault(key, set()).add(sub.code)
    return {key: frozenset(codes) for key, codes in index.items()}


@lru_cache(maxsize=65536)
def subdivision_codes(country: str, admin: str) -> frozenset[str]:
    """The pycountry subdivision codes that `admin` can name within `country` (may be empty)."""
    code = country_code(country)
    return _subdivision_index(code).get(_strip_admin(admin), frozenset()) if code else frozenset()


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
    pred_words, pred_subs = _strip_admin(pred[1]).split(), subdivision_codes(true[0], pred[1])
    for alias in true[1].split("/"):
        if _words_match(pred_words, _strip_admin(alias).split()):
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
