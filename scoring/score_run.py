"""Score a run: every answer-phase response under the chosen protocols, stored as score rows.

    general   rule judges per answer type; open answers the rules cannot confirm go to the LLM
              judge (without one they stay `unscored`, counted but out of the accuracy)
    rigorous  DailyClue eq. 1: correct answer AND a model clue matching a GT clue; decided by
              the LLM clue judge with --judge, else by the offline matcher
    grounded  rigorous AND a matched clue's box with IoU >= 0.5 with its GT box
    verbench  AC/CC/RQ/ER by the LLM judge (needs --judge)
    all       every protocol above (verbench only with a judge)

The offline verdicts ("offline" judge, the lexical matcher, so they are the same on every
machine) are always stored too, so the LLM clue judge can be cross-checked against the offline
matcher. With `semantic=True` the MiniLM matcher (the optional extra, requirements-semantic.txt,
detected when scoring starts) also scores rigorous and grounded, as judge "offline:semantic".
Several judges form a panel ("panel:a+b"): each member's verdicts are stored under its own name
and the majority under the panel's. Members that are one judge (the same URL, model and
parameters as sent) are refused (`scoring.judge_client.panel_problem`): the second would repeat
the first's cached replies. Scoring is idempotent: rows are upserted, judge calls cached."""
from __future__ import annotations

import json
from collections import Counter

from domain.judge_ids import format_judge, llm_judge, panel_judge
from runner.prompts import ensure_versions

from judges.agreement import panel_vote
from scoring.panel_members import lone_votes
from judges.clue_match import DEFAULT_THRESHOLDS, ClueMatch, rigorous_verdict, \
    semantic_status
from judges.llm import TEMPLATES
from judges.stats import verbench_counter
from judges.verdict import Verdict

from scoring import OFFLINE, PROTOCOLS, SEMANTIC, no_boxes
from scoring.judge_client import JudgeClient, panel_problem
from scoring.judge_failures import advice, failed_responses, failure_notes, failures, \
    reason_text, unscored_note
from scoring.llm_stages import LlmStages, judge_failure
from scoring.results import forget_summaries
from scoring.compared import labels
from scoring.self_judge import self_judge_notes
from scoring.source_clues import named_in
from scoring.offline import TRUNCATED, as_scored, grounded, needs_llm, offline_rigorous, \
    rule_verdict

PROTOCOL_CHOICES = PROTOCOLS + ("all",)


class ScoringError(ValueError):
    """Scoring cannot start as asked; the message says what to change."""


COUNTED = ("correct", "wrong", "unparsed", "error", "unscored")


def values_text(counts: dict) -> str:
    """One protocol's verdicts in words, every part named (0 too) so that they add up to the
    total they follow: '6 responses: correct 2, wrong 1, unparsed 2, error 1, unscored 0'.
    "correct" is only what was read and judged correct: a reply no answer could be read
    from is unparsed under every protocol (`LlmStages.verbench`)."""
    total = sum(counts.values())
    if not total:
        return "no responses to score"
    parts = [f"{value} {counts.get(value, 0)}" for value in COUNTED]
    parts += [f"{value} {n}" for value, n in sorted(counts.items()) if value not in COUNTED]
    return f"{total} responses: " + ", ".join(parts)


def undecided_open_answers(rules: dict[int, Verdict]) -> list[str]:
    """A note on the open answers the offline rules left unscored: neither the gold nor an
    alias, and an open answer is not wrong for being different ("summer" for "Winter" was
    "unscored 1" without a word, and its run's n was one less than the others')."""
    undecided = sum(1 for v in rules.values() if needs_llm(v))
    if not undecided:
        return []
    return [f"{undecided} open answer{'s' if undecided != 1 else ''} matched neither the gold "
            "nor an alias: unscored, out of n (the offline rules do not call a different "
            "answer wrong); an LLM judge (--judge ENDPOINT) decides them"]


