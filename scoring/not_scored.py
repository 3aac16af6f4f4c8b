"""The answers a run holds that have no verdict of the scoring shown: answers recorded after
it (a resume that retried errors drops the verdicts of the replies it replaced), counted in
the Unscored column (`not_scored_rows`) and named in a note under every table
(`not_scored_text`)."""
from __future__ import annotations

from scoring.commands import score_command


def not_scored_rows(groups: dict, missing: list[tuple]) -> list[dict]:
    """Score rows, each unscored, for the answers with no verdict of the scoring shown
    (`missing`: `store.scores.work_without_score`; `groups`: {item_id: (domain, subtask,
    reasoning_type)}): an item answered after its scoring (a resume that retried errors
    drops their old verdicts) counts in Unscored, so n + Unscored is the run's items with
    answers (it dropped out of the table: "8 items … Unscored 0" of 14 answered)."""
    none = (None, None, None)
    return [{"work_id": work_id, "item_id": item_id, "repeat": repeat, "sample": sample,
             "value": "unscored", "answer": None, "subscores": {}, "completion_tokens": tokens,
             "unread_right": False, "judge_failed": False,
             **dict(zip(("domain", "subtask", "reasoning_type"), groups.get(item_id, none)))}
            for work_id, item_id, repeat, sample, tokens in missing]


def not_scored_text(run_label: str, result: dict) -> str:
    """'run X: 38 answers came after its general scoring by offline and have no verdict, so
    their items count as unscored (Unscored): score it again (python app.py score --run X --protocol general); they are new answers, or
    answers sent again ... whose verdicts were dropped' (`store.scores.drop_response_scores`:
    a replaced reply loses its verdicts), with the judge shown
    (`scoring.commands.score_command`), or '' when every answer has one."""
    missing = result.get("not_scored") or 0
    if not missing:
        return ""
    command = score_command(result["run"], result["protocol"], result["judge"])
    return (f"run {run_label}: {missing} answers came after its {result['protocol']} scoring "
            f"by {result['judge']} and have no verdict, so their items count as unscored "
            f"(Unscored): score it again ({command}); they are new answers, or answers sent "
            f"again (a resume that retried errors) whose verdicts on the replies they replaced "
            f"were dropped.")
