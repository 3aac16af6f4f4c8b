"""What an item past `draft` must have, that an import or a draft may lack: the editor's
rules, not the import's (an import may bring an item without its answer, and Add clue makes a
clue before its words are typed).

- `missing_question`: its question (an imported line that could not be read, or had none,
  gives an empty one): a model would be asked nothing;
- `missing_gold`: an item in review, verified or released needs its gold answer (nothing
  can score it without one);
- `textless_clues`: its clues need their text, since clue-guided and clue-injection runs
  give models the clues' words;
- `clueless_release`: a released item needs at least one clue (with its text): a benchmark
  of visual clues releases no item without one.
A draft may wait for them; the save says so (ui/save_rules).
"""
from __future__ import annotations

from domain.item_ids import no_words
from judges.gold_check import GoldProblem


def _past_draft(item: dict) -> str | None:
    """"an item in review" or "a candidate item" for an item past draft; None for a draft."""
    status = item.get("status") or "draft"
    if status == "draft":
        return None
    return "an item in review" if status == "in_review" else f"a {status} item"


def missing_question(item: dict) -> GoldProblem | None:
    """The problem of an item past `draft` whose question is empty (an imported line that
    could not be read, or had none, gives one; store/legacy reads the placeholder older
    imports wrote as empty): a run would ask models nothing. None for a draft, or a
    question with words."""
    which = _past_draft(item)
    if which is None or not no_words(item.get("question")):
        return None
    return GoldProblem("question", f"the question is empty: {which} needs its question; "
                                   "type it, or keep it a draft until it has one")


def missing_gold(item: dict) -> GoldProblem | None:
    """The problem of an item past `draft` (in review, verified, released...) saved with no
    gold answer: nothing can score it. A draft may wait for its answer; None when it may."""
    which = _past_draft(item)
    if which is None or str(item.get("answer") or "").strip():
        return None
    return GoldProblem("answer", f"empty: {which} needs its gold answer; keep it a draft "
                                 "until it has one")


def textless_clue_numbers(item: dict) -> list[str]:
    """The numbers (from 1, as the clue table shows them) of the clues without text."""
    return [str(number) for number, clue in enumerate(item.get("clues") or [], start=1)
            if no_words(clue.get("text"))]


def textless_clues(item: dict) -> GoldProblem | None:
    """The problem of an item past `draft` saved with a clue that has no text: a clue
    injection would hand models an empty clue. None for a draft, or when every clue has
    words."""
    empty = textless_clue_numbers(item)
    if not empty or (item.get("status") or "draft") == "draft":
        return None
    which = (f"clue {empty[0]} has no text: type what it shows, or remove it" if len(empty) == 1
             else f"clues {', '.join(empty)} have no text: type what each shows, or remove it")
    return GoldProblem("clues", f"{which}; a clue without words may only wait in a draft")


def clueless_release(item: dict) -> GoldProblem | None:
    """The problem of an item set to `released` with no clue at all (a clue without text is
    `textless_clues`'): clue-guided and clue-injection runs, and the clue scores, have
    nothing of it. None for any other status, or when it has a clue."""
    if (item.get("status") or "draft") != "released" or item.get("clues"):
        return None
    return GoldProblem("clues", "none yet: a released item needs at least one clue with its text; "
                                "add one (Add clue), or choose another status until it has one")
