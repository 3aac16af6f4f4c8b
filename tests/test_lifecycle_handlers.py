"""The Annotate page's item menu handlers, called directly on a real SQLite store."""
import pytest

from tests.conftest import png_with_bad_pixels
from tests.live_server import make_scene
from tests.test_ui_handlers import ui_store  # noqa: F401  (the fixture)
from ui.editor_handlers import EditorHandlers
from ui.editor_model import EditError
from ui.lifecycle_handlers import LifecycleHandlers


def test_create_from_images_makes_a_draft_in_the_current_dataset(ui_store, tmp_path):
    menu = LifecycleHandlers(ui_store)
    files = [str(make_scene(tmp_path / "a.png")), str(make_scene(tmp_path / "b.png", color="#000"))]
    item_id = menu.create_from_images("street-42", "Which street is this?", files, "alice", "ui")
    assert item_id == "ui/street-42"
    item = ui_store.get_item(item_id)
    assert (item["status"], item["question"], len(item["images"])) == (
        "draft", "Which street is this?", 2)
    assert ui_store.history(item_id)[0]["comment"] == "created from uploaded images"
    with pytest.raises(EditError, match="already exists"):
        menu.create_from_images("ui/street-42", "q", files, "alice")


def test_create_refuses_a_bad_image_and_creates_nothing(ui_store, tmp_path):
    good = make_scene(tmp_path / "good.png")
    bad = tmp_path / "bad.png"
    bad.write_bytes(png_with_bad_pixels())
    before = ui_store.item_ids()
    with pytest.raises(EditError, match="no item created: bad.png: the pixel data does not "
                                        "decode"):
        LifecycleHandlers(ui_store).create_from_images("ui/x", "q?", [str(good), str(bad)],
                                                        "alice")
    assert ui_store.item_ids() == before
    for missing, message in ((dict(new_id=""), "type an id"), (dict(question=" "), "question"),
                             (dict(files=[]), "choose one or more images")):
        args = {"new_id": "ui/y", "question": "q?", "files": [str(good)], **missing}
        with pytest.raises(EditError, match=message):
            LifecycleHandlers(ui_store).create_from_images(user="alice", **args)


def test_duplicate_picks_a_free_id(ui_store):
    menu = LifecycleHandlers(ui_store)
    assert menu.duplicate("ui/alpha", "", "alice") == "ui/alpha-copy"
    assert menu.duplicate("ui/alpha", "", "alice") == "ui/alpha-copy-2"
    assert menu.duplicate("ui/alpha", "ui/other", "alice") == "ui/other"
    assert menu.duplicate("ui/alpha", "short", "alice") == "ui/short"
    assert ui_store.get_item("ui/other")["images"] == ui_store.get_item("ui/alpha")["images"]
    # the dataset its id names, as a new item's (the copy stayed in its source's dataset);
    # a new one for those who may import (tests/test_dataset_making.py)
    assert menu.duplicate("ui/alpha", "mine/alpha-copy", "alice",
                          new_datasets=True) == "mine/alpha-copy"
    assert ui_store.get_item("mine/alpha-copy")["dataset"] == "mine"
    assert ui_store.get_item("ui/other")["dataset"] == "ui"


def test_delete_then_restore_and_opening_a_deleted_item_says_so(ui_store):
    menu, editor = LifecycleHandlers(ui_store), EditorHandlers(ui_store)
    work = editor.load("ui/beta", "alice")
    ui_store.save_draft("alice", "ui/beta", work["saved"]["version"],
                        {**work["item"], "question": "draft"})
    said = menu.delete(work, "wrong image", "alice")
    assert said.startswith("Deleted ui/beta.") and "kept as your draft" in said
    # one's own draft stays, as colleagues' do: it was dropped, and the undo came back
    # without the edits made just before the delete
    assert ui_store.get_draft("alice", "ui/beta")["data"]["question"] == "draft"
    assert menu.deleted_ids() == ["ui/beta"]
    with pytest.raises(EditError, match="ui/beta was deleted by alice"):
        editor.load("ui/beta", "alice")
    assert menu.restore_deleted("ui/beta", "", "admin").startswith("Restored ui/beta (version ")
    back = editor.load("ui/beta", "alice")
    assert back["saved"]["version"] == 3 and back["item"]["question"] == "draft"


