"""From a run's stored verdicts to its numbers: items, samples, repeats, CIs (two runs
item by item: `scoring.paired`).

Counting, as `judges.stats.COUNTING_RULES` states it: one record per item and repeat (its
samples aggregated: majority vote by default, or MMR-Life's rule), micro-averaged per group
and overall, unparsed/error counted wrong and reported as rates, unscored left out and
counted. n counts items: an item's repeats share its one count (`judges.stats.item_weights`),
so the accuracy is the mean over items of each item's share correct and its interval is over
items; the spread over repeats is reported beside it as mean ± std. Beside the per-item
counts, "per_response" counts every response's own verdict (before samples are aggregated):
the true share of unparsed replies whatever the samples rule. Which judge reads a run, unless one is
named, is `common_judge`: the same for every run compared, when they have one in common. The
general protocol's multiple-choice answers can be re-read with MMR-Life's own regex
(`scoring.extraction`), which the summary then says, with how many verdicts changed.
"""
from __future__ import annotations

import json
from collections import Counter, defaultdict

from domain.judge_ids import parse_judge
from domain.vocabulary import counted
from judges.pairing import item_key
from judges.samples import rule_problem
from judges.stats import (CI_RULE, COUNTING_RULES, accuracy_from_counts, aggregate_samples,
                          item_weights, items_every_repeat_scored, over_repeats,
                          summary_to_dict, verbench_summary, weighted_counts)
from judges.verdict import Verdict

from scoring import SAMPLE_RULES
from scoring.biased import unread_items, unread_work
from scoring.judge_failures import ungraded_work
from scoring.commands import score_command
from scoring.extraction import CLUELAB, MMR_LIFE, ExtractionError, check, reread, run_verdicts
from scoring.no_boxes import run_reason, without_accuracy
from scoring.not_scored import not_scored_rows
from scoring.panel_members import judges_count, panel_answers, shown_judge

GROUPS = ("domain", "subtask", "reasoning_type")


class ResultsError(ValueError):
    """Nothing to report as asked (no scores, unknown judge); the message says what to do."""


def _rank(judge: str) -> int:
    parsed = parse_judge(judge)
    return 0 if parsed.is_panel else 1 if parsed.is_llm else 2


def check_extraction(extraction: str, protocol: str) -> None:
    """ResultsError unless `extraction` is known and applies to `protocol`."""
    try:
        check(extraction, protocol)
    except ExtractionError as error:
        raise ResultsError(str(error)) from None


def check_samples_rule(store, run_id: str, samples_rule: str) -> None:
    """ResultsError when the rule cannot decide this run's items honestly (mmr_life on 2 to
    4 samples: `judges.samples.rule_problem`), naming the run."""
    samples = int(store.get_run(run_id)["config"].get("samples") or 1)
    problem = rule_problem(samples_rule, samples)
    if problem:
        raise ResultsError(f"run {run_id}: {problem}")


def run_judges(store, run_id: str, protocol: str) -> list[str]:
    """The judges that scored the run under `protocol`, the default one first."""
    found = [j for j in store.score_judges(run_id) if j["protocol"] == protocol]
    first = default_judge(store, run_id, protocol)
    return sorted({j["judge"] for j in found}, key=lambda j: (j != first, _rank(j), j))


def preferred_judge(scorings: list[dict]) -> str | None:
    """Of scorings [{"judge", ...}], the judge to read by: a panel before an LLM judge before
    the offline matcher (an LLM judge reads open answers and clue matches the offline
    matcher cannot), then by name. None when there is none."""
    ordered = judge_order(scorings)
    return ordered[0] if ordered else None


def judge_order(scorings: list[dict]) -> list[str]:
    """The judges of scorings [{"judge", ...}] in `preferred_judge`'s order: panels, then LLM
    judges, then offline, each by name. Never by when they scored: "the latest among equals"
    changed a table's judge, and its numbers, when an unrelated judge or a panel was scored
    again from the cache (and offline verdicts are written with every scoring)."""
    return sorted({j["judge"] for j in scorings}, key=lambda j: (_rank(j), j))


