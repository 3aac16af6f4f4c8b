"""How a run is read into results: MMR-Life's extraction beside ours, the samples rule, the
judge shown, human baselines and accuracy per output-length bin. Real SQLite store, runs
written through the store, the real CLI; every expected number is computed by hand."""
import json

import pytest

from scoring import figures, tables
from scoring.human import add_baseline, human_summary, list_baselines, stored_summary
from scoring.results import ResultsError, run_judges, run_summary
from scoring.score_run import score_run
from tests.scoring_helpers import add_items, cli, make_run

OPTIONS = [{"label": L, "text": f"option {L}", "image": None} for L in "ABCDE"]
MC = {"answer_type": "multiple_choice", "answer": "C", "options": OPTIONS, "subtask": "s"}
ITEMS = [{"id": f"m/{i}", "domain": "D", **MC} for i in range(1, 7)] + [
    {"id": "y/1", "answer_type": "yes_no", "answer": "Yes", "domain": "Y", "subtask": "y"}]
TRAP = "# Answer: C\nThis matches the blue cube."
REPLIES = {"m/1": TRAP,                              # ours C (correct), theirs E (wrong)
           "m/2": "Answer: C",                       # both correct
           "m/3": "The answer is (C). See above.",   # ours C, theirs E (the "e." of "above.")
           "m/4": "I think B.",                      # ours unparsed, theirs B (wrong)
           "m/5": "Answer: D",                       # both wrong
           "m/6": None,                              # the call failed: error, not re-read
           "y/1": "Yes."}                            # not multiple choice: not re-read



@pytest.fixture
def run(store):
    add_items(store, ITEMS)
    make_run(store, "r", REPLIES)
    score_run(store, "r")
    return "r"


def test_mmr_life_extraction_rereads_multiple_choice_and_counts_what_changed(store, run):
    ours = run_summary(store, run)
    assert ours["extraction"] == "cluelab" and ours["extraction_diff"] is None
    assert (ours["summary"]["overall"].correct, ours["summary"]["overall"].n) == (4, 7)
    theirs = run_summary(store, run, extraction="mmr-life")
    overall = theirs["summary"]["overall"]
    assert (overall.correct, overall.n, overall.error, overall.unparsed) == (2, 7, 1, 0)
    assert theirs["extraction_diff"] == {
        "compared": 5, "differ": 3, "answers_differ": 3,
        "changes": {"correct → wrong": 2, "unparsed → wrong": 1}}
    assert theirs["summary"]["by_domain"]["Y"].correct == 1          # yes/no untouched
    assert run_summary(store, run)["summary"]["overall"].correct == 4  # nothing was stored
    with pytest.raises(ResultsError, match="general protocol only"):
        run_summary(store, run, "rigorous", extraction="mmr-life")
    with pytest.raises(ResultsError, match="extraction must be one of"):
        run_summary(store, run, extraction="vlmevalkit")


def test_report_states_the_rule_and_the_disagreement(store, run):
    code, out, _ = cli("report", "--db", store.path, "--run", run)
    assert code == 0 and "extraction cluelab" in out
    assert "Answers read by ClueLab's extraction" in out
    assert "would change 3 of 5 multiple-choice verdicts" in out
    assert "| 57.14" in out                                          # 4 of 7
    code, out, _ = cli("report", "--db", store.path, "--run", run, "--extraction", "mmr-life")
    assert code == 0 and "Answers read by MMR-Life's regex" in out
    assert "3 of 5 multiple-choice verdicts differ from ClueLab's extraction" in out
    assert "correct → wrong 2, unparsed → wrong 1" in out and "| 28.57" in out  # 2 of 7
    code, out, _ = cli("report", "--db", store.path, "--run", run, "--extraction", "mmr-life",
                       "--json")
    report = json.loads(out)
    assert report["extraction"] == "mmr-life" and report["extraction_diff"]["differ"] == 3
    assert report["overall"]["accuracy"] == pytest.approx(2 / 7)
    code, _, err = cli("report", "--db", store.path, "--run", run, "--protocol", "rigorous",
                       "--extraction", "mmr-life")
    assert code == 2 and "general protocol only" in err


