"""One LLM judge over a whole run, stage by stage, each stage one batch of cached requests.

Stages: open answers the rules could not confirm (general); clue extraction from free-form
reasoning, then clue intersection, for the responses whose answer is correct (rigorous: a
wrong answer is wrong whatever its clues, so it costs no judge call); VER-Bench's four scores.
Only what a judge must decide is sent; everything else keeps its rule verdict. A failed or
unreadable judge call gives `unscored` with the prompt and reply (or failure) kept.
"""
from __future__ import annotations

from domain.extract.own_clues import has_reasoning, own_clues
from domain.extract.structured import states_clue_list
from judges import llm
from judges.clue_match import ClueMatch, rigorous_verdict
from judges.verdict import CORRECT, ERROR, UNPARSED, UNSCORED, WRONG, Verdict, error, \
    from_match, unparsed, unscored

from scoring.offline import CUT_NOTE, TRUNCATED, needs_llm, no_source_clue


def _failed(judge: str, prompt: str, outcome: dict, **kwargs) -> Verdict:
    return unscored(f"judge call failed: {outcome.get('error') or 'no reply'}", judge=judge,
                    prompt=prompt, reply=outcome.get("reply"), **kwargs)


class LlmStages:
    """`client`: a JudgeClient; `templates`: {judge template name: text}."""

    def __init__(self, client, templates: dict[str, str], on_progress=None):
        self.client, self.templates = client, templates
        self.judge = client.name
        self.on_progress = on_progress

    def _ask(self, stage: str, prompts: list[str], readable) -> dict[str, dict]:
        """The judge's replies to `prompts`; `readable(prompt, reply)` is the stage's own
        parser, so that a reply it cannot read is never cached (JudgeClient.ask_many)."""
        def tick(done, total):
            if self.on_progress:
                self.on_progress(f"{self.judge}: {stage}", done, total)
        return self.client.ask_many(prompts, tick, readable) if prompts else {}

    # -- general: open answers -------------------------------------------------------------------
    def general(self, items: dict, responses: list[dict], rules: dict[int, Verdict]
                ) -> dict[int, Verdict]:
        out = dict(rules)
        prompts = {r["work_id"]: llm.open_prompt(self.templates["judge_open"],
                                                 items[r["item_id"]], r.get("answer"))
                   for r in responses if needs_llm(rules[r["work_id"]])}
        replies = self._ask("open answers", list(prompts.values()),
                            lambda _, reply: llm.parse_open(reply)[0] is not None)
        for work_id, prompt in prompts.items():
            outcome = replies[prompt]
            answer = rules[work_id].answer
            out[work_id] = _failed(self.judge, prompt, outcome, answer=answer) \
                if outcome["reply"] is None else \
                llm.open_verdict(self.judge, prompt, outcome["reply"], answer)
        return out

    # -- rigorous: clue extraction, then clue intersection -----------------------------------------
    def rigorous(self, items: dict, responses: list[dict], general: dict[int, Verdict]
                 ) -> tuple[dict[int, Verdict], dict[int, tuple]]:
        """Rigorous verdicts, and {work_id: (ClueMatch, model clues)} for grounding."""
        out, matches, clues, extracted = {}, {}, {}, {}
        todo = []
        for r in responses:
            wid, item = r["work_id"], items.get(r["item_id"])
            gt = (item or {}).get("clues") or []
            if item is None or general[wid].value != CORRECT or not gt:
                empty = ClueMatch(self.judge, 100.0, n_gt=len(gt))
                out[wid] = rigorous_verdict(general[wid], empty)
                out[wid].judge = self.judge
                continue
            clues[wid] = [c for c in r.get("clues") or [] if str(c.get("text") or "").strip()]
            todo.append(r)
        text_of = {r["work_id"]: r.get("text") for r in todo}
        bare = {wid for wid, text in text_of.items()      # nothing to take a clue from
                if not clues[wid] and not has_reasoning(text)}
        prompts = {r["work_id"]: llm.extract_prompt(self.templates["judge_extract_clues"],
                                                    items[r["item_id"]], r.get("text"))
                   for r in todo if not clues[r["work_id"]] and r["work_id"] not in bare
                   and not states_clue_list(r.get("text"))}   # "clues": [] is its answer
        replies = self._ask("clue extraction", list(prompts.values()),
                            lambda _, reply: llm.parse_extracted_clues(reply)[0] is not None)
        for wid, prompt in prompts.items():
            outcome = replies[prompt]
            found, problem = llm.parse_extracted_clues(outcome["reply"])
            extracted[wid] = {"extract_prompt": prompt, "extract_reply": outcome["reply"]}
            if outcome["reply"] is None:
                out[wid] = _failed(self.judge, prompt, outcome)
            elif found is None:
                out[wid] = unscored(f"clue extraction unreadable: {problem}", judge=self.judge,
                                    prompt=prompt, reply=outcome["reply"])
            else:       # only the clues the reply names: a judge may invent some
                clues[wid], dropped = own_clues(found, text_of[wid])
                if dropped:
                    extracted[wid]["dropped_clues"] = [c["text"] for c in dropped]
                if dropped and not clues[wid]:      # the judge's failure, not the model's
                    out[wid] = unscored(
                        f"{INVENTED}: none of the {len(dropped)} clues the judge extracted "
                        "is in the reply", judge=self.judge, answer=general[wid].answer,
                        prompt=prompt, reply=outcome["reply"],
                        details={"answer_value": general[wid].value, **extracted[wid],
                                 "clues_from": "extracted by the judge"})
        asked = {}
        for r in todo:
            wid = r["work_id"]
            if wid in out:
                continue
            if not clues[wid]:
                said = NO_REASONING if wid in bare else \
                    "its clue list is empty" if wid not in extracted else \
                    "the reasoning names no clue"
                # decided without asking the judge (a rule): agreement counted such verdicts
                # as the judge's own, 100% for a judge whose every reply was unreadable
                out[wid] = from_match(False, f"answer correct but {said}",
                                      judge=NO_CLUE_RULE, answer=general[wid].answer,
                                      details={"clue_match": False, **extracted.get(wid, {}),
                                               "clues_from": "extracted by the judge" if wid
                                               in extracted else "the reply (its answer alone)"
                                               if wid in bare else "clue list (empty)"})
                continue
            asked[wid] = llm.clues_prompt(self.templates["judge_clues"], items[r["item_id"]],
                                          clues[wid])
        item_of = {r["work_id"]: r["item_id"] for r in todo}
        sizes = {asked[wid]: (len(clues[wid]), len(items[item_of[wid]]["clues"]))
                 for wid in asked}
        replies = self._ask("clue matching", list(asked.values()),
                            lambda prompt, reply: llm.parse_clue_labels(
                                reply, *sizes[prompt])[0] is not None)
        statuses = {r["work_id"]: r["status"] for r in todo}
        for wid, prompt in asked.items():
            outcome = replies[prompt]
            if outcome["reply"] is None:
                out[wid], match = _failed(self.judge, prompt, outcome,
                                          answer=general[wid].answer), None
            else:
                out[wid], match = llm.rigorous_llm_verdict(
                    self.judge, general[wid], clues[wid], len(items[item_of[wid]]["clues"]),
                    prompt, outcome["reply"], label="E" if wid in extracted else "M")
            out[wid].details.update(extracted.get(wid, {}))
            out[wid].details["clues_from"] = "extracted by the judge" if wid in extracted \
                else "clue list"
            if statuses[wid] == TRUNCATED:
                out[wid].details["cut_off"] = CUT_NOTE
            if match is not None:
                matches[wid] = (match, clues[wid])
        return out, matches

    # -- VER-Bench ---------------------------------------------------------------------------------
    def verbench(self, items: dict, responses: list[dict], rules: dict[int, Verdict] | None = None
                 ) -> dict[int, Verdict]:
        """A reply with no answer is not graded and the judge is not asked: a failed model
        call is `error`, a refusal, an empty reply or one no answer could be read from (the
        general rule verdict in `rules`) `unparsed`, each scoring 0 on all four (VER-Bench
        §3.3 grades an answer and the evidence for it, ER is the rate at which the clues
        support the answer, and eq. 6 averages over every item: the judge once gave ER 10 to
        a reply with no answer). So an unparsed reply is unparsed whatever the judge does,
        and a judge failure (unscored) is always on a reply with an answer.

        The verdict's value (what `score` counts) is the judge's AC >= 5 for a reply whose
        answer the rules left to a judge or read correct; one whose answer the rules read as
        wrong (a letter, yes/no, a number) is `wrong`, its AC 0 whatever the judge made of
        it (`judges.llm.verbench_ruled`), CC, RQ and ER as graded."""
        out, prompts = {}, {}
        for r in responses:
            wid, item = r["work_id"], items.get(r["item_id"])
            rule = rules.get(wid) if rules else None
            if item is None:
                out[wid] = unscored("the item no longer exists", judge=self.judge)
            elif no_source_clue(r):          # never asked: not this run's failure
                out[wid] = unscored(f"not asked, not this run's error: {r.get('reason')}"[:300],
                                    judge=self.judge)
            elif r["status"] == ERROR or r["status"] == "refused" or \
                    not (r.get("text") or "").strip() or (rule and rule.value == UNPARSED):
                made = error if r["status"] == ERROR else unparsed
                said = f"no model output to judge ({r['status']})" if r["status"] in (
                    ERROR, "refused") or not (r.get("text") or "").strip() else \
                    "unparsed: no answer could be read from the reply"
                out[wid] = made(f"{said}: not graded (the judge is not asked), 0 on all four",
                                judge=self.judge,
                                details={"subscores": dict.fromkeys(llm.VERBENCH_METRICS, 0.0)})
                out[wid].score = 0.0
            else:
                prompts[wid] = llm.verbench_prompt(self.templates["judge_verbench"], item,
                                                   r.get("text"))
        replies = self._ask("VER-Bench scores", list(prompts.values()),
                            lambda _, reply: llm.parse_verbench(reply)[0] is not None)
        for wid, prompt in prompts.items():
            outcome = replies[prompt]
            out[wid] = _failed(self.judge, prompt, outcome) if outcome["reply"] is None else \
                llm.verbench_verdict(self.judge, prompt, outcome["reply"])
            rule = rules.get(wid) if rules else None
            # the rules read the answer as wrong (a letter, yes/no or number): AC 0 and the
            # rule's value whatever the judge gave (a wrong letter the judge gave AC 7 was
            # "correct"); a judge reply with no sub-scores stays unscored
            if rule is not None and rule.value == WRONG and out[wid].value != UNSCORED:
                llm.verbench_ruled(out[wid], rule)
        return out