def test_an_annotator_undoes_their_own_delete_and_no_one_elses(ui_store):
    """A delete by mistake was an admin's to undo; its author now may, and only its author."""
    menu, editor = LifecycleHandlers(ui_store), EditorHandlers(ui_store)
    menu.delete(editor.load("ui/beta", "alice"), "", "alice")
    with pytest.raises(EditError, match="ui/beta was deleted by alice, not by you; an admin "
                                        "can restore it"):
        menu.undo_own_delete("ui/beta", "bob")
    assert menu.deleted_ids() == ["ui/beta"]
    with pytest.raises(EditError, match="nothing to undo"):
        menu.undo_own_delete(None, "alice")
    assert menu.undo_own_delete("ui/beta", "alice") == (
        f"Restored ui/beta (version {ui_store.get_item('ui/beta')['version']}).")
    assert menu.deleted_ids() == []
    with pytest.raises(EditError, match="ui/beta is not deleted"):
        menu.undo_own_delete("ui/beta", "alice")


def test_delete_from_a_stale_page_is_refused(ui_store):
    menu, editor = LifecycleHandlers(ui_store), EditorHandlers(ui_store)
    work = editor.load("ui/beta", "alice")
    ui_store.save_item(ui_store.get_item("ui/beta"), 1, "bob", "meanwhile")
    with pytest.raises(EditError, match="was changed by bob"):
        menu.delete(work, "", "alice")
    assert "ui/beta" in ui_store.item_ids()


def test_reopen_and_dataset_delete_with_confirmed_counts(ui_store):
    menu, editor = LifecycleHandlers(ui_store), EditorHandlers(ui_store)
    item = ui_store.get_item("ui/gamma")
    ui_store.save_item({**item, "status": "released"}, 1, "alice", "release", may_release=True)
    work = editor.load("ui/gamma", "alice")
    with pytest.raises(EditError, match="needs a reason"):
        menu.reopen(work, "", "admin")
    assert menu.reopen(work, "fix the options", "admin").startswith("Reopened ui/gamma")
    text, expected = menu.dataset_preview("ui")
    assert expected == 3 and text.startswith("Deleting dataset ui: 3 items (0 released, 0 "
                                             "deleted already), 5 revisions")
    ui_store.duplicate_item("ui/alpha", "ui/alpha-2", "bob")  # the dataset changed meanwhile
    with pytest.raises(EditError, match="now has 4 items, not the 3 you confirmed"):
        menu.delete_dataset("ui", expected)
    assert menu.delete_dataset("ui", 4).startswith("Deleted dataset ui: 4 items")
    assert ui_store.item_ids() == []
    with pytest.raises(EditError, match="show what deleting the dataset removes first"):
        menu.delete_dataset("ui", None)


def test_a_released_item_cannot_be_saved_or_restored_from_the_editor(ui_store):
    from ui.history_handlers import HistoryHandlers
    editor = EditorHandlers(ui_store)
    item = ui_store.get_item("ui/beta")
    ui_store.save_item({**item, "question": "Is it a station?"}, 1, "alice", "edit")
    ui_store.save_item({**ui_store.get_item("ui/beta"), "status": "released"}, 2, "alice", "",
                       may_release=True)
    work = editor.load("ui/beta", "alice")
    form = editor.form_values(work["item"])
    form["question"] = "changed after release?"
    _, outcome = editor.save(work, form, None, "", "alice")
    assert outcome["kind"] == "invalid" and "released and read-only" in outcome["message"]
    with pytest.raises(EditError, match="released and read-only"):
        HistoryHandlers(ui_store).restore("ui/beta", 1, 3, "alice")
    assert ui_store.get_item("ui/beta")["version"] == 3


def test_a_released_item_opens_read_only(ui_store):
    editor = EditorHandlers(ui_store)
    assert editor.load("ui/beta", "alice")["read_only"] is False
    ui_store.save_item({**ui_store.get_item("ui/beta"), "status": "released"}, 1, "alice", "",
                       may_release=True)
    assert editor.load("ui/beta", "alice")["read_only"] is True


