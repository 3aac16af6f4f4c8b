"""The judge the Results page shows, when it is not the runs' default one: a note.

After scoring with an LLM judge whose every reply was unreadable, the page's "Judge shown"
became that judge and the accuracies changed (n dropped) with only "Unscored 1" as a sign.
A table of the page (and a download made then) read with a judge other than the runs'
common judge (`scoring.results.common_judge`, the one the CLI tables use) says so, with how
many readable verdicts that judge gave of those asked.
"""
from __future__ import annotations

from scoring.results import common_judge


def shown_judge_note(store, run_ids, protocol: str, judge: str | None,
                     items=None) -> str:
    """'Shown with llm:judge-bad, which gave 0 readable verdicts of 1 asked; the default
    judge for these runs is llm:judge-a (CLI tables use it).', or '' when `judge` is None
    or the default one. `items`: the items the table compares (None: all the runs' items):
    only responses to them are counted (the whole runs' were, "23 more decided by rules"
    under a table of 3 items). The offline matcher is rules itself: 'Shown with offline
    (rules): decided 6 responses; …', never "0 asked"; nor is a judge rules left nothing to:
    'Shown with llm:j: rules decided all 126 responses (the judge was not asked); …'."""
    if not judge:
        return ""
    runs = list(dict.fromkeys(run_ids or []))
    default = common_judge(store, runs, protocol)
    if default is None or default == judge:
        return ""
    rows = [r for rid in runs for r in store.run_scores(rid, protocol, judge)
            if items is None or r["item_id"] in items]
    tail = f"; the default judge for these runs is {default} (CLI tables use it)."
    if judge == "offline":
        decided = sum(r["value"] != "unscored" for r in rows)
        of = f" of {len(rows)}" if decided != len(rows) else ""
        return (f"Shown with offline (rules): decided {decided}{of} "
                f"response{'' if len(rows) == 1 else 's'}{tail}")
    # what the judge itself was asked: a verdict a rule decided (a letter, a number, an
    # unparsed answer) is no reply of the judge's — counted, a judge whose every reply was
    # unreadable read "39 readable verdicts of 42 asked" (a review, round 19)
    asked = [r["value"] for r in rows if not str(r.get("decided_by") or "").startswith("rule:")]
    readable = sum(value != "unscored" for value in asked)
    by_rules = len(rows) - len(asked)
    if by_rules and not asked:   # "gave 0 readable verdicts of 0 asked (126 more …)"
        return (f"Shown with {judge}: rules decided all {by_rules} response"
                f"{'' if by_rules == 1 else 's'} (the judge was not asked){tail}")
    rules = f" ({by_rules} more decided by rules)" if by_rules else ""
    return (f"Shown with {judge}, which gave {readable} readable verdict"
            f"{'' if readable == 1 else 's'} of {len(asked)} asked{rules}{tail}")
