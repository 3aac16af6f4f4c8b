"""Judge agreement on a run's verdicts: which verdicts are a judge's own, and how often
two judges that scored the same responses agree (`judges.agreement`)."""
from __future__ import annotations

from collections import defaultdict

from domain.judge_ids import parse_judge

from judges.agreement import pairwise_agreement
from judges.verdict import CORRECT, ERROR, UNPARSED, UNSCORED


def agreement_basis(protocol: str) -> str:
    """What an agreement's n counts, in words: rigorous and grounded count only responses
    with a correct answer (`agreement`), and saying "responses both scored" of them showed
    6 where both judges had scored 11."""
    if protocol in ("rigorous", "grounded"):
        return "responses with a correct answer both judges scored"
    return "responses both judges scored"


def judged_by_itself(row: dict) -> bool:
    """Did the verdict's own judge decide it? An LLM judge's row that a rule decided (a
    numeric or multiple-choice answer: the judge was never asked) or that no judge could
    read (unparsed, error) is no judgement of its: counted, two LLM judges "agreed" on 100%
    of 14 responses none of which either had been asked about."""
    if row["value"] in (UNPARSED, ERROR, UNSCORED):
        return False
    decided = row.get("decided_by") or ""
    return not ((row["judge"] or "").startswith("llm:") and decided.startswith("rule:"))


def agreement(store, run_id: str, protocol: str, items=None) -> list[dict]:
    """Pairwise agreement (percent, Cohen's kappa; "n": the responses both judges scored)
    between every judge that scored the run under `protocol`, on the responses to `items`
    when given (the items the page's table compares: agreement beside a table is on its
    items). For rigorous and grounded only responses with a correct answer count
    (elsewhere every judge copies the answer's verdict, which would inflate agreement)."""
    labels: dict[str, dict] = defaultdict(dict)
    by_rule: dict[str, int] = defaultdict(int)
    considered = set()
    full = protocol in ("rigorous", "grounded")
    for r in store.run_scores(run_id, protocol, full=True):
        if parse_judge(r["judge"]).is_panel or items is not None and r["item_id"] not in items:
            continue
        if full and r["details"].get("answer_value", CORRECT) != CORRECT:
            continue
        considered.add(r["work_id"])
        judged = labels[r["judge"]]      # a judge that decided none still has its line
        if judged_by_itself(r):
            judged[r["work_id"]] = r["value"]
        elif (r.get("decided_by") or "").startswith("rule:"):
            by_rule[r["judge"]] += 1
    pairs = pairwise_agreement(labels) if len(labels) > 1 else []
    for pair in pairs:
        pair["responses"] = len(considered)
        # an LLM judge every verdict of which a rule decided (it was never asked); the
        # offline matcher is rules itself: "no judge was asked" was said of an LLM judge
        # that graded the item the offline matcher left unscored
        pair["rules_decided_all"] = bool(considered) and any(
            by_rule[j] == len(considered) for j in (pair["a"], pair["b"])
            if j.startswith("llm:"))
    return pairs


def agreement_figures(pair: dict, protocol: str) -> dict:
    """One pair of `agreement` as every output gives it (the Results page's lines, `report`'s
    lines and its --json "judge_agreement"), so that they show one set of numbers:
    {"a", "b", "n" (responses both judges scored themselves), "agreed" (of them),
    "agreement_pct", "kappa" (None: undefined, or no response to count), "responses" (those
    considered), "basis" (what n counts, in words), "not_applicable" (why there is no
    agreement, '' when there is one)}."""
    n, share = pair["n"], pair["agreement"]
    return {"a": pair["a"], "b": pair["b"], "n": n,
            "agreed": round(share * n) if share is not None else 0,
            "agreement_pct": round(share * 100, 2) if share is not None and n else None,
            "kappa": round(pair["kappa"], 2) if pair["kappa"] is not None and n else None,
            "responses": pair.get("responses", 0), "basis": agreement_basis(protocol),
            "not_applicable": "" if n and share is not None else not_applicable_why(pair)}


def agreement_text(pair: dict, protocol: str) -> str:
    """'llm:a vs offline: agree on 83.3% of 6 responses both judges scored (Cohen's kappa
    0.62)'; with no response both judges scored themselves, why, in words ("– of 0" said
    nothing): rules decided them all, or no response was judged by both."""
    head = f"{pair['a']} vs {pair['b']}"
    if not pair["n"]:
        return f"{head}: agreement not applicable: {not_applicable_why(pair)}"
    kappa = "–" if pair["kappa"] is None else f"{pair['kappa']:.2f}"
    return (f"{head}: agree on {pair['agreement'] * 100:.1f}% of {pair['n']} "
            f"{agreement_basis(protocol)} (Cohen's kappa {kappa})")


def not_applicable_why(pair: dict, counted: bool = True) -> str:
    """Why a pair with no response both judges scored themselves has no agreement (with
    the number of responses, unless `counted` is False: a line that gives it per run)."""
    total = f"{pair.get('responses', 0)} " if counted else ""
    return (f"rules decided all {total}responses (no judge was asked)"
            if pair.get("rules_decided_all") else
            f"no response {f'of the {total}'.strip() if counted else ''} was judged by both "
            "judges themselves".replace("  ", " "))
