"""stats(): every number checked against a hand computation."""
import pytest


def test_empty_store(store):
    s = store.stats()
    assert s == {"items": 0, "images": 0, "images_shown": 0, "clues": 0, "boxes": 0, "by_dataset": {},
                 "by_domain": {}, "by_subtask": {}, "by_reasoning_type": {},
                 "by_answer_type": {}, "by_status": {},
                 "flagged": 0, "mean_images_per_item": 0.0, "mean_box_area_fraction": 0.0,
                 "mean_resolution": {"width": 0.0, "height": 0.0, "megapixels": 0.0}}


def test_stats_against_hand_computation(store, add_png):
    big = add_png(1000, 500)     # 0.5 MP
    small = add_png(200, 100)    # 0.02 MP
    option = add_png(300, 300)   # 0.09 MP, used only as an option image
    add_png(50, 50)              # stored but used by no item: not counted
    box = lambda sha, w, h: {"image": sha, "x0": 0, "y0": 0, "x1": w, "y1": h}  # noqa: E731
    store.create_item({
        "id": "a/1", "question": "Q1", "answer_type": "multiple_choice", "answer": "A",
        "domain": "Food", "subtask": "S1", "status": "candidate", "reasoning_type": "spatial",
        "images": [big, small],
        "options": [{"label": "A", "text": "", "image": option},
                    {"label": "B", "text": "b", "image": None}],
        "clues": [{"text": "c1", "boxes": [box(big, 100, 50), box(small, 20, 10)]},
                  {"text": "c2", "boxes": [box(big, 500, 500)]}],
    }, author="x")
    store.create_item({
        "id": "b/1", "question": "Q2", "answer_type": "yes_no", "answer": "Yes",
        "domain": None, "subtask": "S1", "status": "draft", "problems": ["p"],
        "images": [big, big, small],
        "clues": [{"text": "c3", "boxes": []}],
    }, author="x")
    s = store.stats()
    assert s["items"] == 2
    assert s["images"] == 3                  # big, small, option (distinct, used)
    assert s["clues"] == 3
    assert s["boxes"] == 3
    assert s["by_dataset"] == {"a": 1, "b": 1}
    assert s["by_domain"] == {"Food": 1, "(none)": 1}
    assert s["by_subtask"] == {"S1": 2}
    assert s["by_reasoning_type"] == {"spatial": 1, "(none)": 1}
    assert s["by_answer_type"] == {"multiple_choice": 1, "yes_no": 1}
    assert s["by_status"] == {"candidate": 1, "draft": 1}
    assert s["flagged"] == 1
    assert s["mean_images_per_item"] == pytest.approx((2 + 1 + 3) / 2)  # context + option
    assert s["images_shown"] == 6            # the mean's numerator, said beside it
    # box areas: 100*50/(1000*500) = 0.01, 20*10/(200*100) = 0.01, 500*500/500000 = 0.5
    assert s["mean_box_area_fraction"] == pytest.approx((0.01 + 0.01 + 0.5) / 3)
    assert s["mean_resolution"] == pytest.approx(
        {"width": (1000 + 200 + 300) / 3, "height": (500 + 100 + 300) / 3,
         "megapixels": (0.5 + 0.02 + 0.09) / 3})

    only_b = store.stats(dataset="b")
    assert only_b["items"] == 1 and only_b["images"] == 2 and only_b["boxes"] == 0
    assert only_b["mean_images_per_item"] == 3.0 and only_b["by_dataset"] == {"b": 1}
    assert only_b["mean_resolution"]["width"] == pytest.approx(600.0)
