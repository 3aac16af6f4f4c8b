"""A judge's failures, counted and named as the judge's, the same way under every protocol.

A reply no answer could be read from is the model's failure: "unparsed" under every protocol,
never sent to VER-Bench's judge. A judge that was asked and gave nothing to count (its reply
unreadable, its call failed) is the judge's failure: the verdict is unscored (out of the
accuracy, never a 0). The VER-Bench table read a real-looking 0.0 on the 2 refusals left
when the judge failed on the other 12: its row is marked.

`score` says per protocol and judge how many responses the judge failed on, by reason
(`failure_notes`; `--json`: `judge_failures`); the VER-Bench table marks a row whose items
the judge left out (`mark_verbench`), its footnote naming the count, how many of them the
model's unparsed replies, and the n the row rests on.
"""
from __future__ import annotations

from collections import Counter

from domain.judge_ids import format_judge, parse_judge
from domain.vocabulary import counted
from judges.verdict import NOT_ASKED, not_correct_reason
from scoring.llm_stages import NOT_CACHED, judge_failure
from scoring.offline import needs_llm

MARK = "§"
KEY = "judge_failed"


def failures(verdicts: dict) -> dict:
    """{"by_reason": {reason: responses}} of one protocol's verdicts by one judge."""
    return {"by_reason": dict(Counter(why for why in map(judge_failure, verdicts.values())
                                      if why))}


def failure_notes(protocol: str, judge: str, verdicts: dict) -> list[str]:
    """The note `score` prints when the judge failed on some responses (none otherwise):
    'verbench llm:j: the judge failed on 14 responses (14 replies unreadable): they are
    unscored; scoring again asks the judge again', each reason under its own name and the
    advice true of it: a reply whose extracted clues are not the reply's was readable and is
    cached, so scoring again reads it again (12 "replies unreadable" beside a request line
    saying 4, and re-scoring kept them all)."""
    found = failures(verdicts)["by_reason"]
    total = sum(found.values())
    if not total:
        return []
    reasons = ", ".join(f"{n} {reason_text(why, n)}" for why, n in sorted(found.items()))
    return [f"{protocol} {judge}: the judge failed on {total} response{'s' if total != 1 else ''}"
            f" ({reasons}): {'it is' if total == 1 else 'they are'} unscored; "
            f"{advice(found)}"]


def unscored_reasons(verdicts: dict, answers: dict | None = None) -> dict[str, int]:
    """{reason: responses} of every unscored verdict of `verdicts`, adding up to their
    unscored count: the judge's failure on this stage (`judge_failure`), else the verdict's
    own reason; a rigorous or grounded verdict unscored because its answer is, by why the
    answer is (`answers`: the general verdicts it was built on): two unscored responses
    of an open answer whose judge reply was unreadable had no reason anywhere."""
    found: Counter = Counter()
    for wid, verdict in verdicts.items():
        if verdict.value != "unscored":
            continue
        answer = (answers or {}).get(wid)
        if judge_failure(verdict):
            found[judge_failure(verdict)] += 1
        elif verdict.details.get("answer_value") == "unscored" and answer is not None:
            found[_answer_reason(answer)] += 1
        else:
            found[verdict.reason or "no reason recorded"] += 1
    return dict(found)


def _answer_reason(answer) -> str:
    """Why a verdict built on the unscored general verdict `answer` is unscored: the judge's
    failure on the answer, an item never asked in its own words (`not_correct_reason`: the
    general note's "not asked, not this run's error: no clues from run …", which rigorous
    called "an open answer no judge decided"), an open answer left to a judge that did not
    decide it, else the answer's own reason."""
    why = judge_failure(answer)
    if why:
        return f"answer unscored: the judge's {why} on the answer"
    if answer.details.get(NOT_ASKED) or (answer.reason and not needs_llm(answer)):
        return not_correct_reason(answer)
    return "answer unscored: an open answer no judge decided"


