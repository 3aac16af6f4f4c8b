"""Places as location answers name them: countries and their first-level regions.

Pure lookups over pycountry (ISO names, codes, subdivisions) plus the common names it lacks,
used both to read a model's location (domain.extract: which part of "Bavaria, Germany" is the
country) and to judge it (judges.location: do two names mean one country, one region).

Names are compared folded (`fold`: lower case, no accents or punctuation); a region also
without its administrative suffixes and prefixes (`strip_admin`: " province", "state of ").
"""
from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

import pycountry

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



def fold(text: str) -> str:
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
        keys.add(fold(name))
        keys.add(fold(re.sub(r"\(.*?\)", "", name)))
    return keys


@lru_cache(maxsize=1)
def _country_index() -> dict[str, str]:
    index = {key: c.alpha_2 for c in pycountry.countries for key in _country_keys(c)}
    index.update(COUNTRY_ALIASES)
    return index


@lru_cache(maxsize=4096)
def country_code(name: str) -> str | None:
    """ISO alpha-2 code of a country name, code or common name; None when unknown."""
    key = fold(name)
    key = key[4:] if key.startswith("the ") else key
    key = re.sub(r"^st ", "saint ", key)
    return _country_index().get(key)


@lru_cache(maxsize=1)
def _folded_suffixes() -> tuple[str, ...]:
    return tuple(dict.fromkeys(fold(s) for s in (*SEEKWORLD_SUFFIXES, *EXTRA_SUFFIXES)))


@lru_cache(maxsize=65536)
def strip_admin(text: str) -> str:
    name = fold(text)
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
    return {key for key in map(strip_admin, names) if key}


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
    return _subdivision_index(code).get(strip_admin(admin), frozenset()) if code else frozenset()


def is_country(name: str) -> bool:
    """Is `name` a country's name, code or common name ("germany", "DE", "uk")?"""
    return country_code(name) is not None


def region_of(country: str, region: str) -> bool:
    """Does `region` name a first-level subdivision of `country` ("georgia" of "usa")?"""
    return bool(subdivision_codes(country, region))


# -- names as people write them (displays only: a gold keeps the form it was written in) ---

SMALL_WORDS = frozenset({"and", "of", "the", "de", "del", "la", "le", "du", "da", "di", "y"})
_SPECIAL_NAMES = {"dr congo": "DR Congo"}


def capitalised(name: str) -> str:
    """Each word of `name` capitalised, but the small words inside it ("Republic of the
    Congo", "Castilla y León"); the rest of each word as written."""
    words = name.split()
    return " ".join(w[:1].upper() + w[1:] if k == 0 or w not in SMALL_WORDS else w
                    for k, w in enumerate(words))


@lru_cache(maxsize=1)
def _spellings() -> dict[str, str]:
    """{a country's name in lower case: pycountry's spelling of it} ("côte d'ivoire":
    "Côte d'Ivoire", "guinea-bissau": "Guinea-Bissau")."""
    spellings: dict[str, str] = {}
    for country in pycountry.countries:
        for name in (getattr(country, "common_name", None), country.name,
                     getattr(country, "official_name", None)):
            if name:
                spellings.setdefault(name.lower(), name)
    return spellings


def country_name(name: str | None) -> str:
    """A country as a page shows it, from the lower case a location gold writes
    ("germany"): pycountry's spelling of a name it has ("Germany", "Côte d'Ivoire"), a
    code or short name known as a country in capitals ("usa": "USA", "uk": "UK"), any other
    name with its words capitalised ("ivory coast": "Ivory Coast")."""
    text = " ".join((name or "").split())
    key = text.lower()
    if key in _SPECIAL_NAMES:
        return _SPECIAL_NAMES[key]
    if key in _spellings():
        return _spellings()[key]
    if 2 <= len(key) <= 3 and key.isalpha() and is_country(key):
        return key.upper()
    return capitalised(text)


def region_name(country: str, region: str) -> str:
    """A region as a page shows it: a subdivision code of `country` by its name ("qc" of
    "canada": "Quebec", as a gold written "quebec" reads), any other name capitalised."""
    code = country_code(country) if region.isalpha() and 2 <= len(region) <= 3 else None
    sub = pycountry.subdivisions.get(code=f"{code}-{region.upper()}") if code else None
    return sub.name if sub is not None else capitalised(region)