def test_the_authors_regex_with_their_samples_rule_reproduces_the_paper(store):
    add_items(store, ITEMS[:2])
    # m/1: 2 plain C + 3 traps. Ours: 5 of 5 right. Theirs: C, C, E, E, E -> 2 of 5 right.
    # m/2: 3 plain C + 2 traps. Ours: 5 of 5. Theirs: 3 of 5, more than 2: right.
    make_run(store, "five", {"m/1": ["Answer: C"] * 2 + [TRAP] * 3,
                             "m/2": ["Answer: C"] * 3 + [TRAP] * 2}, samples=5)
    score_run(store, "five")

    def correct(rule, extraction):
        result = run_summary(store, "five", samples_rule=rule, extraction=extraction)
        return result["summary"]["overall"].correct

    assert correct("mmr_life", "cluelab") == 2 and correct("mmr_life", "mmr-life") == 1
    assert correct("majority", "mmr-life") == 1       # m/1: E wins 3-2; m/2: C wins 3-2
    assert correct("mmr_life_sc", "mmr-life") == 1
    assert correct("first", "mmr-life") == 2          # both first samples are plain C
    diff = run_summary(store, "five", extraction="mmr-life")["extraction_diff"]
    assert (diff["compared"], diff["differ"]) == (10, 5)


def test_the_judge_shown_is_chosen_and_runs_without_it_are_left_out(store, run):
    make_run(store, "other", {i: "Answer: C" for i in ("m/1", "m/2")})
    score_run(store, "other")
    flipped = [{"run_id": run, "protocol": "general", "judge": "llm:strict",
                "work_id": r["work_id"], "value": "wrong", "answer": r["answer"]}
               for r in store.run_scores(run, "general", "offline")]
    store.upsert_scores(flipped)
    assert run_judges(store, run, "general") == ["llm:strict", "offline"]  # latest first
    found = tables.summaries(store, [run, "other"], judge="llm:strict")
    assert list(found) == [run] and found[run]["summary"]["overall"].correct == 0
    # by default both are read offline, the judge both were scored with (not r's latest)
    common = tables.main_table(store, [run, "other"])   # on the 2 items both runs have
    overall = {row["model"]: row["overall"] for row in common.rows}
    assert overall == pytest.approx({"m · CoT [r]": 100.0, "m · CoT [other]": 100.0})
    table = tables.main_table(store, [run, "other"], judge="offline")
    overall = {row["model"]: row["overall"] for row in table.rows}
    assert overall == pytest.approx({"m · CoT [r]": 100.0, "m · CoT [other]": 100.0})
    assert table.caption.endswith("n = 2: run m · CoT [other] covers 2 of 7 items")
    assert "m · CoT [r]: 7" in table.notes
    alone = tables.main_table(store, [run], judge="offline")
    assert alone.rows[0]["overall"] == pytest.approx(400 / 7)
    with pytest.raises(ResultsError, match="by judge 'llm:none'; judges that scored them: "
                                           "llm:strict, offline"):
        tables.main_table(store, [run], judge="llm:none")
    strict = tables.main_table(store, [run, "other"], judge="llm:strict")  # other: offline
    assert [row["model"] for row in strict.rows] == ["m · CoT"]         # alone: no [id]
    assert strict.left_out == "Left out: m · CoT [other] (no general scores by judge llm:strict)."
    by_endpoint = tables.main_table(store, [run, "other"], judge="strict")  # as score takes it
    assert by_endpoint.rows[0]["overall"] == strict.rows[0]["overall"] == 0
    with pytest.raises(ResultsError, match="has VER-Bench scores by judge offline"):
        tables.verbench_results(store, [run], judge="offline")
    for make in (tables.drop_table, tables.ablation_table, tables.verbench_results):
        with pytest.raises(ResultsError, match="judge 'llm:none'"):   # every kind refuses
            make(store, [run], judge="llm:none")
    code, out, err = cli("report", "--db", store.path, "--run", run, "--judge", "strict")
    assert code == 0 and "judge llm:strict" in out, err         # by its endpoint, as `score`
    code, out, err = cli("compare", "--db", store.path, run, "other", "--judge", "nosuch")
    assert code == 2 and "judges that scored them: llm:strict, offline" in err
    offline = tables.drop_table(store, [run], judge="offline")
    strict_drop = tables.drop_table(store, [run], judge="llm:strict")
    assert offline.rows[0]["general"] == pytest.approx(400 / 7)
    assert strict_drop.rows[0]["general"] == 0        # the judge named, not the default