def common_judge(store, run_ids, protocol: str) -> str | None:
    """The judge every run of `run_ids` scored under `protocol` was scored with (of several,
    the one that scored the most responses on the items the runs share; among equals an independent
    judge before a self-judge, then `preferred_judge`'s order: `judge_choice`; runs with no such scores are not counted), or None
    when they have none in common: then each run is read with its own (`default_judge`) and
    a table says so and marks no best (`scoring.table_marks.with_judges`). Every table,
    `report` and `compare` read runs with it unless a judge is named, so the rows of one
    table are read the same way."""
    return judge_choice(store, run_ids, protocol)[0]


def judge_choice(store, run_ids, protocol: str) -> tuple[str | None, str]:
    """(`common_judge`, the note saying which judge that is and why when several could be:
    `scoring.judge_choice.choice_note`). A judge whose every verdict on the shared items is
    a failure is passed over for one that scored them."""
    from scoring.judge_choice import best_scoring, choice_note, scored_counts
    from scoring.self_judge import self_judges

    runs = list(dict.fromkeys(run_ids))
    found = {rid: [j for j in store.score_judges(rid) if j["protocol"] == protocol]
             for rid in runs}
    found = {rid: scorings for rid, scorings in found.items() if scorings}
    if not found:
        return None, ""
    common = set.intersection(*({j["judge"] for j in s} for s in found.values()))
    ordered = judge_order([j for s in found.values() for j in s if j["judge"] in common])
    if len(ordered) < 2:
        return (ordered[0] if ordered else None), ""
    counts, items = scored_counts(store, list(found), protocol, ordered)
    own = self_judges(store, list(found), ordered)
    chosen = best_scoring(ordered, counts, own)
    return chosen, choice_note(chosen, ordered, counts, items, own)


def default_judge(store, run_id: str, protocol: str) -> str | None:
    """The judge a run is read with on its own: `common_judge` of the run alone (the judge
    that scored the most of its responses under `protocol`, the order of preference only
    among equals), as a table of that one run reads it; None when the run has no such
    scores. By name alone (`preferred_judge`), `report` read a run with an LLM judge whose
    every reply was unreadable (0.00% on n 7, 7 unscored) while `table` and `compare` read
    it with the judge that scored it."""
    return common_judge(store, [run_id], protocol)


def item_records(rows: list[dict], samples_rule: str = "majority") -> list[dict]:
    """One record per (item, repeat): {"value", "item_id", "repeat", groups, "tokens",
    "subscores"}; samples aggregated by `samples_rule`."""
    if samples_rule not in SAMPLE_RULES:
        raise ResultsError(f"samples rule must be one of {', '.join(SAMPLE_RULES)}")
    if all(r["sample"] == 0 for r in rows):  # one sample per item: the rows are the records
        for r in rows:
            r["tokens"] = r["completion_tokens"]
            r["no_answer"] = r["value"] == "unparsed"
            r["tied"], r["tie_broken"] = False, False
            r["unscored_responses"] = int(r["value"] == "unscored")
            r["samples"] = 1
        return rows
    grouped: dict[tuple, list[dict]] = defaultdict(list)
    for r in rows:
        grouped[(r["item_id"], r["repeat"])].append(r)
    records = []
    for (item_id, repeat), samples in grouped.items():
        first, tied, broken = samples[0], False, False
        if len(samples) == 1:
            value = first["value"]
        else:
            samples.sort(key=lambda r: r["sample"])
            verdict = aggregate_samples([Verdict(r["value"], answer=r["answer"])
                                         for r in samples], samples_rule)
            value, tied = verdict.value, bool((verdict.details or {}).get("tied"))
            broken = bool((verdict.details or {}).get("tie_broken"))
        tokens = [r["completion_tokens"] for r in samples if r["completion_tokens"] is not None]
        records.append({"value": value, "item_id": item_id, "repeat": repeat,
                        "domain": first["domain"], "subtask": first["subtask"],
                        "reasoning_type": first["reasoning_type"],
                        "tokens": sum(tokens) / len(tokens) if tokens else None,
                        "unread_right": value == "unscored" and any(
                            r.get("unread_right") for r in samples),
                        "judge_failed": any(r.get("judge_failed") for r in samples),
                        # counted unparsed because the samples' vote tied (not a reply unread)
                        "tied": tied,
                        # a tie self-consistency gave to the earliest of the tied answers
                        "tie_broken": broken,
                        "unscored_responses": sum(r["value"] == "unscored" for r in samples),
                        # the samples that decided it: fewer than asked when a run stopped
                        # before drawing them all (`scoring.count_notes.samples_notes`)
                        "samples": len(samples),
                        # read from the responses, not from `value`: the vote of VER-Bench
                        # verdicts (no answer kept) is "no answer" whatever they read
                        "no_answer": all(r["value"] == "unparsed" for r in samples),
                        "subscores": first["subscores"] if len(samples) == 1 else
                        _mean_subscores([r["subscores"] for r in samples])})
    return records


