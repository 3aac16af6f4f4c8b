"""Inspect opens on something to inspect and shows only what the model stated: a run that
failed its pre-flight (no request made) is listed last and marked, the page opens on the
newest run with responses, and an output of only "Answer: B" states no clue (the answer
line is not taken for one). Real SQLite, real scoring."""
from __future__ import annotations

from scoring.offline import sentence_clues
from scoring.score_run import score_run
from tests.scoring_helpers import add_items, make_run
from ui import inspect_browser as ib
from ui import inspect_handlers as ih
from ui.run_choices import NO_RESPONSES

ITEM = {"id": "d/0", "answer_type": "multiple_choice", "answer": "B", "domain": "x",
        "subtask": "y", "clues": [{"text": "the red sign", "reasoning": "", "boxes": []}]}


def _empty_run(store, run_id: str) -> None:
    """A run planned and never answered (its pre-flight failed: no request was made)."""
    config = {"endpoint": {"name": "e", "base_url": "http://x/v1", "model": "down"},
              "setting": "cot", "clues": "none", "image_mode": "full", "samples": 1,
              "repeats": 1}
    store.create_run(run_id, f"cfg-{run_id}", config, {}, "e",
                     [("answer", "d/0", 0, 0, None, None)])
    store.finish_run(run_id, "test", "failed", "pre-flight: the endpoint did not answer", {})


def test_runs_without_responses_are_listed_last_and_not_opened(store):
    add_items(store, [ITEM])
    make_run(store, "a-answered", {"d/0": "Answer: B"})
    _empty_run(store, "z-failed")              # newer (same second: the id orders it first)
    choices = ib.run_choices(store)
    assert [v for _, v in choices] == [ib.ALL, "a-answered", "z-failed"]
    assert choices[-1][0].endswith(f"· failed · {NO_RESPONSES} · id z-failed")
    assert NO_RESPONSES not in choices[1][0]
    assert ib.opening_run(store, None, first=True) == "a-answered"   # before: z-failed
    assert ib.opening_run(store, "z-failed", first=False) == "z-failed"  # the user's choice


def test_an_answer_line_alone_states_no_clue(store):
    assert sentence_clues("Answer: B") == [] and sentence_clues("\\boxed{B}") == []
    assert [c["text"] for c in sentence_clues("# Final answer: C\nThe sign is red.")] == [
        "The sign is red."]
    add_items(store, [ITEM])
    make_run(store, "r", {"d/0": "Answer: B"})
    score_run(store, "r", protocol="all")
    (row,) = [r for r in ib.browse(store, ib.run_filters("r", "offline"), "run order", 1)["rows"]]
    view = ih.open_view(store, int(row[0]))
    assert view["model_clues"] == []                        # before: S1 "Answer: B"
    table = ih.model_table(view).data if hasattr(ih.model_table(view), "data") else \
        ih.model_table(view)
    assert table.values.tolist() == [["—", ih.NO_CLUES, "", "", ""]]


def test_a_response_with_no_reply_says_so_instead_of_no_clues_stated(store):
    """A response never asked (its model call failed, or no source clue) read "no clues
    stated: the output has no clue list …" of an output there never was."""
    add_items(store, [ITEM])
    make_run(store, "failed", {"d/0": None})
    score_run(store, "failed", protocol="all")
    (row,) = [r for r in ib.browse(store, ib.run_filters("failed", "offline"), "run order",
                                   1)["rows"]]
    view = ih.open_view(store, int(row[0]))
    table = ih.model_table(view).data if hasattr(ih.model_table(view), "data") else \
        ih.model_table(view)
    [[_, said, *_]] = table.values.tolist()
    assert said.startswith("no reply to read clues from") and said != ih.NO_CLUES