def test_human_baselines_are_checked_kept_and_shown_as_an_unranked_row(store, run, tmp_path):
    assert list_baselines(store) == []
    source = tmp_path / "people.json"
    source.write_text(json.dumps({"label": "Humans <b>", "results": {
        "m/1": True, "m/2": True, "m/3": False, "y/1": True}}))
    name = add_baseline(store, source, "alice")
    assert name == "Humans-b" and list_baselines(store) == [("Humans <b>", name)]
    kept = store.get_human_baseline(name)
    assert kept["created_by"] == "alice" and kept["results"]["m/3"] is False
    assert not (store.path.parent / "cluelab-human").exists()      # no folder beside the DB
    assert human_summary(store, source) == stored_summary(store, name)
    human = stored_summary(store, name)
    assert human["summary"]["overall"].accuracy == 0.75
    assert human["summary"]["by_domain"]["D"].accuracy == pytest.approx(2 / 3)
    table = tables.main_table(store, [run], human=human)
    rows = {row["model"]: row for row in table.rows}
    assert rows["Humans <b>"]["overall"] == 75.0 and rows["Humans <b>"].get("_unranked")
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"results": {"m/404": True}}))
    with pytest.raises(ResultsError, match="1 item.* not in the database: \"m/404\""):
        add_baseline(store, bad)
    bad.write_text("[1, 2]")
    with pytest.raises(ResultsError, match="not a human baseline"):
        add_baseline(store, bad)
    with pytest.raises(ResultsError, match="no human baseline"):
        stored_summary(store, "../cluelab.db")
    assert len(list_baselines(store)) == 1


def _records(pairs, repeats: int = 1):
    """One item per pair (its `repeats` records alike)."""
    return {"records": [{"item_id": f"i{k}", "repeat": r, "tokens": t, "value": v}
                        for k, (t, v) in enumerate(pairs) for r in range(repeats)]}


def test_accuracy_per_output_length_bin_by_hand():
    run = _records([(10, "correct"), (20, "correct"), (30, "correct"), (40, "wrong"),
                    (50, "unparsed"), (60, "wrong"), (70, "correct"), (80, "error"),
                    (90, "unscored"), (None, "correct")])     # the last two are left out
    same = _records([(5, "correct"), (5, "wrong"), (5, "correct")])
    frame = figures.length_bins({"a": run, "b": same, "c": _records([])})
    a = frame[frame.run == "a"]
    # quartiles of 10..80: 27.5, 45, 62.5 -> {10, 20}, {30, 40}, {50, 60}, {70, 80}
    assert a.bin.tolist() == ["10–20 tokens", "30–40 tokens", "50–60 tokens",
                              "70–80 tokens"]
    assert a.output_tokens.tolist() == [15, 35, 55, 75]
    assert a.accuracy.tolist() == [100, 50, 0, 50] and a.n.tolist() == [2, 2, 2, 2]
    b = frame[frame.run == "b"]
    assert b.n.tolist() == [3] and b.accuracy.tolist() == pytest.approx([200 / 3])
    assert set(frame.run) == {"a", "b"}
    ties = figures.length_bins({"t": _records([(10, "correct")] * 3 + [(20, "wrong")])})
    assert ties.n.tolist() == [3, 1] and ties.accuracy.tolist() == [100, 0]
    assert figures.padded_range(frame.output_tokens) == pytest.approx([1.5, 78.5])
    assert figures.padded_range([5]) == pytest.approx([4.95, 5.05])
    assert figures.padded_range([]) is None


