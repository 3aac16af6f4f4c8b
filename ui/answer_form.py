"""The gold answer's controls, one kind per answer type, as plain data in and out.

The form has a control for each answer type: a text field (open answers and the option
label of multiple choice), a Yes/No choice, a number field, and a location builder (country,
region, region aliases) that writes `$country,region/alias$`. Only the current type's control
is shown (`panels`). Whatever the control, the item stores one answer text, read back by
`read_answer`. Switching the type (`switch_type`) converts the gold into what the new type's
control can show ("yes." to Yes, "12" to 12) or clears it, and says so: a gold that stayed
behind, hidden, used to block saving with a complaint about a value the user could not see.
An item *loaded* with a gold its type's control cannot show (a flagged import) keeps it, and
the shared validator (judges.gold_check) names it until it is fixed.
"""
from __future__ import annotations

from functools import lru_cache

import pycountry

from judges.gold_check import number_or_none, split_location
from judges.location import COUNTRY_ALIASES

MULTIPLE_CHOICE, YES_NO, OPEN, LOCATION, NUMERIC = (
    "multiple_choice", "yes_no", "open", "location", "numeric")
YES_NO_CHOICES = ["Yes", "No"]
ANSWER_FIELDS = ("answer_yes_no", "answer_number", "loc_country", "loc_region", "loc_aliases")
PANELS = ("answer_text_panel", "yes_no_panel", "number_panel", "location_panel",
          "aliases_panel", "options_panel")


@lru_cache(maxsize=1)
def country_choices() -> list[str]:
    """Country names as location golds write them: lower case, common names first."""
    names = {(getattr(c, "common_name", None) or c.name).lower() for c in pycountry.countries}
    names |= {name for name in COUNTRY_ALIASES if len(name) > 4}  # "russia", not "uk"
    return sorted(names)


def widget_values(item: dict) -> dict:
    """The value of every answer control for the item's gold, whatever its type."""
    gold = item.get("answer") or ""
    parts = split_location(gold) if item.get("answer_type") == LOCATION else None
    country, regions = parts if parts else ("", [])
    choice = gold.strip().rstrip(".").capitalize()
    return {"answer": gold,
            "answer_yes_no": choice if choice in YES_NO_CHOICES else None,
            "answer_number": number_or_none(gold) if gold else None,
            "loc_country": country, "loc_region": regions[0] if regions else "",
            "loc_aliases": "/".join(regions[1:])}


def gold_for_type(answer_type: str | None, gold: str) -> str:
    """`gold` as the control of `answer_type` shows it, or "" when that control cannot."""
    gold = (gold or "").strip()
    if answer_type == YES_NO:
        return widget_values({"answer": gold})["answer_yes_no"] or ""
    if answer_type == NUMERIC:
        return gold if number_or_none(gold) is not None else ""
    if answer_type == LOCATION:
        return gold if split_location(gold) else ""
    return gold


OPTIONS_ASIDE = "_options_aside"   # an editor-private key: kept in the draft, never saved


def switch_type(item: dict, new_type: str | None) -> tuple[dict, str]:
    """(the item under `new_type`, its gold converted or cleared; the note that says which,
    "" when the gold is kept as it was).

    Options belong to multiple choice: switching away sets them aside (the options panel
    hides, the item saves without them) and switching back brings them back, so a switch
    there and back loses nothing. The options set aside are part of the working copy
    (`OPTIONS_ASIDE`, like the boxes kept aside), so the draft holds them exactly as the
    editor does: a reload neither brings them back under the other type nor loses them."""
    gold = (item.get("answer") or "").strip()
    options = list(item.get("options") or [])
    aside = list(item.get(OPTIONS_ASIDE) or [])
    notes = []
    if new_type != MULTIPLE_CHOICE and options:
        item, aside = {**item, "options": []}, options
        notes.append(f"The {len(options)} options are set aside: they come back if you switch "
                     "back to multiple choice before saving.")
    elif new_type == MULTIPLE_CHOICE and not options and aside:
        item, aside = {**item, "options": aside}, []
    kept = gold_for_type(new_type, gold)
    item = {**item, "answer_type": new_type, "answer": kept, OPTIONS_ASIDE: aside}
    shown = (new_type or "no type").replace("_", " ")
    if gold and kept != gold:
        notes.insert(0, f"The gold answer {gold!r} is not a valid {shown} answer: it was "
                        "cleared. Enter the gold answer again in the control shown."
                     if not kept else f"The gold answer {gold!r} is now {kept!r} ({shown}).")
    return item, " ".join(notes)


def read_answer(answer_type: str | None, form: dict, previous: str) -> str:
    """The answer text the form's control for `answer_type` holds.

    `previous` is the text before this edit; it stays when the control holds nothing (or the
    same number written differently: "12.50" is not rewritten as "12.5"). A form without
    the type's control (an API client that sends `answer` only) is read from `answer`.
    """
    fallback = form.get("answer") if form.get("answer") is not None else previous
    if answer_type == YES_NO:
        return form.get("answer_yes_no") or (fallback if "answer_yes_no" not in form
                                             else previous)
    if answer_type == NUMERIC:
        if "answer_number" not in form:
            return fallback
        number = form.get("answer_number")
        if number is None or number_or_none(previous) == float(number):
            return previous
        return format_number(float(number))
    if answer_type == LOCATION:
        if not any(key in form for key in ("loc_country", "loc_region", "loc_aliases")):
            return fallback
        return build_location(form.get("loc_country"), form.get("loc_region"),
                              form.get("loc_aliases")) or previous
    return fallback


def build_location(country: str | None, region: str | None, aliases: str | None) -> str:
    """`$country,region/alias/...$` from the builder's fields ("" when all are empty).

    Aliases are typed `/`-separated (or one per line); empty ones are dropped."""
    country, region = (country or "").strip(), (region or "").strip()
    extra = [a.strip() for a in (aliases or "").replace("\n", "/").split("/") if a.strip()]
    if not (country or region or extra):
        return ""
    return f"${country},{'/'.join([region, *extra])}$"


def format_number(value: float) -> str:
    return str(int(value)) if value.is_integer() and abs(value) < 1e15 else repr(value)


def panels(answer_type: str | None, item: dict) -> dict[str, bool]:
    """Which answer controls the form shows for `answer_type`.

    Options and aliases stay shown while the item has some, even for a type without them,
    so that what would be refused at save can be seen and removed."""
    return {
        "answer_text_panel": answer_type not in (YES_NO, NUMERIC, LOCATION),
        "yes_no_panel": answer_type == YES_NO,
        "number_panel": answer_type == NUMERIC,
        "location_panel": answer_type == LOCATION,
        "aliases_panel": answer_type in (OPEN, NUMERIC, LOCATION) or bool(item.get("aliases")),
        "options_panel": answer_type == MULTIPLE_CHOICE or bool(item.get("options")),
    }
