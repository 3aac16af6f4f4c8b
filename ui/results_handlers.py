"""Results tab logic as plain functions (no Gradio): choices, scoring, tables, plots, exports.

The handlers return plain values (strings, DataFrames, file paths) so they can be tested
without a browser; the tab wires them to components. Anything that came from a model, a
judge or an imported file is escaped before it is shown as Markdown or HTML.

What is shown follows the chosen *reading*: the judge whose verdicts are shown (default: the
judge all the chosen runs were scored with, as on the command line), the samples rule, the
answer extraction (ClueLab's or MMR-Life's regex)
and an optional human-baseline row (`scoring.human`).
"""
from __future__ import annotations

import pandas as pd

from domain.vocabulary import counted
from scoring.page_tables import PAGE_KINDS as TABLE_KINDS
from judges.samples import rule_caption
from scoring.verbench_notes import SAMPLES_CONTROL
from ui.downloads import DownloadRefused, downloads_for
from ui.export_names import EXPORT_FORMATS, download_name
from ui.run_choices import run_choices as all_run_choices
from ui.run_choices import run_names
from ui.session import LOCAL_USER
from ui.table_fit import breakable, unbroken_n
from ui.page_words import on_page
from ui.text import escape_html, escape_md, sentences
from ui.inspect_tags import tag_counts_markdown

# "Judge shown" by default: the judge all the chosen runs were scored with
# (scoring.results.common_judge), else each run its own and no best marked.
COMMON_JUDGE, NO_HUMAN = "(common judge)", "(none)"
COMMON_JUDGE_INFO = "common judge: the one every chosen run was scored with"
# Choice labels short enough to show whole in their dropdown at 1400x900 (the rules in full
# are in the dropdown's info line and the page's counting rules). "first sample only" comes
# before the MMR-Life rule, whose label says "first 5" too: typing "first" picked MMR-Life.
SAMPLE_RULE_CHOICES = [("majority vote", "majority"),
                       ("first sample only", "first"),
                       ("MMR-Life: over 2 of first 5 right", "mmr_life"),
                       ("MMR-Life self-consistency", "mmr_life_sc")]
SAMPLE_RULE_INFO = ("majority: the most frequent parsed answer, a tie picks none (unparsed) · "
                    "first sample only: each item's first sample alone, the others ignored "
                    "(a single draw) · "
                    "MMR-Life: more than 2 of the first 5 samples correct (no vote, no tie) · "
                    "self-consistency: plurality, no answer a candidate, a tie goes to the "
                    "earliest of the tied answers · " + SAMPLES_CONTROL)
BREAKDOWN_CHOICES = [("domain", "domain"), ("subtask", "subtask"),
                     ("reasoning type (MMR-Life)", "reasoning_type")]
EXTRACTION_CHOICES = [("ClueLab (default)", "cluelab"),
                      ("MMR-Life's regex", "mmr-life")]


class ResultsUiError(ValueError):
    """Shown to the user as a message."""


def run_choices(store) -> list[tuple[str, str]]:
    """(label, run id) for every run, newest first (labelled as in every run picker)."""
    return all_run_choices(store)


def judge_choices(store) -> list[str]:
    return [e["name"] for e in store.list_endpoints()]


def score_runs(store, run_ids, judges, protocol: str, progress=None, *,
               semantic: bool = False) -> str:
    """Score each chosen run (`semantic`: the MiniLM clue matcher too); a Markdown summary
    (escaped) of what was written and sent: `ui.score_summary.summary_md`."""
    from scoring.judge_client import JudgeUnavailable
    from scoring.score_run import ScoringError, score_run
    from store import StoreError
    from ui.score_summary import summary_md

    if not run_ids:
        raise ResultsUiError("choose one or more runs")
    scored = []
    names = run_names(store, run_ids)       # a named run by its name, as in the pickers
    for n, run_id in enumerate(run_ids, 1):
        def tick(stage, done, total, n=n):
            if progress:
                progress(done, total, f"run {n}/{len(run_ids)}: {stage}")
        try:
            result = score_run(store, run_id, protocol=protocol, judges=list(judges or []),
                               on_progress=tick, semantic=bool(semantic))
        except JudgeUnavailable as error:
            raise ResultsUiError(f"the judge cannot answer: {error}") from None
        except (ScoringError, StoreError) as error:
            raise ResultsUiError(str(error)) from None
        scored.append((names.get(run_id, run_id), result))
    return summary_md(scored)


