"""Dataset, domain, subtask and reasoning-type names follow the rule item ids follow (the
attacker review): "Spatial Relationship\u200b" saved by one annotator was listed beside
"Spatial Relationship" as another domain, splitting its numbers into two rows that read
alike; a duplicate named `../evil` made a dataset `..`, which exports named files after."""
from __future__ import annotations

import json

import pytest

from formats import import_paths
from store import ValidationError
from tests.test_conflict_merge import edit
from tests.test_ui_handlers import ui_store  # noqa: F401  (the fixture: a real store)
from ui.editor_handlers import EditorHandlers
from ui.io_handlers import export_stem


@pytest.mark.parametrize("field, value", [
    ("domain", "Spatial Relationship\u200b"), ("subtask", "\u202eLocation Identification"),
    ("reasoning_type", "a\x00b"), ("domain", "a\u202eb")])
def test_a_name_with_hidden_characters_is_refused(store, make_item, field, value):
    with pytest.raises(ValidationError, match=f"{field}: may not hold control, invisible"):
        store.create_item(make_item(**{field: value}), "att")
    assert store.item_ids() == []


@pytest.mark.parametrize("item_id", ["../evil", "./x", ".hidden/x", "a\\b/x"])
def test_a_dataset_named_like_a_path_is_refused(store, make_item, item_id):
    with pytest.raises(ValidationError, match="dataset: a dataset name may not be"):
        store.create_item(make_item(item_id), "att")


def test_an_import_cleans_hidden_characters_from_names_and_keeps_the_item(store, tmp_path):
    path = tmp_path / "items.jsonl"
    path.write_text(json.dumps({"id": "d/1", "question": "Q?", "answer_type": "open",
                                "answer": "x", "domain": "Spatial\u200b Relationship"}) + "\n")
    [report] = import_paths(store, "jsonl", [(path, "items.jsonl")])
    assert report.imported == 1 and report.flagged == 1
    item = store.get_item("d/1")
    assert item["domain"] == "Spatial Relationship"
    assert item["metadata"]["original_domain"] == "Spatial\u200b Relationship"
    assert any(p.startswith("hidden characters removed: domain") for p in item["problems"])


def test_a_domain_that_reads_as_one_in_use_is_refused_in_the_editor(ui_store):
    editor = EditorHandlers(ui_store)
    domain = ui_store.facets()["domain"][0]
    look_alike = domain.swapcase()
    _, outcome = edit(editor, editor.load("ui/alpha", "att"), "att", domain=look_alike)
    assert outcome["kind"] == "invalid"
    assert f"Domain: it reads as the domain {domain!r} already in use" in outcome["message"]
    _, outcome = edit(editor, editor.load("ui/alpha", "att"), "att", domain=domain)
    assert outcome["kind"] in ("saved", "unchanged")
    _, outcome = edit(editor, editor.load("ui/alpha", "att"), "att", domain="A new domain")
    assert outcome["kind"] == "saved"


def test_an_export_names_its_file_safely_whatever_the_dataset():
    assert export_stem("..") == "dataset" and export_stem(".x") == "x"
    assert export_stem("a/b c") == "a_b_c" and export_stem(None) == "cluelab"
    assert export_stem("mmr-life") == "mmr-life"


@pytest.mark.parametrize("blank", ["\u2800", "\u034f", "\u3164", "\u115f", "\ufe0f",
                                   "\u2028"])
def test_characters_drawn_as_nothing_are_refused_in_ids_and_names(store, make_item, blank):
    """"demo/park-season" + a braille blank, a combining grapheme joiner or a Hangul filler
    was accepted (none is a control or format character): three rows read
    "demo/park-season", and "Daily Commonsense" + U+3164 was a second domain."""
    with pytest.raises(ValidationError, match="id: an id may not hold control"):
        store.create_item(make_item(f"demo/park-season{blank}"), "att")
    with pytest.raises(ValidationError, match="domain: may not hold control"):
        store.create_item(make_item("demo/ok", domain=f"Daily Commonsense{blank}"), "att")
    assert store.item_ids() == []
    store.create_item(make_item("demo/Straße-日本"), "att")            # letters are letters
