"""A numeric value as a gold answer, an alias or a judged answer writes it: one reading.

A number by itself ("12.8", "1,200", "-3e2"), or one number with a unit or currency after it
("3 km", "5.30 €", "45%", "−5 °C") or a currency before it ("€5.30", "US$ 5", "EUR 5.30").
The editor's save and the importers (judges.gold_check) and the numeric judge
(judges.rules.number_value) all read numbers here, so what an annotator may save is what the
scorer can compare.

A comma groups thousands when three digits follow it ("1,200"), and is a decimal comma when
one or two do ("5,30 €" is 5.3); anything else ("1,2345", "1.200,50", "12 to 15 min",
"about 8", "twelve") is no number rather than a guess; so are words after the unit ("100 cm
bookcase"): a unit is one word, or two it is known to be written in ("sq ft", "km per hour"). An exponent is read only in a number
by itself ("-3e2", not "3e2 m"), as the scorer reads numbers in text (domain.extract).
"""
from __future__ import annotations

import math
import re

_NUMBER = r"[-−+]?(?:\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+|,\d{1,2})?|\.\d+)"
_CURRENCY_BEFORE = r"[A-Z]{0,3}[^\w\s.,+\-−]{1,2}|[A-Z]{3}"    # €, $, US$, R$, EUR, CHF
# A unit is one word (km, €, %, °C, min., km/h, m², minutes, apples), or two a unit is known
# to be written in (sq ft, square metres, cubic m, fl oz, km per hour, per cent); words after it
# are a description, no unit: "100 cm bookcase" was read as 100 with the unit "cm bookcase"
_WORD = r"[^\d\s]+"
_UNIT_AFTER = (rf"(?:(?:sq|square|cubic|cu|fl)\.?\s+)?{_WORD}(?:\s+per\s+{_WORD})?"
               r"|per\s+cent")
_QUANTITY = re.compile(rf"(?:(?P<before>{_CURRENCY_BEFORE})\s*)?(?P<number>{_NUMBER})"
                       rf"(?:\s*(?P<after>{_UNIT_AFTER}))?")
_THOUSANDS = re.compile(r",\d{3}(?!\d)")


# the rule above in the annotator's words: said beside a numeric gold and by the save that
# refuses a gold or an alias (ui/answer_form, judges/gold_check)
NUMBER_RULE = ("write one number, a unit or currency allowed (12.8, 5.30 €, €5.30, 3 km, "
               "8 minutes), nothing after the unit; a comma before three digits groups "
               "thousands (1,200), before one or two it is a decimal comma (5,30)")


def read_quantity(text) -> tuple[float, str] | None:
    """(value, unit) of a numeric gold, alias or answer: ("5,30 €") -> (5.3, "€"),
    ("€5.30") -> (5.3, "€"), ("12.8") -> (12.8, ""); None when it is no one number."""
    text = str(text if text is not None else "").strip()
    if not text:
        return None
    try:
        value = float(text)                     # a number by itself, exponent allowed
    except ValueError:
        pass
    else:
        return (value, "") if math.isfinite(value) else None
    match = _QUANTITY.fullmatch(text)
    if not match or (match.group("before") and match.group("after")):
        return None
    number = match.group("number").replace("−", "-")
    number = number.replace(",", "") if _THOUSANDS.search(number) else number.replace(",", ".")
    value = float(number)
    unit = (match.group("before") or match.group("after") or "").strip()
    return (value, unit) if math.isfinite(value) else None


def number_in(text) -> float | None:
    """The value of `read_quantity`, without its unit (None when `text` is no number)."""
    found = read_quantity(text)
    return found[0] if found else None
