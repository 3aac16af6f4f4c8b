"""One repeat of bench/large_image.py, in a fresh process so that its peak RSS is the import's
alone: add the large PNG (or N small ones) to a new store and print one JSON line.

Started by large_image.py as `python -P bench/large_image_child.py PNG TREE --small N
[--synthetic]` with PYTHONPATH set to the checkout being measured (this one, or `--code DIR`):
it imports nothing from bench/, only `store`, so that checkout's `store` is the one timed.
"""
from __future__ import annotations

import argparse
import io
import json
import resource
import tempfile
import time
from pathlib import Path

from PIL import Image

from store import Store


def synthetic_pngs(n: int) -> list[tuple[str, bytes]]:
    """`n` different 64 x 48 RGB PNGs (name, bytes), made in memory."""
    out = []
    for i in range(n):
        buffer = io.BytesIO()
        Image.new("RGB", (64, 48), (i % 251, i % 256, i // 256 % 256)).save(buffer, "PNG")
        out.append((f"frame_{i}.png", buffer.getvalue()))
    return out


def child(png: Path, tree: Path, small: int, synthetic: bool) -> None:
    if small:
        pngs = (synthetic_pngs(small) if synthetic else
                [(f.name, f.read_bytes())
                 for f in sorted(tree.rglob("*.png"))[:small]])
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
    parser.add_argument("png", type=Path, help="the large PNG (unused with --small)")
    parser.add_argument("tree", type=Path, help="MMR-Life image tree the --small PNGs come from")
    parser.add_argument("--small", type=int, default=0)
    parser.add_argument("--synthetic", action="store_true")
    args = parser.parse_args()
    child(args.png, args.tree, args.small, args.synthetic)


if __name__ == "__main__":
    main()
