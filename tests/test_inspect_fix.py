"""The Inspect tab on a real store (tests/inspect_helpers.py): the ground truth a response was
judged against when the item changed since, the `?response=` deep link, flips of any
protocol, every image of an item in compare, and the bound on the drawn-image cache."""
import os
import time

import pytest
from PIL import Image

from tests.inspect_helpers import built, env, make_run  # noqa: F401 (fixtures)
from ui import inspect_browser as ib
from ui import inspect_handlers as ih
from ui import inspect_version as iv
from ui.editor_model import clue_color
from ui.inspect_cache import CacheBound
from ui.inspect_overlay import Overlays


def edit(store, item_id, **changes):
    item = store.get_item(item_id)
    item.update(changes)
    store.save_item(item, item["version"], "editor", "after the run")


def test_a_changed_item_shows_the_ground_truth_the_response_was_judged_against(env):
    store, ids = env
    gamma = store.get_item("ui/gamma")
    clue = {**gamma["clues"][0], "text": "the sign is green now"}
    edit(store, "ui/gamma", answer="B", clues=[clue, {"text": "a second clue", "boxes": []}])
    view = ih.open_view(store, ids["a"]["ui/gamma"])
    assert view["version"]["then"] == 2 and view["version"]["now"] == 4
    assert view["version"]["then_item"]["answer"] == "A"
    assert "judged against, is shown below" in view["version"]["message"]
    old = iv.old_gt_md(view)
    assert old.startswith("#### Ground truth of version 2")
    assert r"**Question:** *(changed since)* Pick the colour of the sign\." in old
    assert "**Gold answer:** *(changed since)* A (blue)" in old
    assert "**GT1** *(changed since)* the sign is blue" in old
    assert r"boxes: image 1 \[300, 200, 420, 260\]" in old
    assert "**GT clues then:** 1 *(now 2)*" in old
    assert "*look at it*" in old  # the clue's reasoning then
    assert "**Gold answer:** B (red)" in ih.gold_md(view)  # the current GT stays beside it
    assert "the sign is green now" in ih.gt_table(view).data.values.tolist()[0][1]


def test_no_snapshot_when_unchanged_and_untrusted_text_of_then_is_escaped(env):
    store, ids = env
    assert iv.old_gt_md(ih.open_view(store, ids["a"]["ui/alpha"])) == ""
    hostile = '<img src=x onerror="alert(1)"> [go](javascript:alert(2))'
    edit(store, "ui/beta", question=hostile, answer="<b>Yes</b>",
         clues=[{"text": hostile, "reasoning": "<script>x()</script>", "boxes": []}])
    work = make_run(store, "run-c", "m-c", {"ui/beta": "Answer: Yes"})["ui/beta"]
    edit(store, "ui/beta", question="Is this a station?", answer="Yes", clues=[])
    old = iv.old_gt_md(ih.open_view(store, work))
    assert old and "<" not in old and "](javascript" not in old
    assert "&lt;img src=x onerror=" in old and "&lt;script&gt;" in old
    assert "no box" in old


def test_deep_link_names_one_response():
    assert iv.deep_link_id({"response": "17"}) == 17
    assert iv.deep_link_id({"response": " #17 "}) == 17
    assert iv.deep_link_id({}) is None and iv.deep_link_id(None) is None
    assert iv.deep_link_id({"response": ""}) is None
    for bad in ("abc", "1;DROP", "-3"):
        with pytest.raises(ih.InspectError):
            iv.deep_link_id({"response": bad})


def test_the_link_box_script_builds_the_address_from_the_page():
    assert "searchParams.set('response', id)" in iv.LINK_JS and "u.search = ''" in iv.LINK_JS


def test_flips_between_runs_for_each_protocol(env):
    store, ids = env
    a, b = ids["a"], ids["b"]
    store.upsert_scores([
        {"run_id": "run-a", "protocol": "rigorous", "judge": "offline", "work_id": a["ui/alpha"],
         "value": "wrong"},
        {"run_id": "run-b", "protocol": "rigorous", "judge": "offline", "work_id": b["ui/alpha"],
         "value": "correct"}])

    def flips(kind, protocol):
        values = ["run-b", *[None] * 5, "offline", *[None] * 5, "run-a", kind, protocol, None,
                  None]
        return ib.browse(store, ib.filters_from(*values), "run order")["ids"]

    fixed, broken = ib.FLIP_CHOICES[1], ib.FLIP_CHOICES[2]
    assert flips(fixed, "general") == [b["ui/gamma"]]
    assert flips(fixed, None) == [b["ui/gamma"]]  # general when none is chosen
    assert flips(fixed, "rigorous") == [b["ui/alpha"]]
    assert flips(broken, "general") == [b["ui/beta"]]
    assert flips(broken, "rigorous") == []
    assert flips(fixed, "grounded") == []
    # a protocol the judge did not score: said, not "No response matches" (as if no flips)
    with pytest.raises(ib.BrowseError, match="run m-b · Structured has no verbench verdicts by offline "
                                             "\\(its judges: none\\): no flip can be found"):
        flips(fixed, "verbench")
    with pytest.raises(ib.BrowseError, match="one of the protocols"):
        flips(fixed, "vibes")


