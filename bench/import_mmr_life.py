#!/usr/bin/env python3
"""Benchmark: import the full MMR-Life release (2,676 items, ~19,200 PNGs) into a fresh database.

What is timed: `formats.import_path(store, "mmr-life", JSON, images_dir=TREE)` on a brand-new
database (file + media folder created just before, on the same disk as bench/out/), from the
call to its return (parse, folder listing, hashing, checking and storing every image, creating
every item, the single commit). Each run is a fresh database; the median is reported.
Target (issue): >= 200 items/s with images.

The image tree is generated with bench/make_mmr_life_tree.py when it is not there yet. The
last run's database is kept as bench/out/mmr.db (+ bench/out/mmr-media/) for
bench/ui_latency.py and bench/browser_paint.py.

With --breakdown, one extra run (not counted in the figures) wraps the store's image steps
and item creation with timers, to show where the time goes.

Run:  python bench/import_mmr_life.py [--json PATH] [--runs 3] [--breakdown]
"""
from __future__ import annotations

import argparse
import functools
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import (DEFAULT_DB, DEFAULT_JSON, DEFAULT_TREE, OUT, REPO, emit, log, machine,
                     summarize)

TARGET_ITEMS_PER_S = 200.0


def ensure_tree(tree: Path, json_path: Path) -> float:
    """Generate the image tree if missing; returns the seconds it took (0 if present)."""
    if (tree / "MMR_Life.json").exists() and (tree / "images").is_dir():
        return 0.0
    if not json_path.exists():
        raise SystemExit(f"MMR_Life.json not found at {json_path}; pass --json")
    log(f"generating the MMR-Life image tree in {tree} …")
    started = time.perf_counter()
    subprocess.run([sys.executable, str(REPO / "bench" / "make_mmr_life_tree.py"), str(tree),
                    "--json", str(json_path), "--force"], check=True, stdout=sys.stderr)
    return time.perf_counter() - started


def fresh_db(path: Path) -> None:
    """Remove a database, its WAL/SHM files and its media folder."""
    for suffix in ("", "-wal", "-shm"):
        Path(str(path) + suffix).unlink(missing_ok=True)
    media = path.with_name(f"{path.stem}-media")
    if media.exists():
        shutil.rmtree(media)
    os.sync()   # flush the deletions so they do not slow down the next timed run


class Timers:
    """Accumulated wall time of wrapped functions (only used with --breakdown)."""

    def __init__(self):
        self.seconds: dict[str, float] = {}
        self.calls: dict[str, int] = {}
        self._undo = []

    def wrap(self, owner, attr: str, key: str) -> None:
        original = getattr(owner, attr) if not isinstance(owner, dict) else owner[attr]

        @functools.wraps(original)
        def timed(*args, **kwargs):
            t = time.perf_counter()
            try:
                return original(*args, **kwargs)
            finally:
                self.seconds[key] = self.seconds.get(key, 0.0) + time.perf_counter() - t
                self.calls[key] = self.calls.get(key, 0) + 1

        if isinstance(owner, dict):
            owner[attr] = timed
            self._undo.append(lambda: owner.__setitem__(attr, original))
        else:
            setattr(owner, attr, timed)
            self._undo.append(lambda: setattr(owner, attr, original))

    def undo(self) -> None:
        for fn in reversed(self._undo):
            fn()
        self._undo.clear()


