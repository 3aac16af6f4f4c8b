"""Import of one very large PNG (~190 MP): wall time and peak memory (RSS) of the process;
and, with --small N, what decoding every image at import costs a bulk import of small PNGs.

Each repeat runs in a fresh Python process (`--child`), so its peak RSS (ru_maxrss) is the
import's alone: open a store, `add_image` the PNG from its path, then ask for the preview the
editor shows (`preview_path`). Times are reported per phase, medians over the repeats.
`--small N` instead adds the first N PNGs of the MMR-Life tree (bench/make_mmr_life_tree.py)
one by one into a fresh store: images per second. `--code DIR` runs the child against another
checkout's `store` (e.g. `git archive` of the commit before), for before/after figures: the child
(bench/large_image_child.py) imports nothing but `store`, taken from PYTHONPATH.
`--synthetic` makes the N small PNGs in memory instead (64 x 48, all different), so no tree
is needed; the store is then on /dev/shm too, so the figure is add_image's own cost and not
how busy a shared disk is (this was a timed test, tests/test_store_perf.py, with a floor of
1,000 images/s that failed whenever the machine was loaded).

    python -m bench.large_image [--megapixels 190] [--repeats 3] [--small N [--synthetic]]
                                [--code DIR]
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

from bench._common import OUT, REPO, log

CHILD = Path(__file__).resolve().parent / "large_image_child.py"


def make_png(path: Path, megapixels: float) -> Path:
    """A photo-like RGB PNG: a smooth gradient under tiled noise (compresses like a photo
    would not, but decodes the same: Pillow's cost is per pixel)."""
    if path.exists():
        return path
    import numpy as np
    from PIL import Image
    side = int((megapixels * 1e6) ** 0.5)
    width, height = side, int(megapixels * 1e6 // side)
    rng = np.random.default_rng(17)
    tile = rng.integers(0, 48, (256, 256, 3), dtype=np.uint8)
    rows = []
    for y in range(0, height, 256):
        h = min(256, height - y)
        strip = np.tile(tile[:h], (1, width // 256 + 1, 1))[:, :width]
        rows.append(strip + np.uint8(y * 200 // height))
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.fromarray(np.concatenate(rows)).save(path, "PNG", compress_level=1)
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--megapixels", type=float, default=190)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--small", type=int, default=0)
    parser.add_argument("--synthetic", action="store_true",
                        help="with --small: PNGs made in memory, not the MMR-Life tree")
    parser.add_argument("--code", type=Path, help="checkout whose store/ the child uses")
    args = parser.parse_args()
    png = (OUT / "mmr-life" if args.small else
           make_png(OUT / f"large-{args.megapixels:g}mp.png", args.megapixels))
    if not args.small:
        log(f"{png} ({png.stat().st_size / 2**20:.0f} MB)")
    runs = []
    # -P: the child's imports come from PYTHONPATH alone (not from the script's folder)
    command = [sys.executable, "-P", str(CHILD), str(png), str(OUT / "mmr-life"),
               "--small", str(args.small), *(["--synthetic"] if args.synthetic else [])]
    env = {**os.environ, "PYTHONPATH": str((args.code or REPO).resolve())}
    for n in range(args.repeats):
        out = subprocess.run(command, env=env, check=True, capture_output=True, text=True).stdout
        runs.append(json.loads(out.strip().splitlines()[-1]))
        log(f"run {n + 1}: {runs[-1]}")
    settings = {"repeats": len(runs), "megapixels": args.megapixels, "small": args.small,
                "synthetic": args.synthetic, "code": str(args.code or "")}
    print(json.dumps({key: round(statistics.median(r[key] for r in runs), 2)
                      for key in runs[0]} | settings))


if __name__ == "__main__":
    main()
