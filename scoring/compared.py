"""Runs side by side: labelled, in one order, and reduced to the items they share.

Every table and plot across runs (`scoring.tables`, the Results page) reads its runs through
here, so that three rules hold everywhere: runs are compared only on the items they share
(`judges.pairing`; the n is stated and runs sharing nothing are refused); a figure that
subtracts or compares two accuracies (general vs rigorous and its drop, a clue source's delta)
is computed on the items both scored (`on_scored_by_all`), states that n, and the unscored
count of each side is shown; and the result does not depend on the order the runs were named
in (runs are taken sorted by label, then id).
"""
from __future__ import annotations

from judges.pairing import PairingError, Shared, item_key, recorded_items, scored_by_all, \
    shared_items
from runner.config import boxes_text, draws_text, preset_text, sampling_text
from runner.leases import effective_status
from store import NotFoundError
from store.run_labels import RUNNER_ID, clues_text, list_names, short_ids

from domain.vocabulary import IMAGE_MODE_TITLES
from domain.vocabulary import SETTING_TITLES  # noqa: F401 (the tables' titles, named here)
from scoring.extraction import CLUELAB
from scoring.results import ResultsError, check_extraction, judge_choice, on_items, \
    on_keys, run_judges, run_summary

CLUE_TITLES = {"none": "No Clue", "gt": "GT", "self": "Self"}
# Statuses of a run that stopped (or has not yet stopped) before answering all its work.
UNFINISHED = ("cancelled", "stopped", "failed", "interrupted", "paused", "running")


def run_state(run: dict) -> str:
    """The status a table shows for a run: its effective status, except that a run whose
    every answer row is an error is 'failed' whatever it recorded (runs that ended 'done'
    before the runner said so: its totals tell)."""
    status = effective_status(run) if "status" in run else "done"
    totals = run.get("totals") or {}
    answers = totals.get("answer_total", totals.get("total"))
    if answers and totals.get("error") == answers:
        return "failed"
    return status


def run_label(run: dict, with_status: bool = True, names: dict | None = None) -> str:
    """How a table names a run: its name when it has one, else model and setting (and clue
    source, image mode, preset, sampling, samples and repeats and box convention when not the
    default); a run
    that did not finish says so ("(cancelled)", "(interrupted)", ...): its numbers cover only
    what it answered.
    `with_status` False: the name alone (the exports give the status its own column).
    `names`: {run id: how a list names it} (`source_names`), so that a run injecting
    another's clues names that run as the run lists do ("clues run:a-clueguided"), not by
    its id ("clues run:20261206-100826-1d74" beside the same run named in the notes)."""
    config = run["config"]
    name = (run.get("name") or "").strip()
    if name:
        label = name
    else:
        setting = SETTING_TITLES.get(config["setting"], config["setting"])
        model = (config.get("endpoint") or {}).get("model") or "unknown model"
        label = f"{model} · {setting}"
        if config.get("clues", "none") != "none":
            label += f" · clues {clues_text(config, names or {})}"
        if config.get("image_mode", "full") != "full":   # 'text only' as the pickers say it
            label += f" · {IMAGE_MODE_TITLES.get(config['image_mode'], config['image_mode'])}"
        label += "".join(f" · {extra}" for extra in setup_words(config))
    status = run_state(run)
    return f"{label} ({status})" if with_status and status in UNFINISHED else label


def plain_name(store, run_id: str, label: str) -> str:
    """The run's name as the exports' `run_name` holds it: its table label (`labels`)
    without the status, which has its own `run_status` column."""
    run = store.get_run(run_id)
    plain = run_label(run, with_status=False, names=source_names(store, [run]))
    tag = short_id(store, run_id)
    return f"{plain} [{tag}]" if label.endswith(f" [{tag}]") else plain


