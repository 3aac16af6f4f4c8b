"""Which clue of one version is which of another (domain/alignment.py), as History and
Save merged read them: a clue replaced by another is a removal and an addition, a clue
moved and edited is one clue."""
from domain.alignment import alike, pairs
from store.revisions import diff_items


def clue(text: str, reasoning: str = "r", boxes: list | None = None) -> dict:
    return {"text": text, "reasoning": reasoning, "boxes": boxes or []}


SIGN, DOG, ROAD = clue("The sign reads EXIT 12"), clue("A brown dog sleeps"), \
    clue("Wet road after rain")


def test_a_clue_replaced_by_another_is_a_removal_and_an_addition():
    """A review: removing clue 2 and writing a new one in its place read, in History, as
    clue 2's text and reasoning rewritten."""
    cat = clue("A cat", "x")
    assert pairs([SIGN, DOG, ROAD], [SIGN, cat, ROAD]) == [(0, 0), (1, None), (None, 1),
                                                          (2, 2)]
    diff = diff_items({"clues": [SIGN, DOG, ROAD]}, {"clues": [SIGN, cat, ROAD]})
    assert [(d["field"], d["before"] is None, d["after"] is None) for d in diff] == [
        ("clues[1]", False, True), ("clues[1]", True, False)]


def test_an_edited_clue_is_still_that_clue():
    """Text edited a little, or rewritten with its boxes or reasoning kept: one clue."""
    assert pairs([SIGN, DOG], [SIGN, clue("A brown dog sleeping")]) == [(0, 0), (1, 1)]
    boxed = clue("dog", "", [{"image": "s", "x0": 1, "y0": 1, "x1": 5, "y1": 5}])
    assert alike(boxed, {**boxed, "text": "a sleeping animal"})
    assert not alike(clue("dog", ""), clue("a sleeping animal", ""))


def test_a_clue_moved_and_edited_is_one_clue_moved():
    """It read as a clue added at the top and another removed at the bottom."""
    edited = {**ROAD, "text": "Wet road after heavy rain"}
    assert sorted(pairs([SIGN, DOG, ROAD], [edited, SIGN, DOG])) == [(0, 1), (1, 2), (2, 0)]
    diff = diff_items({"clues": [SIGN, DOG, ROAD]}, {"clues": [edited, SIGN, DOG]})
    assert diff[0] == {"field": "clues[2>0].text", "before": ROAD["text"],
                       "after": edited["text"]}
