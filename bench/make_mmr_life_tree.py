#!/usr/bin/env python3
"""Build a stand-in MMR-Life image tree for benchmarking the `mmr-life` importer.

Why: the real release (2,676 items, ~19,000 images) is too big to ship, but the importer must be
measured at that scale (folder listing, hashing, media storage, previews). This script takes the
authors' MMR_Life.json and writes, next to a copy of it, the tree the importer expects:

    OUT/MMR_Life.json
    OUT/<img_path>/1.png ... k.png             context images
    OUT/<img_path>/options/1.png ... 5.png     only for items whose question ends with "Options:"

so that `import --format mmr-life OUT/MMR_Life.json` finds every image without `--images`.

Image counts: items with image options (1,217 items) get k = 2..4 context images, the others
k = 3..10 (mean 6.5); with 5 options each that totals about 19,200 images, close to the paper's
19,108 (7.22 per question including options). k, colours and shapes are derived from the item
id, so the tree is identical on every run. Each PNG is small (64-160 px, random solid shapes) and
carries its (item, file) number in its first pixels, so no two files share a sha256 (the store
deduplicates by content hash; duplicates would understate the work).

Run:  python -m bench.make_mmr_life_tree bench/out/mmr-life [--json PATH] [--workers 2] [--force]
Generated data is git-ignored (bench/out/); do not commit it.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import random
import shutil
import sys
import time
from multiprocessing import Pool
from pathlib import Path, PurePosixPath

from PIL import Image, ImageDraw

REPO = Path(__file__).resolve().parent.parent
DEFAULT_JSON = REPO.parent / "shared" / "data" / "mmr-life" / "MMR_Life.json"
DEFAULT_OUT = REPO / "bench" / "out" / "mmr-life"
OPTIONS = 5


def has_image_options(question: str) -> bool:
    """MMR-Life marks image options by ending the question with 'Options:' (text options follow it)."""
    return question.rstrip().endswith("Options:")


def item_rng(item_id: str) -> random.Random:
    """A per-item RNG seeded from the id: same tree on every run, independent of item order."""
    return random.Random(int.from_bytes(hashlib.sha256(item_id.encode()).digest()[:8], "big"))


def context_count(item_id: str, image_options: bool) -> int:
    rng = item_rng(item_id)
    return rng.randint(2, 4) if image_options else rng.randint(3, 10)


def draw_png(path: Path, rng: random.Random, tag: tuple[int, int]) -> None:
    """A small PNG of random solid shapes; ``tag`` (item position, file number) makes it unique."""
    w, h = rng.randint(64, 160), rng.randint(64, 160)
    im = Image.new("RGB", (w, h), tuple(rng.randrange(256) for _ in range(3)))
    d = ImageDraw.Draw(im)
    for _ in range(rng.randint(2, 5)):
        x0, y0 = rng.randrange(w - 8), rng.randrange(h - 8)
        box = (x0, y0, rng.randint(x0 + 8, w), rng.randint(y0 + 8, h))
        fill = tuple(rng.randrange(256) for _ in range(3))
        kind = rng.randrange(3)
        if kind == 0:
            d.rectangle(box, fill=fill)
        elif kind == 1:
            d.ellipse(box, fill=fill)
        else:
            d.polygon([(box[0], box[3]), ((box[0] + box[2]) // 2, box[1]), (box[2], box[3])], fill=fill)
    pos, n = tag
    im.putpixel((0, 0), ((pos >> 8) & 255, pos & 255, n))
    im.putpixel((1, 0), ((pos >> 16) & 255, 0, 0))
    im.save(path, "PNG", compress_level=1)


def write_item(job: tuple[int, str, str, bool, str]) -> tuple[int, int]:
    """Write one item's folder; returns (context images, option images)."""
    pos, item_id, img_path, image_options, out = job
    folder = Path(out) / img_path
    folder.mkdir(parents=True, exist_ok=True)
    k = context_count(item_id, image_options)
    rng = item_rng(item_id + "/pixels")
    for n in range(1, k + 1):
        draw_png(folder / f"{n}.png", rng, (pos, n))
    if not image_options:
        return k, 0
    (folder / "options").mkdir(exist_ok=True)
    for n in range(1, OPTIONS + 1):
        draw_png(folder / "options" / f"{n}.png", rng, (pos, 100 + n))
    return k, OPTIONS


def safe_rel(img_path: str) -> bool:
    p = PurePosixPath(img_path)
    return bool(img_path) and not p.is_absolute() and ".." not in p.parts


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out", nargs="?", type=Path, default=DEFAULT_OUT, help=f"output folder (default {DEFAULT_OUT})")
    ap.add_argument("--json", type=Path, default=DEFAULT_JSON, help="the authors' MMR_Life.json")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--force", action="store_true", help="replace an existing OUT/images tree")
    args = ap.parse_args(argv)

    start = time.perf_counter()
    items = json.loads(args.json.read_text(encoding="utf-8"))
    images_dir = args.out / "images"
    if images_dir.exists():
        if not args.force:
            print(f"{images_dir} exists; use --force to replace it", file=sys.stderr)
            return 2
        shutil.rmtree(images_dir)
    args.out.mkdir(parents=True, exist_ok=True)

    jobs, seen, skipped = [], set(), 0
    for pos, it in enumerate(items, start=1):
        img_path = it.get("img_path") if isinstance(it, dict) else None
        # malformed or duplicate folders are left out: the importer must flag them, not us
        if not isinstance(img_path, str) or not safe_rel(img_path) or img_path in seen:
            skipped += 1
            continue
        seen.add(img_path)
        jobs.append((pos, str(it.get("id", pos)), img_path, has_image_options(str(it.get("question", ""))),
                     str(args.out)))
    if args.workers > 1:
        with Pool(args.workers) as pool:
            counts = pool.map(write_item, jobs, chunksize=64)
    else:
        counts = [write_item(j) for j in jobs]
    shutil.copyfile(args.json, args.out / "MMR_Life.json")

    ctx = sum(c for c, _ in counts)
    opt = sum(o for _, o in counts)
    with_opts = sum(1 for _, o in counts if o)
    elapsed = time.perf_counter() - start
    print(f"items: {len(items)} ({len(jobs)} folders, {skipped} skipped), with image options: {with_opts}")
    print(f"context images: {ctx} (mean {ctx / max(1, len(jobs)):.2f}/item), option images: {opt}, "
          f"total PNG: {ctx + opt}")
    print(f"wrote {args.out} in {elapsed:.1f} s with {args.workers} worker(s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
