"""How many members of a judge panel actually answered, so that no table calls one judge's
verdicts a panel's.

A panel's verdict is the majority of the members that could score (`judges.agreement.
panel_vote`). A member whose every call failed casts no vote, and the panel's verdicts are
then the other member's alone: Inspect said "1 of 1 judges" while Results showed
"panel:a+b" as if a majority had decided. A member *answered* a response when it voted on it
(its vote is not unscored) and it gave a readable reply there (under the protocol, or under
the general and rigorous stages that rigorous and grounded verdicts are built on); a vote a
rule decided for every member is no judge's answer. `panel_answers` counts them per member;
`shown_judge` is the Judge column's text and `panel_note` the sentence under a table.
"""
from __future__ import annotations

import json

from domain.judge_ids import format_judge, parse_judge
from judges.verdict import UNSCORED, Verdict

BUILT_ON = {"rigorous": ("general", "rigorous"), "grounded": ("general", "rigorous", "grounded")}


def panel_answers(store, run_id: str, protocol: str, judge: str) -> dict | None:
    """{"members": [member judge ids], "answered": {member: responses it answered},
    "judged": responses at least one member answered, "alone": responses only one member
    answered, "asked": responses any member was asked about}; None when `judge` is no
    panel."""
    parsed = parse_judge(judge)
    if not parsed.is_panel:
        return None
    members = [format_judge(m) for m in parsed.members]
    votes = {wid: json.loads(text or "{}") for wid, text in
             store.panel_votes(run_id, protocol, judge)}
    protocols = list(BUILT_ON.get(protocol, (protocol,)))
    return {**count_answers(members, votes, store.judges_answered(run_id, protocols, members)),
            "asked": store.judges_asked(run_id, protocols, members)}


def count_answers(members: list[str], votes: dict[int, dict], replied: set) -> dict:
    """`panel_answers` from {work_id: {member: vote}} and {(member, work_id)} replied."""
    answered = dict.fromkeys(members, 0)
    judged = alone = 0
    for wid, cast in votes.items():
        took_part = [m for m in members
                     if cast.get(m, "unscored") != "unscored" and (m, wid) in replied]
        for member in took_part:
            answered[member] += 1
        judged += bool(took_part)
        alone += len(took_part) == 1
    return {"members": members, "answered": answered, "judged": judged, "alone": alone}


def members_answered(answers: dict) -> list[str]:
    return [m for m in answers["members"] if answers["answered"][m]]


def shown_judge(judge: str, answers: dict | None) -> str:
    """The Judge column's text: the judge id, and for a panel how many members answered
    ('panel:a+b (2 of 2 answered)', and how many verdicts rest on one member when some do:
    'panel:a+b (2 of 2 answered; 1 of 2 verdicts rest on 1)'); a panel only one member
    answered is named by that member ('llm:a alone (panel:a+b: 1 of 2 answered)'): its
    verdicts are no majority."""
    if not answers:
        return judge
    found, total = members_answered(answers), len(answers["members"])
    if not found and not answers.get("asked", 1):
        return f"{judge} (no judge asked: rules decided every verdict)"
    if len(found) == 1:
        return f"{found[0]} alone ({judge}: 1 of {total} answered)"
    if not found:
        return f"{judge} (none of {total} answered)"
    alone = answers.get("alone", 0)
    if alone:   # "2 of 2 answered" alone read as every verdict a majority's
        return (f"{judge} ({len(found)} of {total} answered; {alone} of "
                f"{answers['judged']} verdicts rest on 1)")
    return f"{judge} ({len(found)} of {total} answered)"


def judges_count(answers: dict | None) -> str:
    """CSV/JSON's `judges_answered`: '1 of 2' for a panel, '' for one judge."""
    if not answers:
        return ""
    return f"{len(members_answered(answers))} of {len(answers['members'])}"


def panel_note(label: str, judge: str, answers: dict | None) -> str:
    """The sentence under a table for a run whose panel was not whole on every response it
    judged, '' when every member answered each of them (or `judge` is no panel)."""
    if not answers or answers["alone"] == 0 and len(members_answered(answers)) == len(
            answers["members"]):
        return ""
    found = members_answered(answers)
    if not found and not answers.get("asked", 1):
        return ""            # rules decided every verdict: the Judge column says so
    if not found:
        return (f"{label}: no member of {judge} answered (their calls failed or could not "
                f"be read), so no verdict of it is a judge's.")
    counts = ", ".join(f"{m} {n}" for m, n in answers["answered"].items())
    head = (f"{label}: of the {answers['judged']} responses a member of {judge} answered, "
            f"each member answered: {counts}")
    if len(found) == 1:
        return (f"{head}; so these verdicts are {found[0]}'s alone, not a panel majority "
                f"(shown as {found[0]} alone).")
    return (f"{head}; {answers['alone']} of them rest on one member's answer, not a "
            f"majority.")


def result_judge(result: dict) -> str:
    """A `run_summary` result's judge as the Judge column shows it (`shown_judge`)."""
    return shown_judge(result["judge"], result.get("panel"))


def results_notes(found: dict, names: dict) -> str:
    """`panel_note` of each run of `found` ({run_id: run_summary result}) that has one, a
    sentence said of several runs once, naming them all ("A and B, each: no member of …":
    `scoring.count_notes.grouped`)."""
    from scoring.count_notes import grouped

    said = []
    for rid, r in found.items():
        body = panel_note(RUNS, r["judge"], r.get("panel")).removeprefix(RUNS + ": ")
        if body:
            said.append((names[rid], (f"{RUNS}: {body}", f"{RUNS}, each: {body}")))
    return " ".join(grouped(said))


RUNS = "{runs}"      # where `grouped` names the runs of a sentence


def judges_of(results: list[dict | None]) -> tuple[list[str], list[str], list[str]]:
    """`scoring.table_marks.with_judges`' judges, shown texts and `judges_answered` of rows
    each read from a `run_summary` result (None: a row that is no run, '' in each)."""
    return ([r["judge"] if r else "" for r in results],
            [result_judge(r) if r else "" for r in results],
            [judges_count(r.get("panel")) if r else "" for r in results])


def lone_votes(protocol: str, panel: str, verdicts: dict[int, Verdict]) -> list[str]:
    """A note when some of a panel's verdicts rest on one member's vote (the others' calls
    failed or could not be read): `score` printed a panel's counts identical to one
    member's with no word, as if a majority had decided each."""
    found = sum(1 for v in verdicts.values() if v.value != UNSCORED and
                len(v.details.get("votes", {})) > 1 and
                sum(vote != UNSCORED for vote in v.details["votes"].values()) == 1)
    if not found:
        return []
    return [f"{protocol} {panel}: {found} of {len(verdicts)} verdicts rest on one member's "
            f"vote (the others' calls failed or their replies could not be read), not a "
            f"majority; scoring again asks the failed calls again"]
