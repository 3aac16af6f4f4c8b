"""How a run is named wherever one is picked (Experiments' clue source, Results, Inspect):
its name when it has one, its id, then what tells runs apart (model, prompt setting, clue
source, image mode) and its status. One function, so every picker reads the same.
"""
from __future__ import annotations

from runner.leases import effective_status


def run_label(run: dict) -> str:
    """'[name · ]20260101-… · fake-vlm · cot · clues gt · images full · done'."""
    config = run.get("config") or {}
    images = config.get("image_mode", "full")
    if images == "clue_masked" and config.get("mask_style"):
        images += f" ({config['mask_style']})"
    parts = [run["id"], (config.get("endpoint") or {}).get("model", "?"),
             config.get("setting", "?"), f"clues {config.get('clues', 'none')}",
             f"images {images}", effective_status(run)]
    if (run.get("name") or "").strip():
        parts.insert(0, run["name"].strip())
    return " · ".join(str(p) for p in parts)


def run_choices(store, limit: int | None = None) -> list[tuple[str, str]]:
    """(label, run id) of every run, newest first."""
    return [(run_label(run), run["id"]) for run in store.list_runs(limit)]
