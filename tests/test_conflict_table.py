"""The conflict panel's table (two people saved the same item) reads with long texts: the
words that differ between the saved version and yours are marked, every text escaped.

Found by a review: a long reasoning changed in one word on each side read as two long,
nearly equal paragraphs, side by side in narrow columns."""
from tests.test_ui_handlers import ui_store  # noqa: F401  (the fixture: a real store)
from ui import conflict_marks as marks
from ui.annotate_layout import COMPARE_HIDE, COMPARE_SHOW
from ui.editor_handlers import FIELDS, EditorHandlers
from ui.server import build_app

THEIRS = ("Snow covers the roofs, people wear heavy coats and hats; the pond is frozen and a "
          "child skates on it, so it must be winter and not early spring.")
MINE = ("Snow covers the roofs, people wear heavy coats and scarves; the pond is frozen and "
        "children skate on it, so it must be winter rather than late autumn.")


def saved(text):
    return f'<mark class="cl-saved">{text}</mark>'


def yours(text):
    return f'<mark class="cl-yours">{text}</mark>'


def test_the_words_that_differ_are_marked_on_each_side():
    theirs, mine = marks.marked(THEIRS, MINE)
    assert theirs == (f"Snow covers the roofs, people wear heavy coats and {saved('hats')}; the "
                      f"pond is frozen and {saved('a child skates')} on it, so it must be "
                      f"winter {saved('and not early spring')}.")
    assert mine == (f"Snow covers the roofs, people wear heavy coats and {yours('scarves')}; "
                    f"the pond is frozen and {yours('children skate')} on it, so it must be "
                    f"winter {yours('rather than late autumn')}.")
    # lines kept (a clue: its text, reasoning and boxes), an empty side named, text escaped
    assert marks.marked("a sign\nreasoning: red", "a sign\nreasoning: blue") == (
        f"a sign\nreasoning: {saved('red')}", f"a sign\nreasoning: {yours('blue')}")
    assert marks.marked("", "B: <b>red</b>") == (
        marks.NONE_CELL, yours("B: &lt;b&gt;red&lt;/b&gt;"))


def test_the_panel_shows_the_marked_table(ui_store):
    """A refused save (and Show comparison) fill the table with the marked versions, in
    HTML cells; the plain rows (ui/conflict_merge.rows) stay what the merge reads."""
    app = build_app(ui_store)
    table = [b for b in app.blocks.values() if getattr(b, "elem_id", None) == "conflict-diff"][0]
    assert table.datatype == ["str", "str", "html", "html"]
    editor = EditorHandlers(ui_store)
    work = editor.load("ui/alpha", "local")
    item = ui_store.get_item("ui/alpha")
    ui_store.save_item({**item, "gt_reasoning": THEIRS}, item["version"], "bob")
    form = editor.form_values(work["item"]) | {"gt_reasoning": MINE}
    compare = {fn.api_name: fn.fn for fn in app.fns.values()}["compare_with_saved"]
    table, label = compare(COMPARE_SHOW, work, *[form[field] for field in FIELDS], None)
    assert table["value"] == [["GT reasoning", "both (you choose)", *marks.marked(THEIRS, MINE)]]
    assert table["visible"] is True and label == COMPARE_HIDE
    _, outcome = editor.save(work, form, None, "", "local")
    assert outcome["kind"] == "conflict" and outcome["diff"] == [
        ["GT reasoning", "both (you choose)", THEIRS, MINE]]


def test_the_compare_button_hides_and_shows_the_comparison_it_names(ui_store):
    """"Compare with saved" seemed to do nothing: the table was open when the panel
    appeared, and the click filled it with the same rows. The button now reads "Hide
    comparison" while the table is shown, hides it, and then reads "Show comparison"; a
    conflict opens the panel with the table shown and the button saying so."""
    app = build_app(ui_store)
    blocks = {getattr(b, "elem_id", None): b for b in app.blocks.values()}
    assert blocks["conflict-compare"].value == COMPARE_HIDE
    fns = {fn.api_name: fn.fn for fn in app.fns.values()}
    editor = EditorHandlers(ui_store)
    work = editor.load("ui/alpha", "local")
    item = ui_store.get_item("ui/alpha")
    ui_store.save_item({**item, "gt_reasoning": THEIRS}, item["version"], "bob")
    form = editor.form_values(work["item"]) | {"gt_reasoning": MINE}
    values = [form[field] for field in FIELDS]
    hidden, label = fns["compare_with_saved"](COMPARE_HIDE, work, *values, None)
    assert hidden == {"__type__": "update", "visible": False} and label == COMPARE_SHOW
    shown, label = fns["compare_with_saved"](COMPARE_SHOW, work, *values, None)
    assert shown["visible"] is True and label == COMPARE_HIDE
    assert shown["value"][0][0] == "GT reasoning"