def _mean_subscores(all_scores: list[dict]) -> dict:
    complete = [s for s in all_scores if s and all(k in s for k in ("AC", "CC", "RQ", "ER"))]
    if not complete:
        return {}
    return {k: sum(s[k] for s in complete) / len(complete) for k in ("AC", "CC", "RQ", "ER")}


_MEMO: dict[tuple, dict] = {}


def run_summary(store, run_id: str, protocol: str = "general", judge: str | None = None,
                samples_rule: str = "majority", *, ci: bool = True,
                extraction: str = CLUELAB) -> dict:
    """{"run", "protocol", "judge", "samples_rule", "extraction", "extraction_diff",
    "summary", "repeats", "records", "items_asked" (the run's planned items, None when its
    config does not say), ...}. For verbench, "summary" is `verbench_summary`
    (AC..ER x 10, average, CI). `extraction="mmr-life"` re-reads multiple-choice answers with
    the authors' regex; "extraction_diff" then counts the verdicts that changed.

    Remembered per (database, run, protocol, judge, rule, CI) with the scoring's generation
    (+1 per scoring, in any process) and the items' state, so the several tables and plots
    drawn from one run compute it once and a new scoring or item edit is seen (the caller
    must not mutate the result)."""
    check_extraction(extraction, protocol)
    check_samples_rule(store, run_id, samples_rule)
    found = [j for j in store.score_judges(run_id) if j["protocol"] == protocol]
    judge = judge or default_judge(store, run_id, protocol)
    if judge is None:
        endpoints = [e["name"] for e in store.list_endpoints()] if protocol == "verbench" \
            else ()
        needs = "; it needs " if protocol == "verbench" and not endpoints else ": "
        raise ResultsError(f"run {run_id} has no {protocol} scores{needs}"
                           f"{score_command(run_id, protocol, endpoints=endpoints)}")
    # answers recorded after the scoring (a resume) are counted, never passed over
    missing = store.work_without_score(run_id, protocol, judge)
    state = next(((j["n"], j["generation"]) for j in found if j["judge"] == judge), None)
    state = (state, store.items_state(), tuple(m[0] for m in missing))
    key = (str(store.path), run_id, protocol, judge, samples_rule, ci, extraction)
    cached = _MEMO.get(key)
    if cached is not None and cached[0] == state:
        result = cached[1]
    else:
        result = _run_summary(store, run_id, protocol, judge, samples_rule, ci, extraction,
                              missing)
        if len(_MEMO) > 64:
            _MEMO.clear()
        _MEMO[key] = (state, result)
    asked = (store.get_run(run_id)["config"].get("items") or {}).get("count")
    return {**result, "not_scored": len(missing), "items_asked": asked}


def forget_summaries() -> None:
    """Drop every remembered summary (kept for tests and long-lived processes)."""
    _MEMO.clear()


_GROUPS: dict[str, tuple] = {}


def _item_groups(store) -> dict[str, tuple]:
    """{item_id: (domain, subtask, reasoning_type)}, re-read only when items changed."""
    state = store.items_state()
    found = _GROUPS.get(str(store.path))
    if found is None or found[0] != state:
        found = _GROUPS[str(store.path)] = store.item_groups()
    return found[1]


def counted_subscores(value: str, stored: str) -> dict:
    """A verdict's VER-Bench sub-scores as the tables count them: a reply no answer was read
    from is not graded, 0 on all four whatever is stored (scores made before this rule kept
    the judge's CC, RQ, ER, or none when its reply was unreadable: `LlmStages.verbench`)."""
    scores = json.loads(stored) if stored != "{}" else {}
    return dict.fromkeys(("AC", "CC", "RQ", "ER"), 0.0) if value == "unparsed" else scores


