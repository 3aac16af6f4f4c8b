"""The command line as a user runs it: real subprocesses, real files, real SQLite."""
import hashlib
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

from tests.live_server import ROOT

DEMO = ROOT / "assets" / "demo" / "demo.jsonl"
STATS_KEYS = {"items", "images", "images_shown", "clues", "boxes", "by_dataset", "by_domain", "by_subtask",
              "by_reasoning_type", "by_answer_type", "by_status", "flagged", "mean_images_per_item",
              "mean_box_area_fraction", "mean_resolution"}


def cli(*args, env=None, cwd=None):
    return subprocess.run([sys.executable, str(ROOT / "app.py"), *map(str, args)],
                          capture_output=True, text=True, timeout=300, cwd=cwd,
                          env={**os.environ, **(env or {})}, stdin=subprocess.DEVNULL)


def dump(db: Path) -> list:
    con = sqlite3.connect(db)
    tables = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table' "
                                        "ORDER BY name")]
    return [(t, con.execute(f"SELECT * FROM {t} ORDER BY 1").fetchall()) for t in tables]


def test_import_prints_a_report_and_json(tmp_path):
    db = tmp_path / "a.db"
    done = cli("import", "--db", db, "--format", "jsonl", DEMO)
    assert done.returncode == 0, done.stderr
    assert "14" in done.stdout and "problems" in done.stdout
    again = cli("import", "--db", db, "--format", "jsonl", DEMO, "--json")
    report = json.loads(again.stdout)
    assert report["imported"] == 0 and report["skipped"] == 14  # ids already there
    assert all(p["item_id"] and p["reason"] for p in report["problems"])


def test_stats_json_has_the_promised_keys(tmp_path):
    db = tmp_path / "s.db"
    cli("import", "--db", db, "--format", "jsonl", DEMO)
    stats = json.loads(cli("stats", "--db", db, "--json").stdout)
    assert STATS_KEYS <= set(stats)
    assert stats["items"] == 14 and stats["by_dataset"] == {"demo": 14}
    assert 0 < stats["mean_box_area_fraction"] < 0.1
    human = cli("stats", "--db", db).stdout
    assert "items 14" in human and "Daily Commonsense" in human


def test_fatal_import_error_leaves_the_database_as_it_was(tmp_path):
    db = tmp_path / "f.db"
    cli("import", "--db", db, "--format", "jsonl", DEMO)
    before = dump(db)
    broken = tmp_path / "broken.jsonl"  # an image under a .jsonl name: not a JSONL file at all
    broken.write_bytes(next((ROOT / "assets" / "demo" / "images").glob("*.png")).read_bytes())
    done = cli("import", "--db", db, "--format", "jsonl", broken)
    assert done.returncode == 2
    assert "broken.jsonl" in done.stderr and "unchanged" in done.stderr
    assert dump(db) == before
    wrong = cli("import", "--db", db, "--format", "mmr-life", DEMO)
    assert wrong.returncode == 2 and dump(db) == before


def test_cli_commands_never_seed_demo_data(tmp_path):
    db = tmp_path / "empty.db"
    stats = json.loads(cli("stats", "--db", db, "--json").stdout or "{}") if db.exists() else None
    assert stats is None
    missing = cli("stats", "--db", db)
    assert missing.returncode != 0 and "does not exist" in missing.stderr
    cli("user", "add", "ann", "--role", "annotator", "--db", db,
        env={"CLUELAB_PASSWORD": "long enough pw"})
    assert json.loads(cli("stats", "--db", db, "--json").stdout)["items"] == 0


