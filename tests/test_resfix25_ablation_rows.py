"""Researcher review (resfix25): the ablation table keyed a row by model (with its samples,
repeats and preset) alone. Runs bfd2 (CoT, endpoint's default temperature) and 7abe (CoT,
temperature 0.2, newer) beside No-CoT and Clue-guided runs at the default: the 'vlm-a' row's
CoT cell took 7abe (the newest) and set it beside runs drawn otherwise, bfd2 hidden in a note.
A row's runs now drew their replies alike (`scoring.solver_rows`, as the injection table);
7abe has its own row, labelled by what sets it apart ('vlm-a · T 0.2'). Real SQLite, real
offline scoring, the real CLI and the Results page's ablation download."""
from __future__ import annotations

import json
from pathlib import Path

from scoring import tables
from tests.scoring_helpers import add_items, cli, make_run
from tests.test_resfix24b_injection_rows import ITEMS
from tests.test_tables_paper_review import finish
from ui import results_page as page

BASE, WARM = "20261207-171237-bfd2", "20261207-171300-7abe"
DIRECT, GUIDED = "20261207-171400-b001", "20261207-171500-b002"
SEEDED = "20261207-171600-b003"


def _runs(store) -> list[str]:
    """bfd2 right on half, 7abe on none, No-CoT on all, Clue-guided on half (4 items)."""
    add_items(store, ITEMS)
    runs = {BASE: ("cot", "BBAA", {}), WARM: ("cot", "CCCC", {"temperature": 0.2}),
            DIRECT: ("direct", "AAAA", {}), GUIDED: ("clue_guided", "BBAA", {})}
    for rid, (setting, answers, sampling) in runs.items():
        make_run(store, rid, {i["id"]: f"Answer: {a}" for i, a in zip(ITEMS, answers)},
                 model="vlm-a", setting=setting, sampling=sampling)
    finish(store, *runs)
    return list(runs)


def test_an_ablation_row_sets_only_runs_drawn_alike_side_by_side(store):
    table = tables.ablation_table(store, chosen := _runs(store))
    assert [row["model"] for row in table.rows] == ["vlm-a", "vlm-a · T 0.2"], table.rows
    shown = [[row.get(f"{s}_run_id") for s in ("direct", "cot", "clue_guided")]
             for row in table.rows]
    assert shown == [[DIRECT, BASE, GUIDED], [None, WARM, None]], shown
    # the CoT cell beside No-CoT and Clue-guided is bfd2's 50.00, not 7abe's 0.00
    assert [row["cot"] for row in table.rows] == [50.0, 0.0], table.rows
    # n shown, every row on the items all the runs share
    assert all(row["items"] == 4 for row in table.rows), table.rows
    assert "vlm-a · T 0.2" in table.notes and "temperature" in table.notes, table.notes
    code, text, err = cli("table", "--db", store.path, "--kind", "ablation", "--runs",
                          ",".join(chosen), "--format", "json")
    assert code == 0, err
    found = {row["model"]: row["cot_run_id"] for row in json.loads(text)["rows"]}
    assert found == {"vlm-a": BASE, "vlm-a · T 0.2": WARM}, found
    # the Results page's ablation download
    path, _, refused = page.exported(store, chosen, "general", "ablation", "md")
    assert refused is None
    assert "| vlm-a · T 0.2 |" in Path(path).read_text()


def test_a_seed_alone_sets_a_row_apart_and_alike_runs_share_one(store):
    _runs(store)
    make_run(store, SEEDED, {i["id"]: "Answer: A" for i in ITEMS}, model="vlm-a", setting="direct",
             sampling={"seed": 7})
    finish(store, SEEDED)
    table = tables.ablation_table(store, [BASE, DIRECT, GUIDED, SEEDED])
    rows = {row["model"]: row for row in table.rows}
    assert set(rows) == {"vlm-a", "vlm-a · seed 7"}, list(rows)
    assert rows["vlm-a"]["direct_run_id"] == DIRECT, rows
    # runs alike in everything but the setting: one row, no setting in its label
    alike = tables.ablation_table(store, [BASE, DIRECT, GUIDED])
    assert [row["model"] for row in alike.rows] == ["vlm-a"], alike.rows
