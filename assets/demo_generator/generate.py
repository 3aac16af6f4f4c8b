"""Generate ClueLab's demo dataset into ``assets/demo/`` (``demo.jsonl`` and ``images/``).

The command behind ``python -m assets.demo_generator [--out DIR]``: draws every scene in a fixed
order, writes the JSONL, removes stale images and prints a one-line summary per item.
"""
from __future__ import annotations

import argparse
from pathlib import Path

from assets.demo_generator.demo_set import DemoSet
from assets.demo_generator.scenes import daily_reading, daily_situations, location, science, spatial

DEFAULT_OUT = Path(__file__).resolve().parent.parent / "demo"

# Every scene, in the order the items are added (the printed summary follows it).
SCENES = (location.munich, location.montreal, spatial.chess, spatial.pantry, spatial.floorplan,
          daily_reading.bus_stop, daily_reading.bakery, daily_situations.kitchen,
          daily_situations.sms, daily_situations.park, daily_reading.nutrition,
          science.thermometer, science.moon, science.plant_sequence)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output folder (default: assets/demo)")
    args = ap.parse_args(argv)
    demo = DemoSet(args.out)
    for scene in SCENES:
        scene(demo)
    path = demo.write_jsonl()
    demo.remove_stale()
    total = sum(p.stat().st_size for p in args.out.rglob("*") if p.is_file())
    print(f"wrote {len(demo.items)} items, {len(demo.written)} images to {args.out} ({total / 1e6:.2f} MB)")
    for it in demo.items:
        nb = sum(len(cl["boxes"]) for cl in it["clues"])
        print(f"  {it['id']:28} {it['domain']:24} {it['answer_type']:16} imgs={len(it['images'])}"
              f"+{sum(1 for o in it['options'] if 'image' in o)} clues={len(it['clues'])} boxes={nb} {it['status']}")
    print(f"jsonl: {path}")