def test_a_duplicate_under_an_id_with_direction_characters_is_refused_with_a_message(ui_store):
    """Through the API it changed nothing and said nothing (the message was a warning only;
    now every refusal fails with it, ui/handler_errors.py)."""
    before = ui_store.item_ids()
    with pytest.raises(EditError, match="text-direction characters"):
        LifecycleHandlers(ui_store).duplicate("ui/alpha", "ui/a\u202eb", "alice")
    assert ui_store.item_ids() == before


def test_the_deleted_list_follows_each_delete_and_restore_with_nothing_picked(ui_store):
    """The list was read when the menu opened: an item deleted since was missing, and a
    restored one stayed listed (and picked)."""
    menu, editor = LifecycleHandlers(ui_store), EditorHandlers(ui_store)
    assert menu.deleted_pick(True) == {"choices": [], "value": None, "visible": True}
    menu.delete(editor.load("ui/beta", "alice"), "", "alice")
    assert menu.deleted_pick(True) == {"choices": ["ui/beta"], "value": None, "visible": True}
    menu.restore_deleted("ui/beta", "", "admin")
    assert menu.deleted_pick(True)["choices"] == []
    assert menu.deleted_pick(False) == {"choices": [], "value": None, "visible": False}


@pytest.mark.parametrize("new_id, said", [
    ("ui/\u0430lpha", "it reads as ui/alpha"),                 # a Cyrillic a
    ("UI/ALPHA", "it reads as ui/alpha"),
    ("ui/al\u2011pha-x", None),                                # reads as no other id
    ("u\u0456/new-one", "its dataset u\u0456 reads as ui"),     # a Cyrillic i
    ("UI/new-one", "its dataset UI reads as ui"),
])
def test_a_new_or_duplicate_id_that_reads_as_another_is_refused(ui_store, new_id, said):
    """A review duplicated demo/bus-stop-wait as "demо/bus-stop-wait" (a Cyrillic o), with
    a non-breaking hyphen, and as DEMO/…: each stood in the list looking like the item, the
    dataset beside "demo", and a copy with another gold answer could pass for it."""
    menu = LifecycleHandlers(ui_store)
    before = ui_store.item_ids()
    if said is None:
        assert menu.duplicate("ui/alpha", new_id, "ann") == new_id
        return
    with pytest.raises(EditError, match=f"not duplicated: {said}, told apart only by case"):
        menu.duplicate("ui/alpha", new_id, "ann")
    with pytest.raises(EditError, match=f"no item created: {said}"):
        menu.new_item_id(new_id, "Which one?", "ui")
    assert ui_store.item_ids() == before


def test_a_duplicate_with_unsaved_edits_says_they_are_not_in_the_copy(ui_store):
    """The copy is made of the item as saved; with a draft of it the message said "a copy of
    ui/alpha (draft)", which read as a copy of the draft."""
    from tests.test_annotate_page_fixes import PAGE
    from ui.server import build_app
    handlers = {fn.api_name: fn.fn for fn in build_app(ui_store).fns.values()}
    editor = EditorHandlers(ui_store)
    work = editor.load("ui/alpha", "local")
    said = handlers["duplicate_item"](work, "", PAGE)[-2]
    assert said == "Created ui/alpha-copy, a copy of ui/alpha (draft)."
    form = editor.form_values(work["item"]) | {"question": "Which exit, really?"}
    editor.autosave(work, form, None, "local")
    work = editor.load("ui/alpha", "local")          # the draft restored
    said = handlers["duplicate_item"](work, "", PAGE)[-2]
    assert said == ("Created ui/alpha-copy-2 (draft), a copy of ui/alpha as saved (version "
                    "1): your unsaved edits of ui/alpha are not in it; they stay in your "
                    "draft of ui/alpha.")
    assert ui_store.get_item("ui/alpha-copy-2")["question"] == "Which exit is signposted?"
    assert ui_store.get_draft("local", "ui/alpha") is not None