def test_compare_and_the_image_choice_show_every_image_of_the_item(env):
    store, ids = env
    view = ih.open_view(store, ids["a"]["ui/alpha"])
    assert ih.image_choices(view) == [("image 1 · 1 GT box, 2 model boxes", "image 1"),
                                      ("image 2 · 1 GT box, 0 model boxes", "image 2")]
    overlays = Overlays(store)
    shown = ih.model_overlays(overlays, view)
    assert [caption for _, caption in shown] == [c[0] for c in ih.image_choices(view)]
    assert shown[0][0] != shown[1][0]
    scale = 1024 / 1200
    assert clue_color(1) == "#3cb44b"  # GT2 is green; the image is pink

    def green(path, x, y):
        with Image.open(path) as im:  # a 1-pixel line, softened by JPEG: look around it
            near = [im.convert("RGB").getpixel((round(x * scale) + dx, round(y * scale)))
                    for dx in (-1, 0, 1)]
        return any(p[1] > p[0] + 20 and p[1] > p[2] + 20 for p in near)

    assert green(shown[1][0], 600, 550)  # image 2 carries GT2 (600, 400)-(900, 700), thin
    assert not green(shown[1][0], 700, 550) and not green(shown[0][0], 600, 550)
    assert ih.overlays_for(overlays, view, 1)[1] == shown[1][0]  # the same drawing


def _zooms(overlays, sha, n, start=0):
    """n distinct zoomed crops (files), a little apart in time."""
    paths = []
    for k in range(start, start + n):
        paths.append(overlays.zoom(sha, {"box": [10 + 20 * k, 10, 60 + 20 * k, 50],
                                         "color": "#e6194b", "label": f"Z{k}"}))
        overlays.cache.settle()
        time.sleep(0.01)
    return paths


def test_the_drawn_image_cache_is_bounded_least_recently_used_first(env):
    store, ids = env
    sha = store.get_item("ui/alpha")["images"][0]
    overlays = Overlays(store, max_files=5, grace_s=0)
    first = _zooms(overlays, sha, 3)
    assert overlays.zoom(sha, {"box": [10, 10, 60, 50], "color": "#e6194b",
                               "label": "Z0"}) == first[0]  # a hit: now the newest used
    later = _zooms(overlays, sha, 3, start=3)  # the 6th file: pruned down to 4
    assert len(os.listdir(overlays.folder)) == 4
    assert os.path.exists(first[0]) and not os.path.exists(first[1])  # LRU, not oldest made
    assert not os.path.exists(first[2])
    assert os.path.exists(later[-1])
    again = overlays.zoom(sha, {"box": [30, 10, 80, 50], "color": "#e6194b", "label": "Z1"})
    assert again == first[1] and os.path.exists(again)  # drawn again when asked for

    sizes = [os.path.getsize(p) for p in later[-3:]]
    by_bytes = Overlays(store, max_bytes=sum(sizes), max_files=1000, grace_s=0)
    _zooms(by_bytes, sha, 8, start=20)
    total = sum(e.stat().st_size for e in os.scandir(by_bytes.folder))
    assert 0 < total <= sum(sizes)


def test_files_just_used_survive_a_pruning_even_over_the_bound(env, tmp_path):
    folder = tmp_path / "cache"
    folder.mkdir()
    for k in range(6):
        (folder / f"f{k}.jpg").write_bytes(b"x" * 100)
    old = time.time() - 3600
    for k in range(3):
        os.utime(folder / f"f{k}.jpg", (old + k, old))
    bound = CacheBound(folder, max_bytes=250, max_files=100, grace_s=60)
    assert bound.prune() == 3  # only the three not used for an hour could go
    assert sorted(os.listdir(folder)) == ["f3.jpg", "f4.jpg", "f5.jpg"]
    assert bound.used(folder / "f3.jpg") and not bound.used(folder / "f0.jpg")
    assert CacheBound(folder, max_bytes=10_000, max_files=100).prune() == 0  # within bounds


def test_the_list_shows_the_gold_the_run_was_asked_against_and_says_when_it_changed(env):
    """Gold corrected after the runs: the list shows the run's gold, says it changed and
    gives the gold now; an item not changed shows its gold alone."""
    from tests.test_inspect_handlers import filters

    store, ids = env
    alpha = store.get_item("ui/alpha")
    store.save_item(dict(alpha, answer="14"), alpha["version"], "fixture", "gold fixed")
    rows = {row[0]: row for row in ib.browse(store, filters(), "run order")["rows"]}
    gold = ib.HEADERS.index("gold")
    assert rows[ids["a"]["ui/alpha"]][gold] == "12 · gold changed since this run (now 14)"
    assert rows[ids["b"]["ui/alpha"]][gold] == "12 · gold changed since this run (now 14)"
    assert rows[ids["a"]["ui/beta"]][gold] == "Yes"


def test_with_no_run_at_all_the_list_says_so_not_that_filters_match_nothing(tmp_path):
    from store import Store
    store = Store.open(tmp_path / "empty.db")
    found = ib.browse(store, {}, "run order")
    assert found["total"] == 0 and found["count"] == ib.NO_RUNS
    assert "Experiments" in found["count"]
    store.close()


def test_with_runs_a_filter_that_matches_nothing_says_so(env):
    found = ib.browse(env[0], {"item": "no-such-item-anywhere"}, "run order")
    assert found["total"] == 0 and "No response matches" in found["count"]
