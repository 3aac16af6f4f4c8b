"""The gold answer's controls, one kind per answer type, as plain data in and out.

The form has a control for each answer type: a text field (open answers and the option
label of multiple choice), a Yes/No choice, a text field for the numeric gold (a number with
its unit, "5.30 €", saved as typed and checked on save by the scorer's reading,
domain.numbers: a browser number field changed the value under the mouse wheel and the arrow
keys, rounded decimals and could not hold a unit), and a location builder (country,
region, region aliases) that writes `$country,region/alias$`. Only the current type's control
is shown (`panels`). Whatever the control, the item stores one answer text, read back by
`read_answer`. Switching the type (`switch_type`) converts the gold into what the new type's
control can show ("yes." to Yes, "12" to 12) or sets it aside, and says so: a gold that stayed
behind, hidden, used to block saving with a complaint about a value the user could not see.
An item *loaded* with a gold its type's control cannot show (a flagged import) keeps it, and
the shared validator (judges.gold_check) names it until it is fixed; a yes/no gold that is
neither ("Maybe") is shown in a warning beside the Yes/No choice (`yes_no_warning`), since the
choice itself can show neither.
"""
from __future__ import annotations

from functools import lru_cache

import pycountry

from domain import numbers
from domain.numbers import read_quantity
from domain.vocabulary import counted
from domain.places import country_name
from judges.gold_check import alias_fits, numeric_value, readable_gold, split_location
from judges.location import COUNTRY_ALIASES

MULTIPLE_CHOICE, YES_NO, OPEN, LOCATION, NUMERIC = (
    "multiple_choice", "yes_no", "open", "location", "numeric")
YES_NO_CHOICES = ["Yes", "No"]
ANSWER_FIELDS = ("answer_yes_no", "answer_number", "loc_country", "loc_region", "loc_aliases")
PANELS = ("answer_text_panel", "yes_no_panel", "number_panel", "location_panel",
          "aliases_panel", "options_panel")


@lru_cache(maxsize=1)
def country_choices() -> list[tuple[str, str]]:
    """The Country list: (the name shown, the name the gold writes), "Germany" for
    "germany". A location gold writes its country in lower case, and picking a country
    still writes that (`$germany,bavaria$`); the list shows it as a name, capitalised
    (domain.places.country_name: the list read "germany", "côte d'ivoire")."""
    names = {(getattr(c, "common_name", None) or c.name).lower() for c in pycountry.countries}
    names |= {name for name in COUNTRY_ALIASES if len(name) > 4}  # "russia", not "uk"
    return sorted(((country_name(name), name) for name in names),
                  key=lambda choice: choice[0].casefold())


def widget_values(item: dict) -> dict:
    """The value of every answer control for the item's gold, whatever its type."""
    gold = item.get("answer") or ""
    parts = split_location(gold) if item.get("answer_type") == LOCATION else None
    country, regions = parts if parts else ("", [])
    choice = gold.strip().rstrip(".").capitalize()
    return {"answer": gold,
            "answer_yes_no": choice if choice in YES_NO_CHOICES else None,
            "answer_number": gold if item.get("answer_type") == NUMERIC
            else gold_for_type(NUMERIC, gold),
            "loc_country": country, "loc_region": regions[0] if regions else "",
            "loc_aliases": "/".join(regions[1:])}


def gold_for_type(answer_type: str | None, gold: str) -> str:
    """`gold` as the control of `answer_type` shows it, or "" when that control cannot."""
    gold = (gold or "").strip()
    if answer_type == YES_NO:
        return widget_values({"answer": gold})["answer_yes_no"] or ""
    if answer_type == NUMERIC:
        return gold if numeric_value(gold) is not None else ""
    if answer_type == LOCATION:
        return gold if split_location(gold) else ""
    return gold


def type_name(answer_type: str | None) -> str:
    """An answer type as the Answer type list shows it (`yes_no`), in every message."""
    return answer_type or "no type"


OPTIONS_ASIDE = "_options_aside"   # editor-private keys: kept in the draft, never saved
GOLD_ASIDE = "_gold_aside"
ALIASES_ASIDE = "_aliases_aside"
ALIAS_TYPES = (OPEN, NUMERIC, LOCATION)     # the types whose form has an aliases field


