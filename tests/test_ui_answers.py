"""The editor's answer controls and schema tables, tested on the handlers with a real store:
wrong-type golds and tables with other columns are refused with a message, nothing saved."""
import pytest

from tests.test_ui_handlers import ui_store  # noqa: F401  (the fixture: a real store)
from ui import answer_form as af
from ui import editor_model as em
from ui import editor_ops as ops
from ui.editor_handlers import EditorHandlers


def as_widget(rows, headers):
    return {"headers": list(headers), "data": rows}


def save(store, item_id, **changes):
    """Save item_id with the form as loaded plus `changes`; (outcome, item as stored)."""
    editor = EditorHandlers(store)
    work = editor.load(item_id, "local")
    form = editor.form_values(work["item"]) | changes
    _, outcome = editor.save(work, form, None, "", "local")
    return outcome, store.get_item(item_id)


@pytest.mark.parametrize("headers, rows, why", [
    (["clue", "text", "reasoning", "boxes", "Header 5"],
     [["clue 1", "The blue sign reads EXIT 12", "", "signs name exits", "0"]], "Header 5"),
    (["clue", "text", "boxes"], [["clue 1", "The blue sign reads EXIT 12", "0"]], "clue, text, boxes"),
    (["clue", "reasoning", "text", "boxes"],
     [["clue 1", "signs name exits", "The blue sign reads EXIT 12", "0"]], "clue, reasoning"),
])
def test_clue_table_with_other_columns_is_refused_and_nothing_saved(ui_store, headers, rows, why):
    outcome, saved = save(ui_store, "ui/alpha", clues=as_widget(rows, headers),
                          question="Edited, but not saved?")
    assert outcome["kind"] == "invalid"
    assert "clue table must have exactly the columns clue, text, reasoning, boxes" in \
        outcome["message"] and why in outcome["message"] and "Nothing was saved" in \
        outcome["message"]
    assert saved["version"] == 1 and saved["question"] == "Which exit is signposted?"
    assert saved["clues"][0]["reasoning"] == "signs name exits"


def test_rows_with_an_extra_cell_and_option_tables_are_checked_the_same_way(ui_store):
    outcome, saved = save(ui_store, "ui/alpha", clues=[["clue 1", "t", "r", "0", "extra"]])
    assert outcome["kind"] == "invalid" and "row 1 has 5 cells" in outcome["message"]
    outcome, saved = save(ui_store, "ui/gamma",
                          options=as_widget([["A", "blue"], ["B", "red"]], ["label", "text"]))
    assert outcome["kind"] == "invalid" and "options table must have exactly the columns " \
        "label, text, image; it has label, text" in outcome["message"]
    assert saved["version"] == 1 and len(saved["options"]) == 2
    # the table as the widget sends it, unchanged, saves
    table = as_widget(em.option_rows(saved), em.OPTION_HEADERS)
    assert save(ui_store, "ui/gamma", options=table, answer="B")[0]["kind"] == "saved"


def test_autosave_keeps_no_draft_of_a_table_with_other_columns(ui_store):
    editor = EditorHandlers(ui_store)
    work = editor.load("ui/alpha", "local")
    form = editor.form_values(work["item"]) | {
        "clues": as_widget([["clue 1", "t", "", "r", "0"]], [*em.CLUE_HEADERS, "x"])}
    assert editor.autosave(work, form, None, "local") == "unsaved edits (not yet valid)"
    assert ui_store.get_draft("local", "ui/alpha") is None


