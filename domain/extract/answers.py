"""Location, numeric and open answers (yes/no is in yes_no.py, multiple choice in
choice.py).

Location: `$country,admin1$` (last one; inside <answer> first; two different ones offered
together, "$germany,bavaria$ or $canada,quebec$", unparsed), else "Country: X, Region: Y",
else a marker's "X, Y" in either order, the part that is a country being the country
("Bavaria, Germany"; `location_order`: unparsed when that cannot be told); normalised to
lower case and single spaces.
Numeric: the first number of the final marker's content; an answer marker that gives no
number ("Answer: C") is unparsed. Without any marker, the last number in the text that is no
list numbering ("2." or "2)" opening a line, "clue 2", "step 2", "image 2"), unless the number
before it in its sentence is a different one offered as an alternative ("about 12.5 g, or
maybe 13 g", "8-10"): two candidates, unparsed; a clock time ("14:45") is no number and,
beside another number, a candidate of its own ("at 14:45, so 8 minutes": unparsed); thousands
separators and units are dropped ("12,000 km" gives "12000").
Open: the final marker's content (for `Answer:` the rest of its line, which a newline ends, so
a clue line after it is no part of the answer; an empty one is unparsed), else the last
non-empty line.
Every rule that reads lines without a marker reads the text's prose (`clues.prose`): a clue
line is never the answer, nor is a number inside one, nor a list entry's numbering.

Every reader is `reader(text, options, whole, complete=True) -> (answer or None, the rule that
decided)`; `whole` means the text is a JSON answer field, a statement by itself; `complete`
False means a reply cut off by max_tokens, read from its whole explicit statements only
(statements.py; location also from a closed `$country,admin1$`), never from a fallback.
"""
from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

from domain.extract.clues import LIST_NUMBERING, prose
from domain.places import fold, is_country, region_of
from domain.extract.statements import ANSWER_TAG, CUT_OFF, final, lead, lines, markers, \
    unwrap

# -- location ----------------------------------------------------------------------------------

_DOLLAR = re.compile(r"\$\s*([^$,\n]{1,100}?)\s*,\s*([^$\n]{0,100}?)\s*\$")
_COUNTRY = re.compile(r"(?im)\bcountry\s*\**\s*[:：]\s*\**\s*([^,;\n*]+)")
_REGION = re.compile(r"(?im)\b(?:region|province|state|prefecture|admin(?:istrative)?[\s_-]*"
                     r"(?:1|area|region|division)?)\s*\**\s*[:：]\s*\**\s*([^,;\n*]+)")


def _location_text(country: str, admin: str) -> str:
    tidy = [" ".join(part.lower().split()).strip(" .*") for part in (country, admin)]
    return f"${tidy[0]},{tidy[1]}$"


def location_order(first: str, second: str) -> tuple[str, str] | None:
    """(country, region) of a location written "X, Y" without `$`: in the format's order
    ("Germany, Bavaria"), or the other way round ("Bavaria, Germany") when only the second
    part is a country; when both are, the one the other is a region of. None when the order
    cannot be told (neither part is a country, or both and neither holds the other): an
    unparsed answer, never `$bavaria,germany$` judged wrong."""
    countries = (is_country(first), is_country(second))
    if countries == (True, True) and fold(first) == fold(second):   # "Mexico, Mexico"
        return first, second
    if countries == (True, True):
        inside = (region_of(first, second), region_of(second, first))
        countries = (inside == (True, False), inside == (False, True))
    if countries == (True, False):
        return first, second
    if countries == (False, True):
        return second, first
    return None


def _two_parts(content: str) -> list[str] | None:
    parts = unwrap(content).rstrip(".").split(",")
    return parts if len(parts) == 2 and parts[0].strip() else None


def _location_reader(content: str):
    parts = _two_parts(content)
    ordered = location_order(*parts) if parts else None
    return (_location_text(*ordered), len(content), False) if ordered else (None, None, False)


