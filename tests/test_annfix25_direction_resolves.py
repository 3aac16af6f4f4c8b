"""An import's text-direction problem is checked again by a save, as rule-checked problems
are: it stays while a part it names holds a control and goes once none does. A save said
"2 import problems stay until you mark them resolved …: no rule can check them again" of
it and a duplicate id, though the save reads those parts (judges/direction_parts.py)."""
from tests.test_ui_handlers import ui_store  # noqa: F401  (the fixture: a real store)
from ui.editor_handlers import EditorHandlers

RLO = "\u202e"
FLAG = ("text-direction characters: question, option B (U+202E: they can make text read as "
        "other text; kept as imported, remove them if they are not the text's own)")
DUPLICATE = "duplicate id in file: imported as 'ui/alpha' (no rule can check this)"
STAYS = ("1 import problem stays until you mark it resolved (Mark import problems "
         "resolved): no rule can check it again.")


def test_the_direction_problem_goes_once_its_parts_hold_no_control(ui_store):
    item = ui_store.get_item("ui/alpha")
    ui_store.save_item({**item, "question": f"Which exit{RLO}?", "problems": [FLAG, DUPLICATE]},
                       item["version"], "bob", "")
    editor = EditorHandlers(ui_store)
    work = editor.load("ui/alpha", "ann")
    # another part edited, the control kept: the problem still holds, said as one that does
    form = editor.form_values(work["item"]) | {"gt_reasoning": "exits are numbered"}
    work, outcome = editor.save(work, form, None, "", "ann")
    assert outcome["kind"] == "saved", outcome
    assert "1 import problem still holds (text-direction characters)" in outcome["message"]
    assert outcome["message"].endswith(STAYS), outcome["message"]
    # narrowed to the part that still holds one (alpha has no option B: annfix26)
    assert ui_store.get_item("ui/alpha")["problems"] == [FLAG.replace(", option B", ""),
                                                         DUPLICATE]
    # the control removed: the problem goes, the duplicate id alone stays
    form = editor.form_values(work["item"]) | {"question": "Which exit?"}
    _, outcome = editor.save(work, form, None, "", "ann")
    assert outcome["kind"] == "saved", outcome
    saved = ui_store.get_item("ui/alpha")
    assert saved["problems"] == [DUPLICATE] and saved["flagged"]
    assert outcome["message"] == f"Saved ui/alpha as version {saved['version']}. {STAYS}"
    assert "import problems fixed: text-direction characters" in \
        ui_store.history("ui/alpha")[0]["comment"]
