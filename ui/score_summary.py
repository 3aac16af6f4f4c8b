"""What Score says when it is done: one line of totals, then a table of each run's verdicts
per protocol (its counts in columns), then the judges' requests and the notes as a list.
It was one bullet per run holding every count, judge request and note in a sentence: a wall
of text to read a number out of. Every text from data is escaped (Markdown)."""
from __future__ import annotations

from scoring.judge_client import counts_text, failed_why
from scoring.no_boxes import ASKED_FOR_NO
from scoring.score_run import COUNTED
from ui.page_words import on_page
from ui.text import escape_md

FOLD_AFTER = 8          # table rows and notes shown open; more are folded under the headline


def _other(counts: dict) -> str:
    """Any value outside COUNTED ('split 1', a split panel's graded VER-Bench verdicts)."""
    return ", ".join(f"{value} {n}" for value, n in sorted(counts.items())
                     if value not in COUNTED)


def _cells(counts: dict, other: bool) -> list[str]:
    """A protocol's counts in COUNTED's order, then, when the table has the column, any
    other value's ('other: n')."""
    return [str(counts.get(value, 0)) for value in COUNTED] + (
        [escape_md(_other(counts))] if other else [])


def failed_judges(scored: list[tuple[str, dict]]) -> str:
    """'; llm:judge-bad: 3 of 3 requests failed (3 replies unreadable: …)' for each judge
    some of whose requests failed, after the headline, all runs together: the failures sat
    in the folded detail only (a review, round 19; the command line says them at once).
    What failed is said as the command line says it (`judge_client.failed_why`): "12 of 15
    requests failed" was said of replies that came and could not be read (round 28)."""
    asked: dict[str, dict] = {}
    for _, result in scored:
        for counts in result["judges"]:
            sums = asked.setdefault(counts["judge"], {"failed": 0, "requests": 0,
                                                      "unreadable": 0, "failures": {}})
            for key in ("failed", "requests", "unreadable"):
                sums[key] += counts.get(key) or 0
            for kind, n in (counts.get("failures") or {}).items():
                sums["failures"][kind] = sums["failures"].get(kind, 0) + n
    said = [f"{escape_md(judge)}: {c['failed']} of {c['requests']} request"
            f"{'s' * (c['requests'] != 1)} failed{escape_md(failed_why(c))}"
            for judge, c in asked.items() if c["failed"]]
    # not "(see …)" after the failures' own parenthesis
    return f"; {'; '.join(said)}; each run's verdicts are below" if said else ""


def summary_md(scored: list[tuple[str, dict]]) -> str:
    """Markdown of `scored`: [(run name, `scoring.score_run.score_run`'s answer)]."""
    responses = sum(result["responses"] for _, result in scored)
    written = sum(result["written"] for _, result in scored)
    runs = f"{len(scored)} run{'' if len(scored) == 1 else 's'}"
    # the Other column only when some row has such a value: empty on every row, it was a
    # column of nothing
    other = any(_other(counts) for _, result in scored for counts in result["values"].values())
    width = len(COUNTED) + other
    out = [f"**Scored {runs}**: {responses} responses, {written} verdicts written"
           f"{failed_judges(scored)}.", "",
           "| Run | Protocol · judge | " + " | ".join(c.capitalize() for c in COUNTED)
           + (" | Other |" if other else " |"), "|" + "---|" * (width + 2)]
    for name, result in scored:
        if not result["values"]:
            out.append(f"| {escape_md(name)} | nothing scored |" + " |" * width)
        for key, counts in result["values"].items():
            shown = f"{key} (n/a: {ASKED_FOR_NO[key.split()[0]]}; for Inspect only)" \
                if key.split()[0] in result.get("not_applicable", {}) else key
            out.append(f"| {escape_md(name)} | {escape_md(shown)} | "
                       + " | ".join(_cells(counts, other)) + " |")
    notes = [f"- **{escape_md(name)}**: {escape_md(text)}" for name, result in scored
             for text in ([counts_text(j, result["responses"]) for j in result["judges"]]
                          + [on_page(note) for note in result["notes"]])]
    rows = len(out) - 4
    detail = out[2:] + ([""] + notes if notes else [])
    if rows + len(notes) <= FOLD_AFTER:
        return "\n".join(out[:2] + detail)
    # many runs x protocols x judges: folded, so that the results follow the headline
    # (180 rows and their notes stood above the results, 7,000 px down the page)
    return "\n".join([out[0], "", f"<details><summary>Each run's verdicts by protocol and "
                       f"judge ({rows} row{'s' * (rows != 1)}"
                       f"{f', {len(notes)} note' + 's' * (len(notes) != 1) if notes else ''})"
                       "</summary>", "", *detail, "", "</details>"])
