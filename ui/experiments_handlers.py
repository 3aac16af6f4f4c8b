"""Experiments page: the run form, its preview and start.

Plain functions of plain values (the wiring in experiments_tab unpacks widgets and turns
ExperimentError into an on-screen message). Endpoints and prices: ui/experiments_endpoints;
the error and key redaction they share: ui/experiments_common.
"""
from __future__ import annotations

from domain.geometry import AUTO, BOX_CONVENTIONS, convention_text
from domain.vocabulary import SETTING_TITLES, counted
from judges.samples import rule_problem
from runner.config import (PRESET_PROTOCOLS, PRESETS, ConfigError, Execution, RunConfig,
                           parse_id_list, preset_departure)
from runner.costs import DEFAULT_MAX_COMPLETION, completion_words
from store import StoreError
from ui.browser_handlers import ALL
from ui.experiments_common import ExperimentError, as_float, as_int, blank, code, redact
from ui.text import TILDE, escape_md

CLUE_SOURCES = ["none", "gt", "run", "self"]
CLUE_SOURCE_LABELS = [("none", "none"), ("GT clues", "gt"), ("another run's clues", "run"),
                      ("the model's own clues (first pass)", "self")]
PRESET_TITLES = {"mmr-life": "MMR-Life"}


def _preset_label(name: str) -> str:
    """'MMR-Life: CoT, no clues, T 0.5, top_p 0.5, seed 17': what choosing it sets."""
    protocol, sampling = PRESET_PROTOCOLS[name], PRESETS[name]
    parts = [SETTING_TITLES.get(protocol["setting"], protocol["setting"]),
             "no clues" if protocol["clues"] == "none" else f"{protocol['clues']} clues"]
    parts += [f"{key if key != 'temperature' else 'T'} {sampling[key]:g}"
              for key in ("temperature", "top_p", "seed") if sampling.get(key) is not None]
    return f"{PRESET_TITLES.get(name, name)}: " + ", ".join(parts)


PRESET_CHOICES = [("none", "none")] + [(_preset_label(name), name) for name in PRESETS]
"""The Preset box's choices, each saying what choosing it sets (`preset_protocol`)."""
RUN_FIELDS = ("endpoint", "setting", "clues", "clue_run", "clue_pass", "image_mode",
              "mask_style", "samples", "repeats", "temperature", "top_p", "max_tokens", "seed",
              "preset", "image_max_pixels", "image_format", "image_quality", "dataset",
              "domain", "subtask", "status", "flagged", "ids", "budget", "deadline",
              "use_cache", "box_convention")
"""The run form, in the order of the API's parameters (one added later comes last: a
gradio_client script that gives the earlier ones gets the control's default for it)."""
BOX_CONVENTION_CHOICES = [("auto: each reply's scale detected, corners", AUTO)] + [
    (convention_text(c) + (" (x0, y0, x1, y1)" if not c.startswith("xywh") else
                           " (x, y, width, height)"), c) for c in BOX_CONVENTIONS]
BOX_CONVENTION_INFO = ("How the model writes its boxes, read by the grounded score and "
                       "Inspect: auto detects each reply's scale (pixels, 0-1, 0-1000) and "
                       "takes four numbers for corners; state it when the model writes xywh "
                       "or the detection guesses wrong.")


def _pick(value):
    return None if blank(value) or value == ALL else value


def preset_after_change(preset, setting, clues, image_mode) -> str:
    """The preset once the setting, clue source or image mode changed: "none" when they
    depart from its protocol (`runner.config.PRESET_PROTOCOLS`: a clue_guided run with GT
    clues is not MMR-Life's), else as it was, so the form never keeps a preset its run
    would not follow (the run was labelled "preset mmr-life" all the same)."""
    if blank(preset) or preset == "none":
        return "none"
    chosen = RunConfig(endpoint="", setting=setting, clues=clues or "none",
                       image_mode=image_mode or "full", preset=preset)
    return "none" if preset_departure(chosen) else preset


def preset_protocol(preset) -> list:
    """[setting, clue source, image mode, temperature, top_p, seed] of the preset's
    protocol and sampling when one is chosen (choosing it fills them: the fields said
    "default"/"none" while the run took 0.5, 0.5, 17), None each for "none" (left as they
    are)."""
    protocol = PRESET_PROTOCOLS.get(preset or "", {})
    sampling = PRESETS.get(preset or "", {})
    return [protocol.get(k) for k in ("setting", "clues", "image_mode")] + [
        None if sampling.get(k) is None else f"{sampling[k]:g}"
        for k in ("temperature", "top_p", "seed")]


