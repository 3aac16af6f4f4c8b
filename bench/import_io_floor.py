#!/usr/bin/env python3
"""Side experiment for the import benchmark: how fast can the *image* part of an import go?

import_mmr_life.py shows that storing images (read, sha256, Pillow check, write into the media
folder) dominates the MMR-Life import. This script replays exactly that per-image work on the
same ~19,200 PNGs, outside the database, in one process and one run, so the variants compare
under the same machine noise:

  serial_store   store.media's own steps, one after the other: read_bytes, sha256,
                 inspect_image, _write_atomically (mkstemp + write + os.replace)
  serial_plain   the same but writing with a plain open(path, "xb") (no temp file + rename)
  write_only     only the file writes (open "xb"), the file-system floor of the import
  threads_N      serial_store's steps in a ThreadPoolExecutor of N threads (file I/O, hashing
                 and zlib release the GIL), what an importer that prepares images in a pool
                 and only inserts rows on the main thread could reach

Each variant writes into its own fresh folder under bench/out/io-floor/ (deleted afterwards).
The variants run in rotating order for --rounds rounds; medians are reported.

Run:  python bench/import_io_floor.py [--tree bench/out/mmr-life] [--rounds 3] [--threads 4]
"""
from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import statistics
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import DEFAULT_TREE, OUT, emit, log, machine


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n", 2)[2])
    ap.add_argument("--tree", type=Path, default=DEFAULT_TREE,
                    help="image tree made by bench/make_mmr_life_tree.py")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--threads", type=int, default=4)
    args = ap.parse_args(argv)

    from store.media import _write_atomically, inspect_image, original_path

    files = sorted((args.tree / "images").rglob("*.png"))
    if not files:
        raise SystemExit(f"no PNGs under {args.tree}/images; run bench/import_mmr_life.py first")
    blobs = {p: p.read_bytes() for p in files}   # warms the page cache too
    root = OUT / "io-floor"

    def store_steps(path: Path, media: Path) -> None:
        data = path.read_bytes()
        sha = hashlib.sha256(data).hexdigest()
        width, height, fmt = inspect_image(data, path.name)
        _write_atomically(original_path(media, sha, fmt), data)

    def plain_steps(path: Path, media: Path) -> None:
        data = path.read_bytes()
        sha = hashlib.sha256(data).hexdigest()
        width, height, fmt = inspect_image(data, path.name)
        dest = original_path(media, sha, fmt)
        dest.parent.mkdir(exist_ok=True)
        with open(dest, "xb") as f:
            f.write(data)

    def write_only(path: Path, media: Path) -> None:
        data = blobs[path]
        sha = hashlib.sha256(str(path).encode()).hexdigest()
        dest = media / sha[:2] / f"{sha}.png"
        dest.parent.mkdir(exist_ok=True)
        with open(dest, "xb") as f:
            f.write(data)

    def serial(fn):
        def run(media):
            for p in files:
                fn(p, media)
        return run

    def threaded(fn, n):
        def run(media):
            with ThreadPoolExecutor(n) as pool:
                for _ in pool.map(lambda p: fn(p, media), files, chunksize=64):
                    pass
        return run

    variants = {"serial_store": serial(store_steps), "serial_plain": serial(plain_steps),
                "write_only": serial(write_only),
                f"threads_{args.threads}": threaded(store_steps, args.threads)}
    times: dict[str, list[float]] = {k: [] for k in variants}
    names = list(variants)
    for r in range(args.rounds):
        order = names[r % len(names):] + names[:r % len(names)]
        for name in order:
            media = root / name
            shutil.rmtree(media, ignore_errors=True)
            media.mkdir(parents=True)
            os.sync()
            t = time.perf_counter()
            variants[name](media)
            times[name].append(time.perf_counter() - t)
            shutil.rmtree(media)
            os.sync()
            log(f"round {r + 1} {name}: {times[name][-1]:.2f} s")
    shutil.rmtree(root, ignore_errors=True)

    base = statistics.median(times["serial_store"])
    result = {name: {"median_s": round(statistics.median(v), 2),
                     "images_per_s": round(len(files) / statistics.median(v)),
                     "ratio_to_serial_store": round(statistics.median(v) / base, 2),
                     "all_s": [round(x, 2) for x in v]}
              for name, v in times.items()}
    emit({"benchmark": "import_io_floor", "images": len(files), "rounds": args.rounds,
          "variants": result, "machine": machine()})
    return 0


if __name__ == "__main__":
    sys.exit(main())