def test_length_bins_count_items_as_the_table_does_whatever_the_repeats():
    """Three repeats of every item: the same bins, accuracies and n (items) as one repeat;
    an item whose repeats differ is one point at its mean length and share correct."""
    pairs = [(10, "correct"), (20, "wrong"), (30, "correct"), (40, "wrong")]
    once = figures.length_bins({"r": _records(pairs)})
    thrice = figures.length_bins({"r": _records(pairs, repeats=3)})
    assert thrice.n.tolist() == once.n.tolist() == [1, 1, 1, 1]
    assert thrice.accuracy.tolist() == once.accuracy.tolist()
    mixed = {"records": [{"item_id": "x", "repeat": 0, "tokens": 10, "value": "correct"},
                         {"item_id": "x", "repeat": 1, "tokens": 30, "value": "wrong"}]}
    frame = figures.length_bins({"m": mixed})
    assert (frame.n.tolist(), frame.output_tokens.tolist(), frame.accuracy.tolist()) == (
        [1], [20], [50])
    assert "counted per item" in figures.length_chart(thrice)
    shown = figures.length_chart(thrice)
    assert "of 1 item" in shown and "of 1 items" not in shown


def test_length_bins_of_a_scored_run_cover_its_records(store, run):
    result = run_summary(store, run)
    frame = figures.length_bins({"r": result}, bins=3)
    scored = {r["item_id"] for r in result["records"] if r["value"] != "unscored"
              and r["tokens"] is not None}
    assert frame.n.sum() == len(scored) and 1 <= len(frame) <= 3
    assert frame.output_tokens.is_monotonic_increasing


def test_a_verbench_report_with_nothing_scored_says_dash_not_zero(store, run):
    """Every VER-Bench judge reply unreadable (unscored): n 0, so no score and no average —
    it said 'average 0.0' and left a dangling ', ' where the four scores were."""
    store.upsert_scores([{"run_id": run, "protocol": "verbench", "judge": "llm:j",
                          "work_id": r["work_id"], "value": "unscored", "answer": r["answer"]}
                         for r in store.run_scores(run, "general", "offline")])
    code, out, err = cli("report", "--db", store.path, "--run", run, "--protocol", "verbench")
    assert code == 0, err
    assert out.strip() == ("run r, verbench, judge llm:j: AC –, CC –, RQ –, ER –, average – "
                           "(n 0, unscored 7; a response with no answer to judge, failed or "
                           "refused, scores 0 on all four)")
    from pathlib import Path
    from ui import results_handlers as h
    path, _ = h.exported_tables(store, [run], "general", "verbench", "csv")
    name = Path(path).name      # not 'general': not that table; "verbench" once
    assert name.startswith("cluelab-verbench-m+y-") and "general" not in name