def shown_judge_choices(store, run_ids, protocol: str = "general") -> list[str]:
    """The judges that scored any of the runs under `protocol`, after the default (the
    judge common to all runs)."""
    from scoring.results import run_judges

    found = []
    for run_id in run_ids or []:
        found += [j for j in run_judges(store, run_id, protocol) if j not in found]
    return [COMMON_JUDGE, *found]


def scored_judge(store, run_ids, judges, protocol: str, current: str) -> str:
    """"Judge shown" after a score: the judge just used (the offline one without an LLM
    judge, 'llm:<endpoint>' with one, the panel with several) when it scored the runs under
    the protocol shown, else `current` when still offered, else the common judge. It stayed
    on the common judge, showing another judge's verdicts than those just made."""
    from domain.judge_ids import format_judge, llm_judge, panel_judge

    judges = list(judges or [])
    used = "offline" if not judges else format_judge(
        llm_judge(judges[0]) if len(judges) == 1 else panel_judge(judges))
    offered = shown_judge_choices(store, run_ids, protocol)
    return used if used in offered else current if current in offered else COMMON_JUDGE


def human_choices(store) -> list[tuple[str, str]]:
    """(label, name) of the human baselines kept in the database, after "(none)"."""
    from scoring.human import list_baselines

    return [(NO_HUMAN, NO_HUMAN), *list_baselines(store)]


def add_human(store, path, author: str | None = None) -> str:
    """Check an uploaded human-baseline file and keep it in the database; returns its name
    (a `human_choices` value). A refused file writes nothing."""
    from scoring.human import add_baseline
    from scoring.results import ResultsError
    from store import StoreError

    if not path:
        raise ResultsUiError("choose a human-baseline JSON file")
    try:
        return add_baseline(store, path, author)
    except (ResultsError, StoreError) as error:
        raise ResultsUiError(f"not added: {error}") from None


def reading(store, judge=None, samples_rule="majority", human=None, extraction="cluelab"
            ) -> dict:
    """The tables' keyword arguments from the tab's choices (sentinels mean "none")."""
    from scoring.human import stored_summary

    return {"judge": None if judge in (None, "", COMMON_JUDGE) else judge,
            "samples_rule": samples_rule or "majority",
            "human": None if human in (None, "", NO_HUMAN) else
            stored_summary(store, human),
            "extraction": extraction or "cluelab"}


def table_frame(table) -> pd.DataFrame:
    """A Table as text cells, as the Markdown export prints them (CI and deltas included),
    each title's n kept on one line (`unbroken_n`)."""
    columns, titles = [unbroken_n(table.title(c)) for c in table.columns], table.titles_n()
    cells = [[table._cell(row, c, latex=False, titles=titles) for c in table.columns]
             for row in table.rows]
    for row in cells:              # the model column: a long id breaks after its / and _
        row[0] = breakable(row[0])
    return pd.DataFrame(cells, columns=columns)


MARK_STYLES = {"best": "font-weight: 700", "second": "text-decoration: underline"}


def marked_frame(frame: pd.DataFrame, table):
    """The page's table with the best value of each column in bold and the second best
    underlined, as the Markdown and LaTeX downloads print them (a pandas Styler, which the
    Dataframe shows with its cell styles); ties and all-equal columns as Table.marks says."""
    keys = [c.key for c in table.columns]
    styles = pd.DataFrame("", index=frame.index, columns=frame.columns)
    for (row, key), mark in table.marks().items():
        styles.iat[row, keys.index(key)] = MARK_STYLES[mark]
    return frame.style.apply(lambda _: styles, axis=None)