def test_the_server_seeds_a_database_made_by_user_and_endpoint_add_once(tmp_path):
    """`user add` (and `endpoint add`) before the first start created the file: the server
    then showed 0 items. Seeding follows "never seeded and no item", not the file; and a
    demo an admin deleted does not come back."""
    from cli.serve_command import open_seeded

    db = tmp_path / "shared.db"
    cli("user", "add", "boss", "--role", "admin", "--db", db,
        env={"CLUELAB_PASSWORD": "long enough pw"})
    cli("endpoint", "add", "local", "--base-url", "http://127.0.0.1:9/v1", "--model", "m",
        "--db", db)
    store = open_seeded(db)
    try:
        assert len(store.item_ids()) > 0
        datasets = store.facets()["dataset"]
    finally:
        store.close()
    for name in datasets:
        assert cli("dataset", "delete", name, "--yes", "--db", db).returncode == 0
    store = open_seeded(db)
    try:
        assert store.item_ids() == []
    finally:
        store.close()


def test_endpoint_add_makes_a_new_database_and_the_server_seeds_it(tmp_path):
    """`endpoint add` on a new path said "database ... does not exist" (the README says it
    makes the file, as `user add` does); `price remove` said nothing when it removed."""
    from cli.serve_command import open_seeded

    db = tmp_path / "new.db"
    made = cli("endpoint", "add", "local", "--base-url", "http://127.0.0.1:9/v1", "--model", "m",
               "--db", db)
    assert made.returncode == 0, made.stderr
    store = open_seeded(db)
    try:
        assert len(store.item_ids()) > 0 and store.list_endpoints()[0]["name"] == "local"
    finally:
        store.close()
    assert cli("price", "set", "m", "--input", "1", "--output", "2", "--db", db).returncode == 0
    removed = cli("price", "remove", "m", "--db", db)
    assert removed.returncode == 0 and removed.stdout.strip() == "price m removed"


def test_jsonl_export_round_trip_is_byte_identical(tmp_path):
    db1, db2 = tmp_path / "one.db", tmp_path / "two.db"
    cli("import", "--db", db1, "--format", "jsonl", DEMO)
    out1 = tmp_path / "first" / "export.jsonl"
    out1.parent.mkdir()
    assert cli("export", "--db", db1, "--format", "jsonl", out1).returncode == 0
    assert cli("import", "--db", db2, "--format", "jsonl", out1).returncode == 0
    out2 = tmp_path / "second" / "export.jsonl"
    out2.parent.mkdir()
    cli("export", "--db", db2, "--format", "jsonl", out2)
    assert out1.read_bytes() == out2.read_bytes()

    def tree(root):
        return {p.name: hashlib.sha256(p.read_bytes()).hexdigest()
                for p in root.rglob("*") if p.is_file() and p.suffix != ".jsonl"}
    assert tree(out1.parent) == tree(out2.parent) and len(tree(out1.parent)) == 22


def test_user_add_takes_the_password_from_the_environment_only(tmp_path):
    db = tmp_path / "u.db"
    done = cli("user", "add", "root", "--role", "admin", "--db", db,
               env={"CLUELAB_PASSWORD": "s3cret-password"})
    assert done.returncode == 0 and "s3cret" not in done.stdout
    no_password = cli("user", "add", "eve", "--role", "admin", "--db", db,
                      env={"CLUELAB_PASSWORD": ""})
    assert no_password.returncode != 0 and "CLUELAB_PASSWORD" in no_password.stderr
    bad_role = cli("user", "add", "eve", "--role", "king", "--db", db,
                   env={"CLUELAB_PASSWORD": "s3cret-password"})
    assert bad_role.returncode == 2
    row = sqlite3.connect(db).execute("SELECT * FROM users WHERE name='root'").fetchone()
    assert "s3cret-password" not in repr(row)


def test_user_add_says_the_same_sentence_for_the_first_user_and_the_next(tmp_path):
    """Seen as 'User ann1 added' then 'user ann2 added': a viewer that capitalises the first
    letter of a command's output (the first user's line, printed where the database is
    made) showed one wording twice. The line is a sentence, so it reads the same anywhere."""
    db = tmp_path / "fresh.db"
    said = [cli("user", "add", name, "--role", "annotator", "--db", db,
                env={"CLUELAB_PASSWORD": "s3cret-password"}).stdout for name in ("ann1", "ann2")]
    assert said == ["Added user ann1 with role annotator.\n",
                    "Added user ann2 with role annotator.\n"]
