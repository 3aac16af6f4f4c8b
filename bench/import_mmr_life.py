#!/usr/bin/env python3
"""Benchmark: import the full MMR-Life release (2,676 items, ~19,200 PNGs) into a fresh database.

What is timed: `formats.import_path(store, "mmr-life", JSON, images_dir=TREE)` on a brand-new
database (file + media folder created just before, on the same disk as bench/out/), from the
call to its return: parse, folder listing, reading/hashing/checking every image, putting it in
the media folder, creating every item, the single commit. Each run is a fresh database in a
fresh Python process (so no module-level cache survives between runs); medians are reported.
Target (issue): >= 200 items/s with images.

Modes (rotated run by run, so their ratios come from one invocation):
  link          the store's default: when the image tree and the media folder share a
                filesystem (as here: both under bench/out/), files are hard-linked into the
                media folder; images prepared in formats.importer's thread pool
  copy          CLUELAB_COPY_MEDIA=1: every image is written as a new file, which is what
                happens when the tree is on another filesystem (USB disk, network share,
                container volume)
  link-1thread  as link, with formats.image_adder.IMAGE_THREADS set to 1 in the child process
  copy-1thread  as copy, one thread (the *-1thread modes measure what the pool buys here)

The image tree is generated with bench/make_mmr_life_tree.py when it is not there yet, and
its files are read once before the first run (warm page cache for every run alike). The last
run of the first mode's database is kept as bench/out/mmr.db (+ bench/out/mmr-media/) for
bench/ui_latency.py and bench/browser_paint.py.

With --breakdown, one extra run per mode (not counted in the figures) wraps the import's
phases with timers: parse + folder listing, image preparation (thread pool, wall time),
registering image rows, item creation.

Run:  python -m bench.import_mmr_life [--json PATH] [--runs 5] [--modes link,copy] [--breakdown]
"""
from __future__ import annotations

import argparse
import functools
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from bench._common import (DEFAULT_DB, DEFAULT_JSON, DEFAULT_TREE, OUT, REPO, QuietGate, emit,
                           log, machine, module_command, summarize)

TARGET_ITEMS_PER_S = 200.0
MODES = {"link": {}, "copy": {"CLUELAB_COPY_MEDIA": "1"},
         "link-1thread": {"BENCH_IMAGE_THREADS": "1"},
         "copy-1thread": {"CLUELAB_COPY_MEDIA": "1", "BENCH_IMAGE_THREADS": "1"}}


def ensure_tree(tree: Path, json_path: Path) -> float:
    """Generate the image tree if missing; returns the seconds it took (0 if present)."""
    if (tree / "MMR_Life.json").exists() and (tree / "images").is_dir():
        return 0.0
    if not json_path.exists():
        raise SystemExit(f"MMR_Life.json not found at {json_path}; pass --json")
    log(f"generating the MMR-Life image tree in {tree} …")
    started = time.perf_counter()
    subprocess.run(module_command("make_mmr_life_tree", str(tree), "--json", str(json_path), "--force"),
                   check=True, stdout=sys.stderr, cwd=REPO)
    return time.perf_counter() - started


def fresh_db(path: Path) -> None:
    """Remove a database, its WAL/SHM files and its media folder; flush the deletions."""
    for suffix in ("", "-wal", "-shm"):
        Path(str(path) + suffix).unlink(missing_ok=True)
    media = path.with_name(f"{path.stem}-media")
    if media.exists():
        shutil.rmtree(media)
    os.sync()   # so that pending deletions do not slow down the next timed run


# ---- one run (in its own process) ------------------------------------------------------------
class Timers:
    """Accumulated wall time of wrapped callables (only used with --breakdown)."""

    def __init__(self):
        self.seconds: dict[str, float] = {}
        self.calls: dict[str, int] = {}

    def wrap(self, owner, attr: str, key: str) -> bool:
        getter = (lambda: owner[attr]) if isinstance(owner, dict) else (lambda: getattr(owner, attr, None))
        original = getter()
        if original is None:
            return False

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
        else:
            setattr(owner, attr, timed)
        return True