@pytest.mark.parametrize("item_id, changes, message", [
    ("ui/gamma", {"answer": "Z"}, "gold answer has no option: 'Z' (options A, B)"),
    ("ui/beta", {"answer_yes_no": None, "answer": "maybe"}, None),
    ("ui/numeric-twelve", {}, "the gold answer 'twelve' is no number the scorer can read"),
    ("ui/location-paris", {}, "Gold answer: location is not $country,region$: 'Paris'"),
    ("ui/alpha", {"answer_type": "numeric"}, None),
    ("ui/alpha", {"answer_type": "location", "loc_country": "atlantis", "loc_region": "x"},
     "Gold answer: unknown country in location: 'atlantis'"),
    # imported so (a switch in the editor sets the options aside instead, as shown)
    ("ui/numeric-options", {},
     "options on a non-multiple-choice item: an item of type numeric has no options (2 given)"),
])
def test_wrong_type_gold_is_refused_with_a_message_per_field(ui_store, item_id, changes, message):
    """(Items imported with such golds, flagged, cannot be saved until the gold is fixed.)"""
    for wrong_id, answer_type, gold in (("ui/numeric-twelve", "numeric", "twelve"),
                                        ("ui/location-paris", "location", "Paris")):
        ui_store.create_item({"id": wrong_id, "question": "q?", "answer_type": answer_type,
                              "answer": gold}, "import")
    ui_store.create_item({"id": "ui/numeric-options", "question": "q?", "answer_type": "numeric",
                          "answer": "4", "options": [{"label": "A", "text": "x"},
                                                     {"label": "B", "text": "y"}]}, "import")
    before = ui_store.get_item(item_id)
    outcome, saved = save(ui_store, item_id, **changes)
    if message is None:  # the type's control holds the gold, not the hidden text field
        kind = "unchanged" if item_id == "ui/beta" else "saved"   # beta: nothing changed
        assert outcome["kind"] == kind and saved["answer"] == before["answer"]
        return
    assert outcome["kind"] == "invalid" and message in outcome["message"], outcome
    assert saved["version"] == 1


def test_two_fields_wrong_are_named_each():
    item = {"answer_type": "multiple_choice", "answer": "Z", "options": [
        {"label": "A", "text": "x"}, {"label": "A", "text": "y"}], "question": "q"}
    from ui.editor_handlers import check_gold
    with pytest.raises(em.EditError) as err:
        check_gold(item)
    assert str(err.value) == ("Options: duplicated option label: A; "
                              "gold answer has no option: 'Z' (options A, A)")


def test_each_types_control_saves_its_answer(ui_store):
    outcome, saved = save(ui_store, "ui/beta", answer_yes_no="No")
    assert outcome["kind"] == "saved" and saved["answer"] == "No"
    outcome, saved = save(ui_store, "ui/alpha", answer_type="location", loc_country="italy",
                          loc_region="lazio", loc_aliases="latium / roma")
    assert outcome["kind"] == "saved" and saved["answer"] == "$italy,lazio/latium/roma$"
    outcome, saved = save(ui_store, "ui/alpha", answer_type="numeric", answer_number=12.5)
    assert outcome["kind"] == "saved" and saved["answer"] == "12.5"
    outcome, saved = save(ui_store, "ui/gamma", answer="B")
    assert outcome["kind"] == "saved" and saved["answer"] == "B"


def test_answer_controls_carry_the_gold_across_types():
    # the numeric gold is a text field: what is typed is the gold, as typed
    assert af.read_answer("numeric", {"answer_number": "12.50"}, "12.5") == "12.50"
    assert af.read_answer("numeric", {"answer_number": " 5,30 € "}, "x") == "5,30 €"
    assert af.read_answer("numeric", {"answer_number": 12.0}, "x") == "12"   # a script's number
    assert af.read_answer("yes_no", {"answer_yes_no": None}, "Paris") == "Paris"
    assert af.read_answer("location", {"loc_country": "", "loc_region": "",
                                       "loc_aliases": ""}, "Paris") == "Paris"
    values = af.widget_values({"answer_type": "location", "answer": "$canada,quebec/québec$"})
    assert (values["loc_country"], values["loc_region"], values["loc_aliases"]) == (
        "canada", "quebec", "québec")
    assert af.widget_values({"answer_type": "yes_no", "answer": "yes."})["answer_yes_no"] == "Yes"
    assert af.panels("numeric", {"options": [{"label": "A"}]})["options_panel"] is True
    assert af.panels("yes_no", {}) == {
        "answer_text_panel": False, "yes_no_panel": True, "number_panel": False,
        "location_panel": False, "aliases_panel": False, "options_panel": False}


def test_option_editor_adds_relabels_and_removes():
    item = {"options": [{"label": "A", "text": "x", "image": "sha"}]}
    item, label = ops.add_option(item)
    assert label == "B" and item["options"][1] == {"label": "B", "text": "", "image": None}
    relabelled = em.apply_option_rows(item, [["C", "x", "image"], ["B", "", ""]])
    assert [o["label"] for o in relabelled["options"]] == ["C", "B"]
    assert ops.remove_option(item, "A")["options"] == [{"label": "B", "text": "", "image": None}]
    with pytest.raises(em.EditError, match="there is no option Q"):
        ops.remove_option(item, "Q")