def judge_failure(verdict: Verdict) -> str | None:
    """Why the judge gave `verdict` nothing to count, or None when it did (or was never
    asked): "call failed" (no reply: an HTTP error, a timeout), "reply unreadable" (a
    reply its stage could not read), or "extracted clues not in the reply" (a readable
    extraction, cached, every clue of which the reply lacks: `INVENTED`; counted as
    unreadable, `score` advised "scoring again asks the judge again" of cached replies).
    One reading for every protocol: an unscored verdict that kept its judge prompt (a reply
    with no answer is never sent to a judge)."""
    if verdict.value != UNSCORED or not verdict.prompt:
        return None
    if verdict.reply is None:
        return CALL_FAILED
    return NOT_IN_REPLY if (verdict.reason or "").startswith(INVENTED) else UNREADABLE


CALL_FAILED, UNREADABLE = "call failed", "reply unreadable"
NOT_IN_REPLY = "extracted clues not in the reply"
NOT_CACHED = (CALL_FAILED, UNREADABLE)
"""The failures whose reply the response cache never keeps (`JudgeClient.ask_many`): scoring
again asks the judge again. A `NOT_IN_REPLY` reply was readable, so it is cached: scoring
again takes it again; only `--no-cache` (or another judge) asks afresh."""


NO_REASONING = "the reply is its answer alone, with no reasoning to take a clue from"
NO_CLUE_RULE = "rule:no_clues"
"""Who decides a rigorous verdict of a reply with no clue to match (its answer alone, an
empty clue list, reasoning naming none): no judge is asked."""
INVENTED = "unscored: the judge's clue extraction is not the reply's"
"""Every clue the judge extracted is missing from the reply: the judge failed (it invented
them; a reply citing the GT clues was read so), not the model; wrong would have blamed the
model. Counted with the unreadable replies in `scoring.biased` (its prompt is kept)."""
"""A correct answer with nothing else in the reply: not sent for clue extraction (a judge
invented clues for "Answer: C" and it scored rigorous correct: domain/extract/own_clues)."""