@pytest.mark.parametrize("protocol", ["general", "rigorous", "grounded"])
def test_a_report_with_nothing_scored_says_dash_without_a_dangling_percent(store, run,
                                                                          protocol):
    """The other protocols' n = 0 case: the per-response rates and the agreement read
    '(–%)' and '–% of 0'; a rate of nothing is '–' alone, never 0."""
    store.upsert_scores([{"run_id": run, "protocol": protocol, "judge": "llm:j",
                          "work_id": r["work_id"], "value": "unscored", "answer": r["answer"]}
                         for r in store.run_scores(run, "general", "offline")])
    code, out, err = cli("report", "--db", store.path, "--run", run, "--protocol", protocol,
                         "--judge", "llm:j")
    assert code == 0, err
    assert "–%" not in out
    assert ("per response (all 7, before samples are aggregated): unscored 7; of the 0 "
            "scored: unparsed 0 (–), error 0 (–)") in out
    assert "| m · CoT | – | 0 | – | – | – | – | 7 | llm:j |" in out     # no 0.00 either
    if protocol == "general":
        # "– of 0 responses both judges scored" said nothing: now why, in words
        assert ("agreement llm:j vs offline: agreement not applicable: no response of the 7 "
                "was judged by both judges themselves") in out and "of 0" not in out


def test_answers_recorded_after_the_scoring_are_named_not_passed_over(store, run):
    """A run resumed after it was scored has answers with no verdict: report and the tables
    said 'all 6' as if the scoring covered the run; they now say how many have no verdict,
    and count their items in Unscored (n + Unscored is the run's answered items)."""
    import sqlite3
    with sqlite3.connect(store.path) as db:   # as if two answers came after the scoring
        db.execute("DELETE FROM scores WHERE run_id = 'r' AND protocol = 'general' AND "
                   "work_id IN (SELECT id FROM run_work WHERE item_id IN ('m/1', 'm/2'))")
    from scoring.results import forget_summaries
    forget_summaries()
    result = run_summary(store, run)
    assert result["not_scored"] == 2
    overall = result["summary"]["overall"]     # their items are in Unscored, not dropped
    assert (overall.n, overall.unscored) == (5, 2)
    code, out, err = cli("report", "--db", store.path, "--run", run)
    assert code == 0, err
    assert ("run r: 2 answers came after its general scoring by offline and have no verdict, "
            "so their items count as unscored (Unscored): score it again (python app.py score "
            "--run r --protocol "
            "general --db ") in out
    assert "2 answers came after its general scoring" in tables.main_table(store, [run]).notes
    score_run(store, run)
    assert run_summary(store, run)["not_scored"] == 0
    assert "came after" not in cli("report", "--db", store.path, "--run", run)[1]


def test_an_agreement_says_what_its_n_counts():
    """Rigorous agreement counts the responses with a correct answer only: it said "of 6
    responses both scored" where both judges had scored 11."""
    from scoring.judge_agreement import agreement_basis
    assert agreement_basis("rigorous") == agreement_basis("grounded") == \
        "responses with a correct answer both judges scored"
    assert agreement_basis("general") == "responses both judges scored"


def test_only_verdicts_a_judge_gave_itself_count_towards_agreement():
    """Two LLM judges 'agreed on 100.0% of 14 responses' none of which either was asked
    about: numeric answers decided by rule, and unparsed replies."""
    from scoring.judge_agreement import judged_by_itself
    row = lambda judge, decided, value="correct": {"judge": judge, "decided_by": decided,  # noqa: E731
                                                   "value": value}
    assert judged_by_itself(row("llm:jA", "llm:jA"))
    assert judged_by_itself(row("llm:jA", "rigorous:llm:jA"))
    assert not judged_by_itself(row("llm:jA", "rule:numeric"))
    assert not judged_by_itself(row("llm:jA", "llm:jA", "unparsed"))
    assert judged_by_itself(row("offline", "rule:numeric"))
    assert not judged_by_itself(row("offline", "offline:lexical", "error"))


def test_the_shown_lines_name_the_samples_rule_as_its_list_does(store, run):
    """"samples rule mmr_life_sc" under the table, where the Samples rule list reads
    "MMR-Life self-consistency"."""
    from ui.results_handlers import reading_lines

    found = tables.summaries(store, [run], samples_rule="mmr_life_sc")
    lines = reading_lines(store, found, {run: "m · CoT"})
    assert "samples rule MMR\\-Life self\\-consistency" in lines and "mmr_life_sc" not in lines
