"""Items: round trip, validation, natural order, filters, facets."""
import pytest

from store import DuplicateItemError, ConflictError, NotFoundError, ValidationError, natural_key


def test_create_and_get_round_trip(store, make_item, add_png):
    item = make_item("mmr-life/HAA_1", n_images=2, n_clues=2)
    option_image = add_png(20, 20)
    item["options"].append({"label": "C", "text": "", "image": option_image})
    item["clues"][1]["boxes"].append({"image": item["images"][1], "x0": 0, "y0": 0,
                                      "x1": 100, "y1": 80})
    item["aliases"] = ["kitty"]
    item["problems"] = ["gold answer 'F' has no option"]
    assert store.create_item(item, author="alice") == 1
    got = store.get_item("mmr-life/HAA_1")
    assert got["version"] == 1 and got["updated_by"] == "alice" and got["flagged"] is True
    assert got["updated_at"].endswith("Z")
    for key, value in item.items():
        if key != "clues":
            assert got[key] == value, key
    assert [c["text"] for c in got["clues"]] == ["clue 0", "clue 1"]
    assert got["clues"][1]["boxes"][1] == {"image": item["images"][1], "x0": 0.0, "y0": 0.0,
                                           "x1": 100.0, "y1": 80.0}
    assert got["options"][2] == {"label": "C", "text": "", "image": option_image}
    assert store.item_exists("mmr-life/HAA_1") and not store.item_exists("mmr-life/HAA_2")


def test_defaults_and_canonical_form(store, make_png):
    sha = store.add_image(make_png(), "a.png").sha256
    store.create_item({"id": "ds/1", "question": "Q?", "answer_type": "numeric", "answer": 42,
                       "images": [sha, sha]}, author="bob")
    got = store.get_item("ds/1")
    assert got["dataset"] == "ds"  # taken from the id prefix when not given
    assert got["answer"] == "42" and got["status"] == "draft"
    assert got["images"] == [sha, sha]  # repeated images are kept
    assert got["options"] == [] and got["clues"] == [] and got["metadata"] == {}
    assert got["flagged"] is False and got["domain"] is None


def test_get_missing_item(store):
    with pytest.raises(NotFoundError, match="nope"):
        store.get_item("nope")


def test_create_refuses_existing_id(store, make_item):
    store.create_item(make_item("d/1"), author="alice")
    with pytest.raises(DuplicateItemError, match="already exists") as info:
        store.create_item(make_item("d/1", question="other"), author="bob")
    assert isinstance(info.value, ConflictError) and info.value.current_version == 1
    assert store.get_item("d/1")["updated_by"] == "alice"


def test_save_bumps_version_and_updates_children(store, make_item):
    item = make_item("d/1", n_clues=3)
    store.create_item(item, author="alice")
    item["clues"] = item["clues"][:1]
    item["question"] = "New?"
    item["problems"] = ["x"]
    assert store.save_item(item, base_version=1, author="bob", comment="fix") == 2
    got = store.get_item("d/1")
    assert got["version"] == 2 and got["question"] == "New?" and len(got["clues"]) == 1
    assert got["flagged"] is True and store.list_items(flagged=True)[0]["id"] == "d/1"
    assert store.db.execute("SELECT count(*) FROM boxes").fetchone()[0] == 1
    assert store.db.execute("SELECT count(*) FROM clues").fetchone()[0] == 1


def test_save_missing_item(store, make_item):
    with pytest.raises(NotFoundError):
        store.save_item(make_item("d/404"), base_version=1, author="bob")


def test_get_item_accepts_its_own_output(store, make_item):
    store.create_item(make_item("d/1"), author="alice")
    got = store.get_item("d/1")
    assert store.save_item(got, base_version=got["version"], author="alice") == 2


def _box(sha, **kw):
    return {"image": sha, "x0": 10.0, "y0": 10.0, "x1": 20.0, "y1": 20.0, **kw}


@pytest.mark.parametrize("change, field", [
    (lambda it: it.pop("id"), "id"),
    (lambda it: it.update(id="  "), "id"),
    # an empty question is stored (an import's unreadable line has none: tests/test_rawline_*)
    (lambda it: it.update(question=["Which?"]), "question"),
    (lambda it: it.update(answer_type="essay"), "answer_type"),
    (lambda it: it.update(status="done"), "status"),
    (lambda it: it.update(images=["0" * 64]), "images[0]"),
    (lambda it: it["options"].append({"label": "C", "text": "", "image": "f" * 64}),
     "options[2].image"),
    (lambda it: it["clues"][0]["boxes"].append(_box("e" * 64)), "clues[0].boxes[1].image"),
    (lambda it: it["clues"][0]["boxes"].append(_box(it["images"][0], x0="1")),
     "clues[0].boxes[1].x0"),
    (lambda it: it["clues"][0]["boxes"].append(_box(it["images"][0], y1=float("nan"))),
     "clues[0].boxes[1].y1"),
    (lambda it: it["clues"][0]["boxes"].append(_box(it["images"][0], x0=20.0)),
     "clues[0].boxes[1]"),
    (lambda it: it["clues"][0]["boxes"].append(_box(it["images"][0], y1=5.0)),
     "clues[0].boxes[1]"),
    (lambda it: it["clues"][0]["boxes"].append(_box(it["images"][0], x1=100.5)),
     "clues[0].boxes[1]"),
    (lambda it: it["clues"][0]["boxes"].append(_box(it["images"][0], y0=-1.0)),
     "clues[0].boxes[1]"),
    (lambda it: it.update(color="red"), "color"),
    (lambda it: it.update(aliases="kitty"), "aliases"),
    (lambda it: it.update(metadata={"x": object()}), "metadata"),
    (lambda it: it.update(answer=["A"]), "answer"),
])
def test_validation_errors_name_field_and_item_and_write_nothing(store, make_item, change,
                                                                 field):
    item = make_item("d/bad")
    change(item)
    with pytest.raises(ValidationError) as info:
        store.create_item(item, author="alice")
    assert info.value.field == field
    assert field in str(info.value)
    if field != "id":
        assert "d/bad" in str(info.value)
    for table in ("items", "revisions", "clues", "boxes", "item_images", "datasets"):
        assert store.db.execute(f"SELECT count(*) FROM {table}").fetchone()[0] == 0, table