def short_id(store, run_id: str) -> str:
    """The run's short id as the pickers show it ('bfd2' of '20261207-171237-bfd2',
    `store.run_labels.short_ids`), the whole id when another stored run has the same random
    part or the id has another form: what a label that two runs share adds in brackets.
    The whole id made row labels and column titles of the injection table wrap to four or
    five lines, broken mid-id, on a 1400-pixel page."""
    tail = run_id[-4:]
    if RUNNER_ID.fullmatch(run_id) and store.runs_with_short_id(tail) == [run_id]:
        return tail
    return run_id


def failed_runs(store, run_ids) -> set[str]:
    """The runs among `run_ids` a table shows as failed (`run_state`): never ranked best."""
    return {rid for rid in run_ids if run_state(store.get_run(rid)) == "failed"}


def unfinished_note(store, run_ids) -> str:
    """Sentences naming the runs that failed and those that did not finish, or ''."""
    names = labels(store, list(run_ids))
    failed = failed_runs(store, names)
    unfinished = [names[rid] for rid in names if rid not in failed
                  and run_state(store.get_run(rid)) in UNFINISHED]
    notes = []
    if failed:
        notes.append("Failed, never marked best: " + "; ".join(
            failed_text(store, rid, names[rid]) for rid in names if rid in failed) + ".")
    if unfinished:
        notes.append("Not finished: " + "; ".join(unfinished) + ": such a run's numbers "
                     "cover only the items it answered before it stopped.")
    return " ".join(notes)


def failed_text(store, run_id: str, name: str) -> str:
    """A failed run as the notes name it, with what it has: 'm · CoT (failed): its 4 errors
    count as wrong answers', or '… its 23 answers not run are outside its numbers' (a run
    whose model server died mid-way has no error; "its errors count as wrong answers" was
    said of it all the same). Counted from its recorded results, answer rows only."""
    found = store.run_aggregates(run_id)
    clue = found["clue_by_status"]
    answered = {status: n - clue.get(status, 0) for status, n in found["by_status"].items()}
    errors = answered.get("error", 0)
    not_run = store.run_work_counts(run_id)["answer"] - sum(answered.values())
    said = ([f"its {errors} error{'s' if errors != 1 else ''} count{'' if errors != 1 else 's'}"
             " as wrong answers"] if errors else []) + (
        [f"its {not_run} answer{'s' if not_run != 1 else ''} not run "
         f"{'are' if not_run != 1 else 'is'} outside its numbers"] if not_run > 0 else [])
    return f"{name}: {' and '.join(said)}" if said else name


def setup_words(config: dict) -> list[str]:
    """What sets a run's draws apart beside its model, setting, clues and image mode:
    its preset, the sampling given ('T 0.2', `sampling_text`), samples and repeats, and
    boxes convention ('3 samples'), as labels say them."""
    return [extra for extra in (preset_text(config), sampling_text(config), draws_text(config),
                                boxes_text(config)) if extra]


def model_label(config: dict) -> str:
    """A run's model with its preset, samples and repeats ('alpha-vlm · 3 samples'): the row
    of the ablation table, whose columns are the settings. A row of the model alone set a
    3-sample majority vote's CoT cell beside single-draw No-CoT and Clue-guided cells."""
    return " · ".join([config["endpoint"]["model"], *setup_words(config)])


def solver_label(config: dict) -> str:
    """A run's label without its clue source: the solver of the clue-injection table. Its
    samples and repeats stay in it: a single draw's GT cell beside a 3-repeat mean's No Clue
    cell read as a +9.09 gain that like for like was 0.00."""
    return run_label({"config": {**config, "clues": "none"}})


def source_names(store, runs) -> dict[str, str]:
    """{run id: how a table names it as a clue source} when one of `runs` injects another
    run's clues, else {} (`table_names`)."""
    if not any(str(r["config"].get("clues", "")).startswith("run:") for r in runs):
        return {}
    return table_names(store.list_runs())


