"""What a run plan says about the items it asks: every item flagged at import is counted by
kind, and a multiple-choice item with no options is left out (it cannot be answered, nor
scored honestly). MMR-Life files imported by the real importer, without their image
folders, as a researcher who forgot `--images` gets them; planned by the real CLI."""
import json

import pytest

from formats import import_path
from runner.config import ConfigError, RunConfig
from runner.planning import plan_run
from tests.test_runner_cli import cli

IMAGE_OPTIONS = {"id": "HAA_{n}", "img_path": "images/Abductive/Human/{n}",
                 "question": "Question: Which picture comes next?\nOptions: ",
                 "golden_answer": "C"}
TEXT_OPTIONS = {"id": "CIA_{n}", "img_path": "images/Causal/Intent/{n}",
                "question": "Question: Why?\nOptions: A. a B. b C. c D. d E. e",
                "golden_answer": "B"}


def mmr_life_file(tmp_path, image_options: int, text_options: int):
    entries = [{k: v.format(n=n) for k, v in IMAGE_OPTIONS.items()}
               for n in range(image_options)]
    entries += [{k: v.format(n=n) for k, v in TEXT_OPTIONS.items()} for n in range(text_options)]
    path = tmp_path / "MMR_Life.json"
    path.write_text(json.dumps(entries))
    return path


def test_flagged_items_are_counted_by_kind_and_items_without_options_left_out(store, tmp_path):
    import_path(store, "mmr-life", mmr_life_file(tmp_path, 3, 2))
    store.add_endpoint("fake", "http://127.0.0.1:9/v1", "fake-vlm")
    plan = plan_run(store, RunConfig(endpoint="fake", setting="cot",
                                     filters={"dataset": "mmr-life"}))
    assert sorted(plan.items) == ["mmr-life/CIA_0", "mmr-life/CIA_1"]
    assert {w[1] for w in plan.work} == set(plan.items)      # nothing asked of the others
    refused, flagged, imageless = plan.warnings
    assert refused.startswith("3 of the 5 items are left out of the run: multiple choice "
                              "with no options (mmr-life/HAA_0, mmr-life/HAA_1, "
                              "mmr-life/HAA_2)")
    assert flagged == ("5 of 5 items are flagged with import problems: missing image folder "
                       "(5), no options (3) (the Annotate page lists them under Import "
                       "problems)")
    assert imageless.startswith("2 of 2 items have no image")


def test_a_plan_of_only_unanswerable_items_is_refused(store, tmp_path):
    import_path(store, "mmr-life", mmr_life_file(tmp_path, 2, 0))
    store.add_endpoint("fake", "http://127.0.0.1:9/v1", "fake-vlm")
    with pytest.raises(ConfigError, match="none of the 2 items can be asked: multiple "
                                          "choice with no options"):
        plan_run(store, RunConfig(endpoint="fake", setting="cot",
                                  filters={"dataset": "mmr-life"}))


def test_the_dry_run_says_it_too(tmp_path):
    db = tmp_path / "plan.db"
    assert cli("import", "--db", db, "--format", "mmr-life",
               mmr_life_file(tmp_path, 3, 2)).returncode == 0
    assert cli("endpoint", "add", "fake", "--base-url", "http://127.0.0.1:9/v1", "--model",
               "fake-vlm", "--db", db).returncode == 0
    dry = cli("run", "--db", db, "--endpoint", "fake", "--setting", "cot", "--dataset",
              "mmr-life", "--dry-run")
    assert dry.returncode == 0, dry.stderr
    assert "2 items, 2 work rows" in dry.stdout
    assert "warning: 3 of the 5 items are left out of the run" in dry.stdout
    assert "warning: 5 of 5 items are flagged with import problems" in dry.stdout
