"""Does saving an item get slower as its history grows? (docs/PERFORMANCE.md, section 9)

`python -m bench.save_history --sizes 10,1000,5000 --saves 30 --conflicts 10 --compare REV`

One item (3 clues with a box each) is saved by one account until its history holds each of
`--sizes` versions (through `Store.save_item`, in a real SQLite file in a temp folder); a copy
of the database is kept at each size. On each copy, in a fresh process:
- `--saves` more saves by the same account, each timed (`Store.save_item`, as the Annotate
  page's save calls it);
- `--conflicts` times: a colleague saves twice, then the account saves from the version it
  had opened: the Annotate page's save handler (`ui.editor_handlers.EditorHandlers.save`,
  called directly) refuses it and builds the conflict panel; that call is timed.
With `--compare REV`, the code of commit REV (`git archive`) is measured too, on copies of
the same databases put back to REV's schema, size by size interleaved with the working tree's
code: the ratio comes from the same minutes. Before each child, bench/_common.QuietGate waits
for a quiet machine (`--no-quiet-wait`: not). Prints a JSON summary as the last line.
"""
from __future__ import annotations

import argparse
import json
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
ITEM = "bench/history"


def _item(sha: str) -> dict:
    return {"id": ITEM, "dataset": "bench", "question": "Which one? " * 20,
            "answer_type": "open", "answer": "x", "status": "candidate", "images": [sha],
            "options": [], "clues": [{"text": f"clue {c}", "reasoning": "because " * 10,
                                      "boxes": [{"image": sha, "x0": 1, "y0": 2, "x1": 10,
                                                 "y1": 12}]} for c in range(3)]}


def _save(store, author: str, n: int) -> float:
    item = store.get_item(ITEM)
    item["answer"] = f"{author} {n}"
    start = time.perf_counter()
    store.save_item(item, item["version"], author)
    return time.perf_counter() - start


def build(folder: Path, sizes: list[int]) -> dict[int, Path]:
    """{size: a database whose item has `size` versions, all by "alice"}."""
    from store import Store
    from tests.conftest import png_bytes
    store = Store.open(folder / "grow.db")
    sha = store.add_image(png_bytes(32, 24, (1, 2, 3)), "a.png").sha256
    store.create_item(_item(sha), "alice")
    copies, version = {}, 1
    for size in sorted(sizes):
        while version < size:
            _save(store, "alice", version)
            version += 1
        store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        copies[size] = folder / f"v{size}.db"
        with sqlite3.connect(copies[size]) as out:
            store.db.conn.backup(out)
        print(f"built {size} versions", file=sys.stderr, flush=True)
    store.close()
    return copies


def to_old_schema(db: Path) -> None:
    """A database made by this tree, as the code before migration 0019 made it."""
    with sqlite3.connect(db) as conn:
        conn.executescript("""
        DROP INDEX IF EXISTS idx_revisions_author_sizes;
        CREATE INDEX IF NOT EXISTS idx_revisions_author_time ON revisions(author, created_at);
        ALTER TABLE revisions DROP COLUMN size;
        DELETE FROM migrations WHERE name = '0019_revision_sizes';
        """)


def child(db: Path, saves: int, conflicts: int) -> dict:
    """Run with the code to measure first on sys.path: the timed saves and conflicts."""
    from store import Store
    from ui.editor_handlers import EditorHandlers
    store = Store.open(db)
    save_ms = [_save(store, "alice", n) * 1000 for n in range(saves)]
    editor, conflict_ms = EditorHandlers(store), []
    for n in range(conflicts):
        mine = editor.load(ITEM, "alice")
        _save(store, "bob", 2 * n)
        _save(store, "bob", 2 * n + 1)
        form = {**editor.form_values(mine["item"]), "question": f"Alice's question {n}?"}
        start = time.perf_counter()
        _, outcome = editor.save(mine, form, None, "", "alice")
        conflict_ms.append((time.perf_counter() - start) * 1000)
        assert outcome["kind"] == "conflict", outcome
        store.delete_draft("alice", ITEM)
    store.close()
    return {"save_ms": save_ms, "conflict_ms": conflict_ms}


def run_child(code: Path, db: Path, args) -> dict:
    out = subprocess.run([sys.executable, str(Path(__file__)), "--child", str(db),
                          "--code", str(code), "--saves", str(args.saves),
                          "--conflicts", str(args.conflicts)],
                         capture_output=True, text=True, check=True, cwd=code)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="10,1000,5000")
    parser.add_argument("--saves", type=int, default=30)
    parser.add_argument("--conflicts", type=int, default=10)
    parser.add_argument("--compare", help="also measure this commit's code (e.g. main)")
    parser.add_argument("--no-quiet-wait", action="store_true")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--code", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        sys.path.insert(0, args.code)
        print(json.dumps(child(Path(args.child), args.saves, args.conflicts)))
        return
    sys.path.insert(0, str(REPO))
    from bench._common import QuietGate, emit, log, machine, summarize
    gate = QuietGate(enabled=not args.no_quiet_wait)
    sizes = [int(s) for s in args.sizes.split(",")]
    with tempfile.TemporaryDirectory(prefix="save_history_") as tmp:
        folder = Path(tmp)
        copies = build(folder, sizes)
        codes = {"now": REPO}
        if args.compare:
            old = folder / "old"
            old.mkdir()
            archive = subprocess.run(["git", "-C", str(REPO), "archive", args.compare],
                                     capture_output=True, check=True).stdout
            subprocess.run(["tar", "-x", "-C", str(old)], input=archive, check=True)
            codes = {"before": old, "now": REPO}
        results: dict[str, dict] = {name: {} for name in codes}
        for size in sizes:
            for name, code in codes.items():        # interleaved, size by size
                db = folder / f"{name}-{size}.db"
                shutil.copy(copies[size], db)
                if name == "before":
                    to_old_schema(db)
                gate.wait()
                found = run_child(code, db, args)
                results[name][size] = {k: summarize(v, digits=2) for k, v in found.items()}
                log(f"{name}, {size} versions: save median "
                    f"{results[name][size]['save_ms']['median']} ms, conflict panel median "
                    f"{results[name][size]['conflict_ms']['median']} ms")
    summary = {"benchmark": "save_history", "compare": args.compare, "saves": args.saves,
               "conflicts": args.conflicts, "results": results, "quiet_gate": gate.report(),
               "machine": machine()}
    if args.compare:
        summary["ratio_before_over_now"] = {
            size: {k: round(results["before"][size][k]["median"]
                            / results["now"][size][k]["median"], 1)
                   for k in ("save_ms", "conflict_ms")} for size in sizes}
    emit(summary)


if __name__ == "__main__":
    main()
