"""LLM judges as pure functions: build the judge's prompt, read its reply into a Verdict.

Any endpoint can judge; sending is not done here (judges stay offline: `scoring.judge_client`
sends through the runner's client and cache). Four judges, each a stored, versioned template
(defaults in assets/prompts/judge_*.txt, stored like the run prompts by `runner.prompts`):

- open:     is the model's open answer the reference answer? (DailyClue §4.2 uses an LLM judge
            for open-ended questions)
- clues:    do the model's clues match a GT clue (DailyClue eq. 1, Fig. 9), and which ones are
            illusionary (hallucinated) or useless (real but irrelevant) (§5.3)
- extract:  the visual clues a free-form chain of thought relies on, for rigorous accuracy of
            runs that did not list clues
- verbench: AC, CC, RQ and ER from 0 to 10 (VER-Bench §3.3; CC and RQ holistic, §3.4)

Every judge asks for one JSON object. A reply that cannot be read (no JSON, missing or
out-of-range fields) is `unscored` with the prompt and reply kept, never a 0: a broken judge
must not lower a model's score; but an entry of the clue judge's that names a clue that does
not exist is left out (said in the verdict) and the verdicts of the real clues are kept.
Verdicts of all four keep the exact prompt and reply; the judge's reason is kept as plain
text (`plain_text`), whatever JSON it was given as.
"""
from __future__ import annotations

import re

from domain.templates import render

from judges.clue_match import ClueMatch, clue_text, rigorous_verdict
from judges.judge_json import lower_keys, plain_text, quoted, reason_text, reply_json
from judges.verdict import CORRECT, UNPARSED, WRONG, Verdict, unscored

TEMPLATES = {"open": "judge_open", "clues": "judge_clues", "extract": "judge_extract_clues",
             "verbench": "judge_verbench"}
CLUE_LABELS = ("match", "illusionary", "useless")
VERBENCH_METRICS = ("AC", "CC", "RQ", "ER")
RESPONSE_LIMIT = 12_000   # characters of a model output put into a judge prompt


# -- reading replies -----------------------------------------------------------------------------

def parse_open(reply: str | None) -> tuple[str | None, str]:
    """("correct" | "wrong" | None, reason). Accepts {"verdict": ...} or {"correct": bool},
    else a last line that is only the verdict ("Verdict: correct")."""
    data = reply_json(reply)
    if data is not None:
        data = lower_keys(data)
        reason = reason_text(data)
        value = data.get("verdict", data.get("correct", data.get("judgement")))
        if isinstance(value, bool):
            return (CORRECT if value else WRONG), reason
        word = str(value or "").strip().lower()
        if word in ("correct", "right", "yes", "true"):
            return CORRECT, reason
        if word in ("wrong", "incorrect", "no", "false"):
            return WRONG, reason
        return None, f"the judge's JSON has no readable verdict ({value!r})"
    if "{" in (reply or ""):  # an attempt at JSON that does not parse (e.g. cut off)
        return None, "the judge's JSON does not parse"
    lines = [line for line in (reply or "").strip().splitlines() if line.strip()]
    last = re.fullmatch(r"\W*(?:verdict\W*)?(correct|incorrect|wrong)\W*",
                        lines[-1].strip().lower()) if lines else None
    if last:
        return (CORRECT if last.group(1) == "correct" else WRONG), "verdict line"
    return None, "the judge's reply holds no verdict"


def parse_clue_labels(reply: str | None, n_model: int, n_gt: int
                      ) -> tuple[list[tuple[str, int | None]] | None, str, str, list[str]]:
    """Per model clue (label, GT index 0-based or None), the reason (plain text), a problem
    (empty when readable) and the entries left out.

    Unjudged model clues count as not matched. An entry naming a clue that does not exist
    (model clue 3 of 2, a match with GT clue 9 of 2) is left out and said so in the last
    list, the verdicts of the real clues kept: one extra entry made the whole reply
    unreadable. Nothing is guessed: an entry that cannot be read (no number, an unknown
    label, a match without a GT clue) still makes the reply unreadable, as does a reply
    whose every entry names a clue that does not exist (then nothing is left to keep)."""
    data = reply_json(reply)
    if data is None:
        return None, "", "the judge's reply holds no JSON object", []
    data = lower_keys(data)
    entries = data.get("clues")
    if not isinstance(entries, list):
        return None, "", "the judge's JSON has no \"clues\" list", []
    labels: list[tuple[str, int | None]] = [("unjudged", None)] * n_model
    dropped: list[str] = []
    for entry in entries:
        if not isinstance(entry, dict):
            return None, "", f"a clue entry is not an object: {quoted(entry)}", []
        entry = lower_keys(entry)
        label = str(entry.get("label") or "").strip().lower()
        try:
            i = int(entry.get("model_clue"))
            j = entry.get("gt_clue")
            j = int(j) if j not in (None, "", "null") else None
        except (TypeError, ValueError):
            return None, "", f"unreadable clue numbers in {quoted(entry)}", []
        if label not in CLUE_LABELS:
            return None, "", f"unknown label in {quoted(entry)}", []
        if label == "match" and j is None:
            return None, "", f"a match without a GT clue number: {quoted(entry)}", []
        if not 1 <= i <= n_model:
            dropped.append(f"{quoted(entry)}: there is no model clue {i} (the response has "
                           f"{n_model})")
        elif label == "match" and not 1 <= j <= n_gt:
            dropped.append(f"{quoted(entry)}: there is no GT clue {j} (the item has {n_gt})")
        else:
            labels[i - 1] = (label, j - 1 if label == "match" else None)
    if dropped and len(dropped) == len(entries):
        return None, "", "every entry names a clue that does not exist: " + \
            "; ".join(dropped), dropped
    return labels, reason_text(data), "", dropped