def preset_samples_warning(preset, samples) -> str:
    """The warning, before a start, for a preset run whose samples its rule cannot read:
    MMR-Life's samples rule needs 5 samples per item, or 1 (`judges.samples.rule_problem`),
    and Results refused such a run only once it had run. '' otherwise."""
    if preset != "mmr-life":
        return ""
    try:
        count = int(float(samples or 1))
    except (TypeError, ValueError):
        return ""
    if not rule_problem("mmr_life", count):
        return ""
    return (f"preset MMR-Life with {count} samples: the MMR-Life samples rule needs 5 "
            "samples per item, or 1, so Results would refuse this run under it; set "
            "Samples to 5 (or 1)")


def config_from_form(form: dict) -> tuple[RunConfig, Execution]:
    """RunConfig and Execution from the form's values (keys: RUN_FIELDS)."""
    clues = form.get("clues") or "none"
    if clues == "run":
        if blank(form.get("clue_run")):
            raise ExperimentError("clue source 'another run': choose the run whose clues to "
                                  "inject")
        clues = "run:" + str(form["clue_run"]).strip()
    ids = parse_id_list(form.get("ids"))
    flagged = {"flagged": True, "not flagged": False}.get(form.get("flagged"))
    filters = {k: v for k in ("dataset", "domain", "subtask", "status")
               if (v := _pick(form.get(k))) is not None}
    if flagged is not None:
        filters["flagged"] = flagged
    config = RunConfig(
        endpoint=(form.get("endpoint") or "").strip(), setting=form.get("setting") or "cot",
        clues=clues, clue_pass_setting=form.get("clue_pass") or "clue_guided",
        image_mode=form.get("image_mode") or "full", mask_style=form.get("mask_style") or "black",
        samples=as_int(form.get("samples"), "samples", 1),
        repeats=as_int(form.get("repeats"), "repeats", 1),
        temperature=as_float(form.get("temperature"), "temperature"),
        top_p=as_float(form.get("top_p"), "top_p"),
        max_tokens=as_int(form.get("max_tokens"), "max tokens"),
        seed=as_int(form.get("seed"), "seed"),
        preset=_pick(form.get("preset")) if form.get("preset") != "none" else None,
        image_max_pixels=as_int(form.get("image_max_pixels"), "image max pixels"),
        image_format=form.get("image_format") or "jpeg",
        image_quality=as_int(form.get("image_quality"), "image quality", 90),
        filters={} if ids else filters, ids=ids or None,
        box_convention=form.get("box_convention") or AUTO)
    if not config.endpoint:
        raise ExperimentError("choose an endpoint (add one in the Endpoints panel first)")
    execution = Execution(budget=as_float(form.get("budget"), "budget"),
                          deadline=as_float(form.get("deadline"), "deadline"),
                          use_cache=form.get("use_cache") is not False)  # unset: the default
    return config, execution


def plan(store, form: dict):
    """The RunPlan of the form (nothing is written but default prompt templates)."""
    from runner.planning import plan_run
    from scoring.compared import labelled_plan

    config, execution = config_from_form(form)
    try:
        return labelled_plan(store, plan_run(store, config, execution))
    except (ConfigError, StoreError) as err:
        raise ExperimentError(str(err)) from None


