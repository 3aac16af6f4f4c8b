"""How a run is named wherever one is picked (Experiments' clue source, Results, Inspect):
its name when it has one, its id, then what tells runs apart (model, prompt setting, clue
source, image mode, samples and repeats) and its status. One function, so every picker reads the same. A run with
no response at all (it failed its pre-flight: no request was made) is listed last and says
so, instead of cluttering the top of every picker with nothing to show.
"""
from __future__ import annotations

from runner.config import boxes_text, draws_text
from runner.leases import effective_status


def run_label(run: dict) -> str:
    """'[name · ]20260101-… · fake-vlm · cot · clues gt · images full[ · 5 samples][ ·
    boxes xywh pixels] · done' (samples and repeats when more than one:
    `runner.config.draws_text`; the box convention when the run states one); the
    model is 'endpoint (model)' when the endpoint's name is not the model's."""
    config = run.get("config") or {}
    images = config.get("image_mode", "full")
    if images == "clue_masked" and config.get("mask_style"):
        images += f" ({config['mask_style']})"
    parts = [run["id"], _endpoint_text(config.get("endpoint") or {}),
             config.get("setting", "?"), f"clues {config.get('clues', 'none')}",
             f"images {images}", draws_text(config), boxes_text(config), effective_status(run)]
    if (run.get("name") or "").strip():
        parts.insert(0, run["name"].strip())
    return " · ".join(str(p) for p in parts if p)


def _endpoint_text(endpoint: dict) -> str:
    """Two endpoints may serve one model (a local vLLM and a provider): name both."""
    model, name = endpoint.get("model") or "?", endpoint.get("name")
    return f"{name} ({model})" if name and name != model else model


NO_RESPONSES = "no responses"


def run_choices(store, limit: int | None = None) -> list[tuple[str, str]]:
    """(label, run id) of every run, newest first; runs without responses last, marked."""
    counts = store.response_counts()
    runs = store.list_runs(limit)
    with_responses = [(run_label(r), r["id"]) for r in runs if counts.get(r["id"])]
    without = [(f"{run_label(r)} · {NO_RESPONSES}", r["id"]) for r in runs
               if not counts.get(r["id"])]
    return with_responses + without


def runs_with_responses(store) -> list[str]:
    """Run ids that have responses, newest first (what a page can open on)."""
    counts = store.response_counts()
    return [r["id"] for r in store.list_runs() if counts.get(r["id"])]