def show_results(store, run_ids, protocol: str = "general", judge=None,
                 samples_rule: str = "majority", human=None, extraction: str = "cluelab",
                 by: str = "domain") -> dict:
    """Everything the tab shows for the chosen runs and reading: the main table broken down
    `by` domain, subtask or reasoning type (as text cells, the human baseline as an unranked
    row) with its caption (the n of shared items), the rules and reading used, and the
    charts. Runs are compared on the items they share (refused when they share none). The
    drop chart mixes protocols, so it reads each protocol with the judge chosen, else with
    its own common judge; the injection heatmap is `scoring.tables.page_injection_table`
    (its download too); it is not shown when no run has injected clues."""
    from scoring import figures, tables
    from scoring.biased import unread_items
    from scoring.page_tables import page_table
    from scoring.results import ResultsError
    from store import StoreError

    if not run_ids:
        raise ResultsUiError("choose one or more scored runs")
    try:
        chosen = reading(store, judge, samples_rule, human, extraction)
        group = tables.group_key(by or "domain")
        compared = tables.compared_results(store, run_ids, protocol, chosen["judge"],
                                           chosen["samples_rule"], chosen["extraction"])
        main = page_table(store, run_ids, "main", protocol, chosen, by, compared=compared)
    except (ResultsError, StoreError) as error:
        raise ResultsUiError(str(error)) from None
    drop = shown_or_why(lambda: drop_figure(page_table(
        store, run_ids, "drop", protocol, chosen, by)), "General vs rigorous")
    found, names, shared = compared
    injection = shown_or_why(lambda: injection_figure(page_table(
        store, run_ids, "injection", protocol, chosen, by, compared=compared)),
        "Clue injection")
    by_label = {names[rid]: s["summary"] for rid, s in found.items()}
    second = "by_domain" if group == "by_subtask" else "by_subtask"
    colours = figures.run_colours({rid: names[rid] for rid in found},   # stable per run
                                  [r["id"] for r in store.list_runs()])
    unread = {names[rid]: unread_items(s).get("overall", 0) for rid, s in found.items()}
    return {
        "table": table_frame(main),
        "marked": marked_frame(table_frame(main), main),
        "caption": main.caption,
        # the table's title on the page, naming its samples rule as the exports do
        "title": rule_caption(f"{main.caption}, with 95% CI", main.samples_rule),
        # the notes quote run labels (a run's name, a model id): escaped like the rest
        "rules": left_out_line(main) + escape_md(on_page(main.notes))
        + reading_lines(store, found, names)
        + agreement_lines(store, list(found), protocol, shared)
        + tag_counts_markdown(store, run_ids),
        "group_chart": figures.group_chart(by_label, group, shared, colours, unread,
                                           main.footnotes),
        "second_chart": figures.group_chart(by_label, second, shared, colours, unread,
                                            main.footnotes),
        "drop_chart": drop,
        "length_chart": figures.length_chart(figures.length_bins(
            {names[r]: s for r, s in found.items()}), colours),
        "injection": injection,
        "correlation": figures.correlation_heatmap(by_label),
    }


def left_out_line(table) -> str:
    """The runs chosen that the table does not show, and why (`Table.left_out`), as the
    first line under it (Markdown, escaped), '' when none is left out."""
    return f"**{escape_md(on_page(table.left_out))}**\n\n" if table.left_out else ""


def _left_out_html(table) -> str:
    return (f'<p class="cluelab-chart-note"><b>{escape_html(on_page(table.left_out))}</b></p>'
            if table.left_out else "")


def injection_figure(table) -> str:
    """The clue-injection heatmap with its table's notes under it: the runs it leaves out
    first, the items each row is on, which run a cell shows when several could (and how to
    show another), the runs that did not finish."""
    from scoring import figures

    return (figures.injection_heatmap(table) + _left_out_html(table)
            + f'<p class="cluelab-chart-note">'
              f'{escape_html(on_page(figures.injection_notes(table)))}</p>')