def counted(protocol: str, verdicts: dict[int, Verdict]) -> dict[str, int]:
    """{counter: responses} of one protocol's verdicts; VER-Bench's by `verbench_counter`
    (the model's unparsed replies unparsed, as under every protocol; a split panel apart)."""
    if protocol == "verbench":
        return dict(Counter(verbench_counter(v.value, v.details.get("subscores"))
                            for v in verdicts.values()))
    return dict(Counter(v.value for v in verdicts.values()))


def _rows(run_id: str, protocol: str, judge: str, verdicts: dict[int, Verdict]) -> list[dict]:
    """Score rows; a verdict shared by several responses (identical samples) is encoded once."""
    encoded: dict[int, dict] = {}
    out = []
    for work_id, v in verdicts.items():
        tail = encoded.get(id(v))
        if tail is None:
            details = dict(v.details)
            subscores = details.pop("subscores", None) or (
                {"votes": details["votes"]} if "votes" in details else {})
            tail = encoded[id(v)] = {
                "value": v.value, "score": v.score, "subscores": _encode(subscores),
                "rationale": v.reason, "decided_by": v.judge, "answer": v.answer,
                "details": _encode(details), "judge_prompt": v.prompt, "judge_reply": v.reply}
        out.append({"run_id": run_id, "protocol": protocol, "judge": judge,
                    "work_id": work_id, **tail})
    return out


def _encode(value: dict) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, default=str) if value else "{}"


def rule_verdicts(items: dict, responses: list[dict]) -> dict[int, Verdict]:
    """Rule verdicts, computed once per distinct (item, status, answer, reason): samples of
    an item that read the same answer share one verdict (a pure function of those four)."""
    memo: dict[tuple, Verdict] = {}
    out = {}
    for r in responses:
        key = (r["item_id"], r["status"], r["answer"], r["reason"])
        verdict = memo.get(key)
        if verdict is None:
            verdict = memo[key] = rule_verdict(items.get(r["item_id"]), r)
        out[r["work_id"]] = verdict
    return out


def unread_right_answers(judge: str, general: dict, rigorous: dict,
                         item_of: dict | None = None) -> list[str]:
    """A note when the judge gave nothing to count on the clues of right answers: only
    right answers are sent to it (a wrong one is wrong under rigorous without asking), so
    those left unscored are all right answers, and the rigorous accuracy of what is left
    counts wrong ones only (a review saw 0.00, n 8, with the 6 right answers unscored). Each
    reason under its own name (`judge_failure`): "could not be read" was said of readable,
    cached extractions whose clues are not in the reply too."""
    asked = [wid for wid, v in general.items() if v.value == "correct" and rigorous[wid].prompt]
    found = Counter(judge_failure(rigorous[wid]) for wid in asked
                    if rigorous[wid].value == "unscored")
    unread = sum(found.values())
    if not unread:
        return []
    reasons = ", ".join(f"{n} {reason_text(why, n)}" for why, n in sorted(found.items()))
    said = advice(found)
    # responses, not items (the tables' † counts items): said with the items they are of
    items = len({(item_of or {}).get(wid, wid) for wid in asked
                 if rigorous[wid].value == "unscored"})
    return [f"rigorous {judge}: the judge gave no verdict on the clues of {unread} of the "
            f"{len(asked)} right responses it was asked about (of {items} "
            f"item{'s' if items != 1 else ''}, each repeat and sample a response; "
            f"{reasons}): they are unscored, "
            f"so the rigorous accuracy of the rest is biased low (it leaves out right answers "
            f"only). {said[0].upper()}{said[1:]}."]


def _protocols(protocol, judges: list[str]) -> tuple[list[str], list[str]]:
    """The protocols to score, in PROTOCOLS' order, and notes: `protocol` is one name or
    several (`score --protocol rigorous --protocol grounded` scored only the last), "all"
    standing for every one (verbench skipped with a note when no judge is given; named
    itself, it needs one)."""
    given = [protocol] if isinstance(protocol, str) else list(protocol or ["general"])
    wrong = [p for p in given if p not in PROTOCOL_CHOICES]
    if wrong:
        raise ScoringError(f"protocol must be one of {', '.join(PROTOCOL_CHOICES)}, "
                           f"not {wrong[0]!r}")
    chosen = [p for p in PROTOCOLS if p in given or "all" in given]
    notes = []
    if "verbench" in chosen and not judges:
        if "verbench" in given:
            raise ScoringError("the verbench protocol needs an LLM judge: --judge ENDPOINT")
        chosen.remove("verbench")
        notes.append("verbench skipped: it needs an LLM judge (--judge ENDPOINT)")
    return chosen, notes


