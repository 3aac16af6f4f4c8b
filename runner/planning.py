"""Planning a run: validate the config, select items, pin template versions, lay out the
work rows, project the cost, then create the run (all work rows in one transaction).

Planning writes nothing but default templates, so a `--dry-run` or the UI's preview can
plan freely; `create_run` is the single step that makes a run exist.
"""
from __future__ import annotations

import secrets
import time
from dataclasses import dataclass, field, replace

from domain.item_ids import shown_id
from domain.limits import MAX_ITEM_ID
from runner.costs import usd
from runner.projection import project
from runner.config import (ConfigError, Execution, RunConfig, config_id, request_seed,
                           resolved_config, without_departed_preset)
from runner.prompts import PromptSet, ensure_versions, template_names
from runner.run_refs import resolve_clue_source
from runner.work import WorkBuilder, clue_texts


@dataclass
class RunPlan:
    config: RunConfig
    execution: Execution
    endpoint: dict
    items: dict[str, dict]          # full item dicts, in run order
    resolved: dict                  # what is recorded as the run's config
    config_id: str
    work: list[tuple]               # (phase, item_id, repeat, sample, seed, item_version)
    projection: dict
    warnings: list[str] = field(default_factory=list)


def new_run_id() -> str:
    """Sortable and readable: '20261129-120000-a1b2'."""
    return time.strftime("%Y%m%d-%H%M%S", time.gmtime()) + "-" + secrets.token_hex(2)


def select_items(store, config: RunConfig) -> list[str]:
    if config.ids:
        ids = list(dict.fromkeys(i.strip() for i in config.ids if i.strip()))
        missing = [i for i in ids if not store.item_exists(i)]
        if missing:    # quoted: an id may hold spaces (never commas: they separate ids)
            raise ConfigError(f"{len(missing)} of the {len(ids)} given ids do not exist: "
                              f"{', '.join(map(_quoted, missing[:10]))}"
                              f"{' …' if len(missing) > 10 else ''}")
        return ids
    filters = {k: v for k, v in config.filters.items() if v not in (None, "")}
    ids = store.item_ids(**filters)
    if not ids:
        shown = ", ".join(f"{k}={v}" for k, v in filters.items()) or "no filter"
        raise ConfigError(f"no items match ({shown}); the database has "
                          f"{store.count_items()} items")
    return ids


def _quoted(item_id: str) -> str:
    """An id as a refusal quotes it: repr escapes line breaks and U+202E; an id over the
    limit is cut to its start and its length (domain/item_ids.shown_id), not echoed whole."""
    return repr(item_id) if len(item_id) <= MAX_ITEM_ID else shown_id(item_id)


def _work_rows(config: RunConfig, items: dict[str, dict], base_seed: int | None
               ) -> list[tuple]:
    """(phase, item_id, repeat, sample, seed, item_version) for every request of the run."""
    rows = []
    for item_id, item in items.items():
        version = item.get("version")
        for repeat in range(config.repeats):
            if config.clues == "self":
                rows.append(("clues", item_id, repeat, 0,
                             request_seed(base_seed, repeat, 0, config.repeats), version))
            for sample in range(config.samples):
                rows.append(("answer", item_id, repeat, sample,
                             request_seed(base_seed, repeat, sample, config.repeats), version))
    return rows


def unanswerable(item: dict) -> bool:
    """A multiple-choice item with no option: nothing to choose from, and a letter the
    model names could not be scored honestly (an MMR-Life import whose options were not
    found flags such items). The plan leaves it out, saying how many."""
    return item["answer_type"] == "multiple_choice" and not item.get("options")


def _left_out(items: dict[str, dict]) -> tuple[dict[str, dict], list[str]]:
    """(the items a run can ask, warnings about those it cannot); ConfigError when none is
    left."""
    refused = [item_id for item_id, item in items.items() if unanswerable(item)]
    if not refused:
        return items, []
    if len(refused) == len(items):
        raise ConfigError(f"none of the {len(items)} items can be asked: "
                          f"{_unanswerable_text(refused)}")
    kept = {item_id: item for item_id, item in items.items() if item_id not in refused}
    return kept, [f"{len(refused)} of the {len(items)} items are left out of the run: "
                  + _unanswerable_text(refused)]