def projection_md(the_plan, may_price: bool = True) -> str:
    """The preview's plan lines; `may_price` False: the reader may not set prices (only an
    admin may: ui/access.py), so a missing price is theirs to ask an admin for."""
    p, model = the_plan.projection, the_plan.endpoint["model"]
    bound = (the_plan.resolved.get("sampling") or {}).get("max_tokens")
    unmeasured = "no completion length measured for this model yet"
    if p["priced"] and p.get("completion_bounded") and p["cost"] == p["cost_max"]:
        cost = (f"**${p['cost_max']:.4f}** at most (max_tokens bound): {unmeasured}" if bound
                else f"**${p['cost_max']:.4f}** if every reply ran to "
                     f"{DEFAULT_MAX_COMPLETION:,} tokens (no max_tokens is set: nothing bounds "
                     f"a reply; {unmeasured})")
    elif p["priced"] and bound:
        cost = f"**${p['cost']:.4f}** typical, ${p['cost_max']:.4f} at most (max_tokens bound)"
    elif p["priced"]:   # "at most" claimed a bound no setting made: nothing bounds a reply
        cost = (f"**${p['cost']:.4f}** typical, ${p['cost_max']:.4f} if every reply ran to "
                f"{DEFAULT_MAX_COMPLETION:,} tokens (no max_tokens is set: nothing bounds a "
                "reply)")
    else:
        cost = (f"**unknown**: no price for model {code(model)}; "
                + ("add one in Prices below" if may_price else "ask an admin to add one in "
                   "Prices") + " (0 for a local server)")
    lines = [f"**{counted(len(the_plan.items), 'item')}** · {counted(p['work'], 'work row')} "
             f"· {counted(p['requests'], 'request')}, {p['cached']} already cached, "
             f"**{p['to_send']} to send**",
             f"{TILDE}{p['prompt_tokens']:,} prompt tokens, "
             f"{escape_md(completion_words(p, grouped=True)).replace('~', TILDE)} "
             f"to send · projected cost {cost}",
             f"cache: {escape_md(p['cache_text'])}",
             f"token estimate: {escape_md(p['basis'])}",
             f"config id {code(the_plan.config_id[:16])}"]
    warnings = list(the_plan.warnings) + key_warning(the_plan.endpoint) + [
        w for w in [preset_samples_warning(the_plan.config.preset, the_plan.config.samples)]
        if w]
    if the_plan.execution.budget is not None and not p["priced"]:
        warnings.append("a budget needs a price for the model: the run cannot start")
    lines += [f"⚠ {escape_md(w)}" for w in warnings]
    return "  \n".join(lines)


def key_warning(endpoint: dict) -> list[str]:
    """The preview's warning when the endpoint's API key variable is unset in the server's
    environment (where runs start and read it), naming the variable, never a value: the
    preview showed a plan and a cost without a word, and only Start refused."""
    from runner.endpoints import api_key_for

    _, problem = api_key_for(endpoint)
    if not problem:
        return []
    return [f"environment variable {endpoint['api_key_env']} (the API key of endpoint "
            f"{endpoint.get('name')}) is not set in the server's environment: Start will "
            "refuse the run unless the cache answers every request; set it where the server "
            "runs and restart the server"]


def check_endpoint(store, endpoint: dict, what: str, coverage) -> str | None:
    """Test an endpoint before a run starts or resumes: the warning to show with the start
    (None when it works), or ExperimentError when it cannot work (nothing listening, key
    missing or refused) and `coverage()` (runner.coverage.Coverage) says the cache does not
    answer every request left; when it does, the run goes on from the cache, saying so."""
    import asyncio

    from runner.coverage import start_verdict
    from runner.endpoints import test_endpoint_async

    go_on, message = start_verdict(redact(store, asyncio.run(test_endpoint_async(endpoint))),
                                   coverage)
    if not go_on:
        raise ExperimentError(f"{what}: {message}")
    return message


def start_run(store, form: dict, user: str) -> dict:
    """Plan, check the endpoint, create the run and start it in its own process.

    Returns {"run_id", "message", "warning"}; raises ExperimentError (nothing created) for
    a bad form or an endpoint that cannot work (nothing listening, missing or refused key).
    """
    from runner.background import hand_over, start_detached
    from runner.coverage import Coverage
    from runner.planning import create_run

    the_plan = plan(store, form)
    if the_plan.execution.budget is not None and not the_plan.projection["priced"]:
        raise ExperimentError(f"a budget needs a price for model {the_plan.endpoint['model']}: "
                              "add one in Prices")
    projection = the_plan.projection
    warning = check_endpoint(store, the_plan.endpoint, "not started",
                             lambda: Coverage(projection["cached"], projection["requests"]))
    early = preset_samples_warning(form.get("preset"), form.get("samples"))
    # the CLI's warning of a budget below one request's cost: the page started such a run
    # without it (it stopped with nothing sent, said only afterwards)
    budget = [w for w in the_plan.warnings if w.startswith("the budget of")]
    warning = "; ".join(w for w in (early, *budget, warning) if w) or None
    run_id = create_run(store, the_plan, author=user)
    # the process is its owner at once (status 'running'), as on a resume: a pause asked
    # while it starts (seconds) is a request it reads, where a 'created' run was set
    # 'paused' on the spot and the process, once up, claimed it and ran it to the end
    hand_over(store, run_id, start_detached(store.path.resolve(), run_id))
    return {"run_id": run_id, "warning": warning,
            "message": f"Run {run_id} started: {len(the_plan.work)} work rows, "
                       f"{the_plan.projection['to_send']} to send. It runs in its own process: "
                       "closing the browser does not stop it."}