def one_run(db: Path, json_path: Path, tree: Path, timers: Timers | None = None) -> dict:
    import formats
    from store import Store

    fresh_db(db)
    store = Store.open(db)
    if timers:
        import store.items as items_mod
        import store.media as media_mod
        timers.wrap(formats._READERS, "mmr-life", "parse JSON + list folders (mmr_life.read)")
        timers.wrap(media_mod, "add_image", "add_image total")
        timers.wrap(media_mod, "inspect_image", "  of which: Pillow header + verify (inspect_image)")
        timers.wrap(media_mod, "_write_atomically", "  of which: write file (_write_atomically)")
        timers.wrap(items_mod, "create_item", "create_item (validate + SQL)")
    try:
        started = time.perf_counter()
        report = formats.import_path(store, "mmr-life", json_path, images_dir=tree,
                                     author="bench")
        seconds = time.perf_counter() - started
        t_close = time.perf_counter()
        store.close()          # last connection closes: WAL checkpoint
        close_s = time.perf_counter() - t_close
    finally:
        if timers:
            timers.undo()
    media = db.with_name(f"{db.stem}-media")
    n_files = sum(1 for p in media.rglob("*") if p.is_file())
    return {"seconds": seconds, "close_s": close_s, "report": report, "media_files": n_files}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n", 2)[2])
    ap.add_argument("--json", type=Path, default=DEFAULT_JSON,
                    help=f"the authors' MMR_Life.json (default {DEFAULT_JSON})")
    ap.add_argument("--tree", type=Path, default=DEFAULT_TREE,
                    help=f"image tree root, generated if missing (default {DEFAULT_TREE})")
    ap.add_argument("--db", type=Path, default=DEFAULT_DB,
                    help=f"where the last run's database is kept (default {DEFAULT_DB})")
    ap.add_argument("--runs", type=int, default=3, help="fresh-database runs (default 3)")
    ap.add_argument("--breakdown", action="store_true",
                    help="one extra timed-by-phase run (not counted in the figures)")
    args = ap.parse_args(argv)

    tree = args.tree.resolve()
    tree_s = ensure_tree(tree, args.json)
    json_path = tree / "MMR_Life.json"
    work = OUT / "import-runs"
    work.mkdir(parents=True, exist_ok=True)
    run_db = work / "mmr.db"       # same stem as the kept db, so the media folder name matches

    load_before = [round(x, 2) for x in os.getloadavg()]
    runs = []
    for n in range(1, args.runs + 1):
        r = one_run(run_db, json_path, tree)
        rep = r["report"]
        runs.append(r)
        log(f"run {n}: {r['seconds']:.2f} s  {rep.imported / r['seconds']:.0f} items/s  "
            f"{rep.images / r['seconds']:.0f} images/s  (close {r['close_s']:.2f} s)")

    breakdown = None
    if args.breakdown:
        timers = Timers()
        r = one_run(run_db, json_path, tree, timers)
        total = r["seconds"]
        breakdown = {"total_s": round(total, 2)}
        for key, sec in timers.seconds.items():
            breakdown[key] = {"s": round(sec, 2), "calls": timers.calls[key],
                              "share": round(sec / total, 3)}
        accounted = (timers.seconds.get("parse JSON + list folders (mmr_life.read)", 0)
                     + timers.seconds.get("add_image total", 0)
                     + timers.seconds.get("create_item (validate + SQL)", 0))
        breakdown["rest (importer loop, materialize, commit)"] = {"s": round(total - accounted, 2)}
        log("breakdown run:")
        for key, val in breakdown.items():
            log(f"  {key}: {val}")

    # keep the last database for the UI benchmarks
    fresh_db(args.db)
    run_db.rename(args.db)
    run_db.with_name("mmr-media").rename(args.db.with_name(f"{args.db.stem}-media"))

    last = runs[-1]["report"]
    secs = [r["seconds"] for r in runs]
    items_s = [r["report"].imported / r["seconds"] for r in runs]
    images_s = [r["report"].images / r["seconds"] for r in runs]
    median_items_s = statistics.median(items_s)
    summary = {
        "benchmark": "import_mmr_life",
        "runs": len(runs),
        "seconds": summarize(secs, digits=2),
        "items_per_s": summarize(items_s, digits=0),
        "images_per_s": summarize(images_s, digits=0),
        "target_items_per_s": TARGET_ITEMS_PER_S,
        "ratio_to_target": round(median_items_s / TARGET_ITEMS_PER_S, 2),
        "meets_target": median_items_s >= TARGET_ITEMS_PER_S,
        "report": {k: v for k, v in last.to_dict().items() if k not in ("problems", "path")},
        "problem_counts": last.problem_counts(),
        "media_files": runs[-1]["media_files"],
        "tree_generated_s": round(tree_s, 1),
        "breakdown": breakdown,
        "kept_db": str(args.db),
        "loadavg_before": load_before,
        "machine": machine(),
    }
    emit(summary)
    return 0


if __name__ == "__main__":
    sys.exit(main())
