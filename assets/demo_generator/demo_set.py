"""The demo dataset being written: the items the scenes add and the images they save.

One object collects everything so that the output folder ends up exact: ``demo.jsonl`` in
ClueLab's JSONL style (sorted keys, natural id order, one item a line) and ``images/`` holding
exactly the files this run wrote (stale ones from an earlier run are removed).
"""
from __future__ import annotations

import json
import re
from pathlib import Path

from assets.demo_generator.drawing import Canvas, photo_finish

DATASET = "demo"


class DemoSet:
    """Collects items and writes images; each scene function adds one item to it."""

    def __init__(self, out: Path):
        self.out = out
        self.items: list[dict] = []
        self.written: set[str] = set()

    def save(self, c: Canvas, name: str, photo_seed: int | None = None) -> str:
        """Save under images/; big photo-like scenes become JPEG q85, drawings stay PNG."""
        rel = f"images/{name}"
        path = self.out / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if photo_seed is not None:
            photo_finish(c.im, photo_seed).save(path, "JPEG", quality=85, optimize=True)
        else:
            c.im.save(path, "PNG", optimize=True)
        self.written.add(rel)
        return rel

    def add(self, slug, *, domain, subtask, question, answer_type, answer, images, clues,
            status="draft", options=(), aliases=(), gt_reasoning="", reasoning_type=None, metadata=None):
        self.items.append({
            "id": f"{DATASET}/{slug}", "dataset": DATASET, "domain": domain, "subtask": subtask,
            "reasoning_type": reasoning_type, "question": question, "answer_type": answer_type,
            "options": list(options), "answer": answer, "aliases": list(aliases),
            "gt_reasoning": gt_reasoning, "status": status, "problems": [],
            "metadata": dict(metadata or {}), "images": list(images),
            "clues": [{"text": t, "reasoning": r, "boxes": list(b)} for t, r, b in clues],
        })

    def write_jsonl(self) -> Path:
        """Write demo.jsonl in ClueLab JSONL style (sorted keys, natural id order, one item a line)."""
        def natural(s):
            return [int(p) if p.isdigit() else p for p in re.split(r"(\d+)", s)]

        path = self.out / "demo.jsonl"
        with open(path, "w", encoding="utf-8", newline="\n") as fh:
            for it in sorted(self.items, key=lambda it: (it["dataset"], natural(it["id"]))):
                fh.write(json.dumps(it, ensure_ascii=False, sort_keys=True, separators=(", ", ": ")) + "\n")
        return path

    def remove_stale(self) -> None:
        """Delete images a previous run wrote that this run no longer produces (keeps the folder exact)."""
        for p in sorted((self.out / "images").rglob("*")):
            if p.is_file() and p.relative_to(self.out).as_posix() not in self.written:
                p.unlink()