def _grounded_all(run, items, responses, general, rigorous, matches, sizes) -> dict:
    config = run["config"]
    out = {}
    for r in responses:
        wid = r["work_id"]
        if wid in matches:
            match, clues = matches[wid]
            out[wid] = grounded(items[r["item_id"]], r, general[wid], match, clues, sizes,
                                config.get("image_max_pixels"), config.get("image_mode", "full"))
            out[wid].prompt, out[wid].reply = rigorous[wid].prompt, rigorous[wid].reply
        else:  # not correct, no GT clues, no clue, or the judge could not decide
            v = rigorous[wid]
            out[wid] = Verdict(v.value, v.score, v.reason, dict(v.details), v.judge, v.answer,
                               v.prompt, v.reply)
    return out


def _offline(store, run, items, responses, rules, chosen, results, semantic=False) -> None:
    if "general" in chosen:
        results[("general", OFFLINE)] = rules
    if not {"rigorous", "grounded"} & set(chosen):
        return
    for method, judge in [("lexical", OFFLINE)] + ([("semantic", SEMANTIC)] if semantic else []):
        rigorous, matches = {}, {}
        for r in responses:
            wid, item = r["work_id"], items.get(r["item_id"])
            if item is None or rules[wid].value != "correct" or not item.get("clues"):
                gt = (item or {}).get("clues") or []
                rigorous[wid] = rigorous_verdict(rules[wid], ClueMatch(
                    method, DEFAULT_THRESHOLDS[method], n_gt=len(gt)))
                rigorous[wid].judge = f"offline:{method}"
                continue
            rigorous[wid], matches[wid] = offline_rigorous(item, r, rules[wid], method)
        if "rigorous" in chosen:
            results[("rigorous", judge)] = rigorous
        if "grounded" in chosen:
            results[("grounded", judge)] = _grounded_all(run, items, responses, rules, rigorous,
                                                         matches, _sizes(store, items))


def _responses(store, run_id: str, items: dict, with_clues: bool, with_text: bool
               ) -> list[dict]:
    """The run's responses as scoring reads them (`scoring.offline.as_scored`): a truncated
    reply is read again from its text, so its texts are read when the run has one."""
    found = store.scoring_responses(run_id, with_clues=with_clues, with_text=with_text)
    if not with_text and any(r["status"] == TRUNCATED for r in found):
        found = store.scoring_responses(run_id, with_clues=with_clues, with_text=True)
    return [as_scored(r, items.get(r["item_id"])) for r in found]


def _sizes(store, items: dict) -> dict:
    return store.image_sizes(sorted({sha for i in items.values() for sha in i["images"]}))


