"""Import of one very large PNG (~190 MP): wall time and peak memory (RSS) of the process;
and, with --small N, what decoding every image at import costs a bulk import of small PNGs.

Each repeat runs in a fresh Python process (`--child`), so its peak RSS (ru_maxrss) is the
import's alone: open a store, `add_image` the PNG from its path, then ask for the preview the
editor shows (`preview_path`). Times are reported per phase, medians over the repeats.
`--small N` instead adds the first N PNGs of the MMR-Life tree (bench/make_mmr_life_tree.py)
one by one into a fresh store: images per second. `--code DIR` runs the child against another
checkout's `store` (e.g. `git archive` of the commit before), for before/after figures.

    python bench/large_image.py [--megapixels 190] [--repeats 3] [--small N] [--code DIR]
"""
from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import _common  # noqa: F401  (puts the repository first on sys.path)
from _common import OUT, log


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


def child(png: Path, small: int) -> None:
    from store import Store
    if small:
        files = sorted((OUT / "mmr-life").rglob("*.png"))[:small]
        datas = [f.read_bytes() for f in files]
        with tempfile.TemporaryDirectory(dir="/dev/shm") as folder:
            store = Store.open(Path(folder) / "bench.db")
            start = time.perf_counter()
            for f, data in zip(files, datas):
                store.add_image(data, f.name)
            seconds = time.perf_counter() - start
            store.close()
        print(json.dumps({"images": len(files), "images_per_s": len(files) / seconds}))
        return
    with tempfile.TemporaryDirectory() as folder:
        store = Store.open(Path(folder) / "bench.db")
        start = time.perf_counter()
        sha = store.add_image(png, png.name).sha256
        imported = time.perf_counter() - start
        store.preview_path(sha)
        viewed = time.perf_counter() - start - imported
        store.close()
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"import_s": imported, "first_preview_s": viewed, "peak_rss_mb": peak_mb}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--megapixels", type=float, default=190)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--small", type=int, default=0)
    parser.add_argument("--code", type=Path, help="checkout whose store/ the child uses")
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        if args.code:
            sys.path.insert(0, str(args.code.resolve()))
        return child(args.child, args.small)
    png = (OUT / "mmr-life" if args.small else
           make_png(OUT / f"large-{args.megapixels:g}mp.png", args.megapixels))
    if not args.small:
        log(f"{png} ({png.stat().st_size / 2**20:.0f} MB)")
    runs = []
    extra = [*(["--code", str(args.code)] if args.code else []), "--small", str(args.small)]
    for n in range(args.repeats):
        out = subprocess.run([sys.executable, __file__, "--child", str(png), *extra],
                             check=True, capture_output=True, text=True).stdout
        runs.append(json.loads(out.strip().splitlines()[-1]))
        log(f"run {n + 1}: {runs[-1]}")
    print(json.dumps({key: round(statistics.median(r[key] for r in runs), 2)
                      for key in runs[0]} | {"repeats": len(runs), "megapixels": args.megapixels,
                                             "small": args.small, "code": str(args.code or "")}))


if __name__ == "__main__":
    main()
