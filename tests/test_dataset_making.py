"""Findings of a context-free attacker review: an annotator made datasets of any name through
the Item menu's Duplicate (`predict("javascript:alert(1)//", api_name="/duplicate_item")`,
`"other/../demo/x"`), listed in every user's Dataset filter, Export list and Statistics; and
a domain `<img src=x onerror=...>` was saved and listed everywhere. Now a new item goes in a
new dataset only for those who may import (ui/access.py ACTS make_dataset), a new id holds
no path part that is none and no markup character, and a new domain, subtask or reasoning
type holds no < > or `."""
from __future__ import annotations

import json

import gradio as gr
import pytest

from domain.item_ids import name_problem, new_id_refusal, typed_id_refusal
from domain.user_names import name_problem as user_name_problem
from store import NewDatasetRefusedError, ValidationError
from tests.test_ui_handlers import ui_store  # noqa: F401  (the fixture: a real store)
from tests.live_server import make_scene
from ui import access
from ui.editor_model import EditError
from ui.lifecycle_handlers import LifecycleHandlers
from ui.server import build_app

ANNOTATOR = access.Caller("ann", frozenset({"annotator"}))


def test_only_those_who_may_import_make_datasets():
    for role, allowed in (("admin", True), ("researcher", True), ("annotator", False),
                          ("participant", False)):
        who = access.Caller("x", frozenset({role}))
        assert access.may(who, "make_dataset") is allowed, role
        assert access.may(who, "make_dataset") is access.may(who, "import_file"), role
    assert access.may(access.LOCAL, "make_dataset")
    assert access.roles_that_may("make_dataset") == "admin or researcher"


def test_a_new_item_of_an_annotator_goes_only_in_a_dataset_that_is_there(ui_store, tmp_path):
    menu = LifecycleHandlers(ui_store)
    with pytest.raises(EditError, match=r"not duplicated: there is no dataset 'other'; a "
                                        r"dataset is made by importing, by an admin or "
                                        r"researcher"):
        menu.duplicate("ui/alpha", "other/x", "ann")
    with pytest.raises(EditError, match="there is no dataset 'javascript:alert\\(1\\)'"):
        menu.duplicate("ui/alpha", "javascript:alert(1)/x", "ann")
    with pytest.raises(EditError, match="no item created: there is no dataset 'other'"):
        menu.new_item_id("other/x", "q?", "ui")
    image = make_scene(tmp_path / "a.png")
    with pytest.raises(EditError, match="no item created: there is no dataset 'other'"):
        menu.create_from_images("other/x", "q?", [str(image)], "ann", "ui")
    assert "other" not in ui_store.facets()["dataset"]
    assert not ui_store.dataset_exists("other") and not ui_store.item_exists("other/x")
    # in a dataset that is there, as before; a new dataset for those who may import
    assert menu.duplicate("ui/alpha", "ui/copy", "ann") == "ui/copy"
    assert menu.duplicate("ui/alpha", "mine/copy", "rita", new_datasets=True) == "mine/copy"
    assert menu.create_from_images("made/x", "q?", [str(image)], "rita", "ui",
                                   new_datasets=True) == "made/x"
    # the store applies it in the write's own transaction too
    with pytest.raises(NewDatasetRefusedError):
        ui_store.duplicate_item("ui/alpha", "else/x", "ann", may_add_dataset=False)


def test_the_item_menu_asks_the_access_table(ui_store):
    """Through the page's own events, with a login: an annotator's Duplicate into a dataset
    not there is refused, a researcher's makes it."""
    ui_store.add_user("ann", "annotator", "pw-ann-123456")
    ui_store.add_user("rita", "researcher", "pw-rita-123456")
    demo = build_app(ui_store)
    demo.auth = [("ann", "pw-ann-123456")]             # a server that asks for a login
    events = {fn.api_name: fn.fn for fn in demo.fns.values()}
    work = {"saved": ui_store.get_item("ui/alpha"), "item": ui_store.get_item("ui/alpha")}
    with pytest.raises(gr.Error, match="there is no dataset 'other'"):
        events["duplicate_item"](work, "other/x", gr.Request(username="ann"))
    assert not ui_store.dataset_exists("other")
    checked, line = events["check_new_item"](work, "other/y", "q?", gr.Request(username="ann"))
    assert "there is no dataset" in line and checked["interactive"] is False
    events["duplicate_item"](work, "other/x", gr.Request(username="rita"))
    assert ui_store.dataset_exists("other") and ui_store.item_exists("other/x")