def score_run(store, run_id: str, *, protocol="general", judges=(),
              on_progress=None, semantic: bool = False, use_cache: bool = True) -> dict:
    """Score `run_id` under `protocol` (a name, "all", or a list of them); returns {"run",
    "protocols", "written", "values", "judges", "notes" (runs named by label), "not_applicable"}
    (a protocol whose counts are kept for Inspect only: {protocol: why}).
    on_progress(stage, done, total) reports each stage (judge requests included).
    semantic: also match clues with MiniLM (ScoringError when the extra is not installed).
    use_cache: False asks the judges again instead of taking their cached replies."""
    judges = [j.strip() for j in judges if j and j.strip()]
    chosen, notes = _protocols(protocol, judges)
    if semantic:
        available, message = semantic_status()
        if not available:
            raise ScoringError(message)
        if not {"rigorous", "grounded"} & set(chosen):
            notes.append("the semantic matcher scores rigorous and grounded only")
    run = store.get_run(run_id)
    na = {p: no_boxes.protocol_reason(run["config"], p) for p in chosen}     # n/a: why
    notes += [f"{why}: its {p} verdicts are kept for Inspect, and every table shows its "
              f"{'grounded-' if p == 'grounded' else ''}rigorous accuracy as –"
              for p, why in na.items() if why]
    clients = [JudgeClient(store, name, use_cache=use_cache)  # NotFoundError names a bad one
               for name in judges]
    same = panel_problem(clients)
    if same:
        raise ScoringError(same)
    if judges:      # the run's own model as its judge: allowed, and said (scoring.self_judge)
        notes.extend(self_judge_notes(store, {run_id: format_judge(
            llm_judge(judges[0]) if len(judges) == 1 else panel_judge(judges))},
            labels(store, [run_id])))
    need_clues = bool({"rigorous", "grounded", "verbench"} & set(chosen))
    tick = on_progress or (lambda *a: None)
    tick("reading responses", 0, 1)
    items = store.scoring_items(run_id, with_clues=need_clues)
    responses = _responses(store, run_id, items, need_clues, need_clues or bool(judges))
    rules = rule_verdicts(items, responses)
    tick("rule verdicts", len(responses), len(responses))
    results: dict[tuple[str, str], dict[int, Verdict]] = {}
    _offline(store, run, items, responses, rules, chosen, results, semantic)
    if not clients:
        notes.extend(undecided_open_answers(rules))
    templates = {name: store.prompt_template(name, version)["text"] for name, version in
                 ensure_versions(store, sorted(TEMPLATES.values())).items()} if clients else {}
    covered = {}      # {judge: responses its failed requests cover}
    for client in clients:
        stages = LlmStages(client, templates, on_progress)
        general = stages.general(items, responses, rules)
        if "general" in chosen:
            results[("general", client.name)] = general
        if {"rigorous", "grounded"} & set(chosen):
            rigorous, matches = stages.rigorous(items, responses, general)
            if "rigorous" in chosen:
                results[("rigorous", client.name)] = rigorous
                notes.extend(unread_right_answers(client.name, general, rigorous,
                                                  {r["work_id"]: r["item_id"] for r in responses}))
            if "grounded" in chosen:
                results[("grounded", client.name)] = _grounded_all(
                    run, items, responses, general, rigorous, matches, _sizes(store, items))
        if "verbench" in chosen:
            results[("verbench", client.name)] = stages.verbench(items, responses, rules)
        mine = {p: verdicts for (p, judge), verdicts in results.items() if judge == client.name}
        notes.extend(note for p, verdicts in mine.items()
                     for note in failure_notes(p, client.name, verdicts)
                     + unscored_note(p, client.name, verdicts, general))
        covered[client.name] = failed_responses(general, *mine.values())
    if len(clients) > 1:
        panel = format_judge(panel_judge(judges))
        for p in chosen:
            members = {c.name: results[(p, c.name)] for c in clients}
            results[(p, panel)] = {wid: panel_vote({m: v[wid] for m, v in members.items()},
                                                   panel) for wid in members[clients[0].name]}
            notes.extend(lone_votes(p, panel, results[(p, panel)]))
    rows = [row for (p, judge), verdicts in results.items()
            for row in _rows(run_id, p, judge, verdicts)]
    tick("saving scores", 0, 1)
    written = store.upsert_scores(rows)
    forget_summaries()
    tick("saving scores", 1, 1)
    return {"run": run_id, "protocols": chosen, "responses": len(responses), "written": written,
            "values": {f"{p} {judge}": counted(p, verdicts) for (p, judge), verdicts
                       in results.items()},
            "judge_failures": {f"{p} {judge}": failures(verdicts) for (p, judge), verdicts
                               in results.items() if failures(verdicts)["by_reason"]},
            "judges": [{**c.counts(), "failed_responses": covered[c.name]} for c in clients],
            "templates": {name: store.prompt_template(name)["version"] for name in templates},
            "notes": [named_in(store, n) for n in notes], "not_applicable": {
                p: why for p, why in na.items() if why}}