@pytest.mark.parametrize("gold, new_type, kept, note", [
    ("Paris", "yes_no", "", "'Paris' is not a valid yes_no answer: it is set aside"),
    ("yes.", "yes_no", "Yes", "'yes.' is now 'Yes' (yes_no)"),
    ("B", "numeric", "", "'B' is not a valid numeric answer: it is set aside"),
    ("12", "numeric", "12", ""),
    ("Paris", "location", "", "'Paris' is not a valid location answer"),
    ("$italy,lazio$", "location", "$italy,lazio$", ""),
    ("12", "open", "12", ""),
])
def test_a_type_switch_converts_or_sets_aside_the_gold_and_says_so(gold, new_type, kept, note):
    item, said = af.switch_type({"answer_type": "open", "answer": gold}, new_type)
    assert (item["answer_type"], item["answer"]) == (new_type, kept)
    assert (note in said) if note else said == ""


def test_switching_away_from_multiple_choice_sets_the_options_aside_and_back_restores_them():
    options = [{"label": "A", "text": "blue", "image": None},
               {"label": "B", "text": "red", "image": None}]
    item, said = af.switch_type({"answer_type": "multiple_choice", "answer": "A",
                                 "options": options}, "open")
    assert item["options"] == [] and item[af.OPTIONS_ASIDE] == options
    assert "2 options are set aside" in said
    assert not af.panels("open", item)["options_panel"]
    item, said = af.switch_type(item, "multiple_choice")
    assert item["options"] == options and item[af.OPTIONS_ASIDE] == [] and item["answer"] == "A"


def test_options_set_aside_stay_aside_in_the_draft_after_a_reload(ui_store):
    """ui/gamma (multiple choice, options A and B) switched to numeric. The autosave of that
    same keystroke reads the options table as it still shows them: those options were put
    back into the draft under the numeric type, and after a reload they were shown (and
    saved) with it. The draft now keeps them set aside, exactly as the editor had them."""
    editor = EditorHandlers(ui_store)
    work = editor.load("ui/gamma", "local")
    shown = editor.form_values(work["item"])            # the table still lists A and B
    editor.autosave(work, shown | {"answer_type": "numeric", "answer_number": None}, None,
                    "local")
    reloaded = editor.load("ui/gamma", "local")
    item = reloaded["item"]
    assert (item["answer_type"], item["options"]) == ("numeric", [])
    assert [o["label"] for o in item[af.OPTIONS_ASIDE]] == ["A", "B"]
    assert not af.panels("numeric", item)["options_panel"]
    form = editor.form_values(item)
    assert form["options"] == []
    # saved under numeric: without them; switched back first: with them, none lost
    back = editor.collect(reloaded, form | {"answer_type": "multiple_choice"}, None)
    assert [o["text"] for o in back["options"]] == ["blue", "red"]
    _, outcome = editor.save(reloaded, form | {"answer_number": 3}, None, "", "local")
    assert outcome["kind"] == "saved", outcome
    stored = ui_store.get_item("ui/gamma")
    assert (stored["answer_type"], stored["options"], stored["answer"]) == ("numeric", [], "3")


def test_after_a_switch_only_the_visible_control_counts(ui_store):
    """ui/alpha is open with gold '12'. Switched to yes/no, the '12' left in the hidden text
    field blocked every save ("gold answer is not Yes or No: '12'") while the Yes/No choice
    shown was empty; now the choice shown is the gold. A save with the type changed and the
    form not switched (the text field still holding '12') saves nothing: it switches, with
    the switch's words (it saved yes_no without the '12' and without a word)."""
    editor = EditorHandlers(ui_store)
    work = editor.load("ui/alpha", "local")
    form = editor.form_values(work["item"]) | {"answer_type": "yes_no", "answer_yes_no": None}
    work, outcome = editor.save(work, form, None, "", "local")
    assert outcome["kind"] == "switched" and \
        "'12' is not a valid yes_no answer: it is set aside" in outcome["message"]
    assert ui_store.get_item("ui/alpha")["version"] == 1
    form = editor.form_values(work["item"])                 # the switched form, no choice
    _, outcome = editor.save(work, form, None, "", "local")
    assert outcome["kind"] == "saved", outcome
    assert ui_store.get_item("ui/alpha")["answer"] == ""
    work = editor.load("ui/alpha", "local")
    form = editor.form_values(work["item"]) | {"answer_type": "numeric", "answer_number": 7}
    _, outcome = editor.save(work, form, None, "", "local")
    assert outcome["kind"] == "saved" and ui_store.get_item("ui/alpha")["answer"] == "7"


