"""Result tables across runs, as the papers print them (renderings in `judges.tables`).

- main: one row per run, overall and per domain (or subtask), with unparsed and error rates
  shown beside the accuracy (DailyClue Table 2);
- drop: general vs rigorous accuracy and the drop (DailyClue Fig. 7), grounded beside it;
- clue injection: rows solver model, columns clue source, deltas against No Clue (Table 3);
- ablation: No-CoT / CoT / clue-guided per model (Fig. 6);
- VER-Bench: AC, CC, RQ, ER and the average (VER-Bench Table 1);
- leaderboard: every scored run, best overall first.
A human baseline (`scoring.human`) is an extra, unranked row. The main table follows the
chosen reading of each run: judge, samples rule and answer extraction (`scoring.results`).
Runs are labelled by model and setting; a clash of labels adds the run id.
"""
from __future__ import annotations

from judges.stats import COUNTING_RULES
from judges.tables import Column, Table, clue_injection_table, leaderboard, results_table
from judges.tables import rigorous_drop_table, verbench_table

from scoring.extraction import CLUELAB, describe
from scoring.results import ResultsError, check_extraction, default_judge, run_judges, \
    run_summary

SETTING_TITLES = {"direct": "No-CoT", "cot": "CoT", "clue_guided": "Clue-guided CoT",
                  "structured": "Structured"}


def run_label(run: dict) -> str:
    config = run["config"]
    setting = SETTING_TITLES.get(config["setting"], config["setting"])
    label = f"{config['endpoint']['model']} · {setting}"
    if config.get("clues", "none") != "none":
        label += f" · clues {config['clues']}"
    if config.get("image_mode", "full") != "full":
        label += f" · {config['image_mode']}"
    return label


def labels(store, run_ids: list[str]) -> dict[str, str]:
    """{run_id: label}, unique (a clash adds the run id)."""
    found = {rid: run_label(store.get_run(rid)) for rid in run_ids}
    counts: dict[str, int] = {}
    for label in found.values():
        counts[label] = counts.get(label, 0) + 1
    return {rid: f"{label} [{rid}]" if counts[label] > 1 else label
            for rid, label in found.items()}


def summaries(store, run_ids: list[str], protocol: str = "general", judge: str | None = None,
              samples_rule: str = "majority", extraction: str = CLUELAB) -> dict[str, dict]:
    """{run_id: run_summary} for the runs scored under `protocol` (by `judge` when one is
    named; the others are left out)."""
    check_extraction(extraction, protocol)
    out = {}
    for rid in run_ids:
        if judge is None and default_judge(store, rid, protocol) is None:
            continue
        if judge is not None and judge not in run_judges(store, rid, protocol):
            continue
        out[rid] = run_summary(store, rid, protocol, judge, samples_rule,
                               extraction=extraction)
    return out


def _rates(table: Table, summaries_by_label: dict[str, dict]) -> Table:
    table.columns += [Column("unparsed_rate", "Unparsed %", rank=False),
                      Column("error_rate", "Error %", rank=False),
                      Column("unscored", "Unscored", digits=0, rank=False)]
    for row in table.rows:
        overall = summaries_by_label[row["model"]]["overall"]
        row["unparsed_rate"] = overall.unparsed_rate * 100 if overall.n else None
        row["error_rate"] = overall.error_rate * 100 if overall.n else None
        row["unscored"] = overall.unscored
    table.notes = COUNTING_RULES
    return table


def main_table(store, run_ids: list[str], group: str = "by_domain", protocol: str = "general",
               judge: str | None = None, samples_rule: str = "majority", human=None,
               show_ci: bool = True, sort: bool = False, extraction: str = CLUELAB) -> Table:
    found = summaries(store, run_ids, protocol, judge, samples_rule, extraction)
    if not found:
        by = f" by judge {judge}" if judge else ""
        raise ResultsError(f"none of the runs has {protocol} scores{by}: score them first")
    names = labels(store, list(found))
    by_label = {names[rid]: s["summary"] for rid, s in found.items()}
    if human:
        by_label[human["label"]] = human["summary"]
    maker = leaderboard if sort else results_table
    table = maker(by_label, group=group, show_ci=show_ci,
                  unranked=[human["label"]] if human else (),
                  caption=f"Accuracy (%), {protocol} protocol")
    table = _rates(table, by_label)
    if extraction != CLUELAB:
        table.caption += ", answers read by MMR-Life's regex"
    table.notes += " " + describe(extraction, None)
    return table