def unscored_note(protocol: str, judge: str, verdicts: dict, answers: dict | None = None
                  ) -> list[str]:
    """'rigorous llm:j: 6 responses unscored: 4 reply unreadable, 2 answer unscored: …'
    when some unscored verdict is not the judge's failure on this stage (`failure_notes`
    names those alone): every unscored verdict with a named reason, adding up."""
    found = unscored_reasons(verdicts, answers)
    if not set(found) - set(failures(verdicts)["by_reason"]):
        return []
    total = sum(found.values())
    return [f"{protocol} {judge}: {total} response{'s' if total != 1 else ''} unscored, by "
            "reason: " + "; ".join(f"{n} {reason_text(why, n)}" for why, n in
                                   sorted(found.items(), key=lambda p: (-p[1], p[0])))]


def failed_responses(*stages: dict) -> int:
    """The responses a judge's failed requests (no reply, or a reply not read: never cached)
    cover, over its stages' verdicts ({work id: Verdict} each): one request stands for every
    response with the same prompt, so '3 requests … failed' may be 6 responses."""
    return len({wid for verdicts in stages for wid, v in verdicts.items()
                if judge_failure(v) in NOT_CACHED})


def advice(by_reason: dict[str, int]) -> str:
    """What scoring again does for these failures ({reason: responses}), by how the response
    cache treats each (`scoring.llm_stages.NOT_CACHED`)."""
    again = sum(n for why, n in by_reason.items() if why in NOT_CACHED)
    kept = sum(by_reason.values()) - again
    if not kept:
        return "scoring again asks the judge again"
    one, lone = kept == 1, again == 1
    readable = (f"the {kept} whose extracted clues are not in the reply had "
                f"{'a readable reply' if one else 'readable replies'}, cached, so scoring "
                f"again reads {'it' if one else 'them'} again: score --no-cache asks the judge afresh (at "
                "temperature 0 it may well extract the same clues), or score with another judge")
    return (f"scoring again asks the judge again about the {again} whose "
            f"{'reply was' if lone else 'replies were'} not cached; {readable}" if again
            else readable)


def reason_text(reason: str, n: int) -> str:
    if n == 1:
        return reason
    return {"call failed": "calls failed", "reply unreadable": "replies unreadable"}.get(
        reason, reason)


def ungraded_work(store, run_id: str, protocol: str, judge: str) -> set[int]:
    """The responses whose VER-Bench verdict by `judge` (a panel: by its members) has no
    sub-scores because the judge failed on them; empty for other protocols."""
    if protocol != "verbench":
        return set()
    parsed = parse_judge(judge)
    members = [format_judge(m) for m in parsed.members] if parsed.is_panel else [judge]
    return store.ungraded_work(run_id, judge, members)


def mark_verbench(table, summaries: dict[str, dict]) -> None:
    """Mark the rows of the VER-Bench table ({row label: `verbench_summary`}) that the judge
    left items out of: their numbers and Unscored cell, a footnote each, and the CSV/JSON
    column `judge_failed`."""
    found = {label: s for label, s in summaries.items() if s.get(KEY)}
    if not found:
        return
    table.exported.append(KEY)
    texts = []
    for label, s in found.items():
        n, failed, items = s["n"], s[KEY], s["n"] + s["unscored"]
        rests = (f"AC, CC, RQ, ER and the average rest on the other {n} (n {n}), not on the "
                 "run") if n else "the row has no number (n 0)"
        texts.append(f"{label}: {failed} of its {counted(items, 'item')} are unscored because the judge "
                     f"failed on them (its reply unreadable or its call failed): "
                     f"{rests}")
    text = (f"{MARK} " + "; ".join(texts) + ". Score again (--no-cache asks the judge "
            "afresh) or with another judge.")
    table.notes = f"{table.notes} {text}".strip()
    table.footnotes.append(text)
    for row in table.rows:
        s = found.get(row.get("model"))
        row[KEY] = s[KEY] if s else 0
        if s:
            keys = [k for k in ("AC", "CC", "RQ", "ER", "average") if row.get(k) is not None]
            row["_flags"] = {**row.get("_flags", {}), **dict.fromkeys(keys + ["unscored"], MARK)}