def switch_type(item: dict, new_type: str | None) -> tuple[dict, str]:
    """(the item under `new_type`, its gold converted or set aside; the note that says what
    was converted or set aside, "" when nothing was).

    What the new type cannot take is set aside, not dropped: the options (they belong to
    multiple choice), a gold its control cannot show, the aliases that are no valid alias of
    the new type (judges.gold_check.alias_problems). Each comes back when a later switch
    goes to a type that takes it (the options and their gold with multiple choice), so a
    round trip loses nothing. What is set aside is part of the working copy (`*_ASIDE`,
    like the boxes kept aside), so the draft holds it exactly as the editor does: a reload
    neither brings it back under the other type nor loses it; a save stores none of it."""
    gold = (item.get("answer") or "").strip()
    options = list(item.get("options") or [])
    aside = list(item.get(OPTIONS_ASIDE) or [])
    gold_aside = item.get(GOLD_ASIDE) or ""
    old, shown = type_name(item.get("answer_type")), type_name(new_type)
    notes = []
    if new_type != MULTIPLE_CHOICE and options:
        item, aside = {**item, "options": []}, options
        notes.append((f"The {len(options)} options are set aside: they come back"
                      if len(options) != 1 else "The option is set aside: it comes back")
                     + f" if you switch back to {type_name(MULTIPLE_CHOICE)} before saving.")
    elif new_type == MULTIPLE_CHOICE and not options and aside:
        item, aside, options = {**item, "options": aside}, [], aside
    kept = gold_for_type(new_type, gold)
    named = _option_named(gold, options) if new_type != MULTIPLE_CHOICE else None
    if named is not None:
        # the gold named an option: under another type the letter alone meant nothing, and
        # saved as an open answer "D" it was the gold of an item that has no option D
        kept, gold_aside = gold_for_type(new_type, named), gold
        notes.insert(0, (f"The gold answer {gold!r} named option {gold}: it is now that "
                         f"option's text {kept!r} ({shown})" if kept else
                         f"The gold answer {gold!r} named option {gold}, whose text is no "
                         f"valid {shown} answer: enter the gold answer again in the control "
                         "shown") + (f"; back on {old}, an option's text becomes its label "
                                     f"again ({gold!r} if the gold is left empty)." if kept
                                     else f"; {gold!r} comes back if you switch back to "
                                          f"{old}."))
    elif gold and kept != gold:
        if kept:
            notes.insert(0, f"The gold answer {gold!r} is now {kept!r} ({shown}).")
        else:
            gold_aside = gold
            notes.insert(0, f"The gold answer {gold!r} is not a valid {shown} answer: it is set "
                            f"aside (it comes back if you switch back to {old} before saving). "
                            "Enter the gold answer again in the control shown.")
    # a gold set aside by an earlier switch comes back; not the option's letter set aside
    # just now (its text no valid answer: options of images only), which came straight
    # back as the open gold "C" the note said was set aside (a review)
    if named is None and gold_aside and gold_for_type(new_type, gold_aside) == gold_aside \
            and _fits_better(new_type, kept, gold_aside, options):
        kept, gold_aside = gold_aside, ""
    if new_type == MULTIPLE_CHOICE and kept:
        label = label_of_text(kept, options)
        if label != kept:   # an option's text, brought back by a way round another type
            notes.insert(0, f"The gold answer {kept!r} is option {label}'s text: it is now "
                            f"{label}.")
            kept = label
        kept = as_option_label(kept, options)        # "b" is option B, as a save reads it
        notes.append(not_an_option(kept, options))  # kept as it was: said, not found at save
    aliases, aliases_aside = _sort_aliases(new_type, item.get("aliases") or [],
                                           item.get(ALIASES_ASIDE) or [])
    moved = [a for a in item.get("aliases") or [] if a not in aliases]
    if moved:
        one = len(moved) == 1
        are, they = ("is", "it") if one else ("are", "they")
        why = (f"{are} not valid for a {shown} answer" if new_type in ALIAS_TYPES
               else f"{'has' if one else 'have'} no place in a {shown} answer (it takes no "
                    "accepted aliases)")
        notes.append(f"{accepted_aliases(len(moved))} {why}: {they} {are} set aside ({they} "
                     f"come{'s' * one} back if you switch back to {old} before saving).")
    item = {**item, "answer_type": new_type, "answer": kept, "aliases": aliases,
            OPTIONS_ASIDE: aside, GOLD_ASIDE: gold_aside, ALIASES_ASIDE: aliases_aside}
    return item, " ".join(filter(None, notes))