def parse_extracted_clues(reply: str | None) -> tuple[list[dict] | None, str]:
    """([{"text": ...}], problem) from {"clues": ["...", ...]} (objects with "text" too)."""
    data = reply_json(reply)
    if data is None:
        return None, "the judge's reply holds no JSON object"
    entries = lower_keys(data).get("clues")
    if not isinstance(entries, list):
        return None, "the judge's JSON has no \"clues\" list"
    texts = [clue_text(e) if isinstance(e, dict) else plain_text(e) for e in entries]
    return [{"text": t.strip()} for t in texts if t and t.strip()], ""


def _number(value) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value)
    match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*(?:/\s*10)?\s*", str(value or ""))
    return float(match.group(1)) if match else None


def parse_verbench(reply: str | None) -> tuple[dict | None, str, str]:
    """({"AC", "CC", "RQ", "ER"} each 0-10, reason, problem)."""
    data = reply_json(reply)
    if data is None:
        return None, "", "the judge's reply holds no JSON object"
    upper = {str(k).strip().upper(): v for k, v in data.items()}
    scores = {}
    for metric in VERBENCH_METRICS:
        value = _number(upper.get(metric))
        if value is None or not 0 <= value <= 10:
            return None, "", f"{metric} missing or outside 0-10: {quoted(upper.get(metric))}"
        scores[metric] = value
    return scores, plain_text(upper.get("REASON") or upper.get("RATIONALE")), ""


# -- prompts -------------------------------------------------------------------------------------

def _numbered(clues) -> str:
    texts = [" ".join(clue_text(c).split()) for c in clues or []]
    return "\n".join(f"{n}. {t}" for n, t in enumerate(texts, 1)) or "(none)"


