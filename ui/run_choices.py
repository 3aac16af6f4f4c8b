"""How a run is named wherever one is picked (Experiments' clue source, Results, Inspect):
its name when it has one, else its label in the tables (`scoring.compared.run_label`: model
and setting; the pickers named it by its id while the tables said 'fake-vlm · CoT') and its
id, since unnamed runs of one model and setting share that label; a named run's id only when
another run has the same name, to tell them apart; then what tells runs apart (model, prompt
setting, clue source, image mode, preset, samples and repeats) and its status. One function, so every picker reads the same. A run with
no response at all (it failed its pre-flight: no request was made) is listed last and says
so, instead of cluttering the top of every picker with nothing to show.
"""
from __future__ import annotations

from collections import Counter

from runner.config import boxes_text, draws_text, preset_text
from runner.leases import effective_status
from scoring.compared import SETTING_TITLES, table_names
from scoring.compared import run_label as table_label
from store.run_labels import clues_text, list_names


def run_label(run: dict, name_shared: bool = False, names: dict | None = None) -> str:
    """'name · fake-vlm · cot · clues gt · images full[ · preset mmr-life][ · 5 samples]
    [ · boxes xywh pixels] · done' (the preset when the run has one:
    `runner.config.preset_text`; samples and repeats when more than one:
    `runner.config.draws_text`; the box convention when the run states one); the model is 'endpoint (model)' when the
    endpoint's name is not the model's. A run without a name is named as the tables name it,
    then its id and status ('fake-vlm · CoT · 20260101-… · done': the table label already
    says what is not the default); one whose name another run has too (`name_shared`) by
    both ('name · 20260101-… · …'): a named run's id, a date and a hash, only made the
    pickers' labels long. The setting as the tables title it ('CoT', not 'cot'); another
    run's clues as the tables name that run (`names`: `scoring.compared.table_names` of
    every run: its name, else '(a · Clue-guided CoT)'; without it, by id)."""
    config = run.get("config") or {}
    images = config.get("image_mode", "full")
    if images == "clue_masked" and config.get("mask_style"):
        images += f" ({config['mask_style']})"
    name = (run.get("name") or "").strip()
    if not name:
        return " · ".join((table_label(run, False, names), run["id"], effective_status(run)))
    parts = [name, run["id"] if name_shared else "",
             endpoint_text(config.get("endpoint") or {}),
             setting_title(config), f"clues {clues_text(config, names or {})}",
             f"images {images}", preset_text(config), draws_text(config), boxes_text(config),
             effective_status(run)]
    return " · ".join(str(p) for p in parts if p)


def shared_names(runs: list[dict]) -> set[str]:
    """The names that more than one of `runs` has (their labels add the id)."""
    counts = Counter((r.get("name") or "").strip() for r in runs)
    return {name for name, n in counts.items() if name and n > 1}


def labelled(store, run: dict) -> str:
    """`run_label` of one run, with its id when another run of the store has its name."""
    name, every = (run.get("name") or "").strip(), store.list_runs()
    return run_label(run, bool(name) and name in shared_names(every), table_names(every))


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
    """{run id: how a list names it}: its name, with its id when another run has that name
    too; its id when it has none (the Inspect list named every run by its id)."""
    every = list_names(store.list_runs())
    return {rid: every[rid] for rid in dict.fromkeys(run_ids) if rid in every}


def run_choices(store, limit: int | None = None) -> list[tuple[str, str]]:
    """(label, run id) of every run, newest first; runs without responses last, marked."""
    counts = store.response_counts()
    every = store.list_runs()              # newest first, as list_runs(limit) takes them
    runs = every[:limit] if limit is not None else every
    twice = shared_names(every)
    names = table_names(every)
    label = {r["id"]: run_label(r, (r.get("name") or "").strip() in twice, names)
             for r in runs}
    with_responses = [(label[r["id"]], r["id"]) for r in runs if counts.get(r["id"])]
    without = [(f"{label[r['id']]} · {NO_RESPONSES}", r["id"]) for r in runs
               if not counts.get(r["id"])]
    return with_responses + without


def runs_with_responses(store) -> list[str]:
    """Run ids that have responses, newest first (what a page can open on)."""
    counts = store.response_counts()
    return [r["id"] for r in store.list_runs() if counts.get(r["id"])]