@pytest.mark.parametrize("typed, said", [
    ("other/../demo/x", "a '.' or '..' part"), ("ui/./x", "a '.' or '..' part"),
    ("ui//x", "an empty part"), ("ui/x/", "an empty part"), ("/x", "an empty part"),
    ("ui/<b>x", 'may not hold "<"'), ("ui/x>", 'may not hold ">"'),
    ('ui/"x', "may not hold '\"'"), ("ui/it's", 'may not hold "\'"'),
    ("ui/`x`", 'may not hold "`"'), ("ui/a\\b", 'may not hold "\\"'),
    ("ui/R&D", 'may not hold "&"')])
def test_a_typed_new_id_holds_no_path_part_that_is_none_nor_markup(ui_store, typed, said):
    assert said in new_id_refusal(typed)
    with pytest.raises(EditError, match=f"not duplicated: .*{said[:8]}"):
        LifecycleHandlers(ui_store).duplicate("ui/alpha", typed, "local", new_datasets=True)
    with pytest.raises(EditError, match="no item created"):
        LifecycleHandlers(ui_store).new_item_id(typed, "q?", "ui", new_datasets=True)
    assert typed_id_refusal(typed) is None      # an id typed to open an item is looked up
    assert new_id_refusal("ui/street-42") is None


def test_the_markup_characters_are_the_user_names_rule():
    assert user_name_problem("a<b") and user_name_problem("a&b")
    assert all(new_id_refusal(f"ui/a{ch}b") for ch in "<>&\"'`\\")


@pytest.mark.parametrize("field, label", [("domain", "a domain"), ("subtask", "a subtask"),
                                          ("reasoning_type", "a reasoning type")])
def test_a_new_taxonomy_name_holds_no_markup(ui_store, field, label):
    item = ui_store.get_item("ui/alpha")
    for ch, value in (("<", '<img src=x onerror=alert("DOM")>**bold** [l](javascript:x)'),
                      (">", "a > b"), ("`", "`code`")):
        with pytest.raises(ValidationError, match=f'item ui/alpha: {field}: {label} may not '
                                                  f'hold "{ch}"'):
            ui_store.save_item(dict(item, **{field: value}), item["version"], "ann")
    assert name_problem(field, "Spatial **relationship** [x](y) & 'z'") is None
    saved = ui_store.save_item(dict(item, **{field: "Spatial & co"}), item["version"], "ann")
    assert saved == item["version"] + 1


def test_a_name_stored_before_the_rule_is_kept(ui_store):
    """Existing stored values are not touched: an item whose domain holds markup from before
    is saved with it (another edit), and may not be given another such name."""
    item = ui_store.get_item("ui/alpha")
    with ui_store.atomic():
        ui_store.db.conn.execute("UPDATE items SET domain = '<i>old</i>' WHERE id = 'ui/alpha'")
    version = ui_store.save_item(dict(item, domain="<i>old</i>", question="Edited?"),
                                 item["version"], "ann")
    assert ui_store.get_item("ui/alpha")["domain"] == "<i>old</i>"
    with pytest.raises(ValidationError, match='domain: a domain may not hold "<"'):
        ui_store.save_item(dict(item, domain="<i>new</i>"), version, "ann")


def test_a_new_dataset_name_holds_no_markup_nor_path_parts(ui_store):
    item = ui_store.get_item("ui/alpha")
    for dataset, said in (("a/../b", "a '.' or '..' part"), ("a//b", "an empty part"),
                          ("x<y", 'may not hold "<"'), ("it's", "may not hold \"'\"")):
        with pytest.raises(ValidationError, match=f"dataset: .*{said[:8]}"):
            ui_store.create_item(dict(item, id="ui/new-one", dataset=dataset), "rita")


def test_an_import_cleans_markup_from_names_and_keeps_the_item(store, tmp_path):
    """As with hidden characters (tests/test_name_rules.py): imported, flagged, the original
    in the metadata; the store would refuse the name."""
    from formats import import_paths

    value = '<img src=x onerror=alert("DOM")>**bold** `x`'
    path = tmp_path / "items.jsonl"
    path.write_text(json.dumps({"id": "d/1", "question": "Q?", "answer_type": "open",
                                "answer": "x", "domain": value}) + "\n")
    [report] = import_paths(store, "jsonl", [(path, "items.jsonl")])
    assert report.imported == 1 and report.flagged == 1
    item = store.get_item("d/1")
    assert item["domain"] == 'img src=x onerror=alert("DOM")**bold** x'
    assert item["metadata"]["original_domain"] == value
    assert any(p.startswith("markup characters removed: domain") for p in item["problems"])