def _unanswerable_text(ids: list[str]) -> str:
    shown = ", ".join(ids[:3]) + (f" and {len(ids) - 3} more" if len(ids) > 3 else "")
    return (f"multiple choice with no options ({shown}): there is nothing to choose from "
            "and no letter could be scored; give them options (Annotate) or re-import them")


def _flagged(items: dict[str, dict]) -> str | None:
    """'210 of 210 items are flagged with import problems: no 'Options:' in question (210),
    missing image folder (210)': every flagged item, its problems counted by kind (the
    sentence up to its first colon), most frequent first; None when none is flagged."""
    kinds: dict[str, int] = {}
    flagged = 0
    for item in items.values():
        problems = item.get("problems") or []
        flagged += bool(problems)
        for kind in dict.fromkeys(p.split(":", 1)[0].strip() for p in problems):
            kinds[kind] = kinds.get(kind, 0) + 1
    if not flagged:
        return None
    ranked = sorted(kinds.items(), key=lambda k: (-k[1], k[0]))
    return (f"{flagged} of {len(items)} items are flagged with import problems: "
            + ", ".join(f"{kind} ({n})" for kind, n in ranked)
            + " (the Annotate page lists them under Import problems)")


def _warnings(store, config: RunConfig, items: dict[str, dict]) -> list[str]:
    out = []
    if config.image_mode != "text_only":
        # an import that found no image folder flags its items but keeps them; a run on
        # them measures text-only answering under an image setting's name
        imageless = sum(1 for i in items.values() if not i.get("images"))
        if imageless:
            out.append(f"{imageless} of {len(items)} items have no image: the model sees only "
                       "their text (filter on import problems, or re-import with the images)")
    if config.clues == "gt":
        bare = sum(1 for i in items.values() if not any(c.get("text") for c in i["clues"]))
        if bare:
            out.append(f"{bare} items have no GT clues: they are recorded as errors "
                       "without a request")
    if config.clues.startswith("run:"):
        # counted, not guessed from its setting: a clues=self run's answers, whose setting
        # (cot) asks for no clues, held clues for 13 of 14 items and got this warning
        source = store.get_run(config.clues[4:])  # NotFoundError names the run
        found = store.run_response_clues(source["id"])
        bare = sum(1 for item_id in items
                   if not clue_texts((found.get((item_id, 0)) or {}).get("clues") or []))
        if bare:
            # not asked, and counted apart from the errors (`runner.totals`): the summary
            # said "no source clue 1" under a warning that promised an error
            from runner.source_names import source_title    # by its name, not its id
            out.append(f"{source_title(store, source['id'])} has no clues for {bare} of "
                       f"these {len(items)} "
                       "items: they are not asked, counted apart from the errors as \"no "
                       "source clue\", and unscored in every table")
    if config.image_mode in ("clue_masked", "clue_crops"):
        unboxed = sum(1 for i in items.values()
                      if not any(c.get("boxes") for c in i["clues"]))
        if unboxed:
            out.append(f"{unboxed} items have no GT boxes: their images are sent "
                       + ("unmasked" if config.image_mode == "clue_masked" else "without crops"))
    return out


def plan_run(store, config: RunConfig, execution: Execution | None = None) -> RunPlan:
    config, departed = without_departed_preset(config.validate())
    config = replace(config, clues=resolve_clue_source(store, config.clues))  # run:NAME -> ID
    execution = (execution or Execution()).validate()
    endpoint = store.get_endpoint(config.endpoint)
    item_ids = select_items(store, config)
    selected = {item_id: store.get_item(item_id) for item_id in item_ids}
    items, refused = _left_out(selected)
    answer_types = {item["answer_type"] for item in items.values()}
    versions = ensure_versions(store, template_names(config.setting, config.clues, answer_types,
                                                     config.clue_pass_setting))
    resolved = resolved_config(config, endpoint, versions,
                               {i: item["version"] for i, item in items.items()})
    work = _work_rows(config, items, resolved["sampling"].get("seed"))
    plan = RunPlan(config, execution, endpoint, items, resolved, config_id(resolved), work,
                   {}, refused + [w for w in [_flagged(selected), departed] if w]
                   + _warnings(store, config, items))
    plan.projection = project(store, plan)
    plan.warnings += _budget_warnings(execution, plan.projection)
    return plan


