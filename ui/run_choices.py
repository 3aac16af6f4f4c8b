"""How a run is named wherever one is picked (Experiments' clue source, Results, Inspect):
one form for every run, named or not (`run_label`): its name when it has one, then what
tells runs apart (model, prompt setting, clue source, image mode, preset, sampling,
samples and repeats), its status and its short id last. One function, so every picker reads the same.
A run with no response at all (it failed its pre-flight: no request was made) is listed last
and says so, instead of cluttering the top of every picker with nothing to show.
"""
from __future__ import annotations

from domain.vocabulary import IMAGE_MODE_TITLES
from runner.config import boxes_text, draws_text, preset_text, sampling_text
from runner.leases import effective_status
from scoring.compared import SETTING_TITLES, labels, table_names, title

from store.run_labels import clues_text
from store.run_labels import short_ids as short_run_ids


def run_label(run: dict, tags: dict[str, str] | None = None, note: str = "",
              names: dict[str, str] | None = None) -> str:
    """'a-clues · fake-vlm · Clue-guided CoT · clues none · images full[ · preset mmr-life]
    [ · T 0.2][ · 5 samples][ · boxes xywh pixels] · done · id fa73': every run in one form, the same
    parts whether it has a name or not (a run without a name read 'fake-vlm · CoT ·
    20261207-… · done', no clues or images part, one with a name had them): its name when
    it has one, the model ('endpoint (model)' when the endpoint's name is not the model's),
    the setting as the tables title it, the clue source, the image mode, the preset, the
    sampling given (`runner.config.sampling_text`: 'T 0.2', 'seed 5'), samples
    and repeats and box convention when the run states them, its status, and last its short
    id (`short_ids`), which tells two runs of one model and setting apart within a picker's
    width (the full id ran past it: 'vlm-b · CoT · 2026120…' twice). Another run's clues
    are named as the tables name them, 'clues of <its label>' (`names`:
    `scoring.compared.table_names`; `store.run_labels.clues_text`); they read 'clues of id
    fa73' here beside 'run:a-cot' in the runs list and 'a-cot clues' in the tables. `note`:
    said after the status ('no responses')."""
    config = run.get("config") or {}
    tags = tags or {}
    images = config.get("image_mode", "full")
    images = IMAGE_MODE_TITLES.get(images, images)
    if config.get("image_mode") == "clue_masked" and config.get("mask_style"):
        images += f" ({config['mask_style']})"
    clues = clues_text(config, names or {})
    parts = [(run.get("name") or "").strip(), endpoint_text(config.get("endpoint") or {}),
             setting_title(config), f"clues {clues}", f"images {images}", preset_text(config),
             sampling_text(config), draws_text(config), boxes_text(config), effective_status(run), note,
             f"id {tags.get(run['id'], run['id'])}"]
    return " · ".join(str(p) for p in parts if p)


def short_ids(runs: list[dict]) -> dict[str, str]:
    """{run id: its short id}: the random part of an id the runner made ('fa73' of
    '20261207-064538-fa73'), the whole id when another of `runs` has the same part or the id
    has another form."""
    return short_run_ids([r["id"] for r in runs])


def labelled(store, run: dict) -> str:
    """`run_label` of one run, its short id among every run of the store."""
    every = store.list_runs()
    return run_label(run, short_ids(every), names=table_names(every))


def setting_title(config: dict) -> str:
    """The prompt setting as the tables title it: 'No-CoT', 'CoT', 'Clue-guided CoT'."""
    setting = config.get("setting") or "?"
    return SETTING_TITLES.get(setting, setting)


def endpoint_text(endpoint: dict) -> str:
    """Two endpoints may serve one model (a local vLLM and a provider): name both."""
    model, name = endpoint.get("model") or "?", endpoint.get("name")
    return f"{name} ({model})" if name and name != model else model


NO_RESPONSES = "no responses"


def run_names(store, run_ids) -> dict[str, str]:
    """{run id: how a table labels it} (`scoring.compared.labels`: its name, else 'model ·
    setting', '[id]' after a label two of them share), as README names runs: the Results
    page's "Scored 2 runs" table and Inspect's tag counts named a run without a name by its
    id. Runs not stored are left out."""
    known = {r["id"] for r in store.list_runs()}
    return labels(store, [rid for rid in dict.fromkeys(run_ids) if rid in known])


def run_choices(store, limit: int | None = None) -> list[tuple[str, str]]:
    """(label, run id) of every run, newest first; runs without responses last, marked."""
    counts = store.response_counts()
    every = store.list_runs()              # newest first, as list_runs(limit) takes them
    runs = every[:limit] if limit is not None else every
    tags, names = short_ids(every), table_names(every)
    label = {r["id"]: run_label(r, tags, names=names) for r in runs}
    with_responses = [(label[r["id"]], r["id"]) for r in runs if counts.get(r["id"])]
    without = [(run_label(r, tags, NO_RESPONSES, names), r["id"]) for r in runs
               if not counts.get(r["id"])]
    return with_responses + without


def runs_with_responses(store) -> list[str]:
    """Run ids that have responses, newest first (what a page can open on)."""
    counts = store.response_counts()
    return [r["id"] for r in store.list_runs() if counts.get(r["id"])]


def cached_state(store, state: str, reason: str, cached_from: str | None,
                 sources: dict) -> tuple[str, str]:
    """(the status cell, the reason cell) of a reply taken from the cache: 'ok, cached' and
    'from the cache, made by <the source run's table label>' before any reason, as
    Experiments' and Inspect's lists both say it (Inspect's said "ok"). `sources`: the
    labels found so far, {run id: label}, filled here (one lookup per source run)."""
    source = cached_from or ""
    if source not in sources:
        sources[source] = title(store, source)
    why = f"from the cache, made by {sources[source]}"
    return f"{state}, cached", "; ".join(p for p in (why, reason) if p)
