"""MMR-Life by reasoning type: a small MMR-Life release (written here: six items over three
reasoning types) imported with the real CLI, a run on it, and `stats`, `report` and `table`
broken down by reasoning type (its items have no domain, so a domain breakdown is one
"(none)" column). Expected numbers by hand."""
import json

import pytest

from scoring import tables
from scoring.score_run import score_run
from store import Store
from tests.conftest import png_bytes
from tests.scoring_helpers import cli, make_run

OPTIONS = "Options: A. one B. two C. three D. four E. five "
ITEMS = [("HAA_1", "abductive", "Human Activity Attribution"),
         ("HAA_2", "abductive", "Human Activity Attribution"),
         ("STP_1", "spatial", "Spatial Tracking"),
         ("STP_2", "spatial", "Spatial Tracking"),
         ("STP_3", "spatial", "Spatial Tracking"),
         ("FR_1", "temporal", "Future Prediction")]



@pytest.fixture
def mmr_db(tmp_path):
    entries = []
    for item_id, kind, task in ITEMS:
        folder = tmp_path / "release" / "images" / kind / task / item_id.split("_")[1]
        folder.mkdir(parents=True)
        (folder / "1.png").write_bytes(png_bytes(20, 10, (len(item_id) * 9, 80, 120)))
        entries.append({"id": item_id, "img_path": f"images/{kind}/{task}/{folder.name}",
                        "question": f"Question: what comes next in {item_id}? \n{OPTIONS}",
                        "golden_answer": "B"})
    release = tmp_path / "release" / "MMR_Life.json"
    release.write_text(json.dumps(entries))
    db = tmp_path / "mmr.db"
    code, _, err = cli("import", "--db", db, "--format", "mmr-life", release,
                       "--images", tmp_path / "release")
    assert code == 0, err
    store = Store.open(db)
    # right: HAA_1, STP_1, STP_2; wrong: HAA_2, STP_3, FR_1
    right = {"mmr-life/HAA_1", "mmr-life/STP_1", "mmr-life/STP_2"}
    make_run(store, "r", {f"mmr-life/{i}": "Answer: B" if f"mmr-life/{i}" in right
                          else "Answer: D" for i, _, _ in ITEMS})
    score_run(store, "r")
    yield db, store
    store.close()


def test_stats_counts_items_per_reasoning_type(mmr_db):
    db, _ = mmr_db
    code, out, _ = cli("stats", "--db", db, "--json")
    assert json.loads(out)["by_reasoning_type"] == {"spatial": 3, "abductive": 2,
                                                    "temporal": 1}
    code, out, _ = cli("stats", "--db", db)
    assert "reasoning type:" in out and "spatial" in out


def test_report_breaks_down_by_reasoning_type(mmr_db):
    db, _ = mmr_db
    code, out, err = cli("report", "--db", db, "--run", "r")
    assert code == 0, err
    # the default: the groups the items have (subtask, reasoning type), not "(none)" domains
    assert "(none)" not in out
    lines = out.splitlines()
    at = next(i for i, line in enumerate(lines) if "abductive" in line)
    header, row = lines[at], lines[at + 2]                # the row under the rule
    assert "spatial" in header and "temporal" in header and row.startswith("| m · CoT")
    cells = [c.strip() for c in row.strip("|").split("|")]
    titles = [c.strip().split(" (n ")[0] for c in header.strip("|").split("|")]
    by_type = dict(zip(titles, cells))
    # abductive 1/2, spatial 2/3, temporal 0/1
    assert by_type["abductive"].startswith("50.00") and by_type["spatial"].startswith("66.67")
    assert by_type["temporal"].startswith("0.00") and by_type["Overall"].startswith("50.00")
    code, out, _ = cli("report", "--db", db, "--run", "r", "--by", "reasoning_type")
    assert out.count("| Model |") == 1 and "abductive" in out and "Spatial Tracking" not in out
    code, out, _ = cli("report", "--db", db, "--run", "r", "--json")
    assert json.loads(out)["by_reasoning_type"]["spatial"]["correct"] == 2


def test_table_and_results_page_break_down_by_reasoning_type(mmr_db):
    db, store = mmr_db
    code, out, err = cli("table", "--db", db, "--kind", "main", "--by", "reasoning_type",
                         "--format", "csv")
    assert code == 0, err
    assert out.splitlines()[0].split(",")[:13] == [
        "run_id", "run_name", "run_label", "model", "run_status", "protocol", "samples_rule",
        "from_cache",
        "overall_pct", "n",
        "by_reasoning_type:abductive_pct",
        "by_reasoning_type:spatial_pct", "by_reasoning_type:temporal_pct"]
    from ui import results_handlers as h

    shown = h.show_results(store, ["r"], by="reasoning_type")
    # each group's n in its title (#12: per-group n in breakdown tables)
    assert list(shown["table"].columns[3:6]) == ["abductive (n\u00a02)", "spatial (n\u00a03)",
                                                 "temporal (n\u00a01)"]
    assert "per reasoning type" in shown["group_chart"]
    assert 'data-group="spatial"' in shown["group_chart"]
    with pytest.raises(Exception, match="break down by"):
        tables.main_table(store, ["r"], "colour")
