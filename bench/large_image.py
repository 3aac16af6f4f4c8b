"""Import of one very large PNG (~190 MP): wall time and peak memory (RSS) of the process;
and, with --small N, what decoding every image at import costs a bulk import of small PNGs.

Each repeat runs in a fresh Python process (`--child`), so its peak RSS (ru_maxrss) is the
import's alone: open a store, `add_image` the PNG from its path, then ask for the preview the
editor shows (`preview_path`). Times are reported per phase, medians over the repeats.
`--small N` instead adds the first N PNGs of the MMR-Life tree (bench/make_mmr_life_tree.py)
one by one into a fresh store: images per second. `--code DIR` runs the child against another
checkout's `store` (e.g. `git archive` of the commit before), for before/after figures.
`--synthetic` makes the N small PNGs in memory instead (64 x 48, all different), so no tree
is needed; the store is then on /dev/shm too, so the figure is add_image's own cost and not
how busy a shared disk is (this was a timed test, tests/test_store_perf.py, with a floor of
1,000 images/s that failed whenever the machine was loaded).

    python bench/large_image.py [--megapixels 190] [--repeats 3] [--small N [--synthetic]]
                                [--code DIR]
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


def synthetic_pngs(n: int) -> list[tuple[str, bytes]]:
    """`n` different 64 x 48 RGB PNGs (name, bytes), made in memory."""
    import io
    from PIL import Image
    out = []
    for i in range(n):
        buffer = io.BytesIO()
        Image.new("RGB", (64, 48), (i % 251, i % 256, i // 256 % 256)).save(buffer, "PNG")
        out.append((f"frame_{i}.png", buffer.getvalue()))
    return out


def child(png: Path, small: int, synthetic: bool) -> None:
    from store import Store
    if small:
        pngs = (synthetic_pngs(small) if synthetic else
                [(f.name, f.read_bytes())
                 for f in sorted((OUT / "mmr-life").rglob("*.png"))[:small]])
        with tempfile.TemporaryDirectory(dir="/dev/shm") as folder:
            store = Store.open(Path(folder) / "bench.db")
            start = time.perf_counter()
            for name, data in pngs:
                store.add_image(data, name)
            seconds = time.perf_counter() - start
            store.close()
        print(json.dumps({"images": len(pngs), "images_per_s": len(pngs) / seconds}))
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
    parser.add_argument("--synthetic", action="store_true",
                        help="with --small: PNGs made in memory, not the MMR-Life tree")
    parser.add_argument("--code", type=Path, help="checkout whose store/ the child uses")
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        if args.code:
            sys.path.insert(0, str(args.code.resolve()))
        return child(args.child, args.small, args.synthetic)
    png = (OUT / "mmr-life" if args.small else
           make_png(OUT / f"large-{args.megapixels:g}mp.png", args.megapixels))
    if not args.small:
        log(f"{png} ({png.stat().st_size / 2**20:.0f} MB)")
    runs = []
    extra = [*(["--code", str(args.code)] if args.code else []), "--small", str(args.small),
             *(["--synthetic"] if args.synthetic else [])]
    for n in range(args.repeats):
        out = subprocess.run([sys.executable, __file__, "--child", str(png), *extra],
                             check=True, capture_output=True, text=True).stdout
        runs.append(json.loads(out.strip().splitlines()[-1]))
        log(f"run {n + 1}: {runs[-1]}")
    settings = {"repeats": len(runs), "megapixels": args.megapixels, "small": args.small,
                "synthetic": args.synthetic, "code": str(args.code or "")}
    print(json.dumps({key: round(statistics.median(r[key] for r in runs), 2)
                      for key in runs[0]} | settings))


if __name__ == "__main__":
    main()
