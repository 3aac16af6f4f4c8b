"""Researcher review (resfix24b): the clue-injection table paired a row's No Clue with its
clue runs by model and setting alone. Runs bfd2 (CoT, default temperature) and 7abe (CoT,
temperature 0.2, newer), then GT, Self and bfd2's clues at the default temperature: the
'vlm-a · CoT' row took 7abe as No Clue (the newest) and measured the changes against it,
and bfd2, run like them and the source of their clues, had a row of dashes. A row's runs
now drew their replies alike; the other run has its own row, labelled by what sets it apart
('vlm-a · CoT · T 0.2'), and labels and column titles name runs by their short ids. Real
SQLite, real offline scoring, the real CLI and the Results page's handler."""
from __future__ import annotations

import json

from scoring import tables
from scoring.solver_rows import draw_settings, solver_rows
from tests.scoring_helpers import add_items, cli, make_run
from tests.test_runner_engine import fake, items, server  # noqa: F401 (fixtures)
from tests.test_tables_paper_review import finish
from ui import results_handlers as h

ITEMS = [{"id": f"demo/{i}", "answer_type": "multiple_choice", "answer": "A", "domain": "d",
          "subtask": "s", "clues": [{"text": "a red bus", "reasoning": "", "boxes": []}]}
         for i in range(4)]
BASE, WARM = "20261207-171237-bfd2", "20261207-171300-7abe"
GT, SELF, RUN = "20261207-171400-a001", "20261207-171500-a002", "20261207-171600-a003"


def _runs(store) -> list[str]:
    add_items(store, ITEMS)
    ids = [i["id"] for i in ITEMS]
    half = {i: "Clue 1: a red bus\nAnswer: B" if i in ids[:2] else
            "Clue 1: a red bus\nAnswer: A" for i in ids}
    right = {i: "Answer: A" for i in ids}
    wrong = {i: "Answer: C" for i in ids}
    make_run(store, BASE, half, model="vlm-a", sampling={})
    make_run(store, WARM, wrong, model="vlm-a", sampling={"temperature": 0.2})
    make_run(store, GT, right, model="vlm-a", clues="gt", sampling={})
    make_run(store, SELF, half, model="vlm-a", clues="self", sampling={})
    make_run(store, RUN, right, model="vlm-a", clues=f"run:{BASE}", sampling={})
    chosen = [BASE, WARM, GT, SELF, RUN]
    finish(store, *chosen)
    return chosen


def test_a_row_takes_no_clue_from_a_run_drawn_like_its_clue_runs(store):
    chosen = _runs(store)
    table = tables.injection_table(store, chosen)
    rows = {row["solver"]: row for row in table.rows}
    assert set(rows) == {"vlm-a · CoT", "vlm-a · CoT · T 0.2"}, list(rows)
    plain, warm = rows["vlm-a · CoT"], rows["vlm-a · CoT · T 0.2"]
    assert plain["No Clue_run_id"] == BASE, plain
    assert (plain["GT_run_id"], plain["Self_run_id"]) == (GT, SELF), plain
    assert warm["No Clue_run_id"] == WARM and warm.get("GT_run_id") is None, warm
    # the changes are against bfd2 (50.00), not 7abe (0.00)
    out = table.to_markdown()
    line = next(s for s in out.splitlines() if s.startswith("| vlm-a · CoT |"))
    assert "+50.00" in line and "+100.00" not in line, line
    assert all(row["items"] == 4 for row in table.rows), table.rows
    code, text, err = cli("table", "--db", store.path, "--kind", "injection", "--runs",
                          ",".join(chosen), "--format", "json")
    assert code == 0, err
    found = {row["solver"]: row["No Clue_run_id"] for row in json.loads(text)["rows"]}
    assert found == {"vlm-a · CoT": BASE, "vlm-a · CoT · T 0.2": WARM}, found
    page = h.show_results(store, chosen)["injection"]
    assert "vlm-a · CoT · T 0.2" in page, page


def test_labels_and_titles_name_runs_by_their_short_ids(store):
    chosen = _runs(store)
    table = tables.injection_table(store, chosen)
    titles = [c.title for c in table.columns]
    # (resfix26c) 7abe's label names its temperature, so bfd2's needs no id to tell it apart
    assert "clues of vlm-a · CoT" in titles, titles
    words = table.to_markdown() + table.notes
    assert "20261207-171237-bfd2" not in words.replace(f"run:{BASE}", ""), words


def test_row_labels_say_only_what_tells_rows_apart():
    base = {"endpoint": {"model": "m"}, "setting": "cot", "clues": "none",
            "image_mode": "full", "samples": 1, "repeats": 1}
    a = {**base, "sampling": {"max_tokens": 512}}
    b = {**base, "sampling": {"max_tokens": 512, "temperature": 0.2}, "clues": "gt"}
    c = {**base, "sampling": {"max_tokens": 512, "seed": 7}, "image_quality": 80}
    other = {**base, "endpoint": {"model": "n"}, "sampling": {"temperature": 0.5}}
    row = solver_rows([a, b, c, other])
    assert row(a) == "m · CoT"
    assert row(b) == "m · CoT · T 0.2"
    assert row(c) == "m · CoT · seed 7 · quality 80"
    assert row(other) == "n · CoT"                  # alone: nothing to tell apart
    assert row({**a, "clues": "gt"}) == row(a)      # the clue source is the column
    # a config from before `sampling` was recorded: the values given
    assert draw_settings({**base, "temperature": 0.2})["temperature"] == 0.2


def test_runs_made_by_the_engine_are_told_apart_by_their_sampling(store, fake, items):
    """The same with runs the engine made and recorded (their resolved `sampling`): real
    HTTP to tests/openai_server.py, real offline scoring."""
    from scoring.score_run import score_run
    from tests.test_runner_engine import launch

    ids = items(3)
    base = launch(store, ids, setting="cot").run_id
    warm = launch(store, ids, setting="cot", temperature=0.2).run_id
    clued = [launch(store, ids, setting="cot", clues=c).run_id
             for c in ("gt", f"run:{base}")]
    for run in (base, warm, *clued):
        score_run(store, run)
    table = tables.injection_table(store, [base, warm, *clued])
    rows = {row["solver"]: row for row in table.rows}
    assert set(rows) == {"fake-vlm · CoT", "fake-vlm · CoT · T 0.2"}, list(rows)
    assert rows["fake-vlm · CoT"]["No Clue_run_id"] == base
    assert rows["fake-vlm · CoT"]["GT_run_id"] == clued[0]
    assert rows["fake-vlm · CoT · T 0.2"]["No Clue_run_id"] == warm