def test_a_type_round_trip_brings_the_gold_back_with_the_options():
    """Multiple choice, gold C, switched to yes/no, numeric, then back: the options came
    back, the gold C did not (it was cleared at the first switch)."""
    options = [{"label": label, "text": text, "image": None}
               for label, text in zip("ABC", ("blue", "red", "green"))]
    item = {"answer_type": "multiple_choice", "answer": "C", "options": options}
    item, said = af.switch_type(item, "yes_no")
    assert item["answer"] == "" and "comes back if you switch back to multiple_choice" in said
    item, _ = af.switch_type(item, "numeric")
    item, _ = af.switch_type(item, "multiple_choice")
    assert (item["options"], item["answer"]) == (options, "C")


def test_aliases_the_new_type_does_not_take_are_set_aside_and_come_back():
    """Location with aliases, switched to numeric: the location aliases stayed in the box
    and were saved with the numeric item."""
    aliases = ["$germany,bayern$", "bayern"]
    item = {"answer_type": "location", "answer": "$germany,bavaria$", "aliases": aliases}
    item, said = af.switch_type(item, "numeric")
    assert item["aliases"] == [] and item[af.ALIASES_ASIDE] == aliases
    assert "2 accepted aliases are not valid for a numeric answer" in said
    item, _ = af.switch_type(item, "location")
    assert (item["aliases"], item["answer"]) == (aliases, "$germany,bavaria$")


def test_a_location_item_switched_to_numeric_saves_without_its_aliases(ui_store):
    editor = EditorHandlers(ui_store)
    work = editor.load("ui/alpha", "local")
    form = editor.form_values(work["item"]) | {"answer_type": "location",
                                               "loc_country": "germany", "loc_region": "bavaria",
                                               "aliases": "$germany,bayern$\nbayern"}
    _, outcome = editor.save(work, form, None, "", "local")
    assert outcome["kind"] == "saved", outcome
    work = editor.load("ui/alpha", "local")
    item, _ = af.switch_type(editor.collect(work, editor.form_values(work["item"]), None),
                             "numeric")
    form = editor.form_values(item) | {"answer_number": 12.5}
    _, outcome = editor.save({**work, "item": item}, form, None, "", "local")
    assert outcome["kind"] == "saved", outcome
    stored = ui_store.get_item("ui/alpha")
    assert (stored["answer"], stored["aliases"]) == ("12.5", [])


def test_aliases_that_do_not_parse_for_the_type_are_refused(ui_store):
    outcome, stored = save(ui_store, "ui/alpha", answer_type="numeric", answer_number=12.5,
                           aliases="$germany,bavaria$\n12.5 km")
    assert outcome["kind"] == "invalid"
    assert "Accepted aliases: the alias '$germany,bavaria$' is no number the scorer" in \
        outcome["message"]
    assert stored["answer_type"] == "open"


def test_an_option_without_text_or_image_is_refused_per_option(ui_store):
    rows = [["A", "blue", ""], ["B", "red", ""], ["C", "", ""], ["D", "", ""]]
    outcome, stored = save(ui_store, "ui/gamma", options=as_widget(rows, em.OPTION_HEADERS),
                           answer="A")
    assert outcome["kind"] == "invalid"
    assert "option C has no text or image" in outcome["message"]
    assert "option D has no text or image" in outcome["message"]
    assert [o["label"] for o in stored["options"]] == ["A", "B"]


