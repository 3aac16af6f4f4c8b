"""Which of the judges every compared run was scored with reads them when none is named.

The order of preference alone (a panel, then an LLM judge, then the offline matcher, each by
name: `scoring.results.preferred_judge`) picked an LLM judge whose every
verdict was a failure (its replies unreadable): the Results page then showed a table with
nothing scored, and the offline matcher's verdicts, there all along, unseen. A default judge
must have scored the items compared: of the judges every run has, the one that scored the
most responses on the items the runs share (a verdict the judge failed to give, or could not
decide, is unscored and does not count), the order of preference breaking ties. That order
never looks at when a judge scored: "then the latest" changed the table's judge, and its
numbers, after an unrelated judge or a panel was scored again from the cache. The table's
notes say which judge that is and why (`choice_note`). Among equals a judge serving the model
of a compared run (a self-judge: `scoring.self_judge.self_judges`, passed in) comes after
every independent one: the order alone read a run with the model judging its own answers.
"""
from __future__ import annotations

from judges.verdict import UNSCORED


def scored_counts(store, run_ids, protocol: str, judges) -> tuple[dict[str, int], int]:
    """({judge: responses it scored (any verdict but unscored) on the items all `run_ids`
    share}, the number of those items). An item is a run's when any judge gave a verdict on
    it under `protocol`, as the tables count the items a run has."""
    values = {(rid, j): store.score_values(rid, protocol, j) for rid in run_ids for j in judges}
    per_run = [{row[1] for j in judges for row in values[(rid, j)]} for rid in run_ids]
    shared = set.intersection(*per_run) if per_run else set()
    counts = {j: sum(1 for rid in run_ids for row in values[(rid, j)]
                     if row[1] in shared and row[4] != UNSCORED) for j in judges}
    return counts, len(shared)


def best_scoring(ordered: list[str], counts: dict[str, int],
                 self_judges=frozenset()) -> str | None:
    """The judge of `ordered` (the order of preference) that scored the most responses;
    among equals an independent judge before a self-judge (one that judged its own model's
    answers in a compared run: `self_judges`), then the first in that order. The order
    alone read a tie with the model under test's own judge."""
    if not ordered:
        return None
    return min(ordered, key=lambda j: (-counts.get(j, 0), j in self_judges, ordered.index(j)))


ORDER = "a panel, then an LLM judge, then offline, each by name (never by when they scored)"


def choice_note(chosen: str, ordered: list[str], counts: dict[str, int], items: int,
                self_judges=frozenset()) -> str:
    """The sentence saying which judge reads the runs and why, when more than one could:
    'No judge chosen: read with offline, of the judges every run was scored with the one
    that scored the most responses on the 4 items the runs share (offline 4, llm:j 0; a
    verdict a judge failed to give or could not decide is unscored).' When others scored as
    many, which order broke the tie: '... llm:a, llm:b scored as many: among equals a
    panel, then an LLM judge, then offline, each by name (never by when they scored).'
    When a tied self-judge was passed over: '... scored as many: llm:jc, not llm:ja, which
    judged its own model's answers in a compared run (...)'. '' with one judge to choose
    from."""
    if len(ordered) < 2:
        return ""
    each = ", ".join(f"{j} {counts.get(j, 0)}" for j in
                     sorted(ordered, key=lambda j: (-counts.get(j, 0), ordered.index(j))))
    passed = [j for j in ordered[:ordered.index(chosen)] if counts.get(j, 0) < counts[chosen]]
    over = (f", not {', '.join(passed)}, which scored fewer of them (its other verdicts "
            "unscored: the judge failed on them or could not decide)") if passed else ""
    tied = [j for j in ordered if counts.get(j, 0) == counts.get(chosen, 0)]
    judged_own = [j for j in tied if j in self_judges and j != chosen]
    if judged_own and chosen not in self_judges:
        # one at a time: "not panel:a+j, llm:a, which judged its own …" made the panel
        # the self-judge, where only its member a is (a review, round 27)
        whose = "; ".join(
            f"{j}, {'a member of which' if j.startswith('panel:') else 'which'} judged its "
            "own model's answers" for j in judged_own)
        tie = (f"; {', '.join(tied)} scored as many: {chosen}, not {whose} in a compared "
               "run (among equals an independent judge first)")
    elif len(tied) > 1:
        tie = f"; {', '.join(tied)} scored as many: {chosen} by the order among equals, {ORDER}"
    else:
        tie = f"; among equals {ORDER}"
    return (f"No judge chosen: read with {chosen}, of the judges every run was scored with "
            f"the one that scored the most responses on the {items} item"
            f"{'s' if items != 1 else ''} the runs share ({each}){over}{tie}.")