def not_an_option(gold: str, options: list[dict]) -> str:
    """The sentence saying that a multiple-choice gold is none of the option labels ("" when
    it is one): switched from an open answer, "Paris" stayed the gold without a word, and
    the save refused it later."""
    labels = [str(o.get("label") or "").strip() for o in options]
    if not gold or gold in labels:
        return ""
    if not labels:
        return (f"The gold answer {gold!r} is not an option: the item has no options yet. Add "
                "them (Add option), then type the right one's label as the gold answer.")
    return (f"The gold answer {gold!r} is not one of the options ({', '.join(labels)}): type "
            "the label of the right option as the gold answer.")


# how a numeric gold or alias is written, as the scorer reads it (domain/numbers: one rule
# and its words): said beside the gold as it is typed (answer_notes) and by the save
NUMBER_RULE = numbers.NUMBER_RULE


def unreadable_number(gold: str) -> str:
    """The save's refusal of a numeric gold the scorer cannot read: it said "Gold answer:
    gold answer is not a number: '3,14159'", the field twice and the comma never."""
    return f"the gold answer {gold!r} is no number the scorer can read: {NUMBER_RULE}"


def unreadable_alias(alias: str) -> str:
    """The save's refusal of a numeric item's alias the scorer cannot read, naming it (it
    said "numeric alias without a number" of "100 cm bookcase", which has one)."""
    return f"the alias {alias!r} is no number the scorer can read: {NUMBER_RULE}"


ENTER_GOLD = {YES_NO: "Choose Yes or No.", NUMERIC: "Type the number.",
              LOCATION: "Choose the country and type the region.",
              MULTIPLE_CHOICE: "Type the label of the right option."}


def answer_notes(item: dict) -> list[str]:
    """What the answer's controls leave to be done, shown beside them for as long as it
    holds (a switch's toast faded in seconds while the state it described stayed): a
    multiple-choice gold that is no option, a gold set aside while none replaces it, options
    and aliases set aside (a save leaves them out). Each line goes once it no longer holds."""
    answer_type, shown = item.get("answer_type"), type_name(item.get("answer_type"))
    gold = str(item.get("answer") or "").strip()
    notes = [not_an_option(gold, item.get("options") or [])] \
        if answer_type == MULTIPLE_CHOICE else []
    if answer_type == NUMERIC and gold and numeric_value(gold) is None:
        notes.append(f"{gold!r} is no number the scorer can read, and the save refuses it: "
                     f"{NUMBER_RULE}.")
    aside = item.get(GOLD_ASIDE) or ""
    if aside and not gold:
        notes.append(f"No gold answer yet: {aside!r} is no {shown} answer and waits aside (a "
                     "switch back to a type that takes it brings it back). "
                     + ENTER_GOLD.get(answer_type, "Type the gold answer."))
    options = item.get(OPTIONS_ASIDE) or []
    if options and answer_type != MULTIPLE_CHOICE:
        notes.append(("The option waits aside: a switch back to "
                      f"{type_name(MULTIPLE_CHOICE)} brings it back" if len(options) == 1 else
                      f"The {len(options)} options wait aside: a switch back to "
                      f"{type_name(MULTIPLE_CHOICE)} brings them back")
                     + f"; saved as {shown}, the item has none.")
    aliases = item.get(ALIASES_ASIDE) or []
    if aliases:
        one = len(aliases) == 1
        it = "it" if one else "them"
        notes.append(f"{accepted_aliases(len(aliases))} wait{'s' * one} aside ({shown} "
                     f"{'does not take it' if one else 'takes none of them'}): a switch "
                     f"back brings {it} back; a save leaves {it} out.")
    return [note for note in notes if note]


def accepted_aliases(count: int) -> str:
    """"1 accepted alias", "2 accepted aliases" (the notes read "2 accepted alias(es)")."""
    return counted(count, "accepted alias", "accepted aliases")


def left_out_note(item: dict) -> str:
    """The save's sentence for what it left out of the version saved: the aliases and
    options set aside by a switch of the answer type (the note beside the gold said "a save
    leaves them out", and the save itself said only "Saved … as version 2")."""
    shown = type_name(item.get("answer_type"))
    aliases, options = item.get(ALIASES_ASIDE) or [], item.get(OPTIONS_ASIDE) or []
    if item.get("answer_type") == MULTIPLE_CHOICE:
        options = []                    # back with their type: saved, not left out
    why = f"not valid for {shown}" if item.get("answer_type") in ALIAS_TYPES else \
        f"{shown} takes none"
    parts = [f"{accepted_aliases(len(aliases))} {'was' if len(aliases) == 1 else 'were'} "
             f"left out ({why})" if aliases else "",
             f"{counted(len(options), 'option')} {'was' if len(options) == 1 else 'were'} left "
             f"out ({shown} has no options)" if options else ""]
    said = "; ".join(p for p in parts if p)
    return f"{said[:1].upper()}{said[1:]}." if said else ""