def score_rows(store, run_id: str, protocol: str, judge: str) -> list[dict]:
    groups, none = _item_groups(store), (None, None, None)
    rows = []
    for work_id, item_id, repeat, sample, value, answer, subscores, tokens in \
            store.score_values(run_id, protocol, judge):
        domain, subtask, reasoning_type = groups.get(item_id, none)
        rows.append({"work_id": work_id, "item_id": item_id, "repeat": repeat,
                     "sample": sample, "value": value, "answer": answer,
                     "subscores": counted_subscores(value, subscores),
                     "completion_tokens": tokens, "domain": domain, "subtask": subtask,
                     "reasoning_type": reasoning_type})
    return rows


def _run_summary(store, run_id, protocol, judge, samples_rule, ci, extraction,
                 missing=()) -> dict:
    rows = score_rows(store, run_id, protocol, judge)
    if not rows:     # a run never scored: "by judge X" read as a judge mismatch
        scored = any(j["protocol"] == protocol for j in store.score_judges(run_id))
        raise ResultsError(f"run {run_id} has no {protocol} scores by judge {judge}" if scored
                           else f"run {run_id} has no {protocol} scores: score it first "
                           f"(python app.py score --run {run_id})")
    unread = unread_work(store, run_id, protocol, judge)
    ungraded = ungraded_work(store, run_id, protocol, judge)
    for r in rows:
        r["unread_right"] = r["value"] == "unscored" and r["work_id"] in unread
        r["judge_failed"] = r["work_id"] in ungraded
    diff = reread(rows, run_verdicts(store, run_id)) if extraction == MMR_LIFE else None
    rows = sorted(rows + not_scored_rows(_item_groups(store), list(missing)),
                  key=lambda r: r["work_id"])
    records = item_records(rows, samples_rule)
    out = {"run": run_id, "protocol": protocol, "judge": judge, "samples_rule": samples_rule,
           "samples_asked": int(store.get_run(run_id)["config"].get("samples") or 1),
           "preset": store.get_run(run_id)["config"].get("preset"),    # `count_notes`
           "extraction": extraction, "extraction_diff": diff, "responses": len(rows),
           "per_response": accuracy_from_counts(Counter(r["value"] for r in rows),
                                                ci=False).to_dict(),
           "ci": ci, "panel": panel_answers(store, run_id, protocol, judge)}
    return {**out, **summarise_records(records, protocol, ci=ci,
                                       not_applicable=run_reason(store, run_id, protocol))}


def summarise_records(records: list[dict], protocol: str, *, ci: bool = True,
                      not_applicable: str = "") -> dict:
    """{"records", "summary", "repeats", "mean_tokens", "not_applicable"} of a run's (item,
    repeat) records: what `run_summary` computes from them, for all of a run's records or
    some of them. `not_applicable`: why the protocol has no accuracy for this run (grounded
    for a run that asked for no boxes: `scoring.no_boxes`); its accuracies are then None."""
    tokens = [r["tokens"] for r in records if r["tokens"] is not None]
    out = {"records": records, "repeats": None, "not_applicable": not_applicable,
           "mean_tokens": sum(tokens) / len(tokens) if tokens else None}
    if not_applicable:
        out["summary"] = without_accuracy(fast_summarise(records, ci=False))
        return out
    if protocol == "verbench":
        out["summary"] = verbench_summary(_item_subscores(records), ci=ci)
        return out
    out["summary"] = fast_summarise(records, ci=ci)
    repeats = sorted({r["repeat"] for r in records})
    if len(repeats) > 1:
        out["repeats"] = repeat_spread(records, repeats, out["summary"]["overall"].n)
    return out


def repeat_spread(records: list[dict], repeats: list[int], headline_n) -> dict:
    """`over_repeats` on the items every repeat scored (each repeat on the same items), with
    "n" (those items) in every entry and a "note" saying so when they are fewer than the
    accuracy's n (a cancelled run's last repeats, say); "" when they are the same."""
    covered = items_every_repeat_scored(records)
    kept = [r for r in records if r["item_id"] in covered]
    spread = over_repeats([fast_summarise([r for r in kept if r["repeat"] == k], ci=False)
                           for k in repeats])
    spread["overall"]["n"] = len(covered)
    for group in GROUPS:
        names = Counter(str(r[group] or "(none)") for r in kept if r["repeat"] == repeats[0])
        for name, entry in spread.get(f"by_{group}", {}).items():
            entry["n"] = names[name]
    k, n = len(repeats), len(covered)
    spread["note"] = "" if n == headline_n else (
        f"the spread over {k} repeats is on the {counted(n, 'item')} all {k} repeats scored (the "
        f"accuracy is on {headline_n}: the others were not scored in every repeat)")
    return spread


