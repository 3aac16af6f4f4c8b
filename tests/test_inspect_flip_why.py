"""Inspect's Flips of run B (2 repeats, its repeat 0 run A's own replies from the cache)
against run A (1 repeat) read "No response matches these filters" with no hint why. Now the
count says: B's repeat 1 has no response of A to pair with, and B's repeat 0 is A's own
replies (the same verdicts, never a flip). Real SQLite, real scoring, the page's filters."""
from scoring.score_run import score_run
from tests.scoring_helpers import add_items, make_run
from ui import inspect_browser as ib
from ui.text import escape_md

ITEMS = [{"id": f"demo/{i}", "answer_type": "multiple_choice", "answer": "A", "domain": "d",
          "subtask": "s"} for i in range(4)]


def flips(**values):
    widgets = dict(run=None, dataset=None, domain=None, subtask=None, item=None, status=None,
                   judge="offline", general=None, rigorous=None, grounded=None, verbench=None,
                   wrong_reason=False, flip_run=None, flip=ib.FLIP_CHOICES[3],
                   flip_protocol=None, disagree=None, tag=None)
    widgets.update(values)
    return ib.filters_from(*widgets.values())


def test_flips_that_find_nothing_say_why(store):
    add_items(store, ITEMS)
    ids = [i["id"] for i in ITEMS]
    make_run(store, "a", {i: "Answer: A" for i in ids})
    make_run(store, "b", {i: ["Answer: A", "Answer: B"] for i in ids}, repeats=2,
             cached_from={0: "a"})
    for run in ("a", "b"):
        score_run(store, run)
    found = ib.browse(store, flips(run="b", flip_run="a"), "run order")
    assert found["total"] == 0
    said = found["count"]
    assert "No response matches" in said and "pair the same item, repeat and sample" in said
    assert escape_md("repeat 1 of m · CoT · 2 repeats has no response of m · CoT to pair "
                     "with (m · CoT has 1 repeat)") in said
    assert escape_md("repeat 0 of m · CoT · 2 repeats holds m · CoT's own replies (4, taken "
                     "from the cache): the same reply") in said
    # a flip found says nothing of the kind
    make_run(store, "c", {i: "Answer: B" for i in ids})
    score_run(store, "c")
    found = ib.browse(store, flips(run="c", flip_run="a"), "run order")
    assert found["total"] == 4 and "pair the same item" not in found["count"]


def test_a_run_to_compare_with_and_no_kind_of_flip_says_so(store):
    """Choosing "Flips against run" with Flip left at "(no flip filter)" changed nothing and
    said nothing (a review, round 28): the count says to choose which flips."""
    add_items(store, ITEMS)
    ids = [i["id"] for i in ITEMS]
    make_run(store, "a", {i: "Answer: A" for i in ids})
    make_run(store, "c", {i: "Answer: B" for i in ids})
    found = ib.browse(store, flips(run="c", flip_run="a", flip=ib.FLIP_CHOICES[0]), "run order")
    assert found["total"] == 4
    assert "choose which flips" in found["count"]
    found = ib.browse(store, flips(run="c", flip_run=None, flip=ib.FLIP_CHOICES[0]), "run order")
    assert "choose which flips" not in found["count"]