def _option_named(gold: str, options: list[dict]) -> str | None:
    """The text of the option whose label the gold is, None when it is no option's label."""
    for option in options:
        if gold and str(option.get("label") or "").strip() == gold:
            return str(option.get("text") or "").strip()
    return None


def label_of_text(gold: str, options: list[dict]) -> str:
    """The label of the one option whose text the gold is (case and spaces around aside),
    the gold itself when it is a label or names no single option's text. Why: a gold that
    named option C became its text "The bookcase" under open, and a further switch (to
    numeric, to yes/no) set that text aside in place of "C"; back on multiple choice the
    gold was "The bookcase", refused as no option."""
    labels = [str(o.get("label") or "").strip() for o in options]
    if not gold or gold in labels:
        return gold
    wanted = gold.strip().casefold()
    found = [label for label, o in zip(labels, options)
             if label and str(o.get("text") or "").strip().casefold() == wanted]
    return found[0] if len(found) == 1 else gold


def _fits_better(new_type, kept: str, gold_aside: str, options: list[dict]) -> bool:
    """Does the gold set aside come back? Only when the new type's gold is empty. A gold
    typed under another type stays, whatever was set aside: back on multiple choice, an
    option's text becomes its label, and any other text is kept with the note that it is no
    option (the set-aside letter came back over "€5.30" typed under open, with no word, and
    the item read as unchanged)."""
    return not kept


def _sort_aliases(new_type, aliases: list[str], aside: list[str]) -> tuple[list[str], list[str]]:
    """(the aliases valid for `new_type`, the others set aside), both in their order. A type
    whose form has no aliases field (ALIAS_TYPES) takes none: aliases typed under numeric
    came along to multiple choice, showed there, and were saved with it."""
    shown, kept_aside = [], []
    for alias in [*aliases, *aside]:
        fits = new_type in ALIAS_TYPES and alias_fits(new_type, alias)
        target = shown if fits else kept_aside
        if alias not in target:
            target.append(alias)
    return shown, kept_aside


def read_answer(answer_type: str | None, form: dict, previous: str) -> str:
    """The answer text the form's control for `answer_type` holds.

    `previous` is the text before this edit; it stays when the Yes/No choice or the
    location builder holds nothing. The numeric gold is the text typed, as typed ("12.50",
    "5,30 €"; an emptied field is no gold); a number sent by a script is written out ("12.5").
    A form without the type's control (an API client that sends `answer` only) is read from
    `answer`.
    """
    fallback = form.get("answer") if form.get("answer") is not None else previous
    if answer_type == YES_NO:
        chosen = form.get("answer_yes_no")
        # the choice showing the stored "yes" as Yes is no edit: it saved "yes → Yes" in
        # the annotator's name, the draft line naming a gold answer she never touched
        if chosen and chosen == widget_values({"answer": previous or ""})["answer_yes_no"]:
            return previous
        return chosen or (fallback if "answer_yes_no" not in form else previous)
    if answer_type == NUMERIC:
        if "answer_number" not in form:
            return fallback
        typed = form.get("answer_number")
        if isinstance(typed, (int, float)) and not isinstance(typed, bool):
            return format_number(float(typed))
        return str(typed or "").strip()
    if answer_type == LOCATION:
        if not any(key in form for key in ("loc_country", "loc_region", "loc_aliases")):
            return fallback
        return build_location(form.get("loc_country"), form.get("loc_region"),
                              form.get("loc_aliases")) or previous
    return fallback


CONTROLS = {YES_NO: ("answer_yes_no",), NUMERIC: ("answer_number",),
            LOCATION: ("loc_country", "loc_region", "loc_aliases")}   # others: "answer"


