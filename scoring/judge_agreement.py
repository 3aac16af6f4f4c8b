"""Judge agreement on a run's verdicts: which verdicts are a judge's own, and how often
two judges that scored the same responses agree (`judges.agreement`).

Two thresholds, said where they apply:
- `MIN_KAPPA_N`: under 10 responses both judges scored, no Cohen's kappa is given, the
  reason said instead (a kappa on n 1 was shown as '–' and on n 2 as 1.00 or -1.00 without
  a word; one response more or less moves it by tenths), and none when it is undefined
  (both judges gave one single value: chance agreement is 100%).
- `LOW_AGREEMENT`: a table whose run is read by a judge that agrees with every other judge
  that scored it on less than half of at least `MIN_CAUTION_N` (5) responses both scored
  says so (`low_agreement_notes`): a rigorous headline rested on a judge that agreed with
  the other on 0 of 18, without a word under the table.

Two judges that are one judge (`scoring.same_judge`: the same model on the same server,
asked the same way; the test that refuses them as a panel) are never compared: their pair
says so in words instead of a percentage, and no caution rests on it.
"""
from __future__ import annotations

from collections import defaultdict

from domain.judge_ids import parse_judge

from judges.agreement import pairwise_agreement
from judges.verdict import CORRECT, ERROR, UNPARSED, UNSCORED

from scoring.same_judge import one_judge_why

MIN_KAPPA_N = 10
LOW_AGREEMENT, MIN_CAUTION_N = 0.5, 5


def agreement_basis(protocol: str, n: int | None = None) -> str:
    """What an agreement's n counts, in words: rigorous and grounded count only responses
    with a correct answer (`agreement`), and saying "responses both scored" of them showed
    6 where both judges had scored 11. Of `n` 1, "response" ("0.00% of 1 responses")."""
    noun = "response" if n == 1 else "responses"
    if protocol in ("rigorous", "grounded"):
        return f"{noun} with a correct answer both judges scored"
    return f"{noun} both judges scored"


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
        pair["rules_decided"] = max((by_rule[j] for j in (pair["a"], pair["b"])
                                     if j.startswith("llm:")), default=0)
        pair["rules_decided_all"] = bool(considered) and \
            pair["rules_decided"] == len(considered)
        pair["one_judge"] = one_judge_why(store, pair["a"], pair["b"])
        if pair["one_judge"]:       # a copy agrees with itself: no figure, the reason instead
            pair.update(n=0, agreement=None, kappa=None)
    return pairs


def agreement_figures(pair: dict, protocol: str) -> dict:
    """One pair of `agreement` as every output gives it (the Results page's lines, `report`'s
    lines and its --json "judge_agreement"), so that they show one set of numbers:
    {"a", "b", "n" (responses both judges scored themselves), "agreed" (of them),
    "agreement_pct", "kappa" (None: see "kappa_note"), "kappa_note" (why no kappa is given,
    in words, '' when one is), "responses" (those considered), "basis" (what n counts, in
    words), "not_applicable" (why there is no agreement, '' when there is one)}."""
    n, share = pair["n"], pair["agreement"]
    why = kappa_why(pair)
    return {"a": pair["a"], "b": pair["b"], "n": n, "one_judge": bool(pair.get("one_judge")),
            "agreed": round(share * n) if share is not None else 0,
            "agreement_pct": round(share * 100, 2) if share is not None and n else None,
            "kappa": round(pair["kappa"], 2) if not why else None, "kappa_note": why,
            "responses": pair.get("responses", 0), "basis": agreement_basis(protocol, n),
            "not_applicable": "" if n and share is not None else not_applicable_why(pair)}


def agreement_text(pair: dict, protocol: str) -> str:
    """'llm:a vs offline: agree on 83.3% of 6 responses both judges scored (Cohen's kappa
    0.62)'; with no response both judges scored themselves, why, in words ("– of 0" said
    nothing): rules decided them all, or no response was judged by both."""
    head = f"{pair['a']} vs {pair['b']}"
    if pair.get("one_judge"):
        return pair["one_judge"]
    if not pair["n"]:
        return f"{head}: agreement not applicable: {not_applicable_why(pair)}"
    return (f"{head}: agree on {pair['agreement'] * 100:.1f}% of {pair['n']} "
            f"{agreement_basis(protocol, pair['n'])} ({kappa_text(pair)})")


def kappa_why(pair: dict) -> str:
    """Why no Cohen's kappa is given for `pair`, in words; '' when one is."""
    n = pair["n"]
    if n and n < MIN_KAPPA_N:
        return (f"no Cohen's kappa on {n} response{'' if n == 1 else 's'}, which needs at least "
                f"{MIN_KAPPA_N}: on so few, one response more or less moves it by tenths")
    if n and pair["kappa"] is None:
        return ("no Cohen's kappa: undefined, both judges gave every response the same single "
                "value (chance agreement is 100%)")
    return "" if n else "no Cohen's kappa: no response to count"


def kappa_text(pair: dict) -> str:
    """"Cohen's kappa 0.62", or why there is none (`kappa_why`)."""
    return kappa_why(pair) or f"Cohen's kappa {pair['kappa']:.2f}"


def low_agreement_notes(store, found: dict, names: dict, protocol: str) -> list[str]:
    """A caution per run (`found`: {run id: run_summary}) whose shown judge, one judge, not a
    panel, agrees with every other judge that scored the run under `protocol` on less than
    `LOW_AGREEMENT` of at least `MIN_CAUTION_N` responses both scored, on the table's items."""
    out = []
    for run_id, result in found.items():
        judge = result["judge"]
        scored = {j["judge"] for j in store.score_judges(run_id) if j["protocol"] == protocol
                  and not parse_judge(j["judge"]).is_panel}
        if parse_judge(judge).is_panel or len(scored) < 2 or judge not in scored:
            continue
        items = {r["item_id"] for r in result.get("records", [])} or None
        pairs = [p for p in agreement(store, run_id, protocol, items)
                 if judge in (p["a"], p["b"]) and not p["one_judge"]]
        if not pairs or not all(p["n"] >= MIN_CAUTION_N and p["agreement"] is not None and
                                p["agreement"] < LOW_AGREEMENT for p in pairs):
            continue
        with_others = "; ".join(f"{p['b'] if p['a'] == judge else p['a']} on "
                                f"{round(p['agreement'] * p['n'])} of {p['n']}" for p in pairs)
        out.append(f"Caution: {names.get(run_id, run_id)} is read by judge {judge}, which agrees "
                   f"with every other judge that scored it on less than "
                   f"{LOW_AGREEMENT:.0%} of the {agreement_basis(protocol)} ({with_others}): "
                   "its numbers may be the judge's, not the model's; compare with another "
                   f"judge (a caution from {MIN_CAUTION_N} responses on).")
    return out


def not_applicable_why(pair: dict, counted: bool = True) -> str:
    """Why a pair with no response both judges scored themselves has no agreement (with
    the number of responses, unless `counted` is False: a line that gives it per run)."""
    if pair.get("one_judge"):
        return pair["one_judge"]
    total = f"{pair.get('responses', 0)} " if counted else ""
    if pair.get("rules_decided_all"):
        return f"rules decided all {total}responses (no judge was asked)"
    if pair.get("rules_decided") and counted:
        # "no response was judged by both" hid that rules had decided the closed answers
        ruled = pair["rules_decided"]
        return (f"rules decided {ruled} of the {total}responses (no judge was asked), and "
                f"no other was judged by both judges themselves")
    return (f"no response {f'of the {total}'.strip() if counted else ''} was judged by both "
            "judges themselves".replace("  ", " "))
