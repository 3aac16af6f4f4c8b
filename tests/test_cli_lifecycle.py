"""The item and dataset life cycle from the command line: real subprocesses, real SQLite."""
import json
import shutil

from tests.live_server import ROOT
from tests.test_cli import cli, dump

DEMO = ROOT / "assets" / "demo" / "demo.jsonl"


def _demo_copy(tmp_path, changed_id=None):
    """The demo file beside its images, optionally with one item's question changed."""
    folder = tmp_path / "src"
    shutil.copytree(DEMO.parent, folder)
    if changed_id:
        lines = []
        for line in (folder / "demo.jsonl").read_text().splitlines():
            record = json.loads(line)
            if record["id"] == changed_id:
                record["question"] += " (corrected)"
            lines.append(json.dumps(record))
        (folder / "demo.jsonl").write_text("\n".join(lines) + "\n")
    return folder / "demo.jsonl"


def _history(db, item_id):
    import sqlite3
    with sqlite3.connect(db) as con:
        return [r[0] for r in con.execute("SELECT comment FROM revisions WHERE item_id = ? "
                                          "ORDER BY version", [item_id])]


def test_import_replace_changes_only_changed_items_and_keeps_history(tmp_path):
    db = tmp_path / "a.db"
    assert cli("import", "--db", db, "--format", "jsonl", DEMO).returncode == 0
    same = json.loads(cli("import", "--db", db, "--format", "jsonl", DEMO, "--replace",
                          "--json").stdout)
    assert (same["imported"], same["replaced"], same["unchanged"], same["skipped"]) == (0, 0, 14, 0)
    changed = _demo_copy(tmp_path, changed_id="demo/bus-stop-wait")
    done = cli("import", "--db", db, "--format", "jsonl", changed, "--replace")
    assert done.returncode == 0, done.stderr
    # demo/bus-stop-wait is verified: changed by an import it goes back in review
    assert "replaced:   1 (a new revision each; 1 verified, changed: back in review)" in \
        done.stdout and "unchanged:  13" in done.stdout
    assert _history(db, "demo/bus-stop-wait") == ["import jsonl demo.jsonl",
                                                  "import --replace jsonl demo.jsonl"]
    assert len(_history(db, "demo/alcove-furniture")) == 1


def test_item_duplicate_delete_restore_and_reopen(tmp_path):
    db = tmp_path / "a.db"
    cli("import", "--db", db, "--format", "jsonl", DEMO)
    done = cli("item", "duplicate", "demo/bus-stop-wait", "demo/bus-stop-wait-2", "--db", db,
               "--author", "alice")
    assert done.returncode == 0 and "created demo/bus-stop-wait-2" in done.stdout
    done = cli("item", "delete", "demo/bus-stop-wait-2", "--db", db, "--reason", "not needed")
    assert done.stdout.strip() == "deleted demo/bus-stop-wait-2 (history: version 2)"
    assert "demo/bus-stop-wait-2\tdeleted by cli" in cli("item", "deleted", "--db", db).stdout
    stats = json.loads(cli("stats", "--db", db, "--json").stdout)
    assert stats["items"] == 14
    assert cli("item", "restore", "demo/bus-stop-wait-2", "--db", db).returncode == 0
    assert _history(db, "demo/bus-stop-wait-2") == [
        "duplicate of demo/bus-stop-wait version 1", "deleted: not needed",
        "restored after deletion"]
    refused = cli("item", "reopen", "demo/bus-stop-wait", "--db", db)
    assert refused.returncode == 2 and "needs a reason" in refused.stderr


def test_dataset_delete_shows_counts_then_deletes_and_a_reimport_works(tmp_path):
    db = tmp_path / "a.db"
    cli("import", "--db", db, "--format", "jsonl", DEMO)
    before = dump(db)
    shown = cli("dataset", "delete", "demo", "--db", db)
    assert shown.returncode == 0
    assert shown.stdout.startswith("Would delete dataset demo: 14 items (2 released, 0 deleted "
                                   "already), 14 revisions, 0 reviews, 0 drafts, and 0 model "
                                   "responses in 0 runs")
    assert dump(db) == before
    gone = json.loads(cli("dataset", "delete", "demo", "--db", db, "--yes", "--json").stdout)
    assert gone["deleted"] and gone["items"] == 14
    assert json.loads(cli("stats", "--db", db, "--json").stdout)["items"] == 0
    again = json.loads(cli("import", "--db", db, "--format", "jsonl", DEMO, "--json").stdout)
    assert again["imported"] == 14 and again["skipped"] == 0
    missing = cli("dataset", "delete", "nope", "--db", db)
    assert missing.returncode == 2 and "dataset nope not found" in missing.stderr