def table_names(every: list[dict]) -> dict[str, str]:
    """{run id: how a label names it as a clue source}: a named run by its name as the
    lists do (`list_names`), one without a name by its table label in parentheses ('(mx ·
    Clue-guided CoT)', as the injection table's column title names it: `source_titles`),
    not its raw id ("m · CoT · clues run:20261206-100826-1d74" beside a column "mx ·
    Clue-guided CoT clues"). Pure: every picker passes it the runs it listed, so that a run
    reads the same in a picker as in a table."""
    names = source_labels(every)
    return {rid: name if (run.get("name") or "").strip() else f"({name})"
            for rid, name, run in ((r["id"], names[r["id"]], r) for r in every)}


def source_labels(every: list[dict]) -> dict[str, str]:
    """{run id: how "clues of …" names it}: a named run as the lists do (`list_names`), one
    without a name by its table label, with its short id ('vlm-a · CoT · 3 samples [fa73]') when
    another of `every` (the runs stored or listed) has that label too, as the table naming
    both does: the row of the run injecting its clues said "clues of (vlm-a · CoT · 3
    samples)" beside two rows of that label told apart by their ids. The one naming of a
    clue source: the labels, the injection table's column titles, the lists and the notes."""
    names = list_names(every)
    tags = short_ids([run["id"] for run in every])
    plain = {run["id"]: run_label(run, with_status=False) for run in every}
    counts: dict[str, int] = {}
    for label in plain.values():
        counts[label] = counts.get(label, 0) + 1
    for run in every:
        if not (run.get("name") or "").strip():
            label = plain[run["id"]]
            names[run["id"]] = f"{label} [{tags[run['id']]}]" if counts[label] > 1 else label
    return names


def labels(store, run_ids: list[str]) -> dict[str, str]:
    """{run_id: label}, unique (a clash adds the run's short id, `short_id`), sorted by
    label then run id."""
    runs = {rid: store.get_run(rid) for rid in dict.fromkeys(run_ids)}
    names = source_names(store, runs.values())
    found = {rid: run_label(run, names=names) for rid, run in runs.items()}
    counts: dict[str, int] = {}
    for label in found.values():
        counts[label] = counts.get(label, 0) + 1
    named = {rid: f"{label} [{short_id(store, rid)}]" if counts[label] > 1 else label
             for rid, label in found.items()}
    # runs sharing a label in the order of their ids (their times), as when the label
    # carried the whole id
    return dict(sorted(named.items(), key=lambda pair: (found[pair[0]], pair[0])))


def label_beside(store, names: dict[str, str], run_id: str) -> str | None:
    """A run's label as a table of the runs `names` ({run id: label}, `labels`) names it:
    theirs when it is one of them, else labelled with them (a clash with one adds its id);
    None when the run is not stored (deleted, or a source never recorded)."""
    if run_id in names:
        return names[run_id]
    try:
        return labels(store, [*names, run_id])[run_id]
    except NotFoundError:
        return None


def title(store, run_id: str) -> str:
    """A run named in a sentence ("14 of 14 from m · CoT", "no clues from run a-clues"):
    its table label without the status, its id in parentheses after it when another stored
    run has that label too; a run not stored (deleted, or a reply cached before sources
    were recorded) by its id. The sentences named every run by its id
    ("from run 20261207-064538-fa73") beside tables naming it by its label."""
    every = store.list_runs()
    names = table_names(every)
    found = {r["id"]: run_label(r, with_status=False, names=names) for r in every}
    if run_id not in found:
        return f"run {run_id} (deleted)" if run_id else "an earlier run (not recorded)"
    clash = sum(label == found[run_id] for label in found.values()) > 1
    return f"{found[run_id]} ({run_id})" if clash else found[run_id]


def source_name(store):
    """`name(run id)` of a cache source run in a sentence outside a table (`run`'s output,
    `runs --show`, the plan's preview, the progress panel): its table label (`title`), as
    the tables and `report` name it (those said 'run ID "name"')."""
    return lambda run_id: title(store, run_id)