def test_a_switch_away_and_back_leaves_nothing_to_save(ui_store):
    """demo/munich-street switched to numeric and back to location, then saved: a new
    version with no change. Now the save says there is nothing to save."""
    ui_store.create_item({"id": "ui/munich", "question": "Where?", "answer_type": "location",
                          "answer": "$germany,bavaria/bayern$",
                          "aliases": ["$germany,bavaria$", "$deutschland,bayern$"]}, "import")
    editor = EditorHandlers(ui_store)
    work = editor.load("ui/munich", "local")
    item = editor.collect(work, editor.form_values(work["item"]), None)
    for answer_type in ("numeric", "yes_no", "location"):       # as the switch event does
        item, _ = af.switch_type(item, answer_type)
        work = {**work, "item": item}
        line = editor.keep_draft(work, item, "local")
        assert line == "" if answer_type == "location" else line.endswith("(draft kept)")
    work, outcome = editor.save(work, editor.form_values(item), None, "", "local")
    assert outcome == {"kind": "unchanged",
                       "message": "Nothing to save: ui/munich is as saved (version 1)."}
    assert ui_store.get_item("ui/munich")["version"] == 1
    assert ui_store.get_draft("local", "ui/munich") is None


def test_aliases_typed_under_numeric_are_set_aside_under_multiple_choice():
    """Numeric with aliases, switched back to multiple choice: the aliases came along (one
    numeric had just refused among them), showed in a box multiple choice never has, and
    were saved with the item. Multiple choice and yes/no take none; a switch back brings
    them back."""
    item = {"answer_type": "numeric", "answer": "5.30", "aliases": ["€5.30", "about five"],
            "options": [], af.OPTIONS_ASIDE: [{"label": "A", "text": "5.30"}]}
    for new_type in ("multiple_choice", "yes_no"):
        moved, said = af.switch_type(item, new_type)
        assert (moved["aliases"], moved[af.ALIASES_ASIDE]) == ([], ["€5.30", "about five"])
        assert "takes no accepted aliases" in said
        assert af.panels(new_type, moved)["aliases_panel"] is False
        back, _ = af.switch_type(moved, "numeric")
        assert back["aliases"] == ["€5.30"] and back[af.ALIASES_ASIDE] == ["about five"]


def test_numeric_aliases_are_set_aside_under_location_and_come_back():
    """demo/bus-stop-wait (numeric 8, aliases '8 minutes', '8 min') switched to location:
    the aliases stayed in the box, as if they were region names."""
    item = {"answer_type": "numeric", "answer": "8", "aliases": ["8 minutes", "8 min"]}
    item, said = af.switch_type(item, "location")
    assert (item["aliases"], item[af.ALIASES_ASIDE]) == ([], ["8 minutes", "8 min"])
    assert "2 accepted aliases are not valid for a location answer" in said
    item, _ = af.switch_type(item, "numeric")
    assert (item["answer"], item["aliases"]) == ("8", ["8 minutes", "8 min"])


def test_a_numeric_gold_with_a_unit_is_shown_with_its_unit_and_keeps_it(ui_store):
    """A numeric gold "3 km" (imported) was flagged "not a number", and its number field
    stood empty; then the number field showed 3 without its unit."""
    ui_store.create_item({"id": "ui/distance", "question": "How far?", "answer_type": "numeric",
                          "answer": "3 km"}, "import")
    assert EditorHandlers(ui_store).form_values(
        ui_store.get_item("ui/distance"))["answer_number"] == "3 km"
    outcome, stored = save(ui_store, "ui/distance", question="How far is it?")
    assert outcome["kind"] == "saved" and stored["answer"] == "3 km"
    outcome, stored = save(ui_store, "ui/distance", answer_number="4 km")
    assert outcome["kind"] == "saved" and stored["answer"] == "4 km"


@pytest.mark.parametrize("typed", ["12.8", "5.30 €", "€5.30", "5,30 €", "3 km", "12.80"])
def test_the_numeric_gold_is_saved_exactly_as_typed(ui_store, typed):
    """The numeric gold was a browser number field: the wheel or arrow keys changed it
    (12.8 became 9 and was saved), decimals were rounded, "5.30 €" could not be entered.
    It is a text field now, saved as typed once the scorer's reading finds its number."""
    from judges.rules import judge_numeric

    ui_store.create_item({"id": "ui/price", "question": "What does it cost?",
                          "answer_type": "numeric", "answer": "1"}, "local")
    outcome, stored = save(ui_store, "ui/price", answer_number=f" {typed} ",
                           aliases="€ 5.30\n5,30 EUR")
    assert outcome["kind"] == "saved", outcome
    assert stored["answer"] == typed and stored["aliases"] == ["€ 5.30", "5,30 EUR"]
    assert judge_numeric("12.8" if typed.startswith("12") else "5.3" if "5" in typed else "3",
                         stored["answer"]).value == "correct"