def test_box_may_touch_edges_and_stick_out_by_float_noise(store, make_item):
    item = make_item("d/1")
    sha = item["images"][0]
    item["clues"][0]["boxes"] = [_box(sha, x0=0, y0=0, x1=100, y1=80),
                                 _box(sha, x0=-1e-9, y0=0, x1=100.000001, y1=80.0000001)]
    store.create_item(item, author="alice")


def test_box_on_an_image_not_in_the_item_is_refused(store, make_item, add_png):
    item = make_item("d/1")
    other = add_png()  # exists in the store, but is not one of the item's images
    item["clues"][0]["boxes"].append(_box(other))
    with pytest.raises(ValidationError, match="not one of the item's images"):
        store.create_item(item, author="alice")


def test_invalid_save_writes_nothing(store, make_item):
    item = make_item("d/1")
    store.create_item(item, author="alice")
    item["question"] = "changed"
    item["status"] = "bogus"
    with pytest.raises(ValidationError, match="status"):
        store.save_item(item, base_version=1, author="bob")
    got = store.get_item("d/1")
    assert got["version"] == 1 and got["question"] != "changed"
    assert len(store.history("d/1")) == 1


def test_natural_key():
    assert natural_key("HAA_2") < natural_key("HAA_10") < natural_key("HAB_1")
    assert natural_key("x9") < natural_key("x10") < natural_key("x100")


def test_list_items_natural_order_and_paging(store, make_item):
    for local in ["HAA_10", "HAA_2", "HAA_1", "ABC_3"]:
        store.create_item(make_item(f"mmr/{local}"), author="a")
    store.create_item(make_item("aaa/Q_7"), author="a")
    ids = [r["id"] for r in store.list_items()]
    assert ids == ["aaa/Q_7", "mmr/ABC_3", "mmr/HAA_1", "mmr/HAA_2", "mmr/HAA_10"]
    assert store.item_ids() == ids
    assert [r["id"] for r in store.list_items(limit=2, offset=2)] == ids[2:4]
    assert [r["id"] for r in store.list_items(offset=3)] == ids[3:]
    row = store.list_items(limit=1)[0]
    assert {"id", "dataset", "domain", "subtask", "status", "flagged", "answer_type",
            "question"} <= set(row)
    assert row["flagged"] is False


def test_filters_counts_and_text_search(store, make_item):
    store.create_item(make_item("a/1", domain="Sports", status="draft"), author="x")
    store.create_item(make_item("a/2", domain="Food", problems=["bad"]), author="x")
    store.create_item(make_item("b/1", domain="Food", question="Where is 100%_sure?"),
                      author="x")
    third = make_item("b/2", domain=None)
    third["clues"][0]["reasoning"] = "a Hull Number 42"
    store.create_item(third, author="x")
    assert store.count_items() == 4
    assert store.item_ids(dataset="a") == ["a/1", "a/2"]
    assert store.item_ids(domain="Food") == ["a/2", "b/1"]
    assert store.item_ids(domain="Food", dataset="b") == ["b/1"]
    assert store.item_ids(status="draft") == ["a/1"]
    assert store.item_ids(status=["draft", "candidate"]) == ["a/1", "a/2", "b/1", "b/2"]
    assert store.item_ids(flagged=True) == ["a/2"]
    assert store.count_items(flagged=False) == 3
    assert store.item_ids(dataset="", domain=None) == store.item_ids()
    assert store.item_ids(text="hull number") == ["b/2"]  # clue reasoning, any case
    assert store.item_ids(text="100%_") == ["b/1"]  # LIKE wildcards are literal
    assert store.item_ids(text="%") == ["b/1"]
    assert store.item_ids(text="a/2") == ["a/2"]
    assert store.count_items(text="clue 0", dataset="a") == 2
    assert store.list_items(subtask="Nothing") == []


def test_facets(store, make_item):
    store.create_item(make_item("b/1", domain="Food", status="verified"), author="x")
    store.create_item(make_item("a/1", domain=None, subtask="T", status="draft"), author="x")
    assert store.facets() == {"dataset": ["a", "b"], "domain": ["Food"],
                              "subtask": ["Food and Health", "T"],
                              "status": ["draft", "verified"]}


def test_iter_items_same_order_as_list(store, make_item):
    for local in ["Q_10", "Q_9", "Q_1"]:
        store.create_item(make_item(f"d/{local}"), author="x")
    store.create_item(make_item("e/Q_1"), author="x")
    assert [i["id"] for i in store.iter_items()] == store.item_ids()
    full = list(store.iter_items(dataset="d"))
    assert [i["id"] for i in full] == ["d/Q_1", "d/Q_9", "d/Q_10"]
    assert full[0] == store.get_item("d/Q_1")