def labelled_plan(store, plan):
    """The plan with its cache sentence naming source runs by their table label
    (`runner.projection` cannot: runner imports no scoring)."""
    from runner.provenance import planned_text

    p = plan.projection
    p["cache_text"] = planned_text(store, p["cached_from"], p["use_cache"], source_name(store))
    return plan


def namer(store, names: dict[str, str]):
    """`name(run id)` of the sentences under a table of the runs `names` (`labels`): a source
    run of cached replies named as that table labels runs (`label_beside`), one not stored
    as `title` says it. `report` and the Results page say the same words."""
    return lambda run_id: label_beside(store, names, run_id) or title(store, run_id)


def clue_source(config: dict, titles: dict[str, str]) -> str:
    """The clue source as Table 3 names it: No Clue, GT, Self, or another run's clues by
    that run's title (`source_titles`); a deleted source run by its id ('run:ID')."""
    source = config.get("clues", "none")
    if source.startswith("run:") and source[4:] in titles:
        return titles[source[4:]]
    return CLUE_TITLES.get(source, source)


def source_titles(store, configs) -> dict[str, str]:
    """{source run id: its column title} of the runs whose clues `configs` inject: the
    source run's table label, unique among them ('cot-vlm · Structured clues' beside
    'cot-vlm · Clue-guided CoT clues'). Named by the source's model alone, two runs injecting
    clues of two runs of one model fell in one column "cot-vlm clues", which then mixed
    clue sources."""
    ids = [str(c.get("clues", ""))[4:] for c in configs
           if str(c.get("clues", "")).startswith("run:")]
    names = source_labels(store.list_runs()) if ids else {}
    present = [rid for rid in dict.fromkeys(ids) if rid in names]   # a deleted one: its id
    return {rid: f"clues of {names[rid]}"
            for rid in sorted(present, key=lambda rid: (names[rid], rid))}


def summaries(store, run_ids: list[str], protocol: str = "general", judge: str | None = None,
              samples_rule: str = "majority", extraction: str = CLUELAB) -> dict[str, dict]:
    """{run_id: run_summary} for the runs scored under `protocol`, in label order, each on
    all its own items. Every run is read with `judge` (runs it did not score are left out)
    or, when none is named, with the judge they were all scored with (`common_judge`; its
    note, each result's "judge_note", says which of several and why);
    when they have none in common, each with its own (the tables then say so and mark no
    best)."""
    check_extraction(extraction, protocol)
    judge = check_judge(store, run_ids, judge)
    scored = [rid for rid in labels(store, run_ids) if run_judges(store, rid, protocol)]
    note = ""
    if judge is None:       # the note says which of several judges and why (its "judge_note")
        judge, note = judge_choice(store, scored, protocol)
    return {rid: {**run_summary(store, rid, protocol, judge, samples_rule,
                                extraction=extraction), "judge_note": note}
            for rid in scored if judge is None or judge in run_judges(store, rid, protocol)}


VERBENCH_NO_ACCURACY = (
    "the VER-Bench protocol scores each item with four sub-scores (AC, CC, RQ, ER), not "
    "correct or wrong: its table is the VER-Bench one (`table --kind verbench`; on the "
    "Results page, the table 'verbench' under Export)")


def check_judge(store, run_ids: list[str], judge: str | None) -> str | None:
    """The judge named for a reading, as the scores name it: it must have scored at least
    one of the runs (under any protocol), and an LLM judge may be named by its endpoint, as
    `score --judge` takes it ('judge' for 'llm:judge'). A typo, or a judge of other runs,
    is refused naming the judges that did, instead of quietly reading nothing or another
    judge's verdicts. Every table kind reads its runs through `summaries`, so every one
    refuses the same way."""
    if judge is None:
        return None
    known = sorted({j["judge"] for rid in dict.fromkeys(run_ids)
                    for j in store.score_judges(rid)})
    if judge not in known and f"llm:{judge}" in known:
        return f"llm:{judge}"
    if judge not in known:
        raise ResultsError(f"no run here was scored by judge {judge!r}; judges that scored "
                           f"them: {', '.join(known) or 'none (score the runs first)'}")
    return judge