@pytest.mark.parametrize("typed", ["twelve", "€", "about 8", "12 to 15 min", "1.200,50 €"])
def test_a_numeric_gold_without_one_number_is_refused_naming_the_field(ui_store, typed):
    outcome, stored = save(ui_store, "ui/alpha", answer_type="numeric", answer_number=typed)
    assert outcome["kind"] == "invalid"
    assert f"the gold answer {typed!r} is no number the scorer can read: write one number" in outcome["message"]
    assert "5.30 €" in outcome["message"]            # it says what would do
    assert (stored["answer_type"], stored["answer"], stored["version"]) == ("open", "12", 1)


def test_an_option_letter_gold_becomes_its_options_text_under_another_type():
    """Multiple choice switched to open kept the gold "D" (Winter) and saved it: an open
    item whose gold is a letter of options it no longer has. It becomes the option's text,
    and "D" comes back with the options."""
    switch_type = af.switch_type
    item = {"answer_type": "multiple_choice", "answer": "D", "aliases": [],
            "options": [{"label": "A", "text": "Spring", "image": None},
                        {"label": "D", "text": "Winter", "image": None}]}
    opened, note = switch_type(item, "open")
    assert opened["answer"] == "Winter"
    assert note.startswith("The gold answer 'D' named option D: it is now that option's text "
                           "'Winter' (open); back on multiple_choice, an option's text "
                           "becomes its label again ('D' if the gold is left empty).")
    back, _ = switch_type(opened, "multiple_choice")
    assert back["answer"] == "D" and [o["label"] for o in back["options"]] == ["A", "D"]
    # a gold typed under open stays: the set-aside letter came back over it with no word
    typed, note = switch_type({**opened, "answer": "Spring"}, "multiple_choice")
    assert typed["answer"] == "A" and "is option A's text: it is now A" in note
    typed, note = switch_type({**opened, "answer": "Summer"}, "multiple_choice")
    assert typed["answer"] == "Summer" and "'Summer' is not one of the options" in note
    emptied, _ = switch_type({**opened, "answer": ""}, "multiple_choice")
    assert emptied["answer"] == "D"
    numeric, note = switch_type(item, "numeric")
    assert numeric["answer"] == "" and "whose text is no valid numeric answer" in note
    one = {**item, "options": item["options"][1:]}
    assert "The option is set aside: it comes back" in switch_type(one, "open")[1]


def test_a_new_option_never_takes_the_letter_of_a_removed_option_the_gold_names():
    """Option B (the gold) removed, one added: the new option got B, placed last, and the
    gold silently named it. A gold typed before the options still gets its option."""
    item = {"answer": "B", "options": [{"label": x, "text": x, "image": None} for x in "ABCDE"]}
    item, label = ops.add_option(ops.remove_option(item, "B"))
    assert label == "F"
    rows = em.option_rows({**item, "options": item["options"][:-1]})
    table = em.apply_option_rows(item, [r for r in rows if r[0] != "C"])
    assert ops.add_option({**table, "answer": "C"})[1] == "F"     # after the last (E)
    assert ops.add_option({**table, "answer": "F"})[1] == "G"     # F: removed, the gold
    fresh = {"answer": "C", "options": []}
    labels = []
    for _ in range(4):
        fresh, label = ops.add_option(fresh)
        labels.append(label)
    assert labels == ["A", "B", "C", "D"]


def test_a_multiple_choice_gold_in_the_other_case_is_read_as_its_label(ui_store):
    """Gold "a" of options A and B was refused ("gold answer has no option: 'a'")."""
    assert af.as_option_label("a", [{"label": "A"}, {"label": "B"}]) == "A"
    assert af.as_option_label("a", [{"label": "A"}, {"label": "a"}]) == "a"
    assert af.as_option_label("z", [{"label": "A"}]) == "z"
    editor = EditorHandlers(ui_store)
    work = editor.load("ui/alpha", "bob")
    options = [["A", "a cat", ""], ["B", "a dog", ""]]
    form = editor.form_values(work["item"]) | {"answer_type": "multiple_choice",
                                                "options": options, "answer": "b"}
    _, outcome = editor.save(work, form, None, "", "bob")
    assert outcome["kind"] == "saved", outcome
    assert ui_store.get_item("ui/alpha")["answer"] == "B"
