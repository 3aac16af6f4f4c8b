"""Results tab logic as plain functions (no Gradio): choices, scoring, tables, plots, exports.

The handlers return plain values (strings, DataFrames, file paths) so they can be tested
without a browser; the tab wires them to components. Anything that came from a model, a
judge or an imported file is escaped before it is shown as Markdown or HTML.
"""
from __future__ import annotations

import tempfile
from pathlib import Path

import pandas as pd

from ui.text import escape_md
from ui.inspect_tags import tag_counts_markdown

TABLE_KINDS = ("main", "subtask", "drop", "injection", "ablation", "verbench", "leaderboard")
EXPORT_FORMATS = {"csv": ".csv", "json": ".json", "md": ".md", "latex": ".tex"}


class ResultsUiError(ValueError):
    """Shown to the user as a message."""


def run_choices(store) -> list[tuple[str, str]]:
    """(label, run id) for every run, newest first."""
    out = []
    for run in store.list_runs():
        config = run["config"]
        label = (f"{run['id']} · {config.get('endpoint', {}).get('model', '?')} · "
                 f"{config.get('setting')} · clues {config.get('clues', 'none')} · "
                 f"{run['status']}")
        out.append((label, run["id"]))
    return out


def judge_choices(store) -> list[str]:
    return [e["name"] for e in store.list_endpoints()]


def score_runs(store, run_ids, judges, protocol: str, progress=None) -> str:
    """Score each chosen run; a Markdown summary (escaped) of what was written and sent."""
    from scoring.judge_client import JudgeUnavailable
    from scoring.score_run import ScoringError, score_run
    from store import StoreError

    if not run_ids:
        raise ResultsUiError("choose one or more runs")
    lines = []
    for n, run_id in enumerate(run_ids, 1):
        def tick(stage, done, total, n=n):
            if progress:
                progress(done, total, f"run {n}/{len(run_ids)}: {stage}")
        try:
            result = score_run(store, run_id, protocol=protocol, judges=list(judges or []),
                               on_progress=tick)
        except JudgeUnavailable as error:
            raise ResultsUiError(f"the judge cannot answer: {error}") from None
        except (ScoringError, StoreError) as error:
            raise ResultsUiError(str(error)) from None
        values = "; ".join(f"{key}: " + ", ".join(f"{k} {v}" for k, v in sorted(c.items()))
                           for key, c in result["values"].items())
        sent = "; ".join(f"{j['judge']} sent {j['sent']}, cached {j['cached']}, failed "
                         f"{j['failed']}" for j in result["judges"])
        lines.append(f"- **{escape_md(run_id)}**: {result['responses']} responses, "
                     f"{result['written']} verdicts ({escape_md(values)})"
                     + (f"; {escape_md(sent)}" if sent else "")
                     + "".join(f"; {escape_md(note)}" for note in result["notes"]))
    return "\n".join(lines)


def table_frame(table) -> pd.DataFrame:
    """A Table as text cells, as the Markdown export prints them (CI and deltas included)."""
    columns = [c.title for c in table.columns]
    cells = [[table._cell(row, c, latex=False) for c in table.columns] for row in table.rows]
    return pd.DataFrame(cells, columns=columns)


def show_results(store, run_ids, protocol: str = "general") -> dict:
    """Everything the tab shows for the chosen runs: the main table (as text cells), the
    counting rules, and the data of every plot."""
    from scoring import figures, tables
    from scoring.results import ResultsError

    if not run_ids:
        raise ResultsUiError("choose one or more scored runs")
    try:
        main = tables.main_table(store, run_ids, "by_domain", protocol)
        found = tables.summaries(store, run_ids, protocol)
    except ResultsError as error:
        raise ResultsUiError(str(error)) from None
    names = tables.labels(store, list(found))
    by_label = {names[rid]: s["summary"] for rid, s in found.items()}
    drop = tables.drop_table(store, run_ids)
    return {
        "table": table_frame(main),
        "rules": main.notes + agreement_lines(store, run_ids, protocol)
        + tag_counts_markdown(store, run_ids),
        "domain_bars": figures.group_bars(by_label, "by_domain"),
        "subtask_bars": figures.group_bars(by_label, "by_subtask"),
        "drop_bars": figures.drop_bars(drop),
        "length_points": figures.length_points({names[r]: s for r, s in found.items()}),
        "injection": figures.injection_heatmap(tables.injection_table(store, run_ids)),
        "correlation": figures.correlation_heatmap(by_label),
    }


def agreement_lines(store, run_ids, protocol: str) -> str:
    """Judge agreement per run (LLM judges with each other and with the offline matcher)."""
    from scoring.results import agreement

    lines = []
    for run_id in run_ids:
        for pair in agreement(store, run_id, protocol):
            if pair["agreement"] is None:
                continue
            kappa = "–" if pair["kappa"] is None else f"{pair['kappa']:.2f}"
            lines.append(f"- {escape_md(run_id)}: {escape_md(pair['a'])} vs "
                         f"{escape_md(pair['b'])} agree on {pair['agreement'] * 100:.1f}% of "
                         f"{pair['n']} (Cohen's kappa {kappa})")
    return ("\n\n**Judge agreement** (" + protocol + ")\n" + "\n".join(lines)) if lines else ""


def export_table(store, run_ids, protocol: str, kind: str, fmt: str) -> str:
    """Write the chosen table in the chosen format to a temporary file; returns its path."""
    from scoring import tables
    from scoring.results import ResultsError

    if fmt not in EXPORT_FORMATS:
        raise ResultsUiError(f"format must be one of {', '.join(EXPORT_FORMATS)}")
    runs = list(run_ids or []) or store.scored_runs()
    makers = {"main": lambda: tables.main_table(store, runs, "by_domain", protocol),
              "subtask": lambda: tables.main_table(store, runs, "by_subtask", protocol),
              "drop": lambda: tables.drop_table(store, runs),
              "injection": lambda: tables.injection_table(store, runs),
              "ablation": lambda: tables.ablation_table(store, runs),
              "verbench": lambda: tables.verbench_results(store, runs),
              "leaderboard": lambda: tables.leaderboard_table(store, runs)}
    if kind not in makers:
        raise ResultsUiError(f"table must be one of {', '.join(makers)}")
    try:
        text = tables.render(makers[kind](), fmt)
    except ResultsError as error:
        raise ResultsUiError(str(error)) from None
    folder = Path(tempfile.mkdtemp(prefix="cluelab-results-"))
    path = folder / f"cluelab-{kind}-{protocol}{EXPORT_FORMATS[fmt]}"
    path.write_text(text, encoding="utf-8")
    return str(path)
