"""An attacker's review (round 17): an option label with markup, renamed in the options
table, was saved and then shown live in the save bar's draft line of whoever edited that
option next (an <img> fetched another host; a Markdown link was live). History's diff drew
any 64-digit text as an image. On the handlers and a real store."""
from __future__ import annotations

import json

import gradio as gr
import pytest

from formats import import_path
from tests.test_ui_handlers import ui_store  # noqa: F401  (the fixture: a real store)
from ui import messages
from ui.editor_handlers import EditorHandlers
from ui.history_handlers import HistoryHandlers
from ui.server import build_app

PAGE = gr.Request(headers={"origin": "http://127.0.0.1:7860"})     # a page of this site
IMG = '<img src="http://127.0.0.1:9/beacon">'


def test_a_new_option_label_with_markup_is_refused(ui_store):
    editor = EditorHandlers(ui_store)
    work = editor.load("ui/gamma", "ann")
    for label in (IMG, "[lnk](http://evil.example)"):
        form = editor.form_values(work["item"])
        form["options"] = [[label if row[0] == "B" else row[0], *row[1:]]
                           for row in form["options"]]
        done = editor.save(work, form, None, "", "ann")[1]
        assert done["kind"] == "invalid" and done["message"].startswith(
            "an option label may not hold"), done
    assert [o["label"] for o in ui_store.get_item("ui/gamma")["options"]] == ["A", "B"]


def _with_stored_label(ui_store) -> dict:
    """ui/gamma with option B's label made `IMG` before the rule (as an old import left it)."""
    item = ui_store.get_item("ui/gamma")
    item["options"][1]["label"] = IMG
    ui_store.save_item(item, item["version"], "old-import", "")
    return ui_store.get_item("ui/gamma")


def test_a_stored_label_stays_and_the_draft_line_shows_it_escaped(ui_store, handlers):
    _with_stored_label(ui_store)
    editor = EditorHandlers(ui_store)
    work = editor.load("ui/gamma", "admin")
    form = editor.form_values(work["item"])
    form["options"] = [[row[0], "edited" if row[0] == IMG else row[1], *row[2:]]
                       for row in form["options"]]
    line = editor.autosave(work, form, None, "admin", "t")
    assert "<img" not in line and "&lt;img" in line, line      # it was the live tag
    assert "option" in line and "(draft kept)" in line
    # the line sent back by the page once another tab saved: escaped once, not twice
    fresh, done = editor.save(editor.load("ui/gamma", "admin"), form, None, "", "admin")
    assert done["kind"] == "saved"
    gone = handlers["recheck_draft"](PAGE, None, work, line)[0]   # (line, choice row)
    shown = gone["value"] if isinstance(gone, dict) else gone
    assert "&lt;img" in shown and "&amp;lt;" not in shown and "<img" not in shown, shown
    # the stored label is kept: saving the item again with it is no refusal
    assert [o["label"] for o in ui_store.get_item("ui/gamma")["options"]] == ["A", IMG]


def test_a_line_the_page_sends_back_is_escaped_on_its_way_out(ui_store, handlers):
    """The recheck quotes the line the browser sends: whatever it holds goes out escaped."""
    editor = EditorHandlers(ui_store)
    work = editor.load("ui/beta", "local")
    editor.autosave(work, editor.form_values(work["item"]) | {"question": "Q?"}, None,
                    "local", "t")
    ui_store.delete_draft("local", "ui/beta")
    gone = handlers["recheck_draft"](PAGE, None, work,
                                     f"unsaved edits of {IMG} (draft kept)")[0]
    shown = gone["value"] if isinstance(gone, dict) else gone
    assert "<img" not in shown and "&lt;img" in shown and "&amp;" not in shown, shown
    assert shown.startswith(messages.status(f"unsaved edits of {IMG} on this page only")), shown


def test_history_draws_only_an_options_image_as_an_image(ui_store):
    """An option's text set to a stored image's hash showed that image in History's diff:
    a text edit read as an image change."""
    item = ui_store.get_item("ui/gamma")
    sha = ui_store.get_item("ui/alpha")["images"][0]
    item["options"][1]["text"] = sha
    ui_store.save_item(item, item["version"], "ann", "")
    [row] = [r for r in HistoryHandlers(ui_store).diff("ui/gamma", 1, 2) if "text" in r[0]]
    assert row[2] == sha and "<img" not in row[2], row


def test_the_diffs_field_column_is_escaped_like_its_values(ui_store):
    _with_stored_label(ui_store)
    rows = HistoryHandlers(ui_store).diff("ui/gamma", 1, 2)
    assert any("option &lt;img" in row[0] for row in rows), rows
    assert not any("<img" in row[0] for row in rows), rows


def test_an_import_flags_a_label_with_markup_and_keeps_it(store, tmp_path):
    line = {"id": "x/1", "dataset": "x", "question": "Which?", "answer_type": "multiple_choice",
            "answer": "A", "options": [{"label": "A", "text": "one"},
                                       {"label": IMG, "text": "two"}]}
    path = tmp_path / "in.jsonl"
    path.write_text(json.dumps(line) + "\n")
    import_path(store, "jsonl", path)
    item = store.get_item("x/1")
    assert [o["label"] for o in item["options"]] == ["A", IMG]     # never relabelled
    [flag] = [p for p in item["problems"] if p.startswith("option label with markup")]
    assert flag.startswith("option label with markup: option 2 (") and "img" not in flag


@pytest.fixture
def handlers(ui_store):
    return {fn.api_name: fn.fn for fn in build_app(ui_store).fns.values()}


def test_an_import_flags_an_id_with_markup_and_keeps_it(store, tmp_path):
    """An imported id `hx/mc-<img …>` went in unflagged, while the same line's domain was
    cleaned and its option label flagged (an attacker's review, round 18)."""
    item_id = "hx/mc-<img src=http://127.0.0.1:9/ID.png>"
    path = tmp_path / "in.jsonl"
    path.write_text(json.dumps({"id": item_id, "dataset": "hx", "question": "Which?",
                                "answer_type": "open", "answer": "a"}) + "\n")
    import_path(store, "jsonl", path)
    problems = store.get_item(item_id)["problems"]
    [flag] = [p for p in problems if p.startswith("id with markup characters")]
    assert "img" not in flag and "127.0.0.1" not in flag, flag