def one_run(db: Path, json_path: Path, tree: Path, breakdown: bool) -> dict:
    import formats
    import formats.image_adder as importer
    import store.items as items_mod
    import store.media as media_mod
    from store import Store

    if os.environ.get("BENCH_IMAGE_THREADS"):
        importer.IMAGE_THREADS = int(os.environ["BENCH_IMAGE_THREADS"])
    fresh_db(db)
    store = Store.open(db)
    timers = Timers() if breakdown else None
    if timers:
        timers.wrap(formats._READERS, "mmr-life", "parse JSON + list folders")
        timers.wrap(importer.ImageAdder, "prepare_all", "prepare images (pool, wall)")
        timers.wrap(importer.ImageAdder, "register", "register image rows")
        timers.wrap(items_mod, "create_item", "create items (validate + SQL)")
    started = time.perf_counter()
    report = formats.import_path(store, "mmr-life", json_path, images_dir=tree, author="bench")
    seconds = time.perf_counter() - started
    store.close()              # last connection closes: WAL checkpoint (not timed)
    media = db.with_name(f"{db.stem}-media")
    files = [p for p in media.rglob("*") if p.is_file()]
    linked = sum(1 for p in files if p.stat().st_nlink > 1)
    out = {"seconds": seconds, "report": report.to_dict(),
           "problem_counts": report.problem_counts(), "media_files": len(files),
           "hard_linked_files": linked,
           "link_files": getattr(media_mod, "LINK_FILES", None),
           "image_threads": getattr(importer, "IMAGE_THREADS", None)}
    out["report"].pop("problems", None)
    if timers:
        phases = {k: {"s": round(v, 2), "calls": timers.calls[k], "share": round(v / seconds, 3)}
                  for k, v in timers.seconds.items()}
        phases["rest (importer loop, materialize, commit)"] = {
            "s": round(seconds - sum(timers.seconds.values()), 2)}
        out["breakdown"] = phases
    return out