def drop_figure(table) -> str:
    """The General-vs-rigorous chart, and under it the runs its table leaves out and why
    some of its runs have no bar (`Table.blank`: a run scored under general only)."""
    from scoring import figures

    blank = f'<p class="cluelab-chart-note">{escape_html(on_page(table.blank))}</p>' \
        if table.blank else ""
    return figures.drop_chart(table) + _left_out_html(table) + blank


def shown_or_why(draw, what: str) -> str:
    """The HTML `draw` makes, or a line saying why `what` cannot be shown (runs that share no
    item, no run with injected clues): one figure that cannot be drawn leaves the others."""
    from scoring.results import ResultsError

    try:
        return draw()
    except ResultsError as error:
        return f'<p class="cluelab-chart-empty">{escape_html(what)} not shown: ' \
               f"{escape_html(on_page(error))}</p>"


def reading_lines(store, found: dict, names: dict) -> str:
    """Per run: the judge shown, the samples rule, with MMR-Life's regex what changed, with
    repeats their spread (`report`'s lines). The replies a run took from the cache are said
    once, in the table's notes just above (`scoring.table_marks.cache_note`): said here too,
    the page read the same sentence twice."""
    from scoring.extraction import describe
    from scoring.repeat_words import repeats_text
    from scoring.panel_members import result_judge

    lines = []
    for run_id, result in found.items():
        rule = dict((v, label) for label, v in SAMPLE_RULE_CHOICES).get(
            result["samples_rule"], result["samples_rule"])  # the list's words, not its value
        said = [f"judge {escape_md(result_judge(result))}, samples rule {escape_md(rule)}"]
        if result["extraction_diff"] is not None:                   # our text
            said.append(describe(result["extraction"], result["extraction_diff"]))
        if result.get("repeats"):       # `report`'s spread over repeats, in its words
            said.append(escape_md(repeats_text(result["repeats"])))
        lines.append(f"- {escape_md(names[run_id])}: " + sentences(said))
    return "\n\n**Shown**\n" + "\n".join(lines) if lines else ""


def agreement_lines(store, run_ids, protocol: str, shared=None) -> str:
    """Judge agreement per run (LLM judges with each other and with the offline matcher), on
    the items the table compares (`shared`, `judges.pairing.Shared`) when given: its n is
    the responses both judges scored there, and the heading says which items. Grouped by
    run, in the table's order (a run's lines were interleaved with other runs'); a pair
    not applicable for the same reason in several runs is one line after them."""
    from scoring.compared import labels
    from scoring.judge_agreement import agreement, agreement_figures, kappa_text, \
        not_applicable_why

    items = shared.items if shared is not None else None
    names, moot = labels(store, list(run_ids)), {}
    by_run: dict[str, list[str]] = {rid: [] for rid in names}
    for run_id in names:
        name = escape_md(names[run_id])
        for pair in agreement(store, run_id, protocol, items):
            shown = agreement_figures(pair, protocol)    # report --json's numbers too
            if shown["not_applicable"]:    # rules decided them all: said once per reason
                why = not_applicable_why(pair, counted=False)
                moot.setdefault((pair["a"], pair["b"], why), []).append(
                    (run_id, f"{name} ({counted(pair.get('responses', 0), 'response')})"))
                continue
            n, kappa = shown["n"], kappa_text(pair)     # or why there is none, in words
            by_run[run_id].append(
                f"- {name}: {escape_md(pair['a'])} vs {escape_md(pair['b'])} agree on "
                f"{shown['agreed']} of {n} {shown['basis']} ({shown['agreement_pct']:.2f}%; "
                f"{kappa})")
    # one line per pair and reason: seven runs' "not applicable" lines hid the others, and
    # one line naming the reason per run repeated it seven times; one run's stays with it
    after = []
    for (a, b, why), runs in moot.items():
        head = "" if why.startswith(f"{a} and {b} are one judge") else \
            f"{escape_md(a)} vs {escape_md(b)}: not applicable, "
        line = f"- {head}{escape_md(why)}, for {'; '.join(text for _, text in runs)}"
        (by_run[runs[0][0]] if len(runs) == 1 else after).append(line)
    lines = [line for rid in names for line in by_run[rid]] + after
    if not lines:
        return ""
    on = f", on the {counted(shared.n, 'item')} the table compares" if shared is not None else ""
    return f"\n\n**Judge agreement** ({protocol}{on})\n" + "\n".join(lines)