def _offered_together(text: str, found: list[re.Match]) -> list[str]:
    """The different locations of the last `$country,admin1$` and those offered in its
    sentence as alternatives to it ("$germany,bavaria$ or $canada,quebec$", joined by "or",
    "maybe", a comma...): more than one is two candidates, never read as the last one (as
    numbers are, `_alternatives`); the same one repeated is one answer."""
    offered = [_location_text(*found[-1].groups())]
    for first, second in zip(reversed(found[:-1]), reversed(found[1:])):
        gap = text[first.end():second.start()]
        if _SENTENCE_BREAK.search(gap) or not (_HEDGE.search(gap) or
                                               not re.sub(r"[\W_]", "", gap)):
            break
        value = _location_text(*first.groups())
        if value not in offered:
            offered.insert(0, value)
    return offered


_UNORDERED = "ambiguous: neither order of 'X, Y' is clear (no part, or both, is a country)"


def location(text: str, options, whole: bool, complete: bool = True
             ) -> tuple[str | None, str]:
    for where, rule in ((" ".join(ANSWER_TAG.findall(text)), "$country,admin1$ in <answer>"),
                        (text, "$country,admin1$")):
        found = list(_DOLLAR.finditer(where))
        if found:
            offered = _offered_together(where, found)
            if len(offered) > 1:
                return None, f"ambiguous: the text offers {' and '.join(offered)}"
            return offered[0], rule
    if not complete:
        return final(text, _location_reader, complete_only=True) or (None, CUT_OFF)
    countries = _COUNTRY.findall(text)
    if countries:
        regions = _REGION.findall(text)
        return _location_text(countries[-1], regions[-1] if regions else ""), "Country:/Region:"
    if whole:
        found = _location_reader(text)[0]
        return found, "country, admin1" if found or not _two_parts(text) else _UNORDERED
    decided = final(text, _location_reader)
    if decided is not None:
        return decided
    unordered = any(_two_parts(m.content) for m in markers(text))
    return None, _UNORDERED if unordered else "no $country,admin1$ found"


# -- numeric -----------------------------------------------------------------------------------

# a comma groups thousands before three digits ("1,500") and is a decimal comma before one
# or two ("12,8 g" is 12.8), as a numeric gold is read (domain/numbers.py): "Answer: 12,8 g"
# read 12, judged wrong against the gold 12.8
_NUMBER = re.compile(r"(?<![\w.])[-−]?(?:\d{1,3}(?:,\d{3})+(?:\.\d+)?"
                     r"|\d+(?:\.\d+|,\d{1,2}(?![\d,]))?)(?!\d)"
                     r"|(?<![\w.])[-−]?\.\d+(?!\d)")
_DECIMAL_COMMA = re.compile(r"-?\d+,\d{1,2}")


def _number_text(raw: str) -> str:
    raw = raw.replace("−", "-")
    raw = raw.replace(",", ".") if _DECIMAL_COMMA.fullmatch(raw) else raw.replace(",", "")
    value = Decimal(raw)
    text = format(value.normalize(), "f")
    return "0" if text in ("-0", "0") else text


_HEDGE = re.compile(r"(?i)\b(?:or|maybe|perhaps|possibly|either|to|and)\b|[-–—~/]")
"""What offers a number as an alternative to the one before it ("8-10", "8 to 10", "12.8 or
13", "between 8 and 10", "12.5 g, or maybe 13 g", "4 cats and 3 dogs"): two candidates, not
one answer."""
_SENTENCE_BREAK = re.compile(r"[.!?](?=\s|$)|\n")


def _alternatives(text: str, first: re.Match, second: re.Match) -> bool:
    """Whether `second` is a different number offered in `first`'s sentence as an
    alternative to it."""
    gap = text[first.end():second.start()]
    return bool(_HEDGE.search(gap)) and not _SENTENCE_BREAK.search(gap) and \
        _number_text(first.group()) != _number_text(second.group())


def _number_reader(content: str):
    body = unwrap(content)
    found = list(_NUMBER.finditer(body))
    if not found:
        return None, None, False
    # (the first number alone was taken: "8-10 minutes" read 8, scored correct for gold 8)
    m = found[0]
    if re.match(r",\d", body[m.end():]):    # "3,14159": neither thousands nor a decimal comma
        return None, None, False
    if _CLOCK.match(body, m.start()):       # "14:45" is a time, no number (it read 14)
        return None, None, False
    return _number_text(m.group()), lead(content) + m.end(), \
        len(found) > 1 and _alternatives(body, m, found[1])


