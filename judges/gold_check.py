"""Is an item's gold answer one its answer type can be scored against? One set of rules for all.

The importers flag an item whose gold breaks a rule (it is imported, with the sentence in its
problems); the editor refuses to save it and shows the sentence next to the field's name. Both
call `gold_problems`, so what an import flags is exactly what the editor would refuse.

The rules are what the scorers rely on:
- multiple choice: the gold is one of the option labels; labels are non-empty and unique;
  every option has a text or an image ("option C has no text or image"); no two options look
  the same to a model, the same text and the same image (judges/option_duplicates.py);
- yes/no: the gold is Yes or No (any case, "Yes." too);
- location: `$country,region$`, the country one that `judges.location.country_code` knows
  (ISO names, codes and the usual common names), the region `/`-separated aliases, none empty;
  an accepted alias written as a whole answer (`$...$`) has that shape too, its country in
  any language (`$deutschland,bayern$` is a fair alias); other aliases are region names
  (no `$`);
- numeric: the gold and each alias are one number, a unit or currency allowed around it
  ("12.8", "1,200", "-3e2", "3 km", "5,30 €", "€5.30"; `numeric_value`), not "twelve" nor
  "12 to 15"; one rule for both, the reading the scorer uses (domain.numbers);
- yes/no: each alias is Yes or No; open and multiple-choice aliases are free text;
- location: a region, in the gold, in an alias written as an answer or as a region name,
  is one rule (`region_problems`): not empty and no number ("12", "8 minutes": numeric);
- options belong to multiple-choice items only;
- every clue box lies on one of the item's images.
An empty gold is not a problem of these rules (an import may bring an item without its
answer), nor a clue without words: judges/past_draft.py holds the editor's rules that only a
draft may lack its gold answer or a clue's text.

Each sentence starts with its kind, up to a colon ("gold answer has no option: 'Z' ..."), the
way import reports group problems, so a parser that already reported a kind is not repeated.

`still_holds` checks an item's import problems again once the item is edited: a problem of a
rule above (or of the same rule in a format's words: "missing image", "empty gold answer")
is gone when the edited item keeps the rule, and so is an image lost at import once the
item has that many images, or a clue's invalid box once it has a box (judges/lost_parts.py); other
problems (a duplicate id in the file) cannot be checked on the item, and only a person can
say they are resolved.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from domain.item_ids import no_words
from domain.numbers import NUMBER_RULE, number_in, read_quantity
from domain.places import capitalised, country_name, region_name
from judges import direction_parts
from judges.location import country_code
from judges.lost_parts import lost_part_holds
from judges.option_duplicates import same_options

MULTIPLE_CHOICE, YES_NO, LOCATION, NUMERIC = "multiple_choice", "yes_no", "location", "numeric"


@dataclass(frozen=True)
class GoldProblem:
    field: str       # the item field at fault: "answer", "options", "aliases", "clues"
    message: str     # "<kind>: <details>", a sentence a user can act on
    value: str = ""  # the alias at fault, for an aliases problem (the editor names it)

    @property
    def kind(self) -> str:
        return kind_of(self.message)


def gold_problems(item: dict, quote: bool = True) -> list[GoldProblem]:
    """Every rule the item's gold, options, aliases and boxes break (empty when none).

    `quote=False` (the importers): the sentences name no value, since a file imported by
    mistake may hold a secret (formats/records.describe); the editor quotes what the user
    typed, which helps them fix it."""
    answer_type = item.get("answer_type")
    gold = str(item.get("answer") or "").strip()
    options = item.get("options") or []
    problems: list[GoldProblem] = []
    if options and answer_type != MULTIPLE_CHOICE:
        problems.append(GoldProblem("options", (
            f"options on a non-multiple-choice item: an item of type {answer_type} has no options "
            f"({len(options)} given); remove them or make it multiple_choice")))
    if answer_type == MULTIPLE_CHOICE:
        problems += _choice_problems(gold, options, quote)
    elif answer_type == YES_NO and gold and gold.rstrip(".").lower() not in ("yes", "no"):
        problems.append(GoldProblem("answer", f"gold answer is not Yes or No{_shown(gold, quote)}"))
    elif answer_type == NUMERIC and gold and numeric_value(gold) is None:
        problems.append(GoldProblem("answer", f"gold answer is not a number{_shown(gold, quote)}"
                                              f"{_NUMBER_HINT if quote else ''}"))
    elif answer_type == LOCATION and gold:
        problems += [GoldProblem("answer", m) for m in location_problems(gold, True, quote)]
    for alias in item.get("aliases") or []:
        problems += [GoldProblem("aliases", m, str(alias or "").strip())
                     for m in alias_problems(answer_type, alias, quote)]
    problems += _box_problems(item)
    return problems


def _choice_problems(gold: str, options: list[dict], quote: bool) -> list[GoldProblem]:
    labels = [str(o.get("label") or "").strip() for o in options]
    problems = []
    if not options:
        problems.append(GoldProblem("options", "no options: a multiple-choice item needs "
                                               "its options"))
    if any(not label for label in labels):
        problems.append(GoldProblem("options", f"option without a label: option "
                                               f"{labels.index('') + 1} has none"))
    duplicated = sorted({label for label in labels if label and labels.count(label) > 1})
    for label in duplicated:
        problems.append(GoldProblem("options", f"duplicated option label: {label}"))
    problems += [GoldProblem("options", said) for said in same_options(labels, options)]
    for label, option in zip(labels, options):
        if label and no_words(option.get("text")) and not option.get("image"):
            problems.append(GoldProblem("options", f"option without text: option {label} has "
                                                   "no text or image"))
    if gold and options and gold not in labels:
        problems.append(GoldProblem("answer", f"gold answer has no option{_shown(gold, quote)} "
                                              f"(options {', '.join(labels)})"))
    return problems


def alias_problems(answer_type: str | None, alias: str, quote: bool = True) -> list[str]:
    """Why `alias` is no accepted alias of an `answer_type` answer (empty list when it is)."""
    alias = (alias or "").strip()
    if not alias:       # (a location's empty alias was reported as an empty region)
        return ["empty alias: an accepted alias needs a text (the editor drops it at save)"]
    if answer_type == YES_NO and alias.rstrip(".").lower() not in ("yes", "no"):
        return [f"yes/no alias is not Yes or No{_shown(alias, quote)}"]
    if answer_type == NUMERIC and numeric_value(alias) is None:
        return [f"numeric alias without a number{_shown(alias, quote)}"
                f"{_NUMBER_HINT if quote else ''}"]
    if answer_type == LOCATION:
        if alias.startswith("$"):  # a whole answer; else a region name
            return location_problems(alias, False, quote)
        if "$" in alias:
            return [f"location alias is neither $country,region$ nor a region name"
                    f"{_shown(alias, quote)}"]
        return region_problems([alias], alias, quote)
    return []


def alias_fits(answer_type: str | None, alias: str) -> bool:
    """True when `alias` is a valid accepted alias of an `answer_type` answer."""
    return not alias_problems(answer_type, alias)


def location_problems(text: str, check_country: bool, quote: bool = True) -> list[str]:
    """Why `text` is not a `$country,region/alias/...$` location (empty list when it is)."""
    parts = split_location(text)
    if parts is None:
        return [f"location is not $country,region${_shown(text, quote)}"]
    country, regions = parts
    problems = []
    marked = [name for name in (country, *regions) if "$" in name]
    if marked:      # "$germany$,bavaria$" read "germany$" as its country: strict ≠ normalised
        problems.append("a '$' inside a location's country or region (it marks the "
                        "location's two ends only)" + (f": {marked[0]!r} (in {text!r})"
                                                       if quote else ""))
    if not country:
        problems.append(f"location has no country{_shown(text, quote)}")
    elif check_country and country_code(country) is None:
        problems.append("unknown country in location" + (f": {country!r} (in {text!r})" if quote else ""))
    return problems + region_problems(regions, text, quote)


def region_problems(regions: list[str], text: str, quote: bool = True) -> list[str]:
    """Why `regions` (a location's region and its aliases, or one alias written as a region
    name) are no region names: one rule wherever a region is written, the gold's
    `$country,region/alias$`, an alias written as an answer, an alias that is a region name.
    A region is a name, never empty and never a number ("12", "8 minutes": numeric answers)."""
    problems = []
    if not regions or not regions[0]:
        problems.append(f"empty region in location{_shown(text, quote)}: "
                        "it names no region after the country" if quote else
                        "empty region in location: no region after the country")
    elif any(not region for region in regions):
        problems.append(f"empty region in location{_shown(text, quote)}: "
                        "an empty region name between two '/'" if quote else
                        "empty region in location: an empty region name between two '/'")
    numbers = [region for region in regions if region and numeric_value(region) is not None]
    if numbers:
        where = "" if text == numbers[0] else _shown(text, quote)
        problems.append(f"region is a number in location{where}"
                        + (f": {numbers[0]!r} is no region name" if quote else ""))
    return problems


_NUMBER_HINT = f" ({NUMBER_RULE})"


def _shown(value: str, quote: bool) -> str:
    return f": {value!r}" if quote else ""


def split_location(text: str) -> tuple[str, list[str]] | None:
    """("italy", ["lazio", "latium"]) from "$italy,lazio/latium$"; None when not that shape."""
    text = (text or "").strip()
    if len(text) < 2 or not (text.startswith("$") and text.endswith("$")):
        return None
    inner = text[1:-1]
    if inner.count(",") != 1:
        return None
    country, region = inner.split(",")
    return country.strip(), [alias.strip() for alias in region.split("/")] if region.strip() \
        else []


def readable_gold(text) -> str:
    """A gold answer as people read it: a location's `$canada,quebec/québec$` as "Canada,
    Quebec (also: Québec)" (country, as domain.places.country_name writes it, first region,
    a code by its name: `region_name`, the other aliases); any other gold as it is. A model's
    location answer is shown the same way. Displays only: exports keep the stored
    form."""
    parts = split_location(str(text or ""))
    if parts is None:
        return "" if text is None else str(text)
    country, regions = parts
    shown = ", ".join(p for p in (country_name(country), *(region_name(country, r)
                                                           for r in regions[:1])) if p)
    also = ", ".join(capitalised(r) for r in regions[1:] if r)
    return f"{shown} (also: {also})" if also else shown


def number_or_none(text: str) -> float | None:
    """The number `text` is by itself ("1,200" is 1200.0, "5,30" is 5.3); None otherwise."""
    found = read_quantity(text)
    return found[0] if found and not found[1] else None


def numeric_value(text: str) -> float | None:
    """The number of a numeric gold or alias: a number by itself, or one number with a unit
    or currency ("3 km", "12.8 g", "45%", "5,30 €", "€5.30"); None for anything else
    ("twelve", "12 to 15 min"). The reading is domain.numbers', the scorer's too; but the
    letter O right after a digit ("1O min", "2O%") is a typed zero, not a unit: read as 1
    with the unit "O min", it saved a wrong gold without a word."""
    if LETTER_O_FOR_ZERO.search(text or ""):
        return None
    return number_in(text)


LETTER_O_FOR_ZERO = re.compile(r"\d[Oo](?![A-Za-z])")


# The kinds of problem gold_problems reports (tests/test_gold_check.py makes each of them).
GOLD_KINDS = frozenset({
    "options on a non-multiple-choice item", "no options", "option without a label",
    "duplicated option label", "duplicated option", "option without text", "gold answer has no option",
    "gold answer is not Yes or No", "gold answer is not a number",
    "location is not $country,region$", "location has no country",
    "unknown country in location", "empty region in location",
    "region is a number in location",
    "yes/no alias is not Yes or No", "numeric alias without a number",
    "location alias is neither $country,region$ nor a region name",
    "box on no image of the item"})

# The same rules in the words of a format's parser: {kind: does it hold for the item}
_FORMAT_KINDS = {
    "missing image": lambda item: not item.get("images"),          # dailyclue, seekworld
    "no context images": lambda item: not item.get("images"),      # mmr-life
    "empty gold answer": lambda item: not str(item.get("answer") or "").strip(),
    # a line with no question: the problem stayed after one was typed (a review, round 27)
    "missing field: question": lambda item: not str(item.get("question") or "").strip(),
    "missing question": lambda item: not str(item.get("question") or "").strip(),
    "empty option text": lambda item: any(
        not str(o.get("text") or "").strip() and not o.get("image")
        for o in item.get("options") or []),
    "malformed location answer": lambda item: item.get("answer_type") == LOCATION and bool(
        location_problems(str(item.get("answer") or ""), False, False)),
}


def kind_of(problem: str) -> str:
    """The kind of a problem sentence: a kind of these rules it starts with (a sentence that
    quotes no value has no colon after it: "gold answer has no option (options A, B)"),
    else its words up to the first colon."""
    known = [k for k in (*GOLD_KINDS, *_FORMAT_KINDS) if problem.startswith(k)]
    return max(known, key=len) if known else problem.split(":", 1)[0].strip()


def still_holds(problem: str, item: dict) -> bool | None:
    """Does the import problem `problem` (a sentence of the item's `problems`) still hold
    for `item` as it is now? None when no rule here can tell: only a person can."""
    kind = kind_of(problem)
    if kind in direction_parts.KINDS:     # a save checks the parts it names (direction_parts)
        return direction_parts.flag_holds(problem, item)
    if kind in GOLD_KINDS:
        return kind in {p.kind for p in gold_problems(item, quote=False)}
    check = _FORMAT_KINDS.get(kind)
    return check(item) if check else lost_part_holds(kind, problem, item)


def _box_problems(item: dict) -> list[GoldProblem]:
    images = set(item.get("images") or [])
    problems = []
    for index, clue in enumerate(item.get("clues") or []):
        stray = [b for b in clue.get("boxes") or [] if b.get("image") not in images]
        if stray:
            problems.append(GoldProblem("clues", (
                f"box on no image of the item: clue {index + 1} has {len(stray)} box(es) on "
                f"an image that is not one of the item's images")))
    return problems