def export_table(store, run_ids, protocol: str, kind: str, fmt: str, judge=None,
                 samples_rule: str = "majority", human=None, extraction: str = "cluelab",
                 by: str = "domain", account: str = LOCAL_USER) -> str:
    """Write the chosen table in the chosen format as a download of `account`
    (ui/downloads.py); returns its path (`exported_tables` says what it left out)."""
    return exported_tables(store, run_ids, protocol, kind, fmt, judge, samples_rule, human,
                           extraction, by, account)[0]


def exported_tables(store, run_ids, protocol: str, kind: str, fmt: str, judge=None,
                    samples_rule: str = "majority", human=None, extraction: str = "cluelab",
                    by: str = "domain", account: str = LOCAL_USER) -> tuple[str, list[str]]:
    """(the file's path, remarks) for the chosen table in the chosen format, a download of
    `account` (ui/downloads.py). The main and subtask tables follow the chosen reading (the
    main one its breakdown); the leaderboard its human row: `scoring.page_tables.page_table`,
    the function the page draws its tables with. With no run chosen, the tables
    the command line prints without --runs (`scoring.by_dataset`: a table per dataset and
    group of runs that share items); the remarks, in the page's words, name what a
    one-table format left out."""
    from scoring.by_dataset import protocol_of, tables_text
    from scoring.commands import table_command
    from scoring.page_tables import page_table, table_runs
    from scoring.results import ResultsError
    from store import StoreError

    if fmt not in EXPORT_FORMATS:
        raise ResultsUiError(f"format must be one of {', '.join(EXPORT_FORMATS)}")
    try:
        chosen = reading(store, judge, samples_rule, human, extraction)
    except (ResultsError, StoreError) as error:
        raise ResultsUiError(str(error)) from None
    if kind not in TABLE_KINDS:
        raise ResultsUiError(f"table must be one of {', '.join(TABLE_KINDS)}")
    def command(ids, dataset):      # said on the page with its controls (ui/page_words)
        return table_command(kind, ids, dataset=dataset, protocol=protocol,
                             judge=chosen["judge"], by=by, fmt=fmt,
                             samples_rule=chosen["samples_rule"])

    made = []

    def make(selection):      # the function the page draws its tables with
        made.append(page_table(store, selection.run_ids, kind, protocol, chosen, by,
                               within=selection.within))
        return made[-1]

    try:       # the file is what the page shows
        text, remarks = tables_text(store, list(run_ids or []) or None, None, fmt, make,
                                    protocol_of(kind, protocol), command=command)
    except (ResultsError, StoreError) as error:
        raise ResultsUiError(str(error)) from None
    runs = table_runs(made) or list(run_ids or []) or store.scored_runs()  # those it shows
    # A CSV starts with a UTF-8 byte-order mark, so that a spreadsheet reads accents and
    # "·" right; pandas and the csv module with utf-8-sig read it back unchanged.
    encoding = "utf-8-sig" if fmt == "csv" else "utf-8"
    try:
        path = downloads_for(store).make(
            account, "export_results",
            download_name(store, kind, protocol_of(kind, protocol), runs, fmt,
                          samples_rule=next((t.samples_rule for t in made
                                             if t.samples_rule), "")),
            lambda path: path.write_text(text, encoding=encoding))
    except DownloadRefused as error:
        raise ResultsUiError(str(error)) from None
    return path, [on_page(remark) for remark in remarks]

