"""Researcher review (resfix26c): runs that differ only in their sampling (temperature, top_p,
seed, max_tokens) read the same in every run picker, the Experiments runs list, the tables
and the leaderboard ('ep-a (vlm-a) · CoT · clues none · images full · done · id …' three
times, or 'vlm-a · CoT [66ca]'), while the injection table called one of them 'vlm-a · CoT ·
T 0.2'. Every label now names the sampling given, in the injection table's words
(`runner.config.sampling_word`), a preset's implied values left to 'preset mmr-life'; the
injection and ablation tables do not say it twice. Real SQLite, real offline scoring."""
from __future__ import annotations

from scoring import tables
from scoring.compared import labels, run_label
from tests.scoring_helpers import add_items, make_run
from tests.test_tables_paper_review import finish
from ui import experiments_runs as xr
from ui.run_choices import run_choices

ITEMS = [{"id": f"demo/{i}", "answer_type": "multiple_choice", "answer": "A", "domain": "d",
          "subtask": "s", "clues": [{"text": "a red bus", "reasoning": "", "boxes": []}]}
         for i in range(4)]
PLAIN, WARM, SEEDED = "20261207-100000-650f", "20261207-100100-66ca", "20261207-100200-5ac7"
WIDE, PRESET = "20261207-100300-7b7b", "20261207-100400-8c8c"
GT, WARM_GT = "20261207-100500-9d9d", "20261207-100600-aeae"


def _runs(store) -> list[str]:
    add_items(store, ITEMS)
    right = {i["id"]: "Answer: A" for i in ITEMS}
    make_run(store, PLAIN, right, model="vlm-a", sampling={})
    make_run(store, WARM, right, model="vlm-a", sampling={"temperature": 0.2})
    make_run(store, SEEDED, right, model="vlm-a", sampling={"seed": 5})
    make_run(store, WIDE, right, model="vlm-a", sampling={"top_p": 0.9, "max_tokens": 512})
    make_run(store, PRESET, right, model="vlm-a", preset="mmr-life",
             sampling={"temperature": 0.5, "top_p": 0.5, "seed": 17})
    make_run(store, GT, right, model="vlm-a", clues="gt", sampling={})
    make_run(store, WARM_GT, right, model="vlm-a", clues="gt", sampling={"temperature": 0.2})
    chosen = [PLAIN, WARM, SEEDED, WIDE, PRESET, GT, WARM_GT]
    finish(store, *chosen)
    return chosen


def test_labels_name_the_sampling_given_everywhere(store):
    _runs(store)
    said = {rid: run_label(store.get_run(rid)) for rid in (PLAIN, WARM, SEEDED, WIDE, PRESET)}
    assert said == {PLAIN: "vlm-a · CoT", WARM: "vlm-a · CoT · T 0.2",
                    SEEDED: "vlm-a · CoT · seed 5",
                    WIDE: "vlm-a · CoT · top_p 0.9 · max_tokens 512",
                    PRESET: "vlm-a · CoT · preset mmr-life"}, said
    # the main table and leaderboard: no bracketed ids needed to tell them apart
    named = labels(store, [PLAIN, WARM, SEEDED])
    assert named == {rid: said[rid] for rid in (PLAIN, WARM, SEEDED)}, named
    pickers = {rid: text for text, rid in run_choices(store)}
    assert pickers[WARM] == "e (vlm-a) · CoT · clues none · images full · T 0.2 · done · id 66ca"
    assert " · seed 5 · " in pickers[SEEDED], pickers[SEEDED]
    assert "T 0.5" not in pickers[PRESET] and "preset mmr-life" in pickers[PRESET]
    assert len(set(pickers.values())) == len(pickers)
    setups = {row[1]: row[0] for row in xr.runs_table(store)}
    assert setups[WARM] == said[WARM] and setups[SEEDED] == said[SEEDED], setups


def test_injection_and_ablation_tables_say_the_sampling_once(store):
    _runs(store)
    table = tables.injection_table(store, [PLAIN, WARM, GT, WARM_GT])
    rows = {row["solver"]: row for row in table.rows}
    assert set(rows) == {"vlm-a · CoT", "vlm-a · CoT · T 0.2"}, list(rows)
    assert rows["vlm-a · CoT · T 0.2"]["GT_run_id"] == WARM_GT
    assert rows["vlm-a · CoT"]["GT_run_id"] == GT
    ablation = tables.ablation_table(store, [PLAIN, WARM, SEEDED])
    found = sorted(row["solver"] if "solver" in row else row.get("model", "")
                   for row in ablation.rows)
    text = ablation.to_markdown() + table.to_markdown()
    assert "T 0.2 · T 0.2" not in text and "seed 5 · seed 5" not in text, text
    assert "vlm-a · T 0.2" in text and "vlm-a · seed 5" in text, (found, text)


def test_readme_says_the_runs_list_tells_shared_labels_apart_by_its_id_column():
    """Since 3ac21fd the Experiments runs list adds no id to a shared label (its id column
    beside the label tells them apart); README still said it 'adds the id in brackets'."""
    from pathlib import Path
    words = " ".join((Path(__file__).parents[1] / "README.md").read_text().split())
    assert "a label two listed runs share adds the id in brackets" not in words
    assert "in the Experiments runs list that id column, beside the label, tells apart " \
        "two runs that share a label" in words