def spawn_run(db: Path, json_path: Path, tree: Path, mode: str, breakdown: bool) -> dict:
    cmd = module_command("import_mmr_life", "--_one-run", str(db), "--json", str(json_path),
                         "--tree", str(tree))
    if breakdown:
        cmd.append("--breakdown")
    env = {k: v for k, v in os.environ.items()
           if k not in ("CLUELAB_COPY_MEDIA", "BENCH_IMAGE_THREADS")}
    env.update(MODES[mode])
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, cwd=REPO)
    if proc.returncode != 0:
        raise RuntimeError(f"{mode} run failed:\n{proc.stderr[-3000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


# ---- driver -------------------------------------------------------------------------------------
def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n", 2)[2])
    ap.add_argument("--json", type=Path, default=DEFAULT_JSON,
                    help=f"the authors' MMR_Life.json (default {DEFAULT_JSON})")
    ap.add_argument("--tree", type=Path, default=DEFAULT_TREE,
                    help=f"image tree root, generated if missing (default {DEFAULT_TREE})")
    ap.add_argument("--db", type=Path, default=DEFAULT_DB,
                    help=f"where the last link run's database is kept (default {DEFAULT_DB})")
    ap.add_argument("--runs", type=int, default=5, help="fresh-database runs per mode (default 5)")
    ap.add_argument("--modes", default=",".join(MODES),
                    help=f"comma-separated, from: {', '.join(MODES)} (default all)")
    ap.add_argument("--breakdown", action="store_true",
                    help="one extra timed-by-phase run per mode (not counted in the figures)")
    ap.add_argument("--max-busy", type=float, default=0.6,
                    help="before each run wait until fewer cores than this are busy "
                         "(other users' jobs; default 0.6 of 2)")
    ap.add_argument("--no-quiet-wait", action="store_true", help="measure regardless of load")
    ap.add_argument("--_one-run", dest="one_run", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)

    if args.one_run:           # child process: one import, JSON on stdout
        print(json.dumps(one_run(args.one_run, args.json, args.tree, args.breakdown)))
        return 0

    modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    if any(m not in MODES for m in modes):
        raise SystemExit(f"--modes: choose from {list(MODES)}")
    tree = args.tree.resolve()
    tree_s = ensure_tree(tree, args.json)
    json_path = tree / "MMR_Life.json"
    n_files = sum(len(p.read_bytes()) > 0 for p in (tree / "images").rglob("*.png"))  # warm cache
    work = OUT / "import-runs"
    work.mkdir(parents=True, exist_ok=True)
    run_db = work / "mmr.db"       # same stem as the kept db, so the media folder name matches
    db = args.db.resolve()

    load_before = [round(x, 2) for x in os.getloadavg()]
    runs: dict[str, list[dict]] = {m: [] for m in modes}
    gate = QuietGate(args.max_busy, enabled=not args.no_quiet_wait)
    for n in range(1, args.runs + 1):
        for mode in modes:
            gate.wait()
            r = spawn_run(run_db, json_path, tree, mode, breakdown=False)
            runs[mode].append(r)
            rep = r["report"]
            log(f"run {n} {mode}: {r['seconds']:.2f} s  {rep['imported'] / r['seconds']:.0f} items/s  "
                f"{rep['images'] / r['seconds']:.0f} images/s  ({r['hard_linked_files']} of "
                f"{r['media_files']} media files hard-linked)")
            if mode == modes[0]:          # keep the latest for the UI benchmarks
                fresh_db(db)
                run_db.rename(db)
                run_db.with_name("mmr-media").rename(db.with_name(f"{db.stem}-media"))
            else:
                fresh_db(run_db)

    breakdowns = {}
    if args.breakdown:
        for mode in modes:
            r = spawn_run(run_db, json_path, tree, mode, breakdown=True)
            breakdowns[mode] = {"total_s": round(r["seconds"], 2), **r["breakdown"]}
            log(f"breakdown {mode}: {json.dumps(breakdowns[mode])}")
            fresh_db(run_db)

    results = {}
    ratios = {}
    for mode in modes:
        rs = runs[mode]
        items_s = [r["report"]["imported"] / r["seconds"] for r in rs]
        images_s = [r["report"]["images"] / r["seconds"] for r in rs]
        med = statistics.median(items_s)
        results[mode] = {
            "seconds": summarize([r["seconds"] for r in rs], digits=2),
            "items_per_s": summarize(items_s, digits=0),
            "images_per_s": summarize(images_s, digits=0),
            "ratio_to_target": round(med / TARGET_ITEMS_PER_S, 2),
            "meets_target": med >= TARGET_ITEMS_PER_S,
            "hard_linked_files": rs[-1]["hard_linked_files"],
            "image_threads": rs[-1]["image_threads"],
        }
    def ratio(a, b):
        if a in results and b in results:
            ratios[f"{a} / {b} (median seconds)"] = round(
                results[a]["seconds"]["median"] / results[b]["seconds"]["median"], 2)
    ratio("copy", "link")
    ratio("link", "link-1thread")
    ratio("copy", "copy-1thread")
    last = next(iter(runs.values()))[-1]
    summary = {
        "benchmark": "import_mmr_life",
        "runs_per_mode": args.runs,
        "target_items_per_s": TARGET_ITEMS_PER_S,
        "modes": results,
        "ratios": ratios,
        "report": last["report"],
        "problem_counts": last["problem_counts"],
        "media_files": last["media_files"],
        "image_threads": last["image_threads"],
        "tree_files": n_files,
        "tree_generated_s": round(tree_s, 1),
        "breakdown": breakdowns or None,
        "kept_db": str(db),
        "loadavg_before": load_before,
        "quiet_gate": gate.report(),
        "machine": machine(),
    }
    emit(summary)
    return 0


if __name__ == "__main__":
    sys.exit(main())
