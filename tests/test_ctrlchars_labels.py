"""Option labels made in the editor are 1 to 4 capital letters or digits (LABEL_RULE):
"<b>x</b>", a 150-character sentence, or "A\\u200b" beside the real "A" (two options that
both read "A") were saved through Selected option + Set option image. The VLMEvalKit TSV
export left out options whose label has no column (single capital letters) without a word:
its summary, the CLI and the page now list each item and the labels it lost."""
import csv
import sys

import gradio as gr
import pytest

from app import main
from formats import export_path
from tests.live_server import make_scene
from tests.test_annotate_option_rows import PAGE, handlers  # noqa: F401  (the fixture)
from tests.test_annotate_page_fixes import switch_values
from tests.test_ui_handlers import ui_store  # noqa: F401  (the fixture: a real store)
from ui import editor_ops as ops
from ui.editor_handlers import EditorHandlers
from ui.editor_model import EditError, apply_option_rows
from ui.io_lines import export_line

REFUSED = ["<b>x</b>", "x" * 150, "A\u200b", "a", "AB CD", "ABCDE", "Ⅰ", "А"]  # last: Cyrillic


def test_the_rule():
    from domain.option_labels import LABEL_RULE, new_label_problem
    for label in REFUSED:
        assert new_label_problem(label), label
    # the label named, its characters past ASCII by code (the refusal named none: round 29)
    assert new_label_problem("A\u200b") == \
        f"option label 'A\\u200b' (U+200B) is not one: {LABEL_RULE}"
    assert new_label_problem("f") == f"option label 'f' is not one: {LABEL_RULE}"
    for label in ("A", "Z", "1", "12", "AA", "B2"):
        assert new_label_problem(label) is None, label


def test_set_option_image_refuses_a_label_that_breaks_the_rule(ui_store, handlers, tmp_path):
    work = EditorHandlers(ui_store).load("ui/gamma", "local")
    values = switch_values(work["item"])
    image = make_scene(tmp_path / "one.png", color="#102030")
    for label in REFUSED:
        with pytest.raises(gr.Error, match="an option label"):
            handlers["set_option_image"](PAGE, work, label, str(image), *values)
    with pytest.raises(EditError, match="1 to 4 capital letters"):
        ops.set_option_image(work["item"], "A\u200b", "sha")
    shown = handlers["set_option_image"](PAGE, work, "C", str(image), *values)
    assert [o["label"] for o in shown[0]["item"]["options"]] == ["A", "B", "C"]


def test_the_options_table_holds_new_labels_to_it_too(ui_store):
    item = ui_store.get_item("ui/gamma")
    with pytest.raises(EditError, match="1 to 4 capital letters"):
        apply_option_rows(item, [["A", "blue", ""], ["A\u200b", "red", ""]])
    assert [o["label"] for o in apply_option_rows(item, [["A", "x", ""], ["1", "y", ""]])
            ["options"]] == ["A", "1"]


def test_the_tsv_export_says_which_options_it_left_out(store, make_item, tmp_path, capsys):
    item = make_item("mmr/lost", n_clues=0)
    item["options"] += [{"label": "1", "text": "one", "image": None},
                        {"label": "AA", "text": "double", "image": None}]
    store.create_item(item, "t")
    store.create_item(make_item("mmr/whole", n_clues=0), "t")
    out = tmp_path / "mmr.tsv"
    summary = export_path(store, "vlmevalkit", out)
    assert summary["lost_options"] == {"mmr/lost": ["1", "AA"]}
    csv.field_size_limit(min(sys.maxsize, 2 ** 31 - 1))
    header = next(csv.reader(open(out, encoding="utf-8", newline=""), delimiter="\t"))
    assert "1" not in header and "AA" not in header
    line = export_line({**summary, "dataset": "mmr"})
    assert "1 item lost options whose label is no single capital letter A–Z " \
        "(VLMEvalKit's option columns): mmr/lost: 1, AA" in line, line
    capsys.readouterr()
    assert main(["export", "--db", str(store.path), "--format", "vlmevalkit",
                 str(tmp_path / "cli.tsv")]) == 0
    assert "warning: 1 item lost options whose label" in capsys.readouterr().err


def test_the_tsv_export_counts_cells_with_control_characters(store, make_item, tmp_path):
    store.create_item(make_item("mmr/nul", n_clues=0, question="Should the bins go\x00 out?"),
                      "t")
    summary = export_path(store, "vlmevalkit", tmp_path / "n.tsv")
    assert summary["control_cells"] == 1
    assert "1 cell holds invisible control characters" in export_line(summary)