_NUMBERING = re.compile(r"(?im)^[\s*_#>-]*\(?(\d+)[.)](?=\s+\S)"
                        r"|\b(?:clue|step|image|frame|picture|option|point|item|reason|no\.?)"
                        r"\s*#?\s*(\d+)\b")


_CLOCK = re.compile(r"(?<![\w.:])\d{1,2}:\d{2}(?::\d{2})?(?![\d:])")
"""A clock time ("14:45"): a value of its own, no number, and its digits no candidates."""


def _last_genuine_number(text: str) -> tuple[str | None, str]:
    """(the last number of the text's prose that does not number a list entry or a clue, the
    rule); clue lines and numbered list entries are no prose (`clues.prose`). None when
    there is none, or when the number before it in its sentence is a different value offered
    as an alternative ("about 12.5 g, or maybe 13 g" is no answer 13: a hedge is not an
    answer, and picking the last candidate is a guess); "3 cars, then 4 more, so 7 cars"
    still reads 7."""
    text = prose(text)
    numbering = {m.start(1) if m.group(1) else m.start(2) for m in _NUMBERING.finditer(text)}
    numbers = [m for m in _NUMBER.finditer(text)
               if m.start() not in numbering and m.start() + 1 not in numbering]
    clocks = list(_CLOCK.finditer(text))
    if clocks:   # "at 14:45, so 8 minutes" read 8: a time and a number are two candidates
        numbers = [m for m in numbers if not any(c.start() <= m.start() < c.end()
                                                 for c in clocks)]
        offered = [clocks[-1].group()] + ([_number_text(numbers[-1].group())] if numbers else [])
        return None, ("ambiguous: no answer statement, and the text offers "
                      + " and ".join(offered) if numbers else
                      f"no number found (the time {clocks[-1].group()} is none)")
    if not numbers:
        return None, "no number found"
    last = numbers[-1]
    if len(numbers) > 1 and _alternatives(text, numbers[-2], last):
        # every number of the chain of alternatives: "12, or 13, or maybe 14" named 13, 14
        chain = [last]
        for earlier in reversed(numbers[:-1]):
            if not _alternatives(text, earlier, chain[0]):
                break
            chain.insert(0, earlier)
        offered = list(dict.fromkeys(_number_text(m.group()) for m in chain))
        return None, ("ambiguous: no answer statement, and the text offers "
                      + ", ".join(offered[:-1]) + " and " + offered[-1])
    return last.group(), "the last number in the text"


def numeric(text: str, options, whole: bool, complete: bool = True) -> tuple[str | None, str]:
    if whole:
        value, _, alternative = _number_reader(text)
        return (None, "ambiguous: a range or two numbers") if alternative else (value, "number")
    decided = final(text, _number_reader, complete_only=not complete)
    if decided is not None or not complete:
        return decided or (None, CUT_OFF)
    if markers(text):
        return None, "the answer marker gives no number"
    try:
        number, how = _last_genuine_number(text)
        return (_number_text(number), how) if number else (None, how)
    except InvalidOperation:
        return None, "no number found"


# -- open --------------------------------------------------------------------------------------

def _open_reader(content: str):
    value = unwrap(content)
    return (value or None), len(content), False


def open_answer(text: str, options, whole: bool, complete: bool = True
                ) -> tuple[str | None, str]:
    if whole:
        return unwrap(text) or None, "text"
    if not complete:   # a whole statement's own line (the text after it was cut)
        return final(text, _open_reader, complete_only=True) or (None, CUT_OFF)
    found = markers(text)
    if found:
        last = found[-1]
        # its own line ("Answer: winter\nClue 1: snow" read "winter Clue 1: snow")
        value = unwrap(last.content)
        if value:
            return value, f"text of the {last.said}"   # "final answer marker", or the phrase
        # "Answer:" with nothing after it gives no answer: its last line was read, "Answer"
        return None, "the answer marker gives no answer"
    found_lines = lines(prose(text))
    if found_lines:
        return LIST_NUMBERING.sub("", found_lines[-1]) or None, "the last non-empty line"
    return None, "no line but clues" if text.strip() else "empty output"
