"""An import's text-direction problem that names image file names (gone once stored, so no
save can check them) besides editable parts: once the editable parts were fixed, the save
said "2 import problems stay until you mark them resolved …: no rule can check them again"
(contradicting its earlier "still holds") and the line still named the five parts fixed. A
save now narrows the line to the parts left, says which still hold or can only be marked
resolved, and counts only the problems that truly stay. Real save path, real SQLite."""
from tests.test_annfix25_direction_resolves import DUPLICATE, STAYS
from tests.test_ui_handlers import ui_store  # noqa: F401  (the fixture: a real store)
from judges.direction_parts import UNEDITABLE
from ui.editor_handlers import EditorHandlers

RLO = "\u202e"
DETAIL = ("(U+202E: they can make text read as other text; kept as imported, remove them if "
          "they are not the text's own)")
FLAG = ("text-direction characters: question, GT reasoning, clue 1 text, clue 1 reasoning, "
        f"option B, image 2 file name, option D image file name {DETAIL}")
NAMES = "image 2 file name, option D image file name"


def test_fixed_parts_leave_the_line_and_file_names_are_said_as_to_mark_resolved(ui_store):
    item = ui_store.get_item("ui/gamma")
    options = [item["options"][0], {**item["options"][1], "text": f"red{RLO}"}]
    ui_store.save_item({**item, "question": f"Pick the colour{RLO}.",
                        "gt_reasoning": f"blue{RLO} sign", "options": options,
                        "clues": [{"text": f"a blue{RLO} sign", "reasoning": f"why{RLO}",
                                   "boxes": []}],
                        "problems": [FLAG, DUPLICATE]}, item["version"], "bob", "")
    editor = EditorHandlers(ui_store)
    work = editor.load("ui/gamma", "ann")
    form = editor.form_values(work["item"])
    # all but the question fixed: the line names the question and the file names
    form = form | {"gt_reasoning": "blue sign", "options": [["A", "blue", ""], ["B", "red", ""]],
                   "clues": [[row[0], "a blue sign", "why", *row[3:]] for row in form["clues"]]}
    work, outcome = editor.save(work, form, None, "", "ann")
    assert outcome["kind"] == "saved", outcome
    saved = ui_store.get_item("ui/gamma")
    assert saved["problems"] == [f"text-direction characters: question, {NAMES} {DETAIL}",
                                 DUPLICATE], saved["problems"]
    assert "1 import problem still holds (text-direction characters)" in outcome["message"]
    assert ("Text-direction controls are still in question: remove them, or mark the problem "
            f"resolved ({NAMES}: no save can check them).") in outcome["message"]
    assert outcome["message"].endswith(STAYS), outcome["message"]
    assert ("import problems fixed: text-direction characters in GT reasoning, clue 1 text, "
            "clue 1 reasoning, option B") in ui_store.history("ui/gamma")[0]["comment"]
    # the question fixed too: only the file names are left, to be marked resolved
    form = editor.form_values(work["item"]) | {"question": "Pick the colour."}
    work, outcome = editor.save(work, form, None, "", "ann")
    assert outcome["kind"] == "saved", outcome
    saved = ui_store.get_item("ui/gamma")
    left = f"text-direction characters: {NAMES} {DETAIL} — {UNEDITABLE}"
    assert saved["problems"] == [left, DUPLICATE] and saved["flagged"], saved["problems"]
    assert outcome["message"] == (
        f"Saved ui/gamma as version {saved['version']}. 1 import problem (text-direction "
        f"characters) now names only {NAMES}, which no save can check (file names cannot be "
        "edited): check them, then mark it resolved (Mark import problems resolved). "
        f"{STAYS}"), outcome["message"]
    assert "still holds" not in outcome["message"]
    # marked resolved, it goes; the duplicate id alone stays
    form = editor.form_values(work["item"]) | {"gt_reasoning": "the blue sign"}
    _, outcome = editor.save(work, form, None, "", "ann", ticked=[left])
    assert outcome["kind"] == "saved", outcome
    assert ui_store.get_item("ui/gamma")["problems"] == [DUPLICATE]
