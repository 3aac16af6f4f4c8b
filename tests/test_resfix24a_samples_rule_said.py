"""Reviewer findings on how the Results page and `table` say the samples rule.

1. Markdown and LaTeX tables never named the rule that decided their items: one caption
   "Accuracy (%), general protocol, 4 items" under majority vote and under first sample
   only, with other numbers (CSV and JSON had the rule). Every kind that reads samples
   (main, leaderboard, drop, injection, ablation) now names it in its caption.
2. A run made with the MMR-Life preset was read with majority vote by default, nothing said.
3. The note that MMR-Life's rule is made for several samples was repeated once per run.
4. The Samples rule help text did not explain "first sample only".
Real SQLite, real offline scoring, the real CLI and the Results page's handlers."""
from __future__ import annotations

from pathlib import Path

from scoring import tables
from scoring.score_run import score_run
from tests.scoring_helpers import add_items, cli, make_run, page_text
from ui import results_handlers as h

ITEMS = [{"id": f"t/{i}", "answer_type": "yes_no", "answer": "Yes", "domain": "D",
          "subtask": "s"} for i in range(4)]
# first sample right, the other two wrong: first sample only 100.00, majority 0.00
THREE = ["Yes.", "No.", "No."]
PRESET = ("run pre was made with the MMR-Life preset; its paper reads several samples with "
          "the MMR-Life rule (Samples rule: MMR-Life)")


def sampled_runs(store) -> list[str]:
    """Runs of 3 samples per item: a CoT run, a No-CoT one and a GT-clue one of one model."""
    add_items(store, ITEMS)
    for run, setting, clues in (("cot", "cot", "none"), ("direct", "direct", "none"),
                                ("gt", "cot", "gt")):
        make_run(store, run, {i["id"]: THREE for i in ITEMS}, samples=3, setting=setting,
                 clues=clues)
        store.finish_run(run, "test", "done", "", {})
        score_run(store, run, protocol="all")
    return ["cot", "direct", "gt"]


def test_markdown_and_latex_name_the_samples_rule_of_every_kind(store):
    chosen = sampled_runs(store)
    builders = {
        "main": lambda rule: tables.main_table(store, chosen, samples_rule=rule),
        "leaderboard": lambda rule: tables.leaderboard_table(store, chosen,
                                                             samples_rule=rule),
        "drop": lambda rule: tables.drop_table(store, chosen, samples_rule=rule),
        "injection": lambda rule: tables.injection_table(store, chosen, samples_rule=rule),
        "ablation": lambda rule: tables.ablation_table(store, chosen, samples_rule=rule)}
    words = {"majority": "samples rule: majority vote", "first": "samples rule: first sample only",
             "mmr_life_sc": "samples rule: MMR-Life self-consistency"}
    for kind, build in builders.items():
        for rule, said in words.items():
            table = build(rule)
            for text in (table.to_markdown(), table.to_latex()):
                assert said in " ".join(text.split()), (kind, rule, text)
            latex = table.to_latex()
            caption = next(line for line in latex.splitlines() if line.startswith("\\caption"))
            assert said in caption and "mmr_life" not in caption, (kind, caption)

    # the command line and the Results page's downloads say it too
    code, out, err = cli("table", "--db", store.path, "--runs", ",".join(chosen),
                         "--samples-rule", "first")
    assert code == 0, err
    assert "samples rule: first sample only" in out
    code, out, err = cli("table", "--db", store.path, "--runs", ",".join(chosen),
                         "--format", "latex")
    assert code == 0, err
    assert "samples rule: majority vote" in out
    path, _ = h.exported_tables(store, chosen, "general", "main", "md", samples_rule="first")
    assert "samples rule: first sample only" in Path(path).read_text()


def test_a_preset_run_read_with_another_rule_is_said_once(store):
    add_items(store, ITEMS)
    make_run(store, "pre", {i["id"]: ["Yes."] * 5 for i in ITEMS}, samples=5,
             preset="mmr-life")
    make_run(store, "plain", {i["id"]: ["Yes."] * 5 for i in ITEMS}, samples=5)
    for run in ("pre", "plain"):
        store.label_run(run, name=run)
        store.finish_run(run, "test", "done", "", {})
        score_run(store, run)
    for rule in ("majority", "first"):
        notes = " ".join(tables.main_table(store, ["pre", "plain"], samples_rule=rule)
                         .notes.split())
        assert notes.count(PRESET) == 1, (rule, notes)
        assert "run plain was made" not in notes
    for rule in ("mmr_life", "mmr_life_sc"):         # the preset's own rules: nothing to say
        notes = tables.main_table(store, ["pre", "plain"], samples_rule=rule).notes
        assert "MMR-Life preset" not in notes, rule
    shown = page_text(h.show_results(store, ["pre", "plain"])["rules"])
    assert PRESET in " ".join(shown.split())
    code, out, err = cli("table", "--db", store.path, "--runs", "pre,plain")
    assert code == 0, err
    assert PRESET in " ".join(out.split())
    # the other kinds that read samples say it too
    make_run(store, "pre-gt", {i["id"]: ["Yes."] * 5 for i in ITEMS}, samples=5, clues="gt")
    store.finish_run("pre-gt", "test", "done", "", {})
    score_run(store, "pre-gt", protocol="all")
    score_run(store, "pre", protocol="all")
    for table in (tables.leaderboard_table(store, ["pre", "plain"]),
                  tables.drop_table(store, ["pre", "plain"]),
                  tables.ablation_table(store, ["pre", "plain"]),
                  tables.injection_table(store, ["pre", "plain", "pre-gt"])):
        assert " ".join(table.notes.split()).count(PRESET) == 1, table.notes


def test_the_several_samples_note_is_said_once_for_all_its_runs(store):
    add_items(store, ITEMS)
    runs = [f"r{k}" for k in range(4)]
    for k, run in enumerate(runs):
        make_run(store, run, {i["id"]: "Yes." for i in ITEMS}, model=f"m{k}")
        store.finish_run(run, "test", "done", "", {})
        score_run(store, run)
    notes = " ".join(tables.main_table(store, runs, samples_rule="mmr_life").notes.split())
    assert notes.count("is made for several samples per item") == 1, notes
    assert ("runs m0 · CoT, m1 · CoT, m2 · CoT and m3 · CoT: the samples rule MMR-Life (more "
            "than 2 of the first 5 samples correct) is made for several samples per item "
            "(the paper's 5); these runs have 1") in notes, notes
    # the other per-run notes too: two runs whose samples tied on one item each
    for run in ("x", "y"):
        make_run(store, run, {i["id"]: ["Yes.", "No."] if i["id"] == "t/0" else ["Yes."] * 2
                              for i in ITEMS}, samples=2, model=run)
        store.finish_run(run, "test", "done", "", {})
        score_run(store, run)
    notes = " ".join(tables.main_table(store, ["x", "y"]).notes.split())
    assert ("runs x · CoT · 2 samples and y · CoT · 2 samples, each: Unparsed includes 1 item "
            "whose samples tied") in notes, notes
    assert notes.count("whose samples tied") == 1, notes
    # one run alone: said as before
    notes = " ".join(tables.main_table(store, runs[:1], samples_rule="mmr_life").notes.split())
    assert "run m0 · CoT: the samples rule" in notes and "this run has 1" in notes, notes


def test_the_help_text_explains_first_sample_only():
    assert "first sample only: " in h.SAMPLE_RULE_INFO