def control_given(new_type: str | None, old_type: str | None, form: dict,
                  drawn: dict) -> bool:
    """Does `form` hold a gold in `new_type`'s own control that the page did not draw there
    (`drawn`: widget_values of the item shown), one the old type's control is not? A
    caller that switches the type and gives the new type's gold at once (a script)."""
    names = CONTROLS.get(new_type, ("answer",))
    return names != CONTROLS.get(old_type, ("answer",)) and any(
        name in form and (form[name] or "") != (drawn.get(name) or "") for name in names)


def build_location(country: str | None, region: str | None, aliases: str | None) -> str:
    """`$country,region/alias/...$` from the builder's fields ("" when all are empty).

    Aliases are typed `/`-separated (or one per line); empty ones are dropped."""
    country, region = (country or "").strip(), (region or "").strip()
    extra = [a.strip() for a in (aliases or "").replace("\n", "/").split("/") if a.strip()]
    if not (country or region or extra):
        return ""
    return f"${country},{'/'.join([region, *extra])}$"


def in_builder_words(message: str, gold: str) -> str:
    """A location gold's refusal naming the gold as the builder shows it ('Germany, 12
    (also: Bayern)'), not as it is stored: the editor never shows `$germany,12/bayern$`, a
    form the annotator did not type."""
    gold = (gold or "").strip()
    if not split_location(gold):
        return message
    return message.replace(repr(gold), repr(readable_gold(gold)))


def number_reading(item: dict) -> str:
    """How a numeric gold written otherwise than plainly is read ("12,8 g" is 12.8 g,
    "1,500 m" 1500 m, "1e3" 1000): the editor took such golds without a word of what the
    scorer would compare answers with. '' for a plain number, or no number (the save says)."""
    gold = str(item.get("answer") or "").strip()
    found = read_quantity(gold) if item.get("answer_type") == NUMERIC else None
    if not found:
        return ""
    value, unit = found
    number = gold.replace(unit, "") if unit else gold
    if "," not in number and "e" not in number.lower():   # "12.50", "5.30 €": read as shown
        return ""
    plain = format_number(value)
    return f"Read as {plain} {unit}".rstrip() + ": answers are compared with this value."


def format_number(value: float) -> str:
    return str(int(value)) if value.is_integer() and abs(value) < 1e15 else repr(value)


def yes_no_warning(item: dict) -> str:
    """The line beside the Yes/No choice when the stored gold is neither (an import's
    "Maybe"): the choice shows nothing for it, and the value must be seen to be fixed. It is
    kept until a choice replaces it (the save refuses it until then: judges.gold_check)."""
    gold = str(item.get("answer") or "").strip()
    if item.get("answer_type") != YES_NO or not gold or \
            widget_values({"answer": gold})["answer_yes_no"]:
        return ""
    return (f"⚠ The stored gold answer is {gold!r}, which is not Yes or No: choose Yes or No "
            "to replace it.")


def location_warning(item: dict) -> str:
    """The line under the location builder when the stored gold is no `$country,region$` it
    can show (an import's "12345"): the builder showed empty fields, and the save refused a
    value the annotator could not see. Kept until the builder's fields replace it."""
    gold = str(item.get("answer") or "").strip()
    if item.get("answer_type") != LOCATION or not gold or widget_values(item)["loc_country"]:
        return ""
    return (f"⚠ The stored gold answer is {gold!r}, which is not $country,region$: choose the "
            "country and type the region to replace it.")


def panels(answer_type: str | None, item: dict) -> dict[str, bool]:
    """Which answer controls the form shows for `answer_type`.

    Options and aliases stay shown while the item has some, even for a type without them,
    so that what would be refused at save can be seen and removed."""
    return {
        "answer_text_panel": answer_type not in (YES_NO, NUMERIC, LOCATION),
        "yes_no_panel": answer_type == YES_NO,
        "number_panel": answer_type == NUMERIC,
        "location_panel": answer_type == LOCATION,
        "aliases_panel": answer_type in ALIAS_TYPES or bool(item.get("aliases")),
        "options_panel": answer_type == MULTIPLE_CHOICE or bool(item.get("options")),
    }


def as_option_label(gold: str, options: list[dict]) -> str:
    """A multiple-choice gold typed in the other case than its option's label ("a" of
    option A) as that label, when exactly one label reads so: refused with "gold answer has
    no option: 'a' (options A, B)" it was a typing slip the form could read."""
    labels = [str(o.get("label") or "").strip() for o in options]
    if gold in labels:
        return gold
    same = [label for label in labels if label.casefold() == gold.strip().casefold()]
    return same[0] if len(same) == 1 else gold