def _budget_warnings(execution: Execution, projection: dict) -> list[str]:
    """A budget below one request's projected cost stops the run before it sends anything
    (the review's $1 budget against a CoT request projected at $3.27), and one below the
    whole projection stops it part way: both said before launch."""
    to_send, cost = projection.get("to_send") or 0, projection.get("cost_guess",
                                                                    projection.get("cost"))
    if execution.budget is None or not to_send or cost is None:
        return []
    per = cost / to_send
    basis = _guess_basis(projection)
    if per <= execution.budget:
        if cost <= execution.budget:
            return []
        covered = int(execution.budget // per)
        return [f"the budget of {usd(execution.budget)} is below the estimated cost of "
                f"${cost:.4f} ({basis}): it covers about {covered} "
                f"of the {to_send} requests, and the run stops there (resume it with a "
                "higher budget to go on)"]
    return [f"the budget of {usd(execution.budget)} is below one request's estimated cost "
            f"(${per:.4f}, {basis}): the run stops before it sends "
            "anything; raise the budget or set max_tokens"]


def _guess_basis(projection: dict) -> str:
    """What the budget's estimate rests on. Where no reply length is measured, the plan
    shows the max_tokens bound ("at most"), and the guard a typical length: the warning
    says so and quotes the bound too, or its figure matched nothing on the screen."""
    if not projection.get("completion_bounded") or projection.get("cost_max") is None:
        return "an estimate until replies come in"
    return ("a typical reply length, none measured yet for this model; at most "
            f"${projection['cost_max']:.4f} at max_tokens")


def create_run(store, plan: RunPlan, author: str | None = None) -> str:
    """Record the run and all its work rows; returns the run id."""
    execution = plan.execution.to_dict()
    to_send = plan.projection.get("to_send") or 0
    guess = plan.projection.get("cost_guess", plan.projection.get("cost"))
    if guess is not None and to_send:      # the a-priori length where none is measured
        execution["estimate_per_request"] = guess / to_send
        if plan.config.max_tokens:      # a bound only when the replies have one
            execution["bound_per_request"] = plan.projection["cost_max"] / to_send
    run_id = new_run_id()
    store.create_run(run_id, plan.config_id, plan.resolved, execution,
                     plan.endpoint["name"], plan.work, author)
    return run_id


def preview_request(store, plan: RunPlan, item_id: str | None = None) -> dict:
    """The exact request the run would send first for one item (the UI's preview): the
    payload with data URLs, its cache key, and whether the cache already holds the reply.
    For clues=self the answer phase depends on the first pass, so the first pass is shown."""
    from runner.messages import ImageEncoder, materialise

    item_id = item_id or next(iter(plan.items))
    if item_id not in plan.items:
        raise ConfigError(f"item {item_id} is not part of this run")
    builder = WorkBuilder(plan.resolved, PromptSet.load(store, plan.resolved["templates"]),
                          plan.items)
    if plan.config.clues.startswith("run:"):
        builder.set_clue_responses(store.run_response_clues(plan.config.clues[4:]))
    phase = "clues" if plan.config.clues == "self" else "answer"
    request = builder.build({"id": 0, "phase": phase, "item_id": item_id, "repeat": 0,
                             "sample": 0})
    out = {"item_id": item_id, "phase": phase, "error": request.error, "payload": None,
           "cache_key": request.key, "cached": False}
    if request.error:
        return out
    messages = materialise(request.messages, ImageEncoder(store))
    out["payload"] = {"model": plan.endpoint["model"], "messages": messages, **request.params}
    out["cached"] = plan.execution.use_cache and store.cache_get(request.key) is not None
    return out