def _item_subscores(records: list[dict]) -> list[dict]:
    """One VER-Bench score set per item (n counts items): the mean over its repeats with all
    four sub-scores; {} (unscored) when none has them. A split panel's verdict is unscored
    (no majority) but its members' mean sub-scores are grades, kept (`panel_vote`).
    "unparsed": no answer was read from any of its responses, every sample of every repeat
    (its AC counts 0: `counted_subscores`). Read from each record's "no_answer" (its
    samples' own verdicts), never from its samples' vote: VER-Bench verdicts keep no answer,
    so the vote of several samples was "no answer" for every item ("Unparsed 14" of 14 on a
    3-sample run with 6 items read); "judge_failed" likewise from the responses."""
    by_item: dict[str, list[dict]] = defaultdict(list)
    for r in records:
        by_item[r["item_id"]].append(r)
    return [{**_mean_subscores([r["subscores"] for r in found]),
             "unparsed": all(r.get("no_answer", r["value"] == "unparsed") for r in found),
             "judge_failed": any(r.get("judge_failed") for r in found)}
            for found in by_item.values()]


def on_items(result: dict, items: frozenset) -> dict:
    """A `run_summary` result recomputed on `items` only (a new dict; the remembered result
    is not touched), its unscored records too (so n + unscored counts `items` only). The
    same result back when it has no record outside `items`."""
    return on_keys(result, items, item_key)


def on_keys(result: dict, keys: frozenset, key=item_key) -> dict:
    """A `run_summary` result recomputed on the records whose `key(record)` is in `keys`
    (`judges.pairing.item_key` or `record_key`); the same result when it keeps them all."""
    if all(key(r) in keys for r in result["records"]):
        return result
    kept = [r for r in result["records"] if key(r) in keys]
    return {**result, **summarise_records(kept, result["protocol"], ci=result["ci"],
                                           not_applicable=result.get("not_applicable", ""))}


def fast_summarise(records: list[dict], groups=GROUPS, *, ci: bool = True) -> dict:
    """`judges.stats.summarise` (same output, same rules: repeats of an item count once),
    counted over (group, value) pairs: a 20,000-record run is summarised in milliseconds."""
    values = [r["value"] for r in records]
    weights = item_weights(records)
    summary = {"overall": accuracy_from_counts(weighted_counts(values, weights), ci=ci)}
    for group in groups:
        pairs = weighted_counts(zip((str(r[group] or "(none)") for r in records), values),
                                weights)
        by: dict[str, Counter] = defaultdict(Counter)
        for (name, value), count in pairs.items():
            by[name][value] = count
        summary[f"by_{group}"] = {name: accuracy_from_counts(by[name], ci=ci)
                                  for name in sorted(by)}
    return summary


def summary_json(result: dict) -> dict:
    """What `report --json` prints: {"overall", "by_domain", "by_subtask", ...} plus the run,
    protocol, judge, samples rule, counting rules and the spread over repeats."""
    base = {"run": result["run"], "protocol": result["protocol"], "judge": result["judge"],
            "judge_shown": shown_judge(result["judge"], result.get("panel")),
            "judges_answered": judges_count(result.get("panel")), "panel": result.get("panel"),
            "samples_rule": result["samples_rule"], "extraction": result["extraction"],
            "extraction_diff": result["extraction_diff"], "rules": f"{COUNTING_RULES} {CI_RULE}",
            "responses": result["responses"], "per_response": result["per_response"],
            "not_scored": result.get("not_scored", 0),
            "not_applicable": result.get("not_applicable", ""),
            "unread_right_answers": unread_items(result).get("overall", 0),
            "mean_output_tokens": result["mean_tokens"]}
    if result["protocol"] == "verbench":
        return {**base, "overall": result["summary"], "by_domain": {}, "by_subtask": {}}
    return {**base, **summary_to_dict(result["summary"]), "repeats": result["repeats"]}
