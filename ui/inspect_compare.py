"""Compare: two responses to the same item side by side (two models, or two settings or clue
sources of one model), their verdicts per protocol and judge with the differences marked."""
from __future__ import annotations

import pandas as pd

from runner.totals import LABELS, counter
from ui.inspect_handlers import value_styled
from ui.inspect_view import compare_verdicts
from ui.run_choices import labelled
from ui.text import escape_md, short

COMPARE_HEADERS = ["protocol", "judge", "A", "B", "differs"]
DIFFERS = {"": "", "verdict": "◆ differs", "sub-scores": "◆ sub-scores differ",
           "score": "◆ score differs"}


def _others(store, view: dict) -> list[dict]:
    r = view["response"]
    return [o for o in store.item_responses(r["item_id"]) if o["work_id"] != r["work_id"]]


def compare_choices(store, view: dict) -> list[tuple[str, int]]:
    """(label, work id) of the other responses to the same item, each run named as in every
    run picker (its name, setting, clue source, image mode and status)."""
    runs: dict[str, str] = {}
    out = []
    for other in _others(store, view):
        if other["run_id"] not in runs:
            runs[other["run_id"]] = labelled(store, store.get_run(other["run_id"]))
        label = (f"#{other['work_id']} · {runs[other['run_id']]} · "
                 f"r{other['repeat']} s{other['sample']} · {_status(other)} · "
                 f"{short(other['answer'], 30)}")
        out.append((label, other["work_id"]))
    return out


def _status(response: dict) -> str:
    """A response's status in the words of the list and the response view ('no source
    clue', as counted: `runner.totals.counter`); the picker said 'error' beside them."""
    status = counter(response["status"], response.get("reason"))
    return LABELS.get(status, status)


def default_compare(store, view: dict) -> int | None:
    """The same repeat and sample in another run, else the first other response."""
    r, others = view["response"], _others(store, view)
    for other in others:
        if (other["repeat"], other["sample"]) == (r["repeat"], r["sample"]) \
                and other["run_id"] != r["run_id"]:
            return other["work_id"]
    return others[0]["work_id"] if others else None


def compare_table(a: dict, b: dict):
    rows = [[d["protocol"], d["judge"], d["a"], d["b"], DIFFERS[d["differs"]]]
            for d in compare_verdicts(a["verdicts"], b["verdicts"])]
    frame = pd.DataFrame(rows, columns=COMPARE_HEADERS)

    def mark(styler):
        return styler.apply(lambda s: ["background-color: #ffd43b; font-weight: 700"
                                       if v else "" for v in s], subset=["differs"], axis=0)

    return value_styled(frame, ["A", "B"], mark)


def compare_summary(a: dict, b: dict) -> str:
    """Who is compared, and what differs: the verdicts, and apart from them the rows whose
    verdict is the same but whose sub-scores (or score) are not, each with both readings."""
    found = compare_verdicts(a["verdicts"], b["verdicts"])
    same_item = a["response"]["item_id"] == b["response"]["item_id"]
    head = (f"**A** #{a['response']['work_id']} ({escape_md(a['run_label'])}) vs **B** "
            f"#{b['response']['work_id']} ({escape_md(b['run_label'])})")
    if not same_item:
        head += " · ⚠ different items"
    if not any(d["differs"] for d in found):
        return head + " · the verdicts agree"
    parts = []
    for kind, words in (("verdict", "verdicts differ on"),
                        ("sub-scores", "the verdicts are the same, the sub-scores differ on"),
                        ("score", "the verdicts are the same, the scores differ on")):
        diffs = [d for d in found if d["differs"] == kind]
        if diffs:
            parts.append(f"{words} " + ", ".join(
                f"{escape_md(d['protocol'])} ({escape_md(d['judge'])}: {escape_md(_read(d, 'a'))}"
                f" → {escape_md(_read(d, 'b'))})" for d in diffs))
    return head + " · " + "; ".join(parts)


def _read(d: dict, side: str) -> str:
    """A side's reading as the summary gives it: with its score when only the score differs."""
    if d["differs"] == "score":
        return f"{d[side]} (score {d[side + '_score']:g})"
    return d[side]