def _clip(text: str | None) -> str:
    text = (text or "").strip()
    return text if len(text) <= RESPONSE_LIMIT else \
        text[:RESPONSE_LIMIT // 2] + "\n[…]\n" + text[-RESPONSE_LIMIT // 2:]


def open_prompt(template: str, item: dict, answer: str | None) -> str:
    return render(template, {"question": item.get("question") or "",
                             "gold": str(item.get("answer") or ""),
                             "aliases": "; ".join(item.get("aliases") or []) or "(none)",
                             "answer": _clip(answer) or "(no answer)"})


def clues_prompt(template: str, item: dict, model_clues) -> str:
    return render(template, {"question": item.get("question") or "",
                             "gt_clues": _numbered(item.get("clues")),
                             "model_clues": _numbered(model_clues)})


def extract_prompt(template: str, item: dict, response: str | None) -> str:
    return render(template, {"question": item.get("question") or "",
                             "response": _clip(response)})


def verbench_prompt(template: str, item: dict, response: str | None) -> str:
    evidence = "\n".join(
        f"{n}. {' '.join(clue_text(c).split())}"
        + (f" Reasoning: {' '.join(str(c.get('reasoning')).split())}"
           if isinstance(c, dict) and c.get("reasoning") else "")
        for n, c in enumerate(item.get("clues") or [], 1))
    if item.get("gt_reasoning"):
        evidence += ("\n" if evidence else "") + f"Overall: {item['gt_reasoning'].strip()}"
    return render(template, {"question": item.get("question") or "",
                             "gold": str(item.get("answer") or ""),
                             "gt_evidence": evidence or "(none)", "response": _clip(response)})


# -- verdicts ------------------------------------------------------------------------------------

def open_verdict(judge: str, prompt: str, reply: str | None, answer: str | None) -> Verdict:
    value, reason = parse_open(reply)
    if value is None:
        return unscored(f"judge reply unreadable: {reason}", judge=judge, answer=answer,
                        prompt=prompt, reply=reply)
    return Verdict(value, reason=reason or f"the judge says {value}", judge=judge,
                   answer=answer, prompt=prompt, reply=reply)


def clue_match_from_labels(labels: list[tuple[str, int | None]], n_gt: int,
                           method: str) -> ClueMatch:
    """A ClueMatch (scores 100 for a match, else 0) so the offline rules apply unchanged."""
    match = ClueMatch(method, 100.0, n_gt=n_gt)
    match.best_gt = [j for _, j in labels]
    match.matched = [label == "match" for label, _ in labels]
    match.scores = [100.0 if ok else 0.0 for ok in match.matched]
    hit = {j for j, ok in zip(match.best_gt, match.matched) if ok}
    match.gt_missed = [j for j in range(n_gt) if j not in hit]
    return match


def rigorous_llm_verdict(judge: str, answer: Verdict, model_clues: list, n_gt: int,
                         prompt: str, reply: str | None, label: str = "M"
                         ) -> tuple[Verdict, ClueMatch | None]:
    """DailyClue eq. 1 with the judge deciding the clue intersection; illusionary and useless
    clues (1-based numbers and texts) go into the details, and so do the judge's reason (plain
    text) and the entries left out for naming a clue that does not exist (said in the
    verdict's reason too)."""
    labels, reason, problem, dropped = parse_clue_labels(reply, len(model_clues), n_gt)
    if labels is None:
        return unscored(f"judge reply unreadable: {problem}", judge=judge, answer=answer.answer,
                        prompt=prompt, reply=reply, details={"answer_value": answer.value}), None
    match = clue_match_from_labels(labels, n_gt, judge)
    match.label = label               # E for clues the judge extracted (Inspect's names)
    verdict = rigorous_verdict(answer, match)
    verdict.judge, verdict.prompt, verdict.reply = judge, prompt, reply
    for kind in ("illusionary", "useless", "unjudged"):
        verdict.details[kind] = [{"clue": i + 1, "text": clue_text(model_clues[i])}
                                 for i, (label, _) in enumerate(labels) if label == kind]
    verdict.details["clue_match"] = match.any_match
    if reason:
        verdict.details["judge_reason"] = reason
    if dropped:
        verdict.details["left_out"] = dropped
        verdict.reason += (f"; {len(dropped)} entr{'y' if len(dropped) == 1 else 'ies'} of "
                           f"the judge's reply left out, naming a clue that does not exist: "
                           + "; ".join(dropped))
    return verdict, match


def verbench_verdict(judge: str, prompt: str, reply: str | None) -> Verdict:
    """Sub-scores AC/CC/RQ/ER in details["subscores"]; score = their mean / 10 (a fraction).
    The value reads AC >= 5 as "correct" only to show a verdict; VER-Bench's numbers come from
    the sub-scores."""
    scores, reason, problem = parse_verbench(reply)
    if scores is None:
        return unscored(f"judge reply unreadable: {problem}", judge=judge, prompt=prompt,
                        reply=reply)
    average = sum(scores.values()) / 4
    shown = (f"AC {scores['AC']:g} {'>=' if scores['AC'] >= 5 else '<'} 5, shown as "
             f"{'correct' if scores['AC'] >= 5 else 'wrong'}; average {average:.1f} of 10")
    return Verdict(CORRECT if scores["AC"] >= 5 else WRONG, score=average / 10,
                   reason=f"{shown}: {reason}" if reason else shown, judge=judge,
                   details={"subscores": scores, "judge_reason": reason}, prompt=prompt,
                   reply=reply)


NO_ANSWER_READ = ("unparsed: no answer could be read from the reply, so it is not counted "
                  "correct")


def verbench_ruled(verdict: Verdict, rule: Verdict | None = None) -> Verdict:
    """The verdict of a reply the rules decided against (in place), one rule for both cases:
    no answer read (`rule` None or unparsed) or an answer the rules read as wrong (`rule`:
    the general rule verdict of a multiple-choice, yes/no, numeric... answer; an LLM judge
    gave a wrong letter AC 7, "correct"). Its value is the rule's, its AC 0 whatever the
    judge gave (the judge's AC kept in details["judge_AC"]); CC, RQ and ER stay as graded
    (the clues and reasoning were written), the score the mean of the four so counted.
    VER-Bench averages over every item (§3.3, eq. 6), so the item stays in n; a judge reply
    that could not be read leaves it without sub-scores, as before."""
    wrong = rule is not None and rule.value == WRONG
    said = (f"wrong: the rules read the answer as wrong ({rule.judge}: {rule.reason}), so it "
            "is not counted correct") if wrong else NO_ANSWER_READ
    verdict.value = WRONG if wrong else UNPARSED
    if wrong:       # the value is the rule's decision, not the judge's (`judged_by_itself`)
        verdict.judge, verdict.answer = rule.judge, rule.answer
    scores = verdict.details.get("subscores")
    if not scores or any(m not in scores for m in VERBENCH_METRICS):
        verdict.reason = f"{said}; {verdict.reason}"
        return verdict
    verdict.details["judge_AC"] = scores["AC"]
    scores = verdict.details["subscores"] = {**scores, "AC": 0.0}
    average = sum(scores.values()) / 4
    verdict.score = average / 10
    reason = verdict.details.get("judge_reason") or ""
    shown = (f"{said}: AC counts 0 whatever the judge gave (it gave "
             f"{verdict.details['judge_AC']:g}); average {average:.1f} of 10, CC, RQ and ER "
             f"as graded")
    verdict.reason = f"{shown}; the judge: {reason}" if reason else shown
    return verdict