def left_out_note(store, run_ids: list[str], kept, protocol: str, judge: str | None,
                  other: dict | None = None) -> str:
    """The line under a table (`Table.left_out`) naming each run asked for that the table
    does not show: those without `protocol` verdicts (by `judge`, when one is named: the
    judge as the scores name it) and those in `other` ({run_id: why}, an ablation's runs
    with injected clues, say); '' when none is left out. Every table kind says it the same
    way, so a run never vanishes from a table without a word."""
    judge = check_judge(store, run_ids, judge)
    names = labels(store, run_ids)
    why = {rid: (other or {}).get(rid) for rid in names}
    for rid in names:
        if rid not in kept and not why[rid]:
            by = f" by judge {judge}" if judge and run_judges(store, rid, protocol) else ""
            why[rid] = f"no {protocol} scores{by}"
    missing = [f"{names[rid]} ({why[rid]})" for rid in names
               if why[rid] and (rid not in kept or rid in (other or {}))]
    return f"Left out: {', '.join(missing)}." if missing else ""


def on_shared(results: dict, names: dict, what: str = "runs") -> tuple[dict, Shared]:
    """Each result recomputed on the items all of them share, and what was shared.
    results: {key: run_summary}; names: {key: name shown in messages}. ResultsError naming
    each run and its item count when they share none."""
    try:
        shared = shared_items({names[key]: recorded_items(result["records"])
                               for key, result in results.items()}, what,
                              {names[key]: result.get("items_asked")
                               for key, result in results.items()})
    except PairingError as error:
        raise ResultsError(str(error)) from None
    return {key: on_items(result, shared.items) for key, result in results.items()}, shared


def limit_reason(shared: Shared) -> str:
    """What limits the n of a comparison, for a caption that gives the n itself: `Shared.
    limit` without its "n = N: " ('run X covers 2 of 30 items'; '' when nothing does).
    "on the 2 items the runs share (n = 2: run X covers 2 of 6 items)" said the n twice."""
    return shared.limit().removeprefix(f"n = {shared.n}: ")


def on_scored_by_all(results: dict, key=item_key) -> tuple[dict, int]:
    """(each result recomputed on the records whose key every one of them scored, the n of
    those items): what a figure that subtracts or compares them (a protocol's drop, a clue
    source's delta) is computed on, so that both sides have one n (`judges.pairing.
    scored_by_all`; `key`: `item_key` across runs, `record_key` across one run's protocols).
    The unscored records of each are counted on the results before this."""
    keys = scored_by_all({name: result["records"] for name, result in results.items()}, key)
    paired = {name: on_keys(result, keys, key) for name, result in results.items()}
    return paired, len({item_key(r) for result in paired.values() for r in result["records"]})


def grouped(results: dict, key_of) -> dict:
    """{group key: {run_id: result}} with the groups in key order (runs that are compared
    with each other, e.g. one model's runs under every clue source)."""
    groups: dict = {}
    for rid, result in results.items():
        groups.setdefault(key_of(rid), {})[rid] = result
    return dict(sorted(groups.items(), key=lambda pair: str(pair[0])))


def finished_newest_first(store, run_ids, size=None) -> list[str]:
    """The runs in the order a default choice takes them: finished ('done') before the
    others (cancelled, failed, ...), then by `size` (run id -> a number, largest first) when
    given, then the newest (created last), then by id."""
    runs = {rid: store.get_run(rid) for rid in dict.fromkeys(run_ids)}
    ordered = sorted(runs, key=lambda rid: (runs[rid]["created_at"], rid), reverse=True)
    return sorted(ordered, key=lambda rid: (run_state(runs[rid]) != "done",
                                            -size(rid) if size else 0))
