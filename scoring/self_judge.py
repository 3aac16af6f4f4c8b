"""When a judge is the model it judges: an LLM judge (or a panel member) whose endpoint
serves the model a run was answered by.

The Results page's "LLM judge(s)" picker offers every endpoint, the run's own among them,
and some papers do judge a model with itself; but the table showed "llm:fake-a" beside
vlm-a's row with no word that vlm-a graded its own answers. The choice stays; the words
under the table and `score`'s notes now say it, once per judge and group of runs.
"""
from __future__ import annotations

from domain.judge_ids import format_judge, parse_judge
from store import NotFoundError


def judge_models(store, judge: str) -> dict[str, str]:
    """{LLM judge id: the model its endpoint serves} of `judge` (itself, or a panel's
    members); endpoints since removed, and non-LLM judges, have none."""
    parsed = parse_judge(judge or "")
    members = parsed.members if parsed.is_panel else (parsed,) if parsed.is_llm else ()
    found = {}
    for member in members:
        try:
            found[format_judge(member)] = store.get_endpoint(member.endpoints[0])["model"]
        except NotFoundError:
            continue
    return found


def run_model(store, run_id: str) -> str | None:
    """The model id the run's endpoint asked for when it ran."""
    return (store.get_run(run_id)["config"].get("endpoint") or {}).get("model")


def self_judges(store, run_ids, judges) -> set[str]:
    """The judges of `judges` (or a panel with a member) serving the model of any run of
    `run_ids`: a default judge prefers another among equals (`scoring.judge_choice`)."""
    models = {run_model(store, rid) for rid in run_ids} - {None}
    return {j for j in judges if models & set(judge_models(store, j).values())}


def self_judge_text(member: str, judge: str, model: str, runs: list[str]) -> str:
    within = f" (a member of {judge})" if member != judge else ""
    which = f"run {runs[0]}" if len(runs) == 1 else f"runs {', '.join(runs)}"
    return (f"{member}{within} judged its own model's answers ({model}) for {which}: "
            "a self-judge.")


def self_judge_notes(store, judged: dict[str, str], names: dict[str, str]) -> list[str]:
    """The sentences for {run id: judge id} whose judge (or a panel member) serves the run's
    own model, one per judge, member and model, naming its runs by `names` (their labels)."""
    groups: dict[tuple[str, str, str], list[str]] = {}
    for rid, judge in judged.items():
        model = run_model(store, rid)
        for member, served in judge_models(store, judge).items():
            if model and served == model:
                groups.setdefault((member, judge, model), []).append(names.get(rid, rid))
    return [self_judge_text(*key, runs) for key, runs in groups.items()]