def drop_table(store, run_ids: list[str]) -> Table:
    general = summaries(store, run_ids, "general")
    rigorous = summaries(store, run_ids, "rigorous")
    grounded = summaries(store, run_ids, "grounded")
    names = labels(store, list(general))
    table = rigorous_drop_table(
        {names[r]: s["summary"]["overall"] for r, s in general.items()},
        {names[r]: s["summary"]["overall"] for r, s in rigorous.items()},
        caption="General vs rigorous accuracy (%)")
    table.columns.append(Column("grounded", "Grounded-rigorous"))
    for rid, row in zip(general, table.rows):
        acc = grounded.get(rid, {}).get("summary", {}).get("overall")
        row["grounded"] = acc.accuracy * 100 if acc and acc.accuracy is not None else None
    return table


def injection_table(store, run_ids: list[str], samples_rule: str = "majority",
                    extraction: str = CLUELAB) -> Table:
    """Cells: general accuracy (%) of each solver model under each clue source (each run read
    with its latest scoring, `samples_rule` and `extraction`)."""
    cells = {}
    for rid, result in summaries(store, run_ids, "general", None, samples_rule,
                                 extraction).items():
        config = store.get_run(rid)["config"]
        source = config.get("clues", "none")
        if source.startswith("run:"):
            try:
                source = store.get_run(source[4:])["config"]["endpoint"]["model"] + " clues"
            except Exception:  # the clue source run was deleted: keep its id
                pass
        source = {"none": "No Clue", "gt": "GT", "self": "Self"}.get(source, source)
        acc = result["summary"]["overall"].accuracy
        if acc is not None:
            cells[(config["endpoint"]["model"], source)] = acc * 100
    return clue_injection_table(cells, caption="Clue injection: accuracy (%) and change "
                                               "against No Clue")


def ablation_table(store, run_ids: list[str]) -> Table:
    """Rows model, columns No-CoT / CoT / Clue-guided CoT (runs without injected clues)."""
    cells: dict[str, dict] = {}
    settings = ("direct", "cot", "clue_guided")
    for rid, result in summaries(store, run_ids, "general").items():
        config = store.get_run(rid)["config"]
        if config.get("clues", "none") != "none" or config.get("image_mode", "full") != "full":
            continue
        acc = result["summary"]["overall"].accuracy
        if config["setting"] in settings and acc is not None:
            cells.setdefault(config["endpoint"]["model"], {})[config["setting"]] = acc * 100
    columns = [Column("model", "Model", numeric=False)] + [
        Column(s, SETTING_TITLES[s], rank=False) for s in settings]
    rows = [{"model": model, **{s: values.get(s) for s in settings}}
            for model, values in cells.items()]
    return Table(columns, rows, caption="Reasoning setting ablation: accuracy (%)")


def verbench_results(store, run_ids: list[str]) -> Table:
    found = summaries(store, run_ids, "verbench")
    names = labels(store, list(found))
    return verbench_table({names[r]: s["summary"] for r, s in found.items()},
                          caption="VER-Bench scores")


def leaderboard_table(store, run_ids: list[str] | None = None, human=None) -> Table:
    run_ids = run_ids if run_ids is not None else store.scored_runs()
    table = main_table(store, run_ids, human=human, show_ci=False, sort=True)
    table.caption = "Leaderboard: general accuracy (%)"
    return table


def render(table: Table, fmt: str) -> str:
    renderers = {"md": table.to_markdown, "markdown": table.to_markdown,
                 "latex": table.to_latex, "csv": table.to_csv, "json": table.to_json}
    if fmt not in renderers:
        raise ResultsError(f"format must be md, latex, csv or json, not {fmt!r}")
    return renderers[fmt]()
