"""A run injecting another run's clues named its source "clues of (vlm-a · CoT · 3 samples)"
when two runs share that label (a 14-item run and a 1-item run of one endpoint and setting),
beside rows telling the two apart by their ids. Now the source is named with its id in the
row, the injection table's column title, the `runs` listing and the ‡ footnote. Real SQLite,
real scoring, the real CLI."""
from scoring import tables
from scoring.score_run import score_run
from tests.scoring_helpers import add_items, cli, make_run, runs_listed

ITEMS = [{"id": f"demo/{i}", "answer_type": "multiple_choice", "answer": "A", "domain": "d",
          "subtask": "s"} for i in range(14)]
BIG, SMALL, INJ = "20261207-1-033e", "20261207-2-4418", "20261207-3-8bea"
SOURCE = f"vlm-a · CoT · 3 samples [{SMALL}]"


def runs(store) -> list[str]:
    add_items(store, ITEMS)
    ids = [i["id"] for i in ITEMS]
    make_run(store, BIG, {i: ["Answer: A"] * 3 for i in ids}, model="vlm-a", samples=3)
    make_run(store, SMALL, {ids[0]: ["Clue 1: a bus\nAnswer: A"] * 3}, model="vlm-a",
             samples=3)
    make_run(store, INJ, {i: None if i == ids[0] else "Answer: A" for i in ids[:2]},
             model="vlm-b", setting="clue_guided", clues=f"run:{SMALL}")
    with store.atomic():     # as the engine records an answer not asked (runner_work)
        store.db.conn.execute(f"UPDATE run_responses SET reason = 'no clues from run {SMALL}: "
                              "its reply listed none' WHERE run_id = ? AND status = 'error'",
                              [INJ])
    for run in (BIG, SMALL, INJ):
        score_run(store, run)
    return [INJ, BIG, SMALL]


def test_the_source_inside_clues_of_is_told_apart_by_its_id(store):
    chosen = runs(store)
    code, out, err = cli("table", "--db", store.path, "--kind", "main", "--runs",
                         ",".join(chosen))
    assert code == 0, err
    out = out.replace("\\", "")              # the Markdown's escaped brackets
    assert f"| {SOURCE} |" in out and f"| vlm-a · CoT · 3 samples [{BIG}] |" in out
    assert f"vlm-b · Clue-guided CoT · clues of ({SOURCE})" in out
    injection = tables.injection_table(store, chosen, protocol="general")
    assert f"clues of {SOURCE}" in [c.key for c in injection.columns]
    assert f"its source run {SOURCE} has no clue for" in injection.notes
    assert f"vlm-b · Clue-guided CoT · clues of ({SOURCE}): 1 item" in injection.notes
    code, out, err = cli("runs", "--db", store.path)
    assert code == 0, err
    assert runs_listed(out)[INJ]["clues"] == f"of ({SOURCE})"
    assert f"clues of ({SOURCE})" in out
