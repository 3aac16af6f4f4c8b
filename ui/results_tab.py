"""Results tab: choose runs, score them (offline or with LLM judges), see the main table and
plots, download tables. Layout and wiring only; the logic is in results_handlers.

The reading dropdowns (judge shown, samples rule, answer extraction, human baseline, the
breakdown by domain, subtask or reasoning type) re-render the table and plots as soon as one is changed; the judge choices follow the runs and protocol.

Scoring runs in Gradio's worker threads with a progress bar, so the rest of the UI stays
responsive; every event has an api_name (tests drive the tab through gradio_client).
"""
from __future__ import annotations

import gradio as gr

from judges.clue_match import semantic_status
from ui import messages
from ui import results_handlers as h
from ui.session import user_of

from ui.handler_errors import from_script
from ui import results_page as page
from ui.table_fit import column_widths


SHOWN = ["general", "rigorous", "grounded"]
"""The protocols a table shows (verbench has its own tables; "all" scores the three)."""


def build_results_tab(store, opened=None) -> None:
    """`opened`: the event that fires when the page opens (`demo.load` in its route); it
    fills the run, judge and baseline choices, so runs made since the server started are
    listed without pressing "Refresh runs". They are not filled when the page is built: a
    component's initial choices are in /config, which every logged-in user may read, and
    the judges are endpoint names (tests/test_config_leaks.py)."""
    with gr.Row():
        runs = gr.Dropdown([], multiselect=True, label="Runs", scale=4,
                           elem_id="results-runs")
        refresh = gr.Button("Refresh runs", scale=1, elem_id="results-refresh")
    with gr.Row():
        judges = gr.Dropdown([], multiselect=True,
                             label="LLM judge(s): none scores offline, several form a "
                                   "majority panel", elem_id="results-judges")
        protocol = gr.Dropdown(["general", "rigorous", "grounded", "verbench", "all"],
                               value="general", label="Protocol to score",
                               elem_id="results-protocol")
        available, why = semantic_status()
        semantic = gr.Checkbox(False, label="Semantic clue matcher too (MiniLM extra)",
                               info=why, interactive=available, elem_id="results-semantic")
        score = gr.Button("Score", variant="primary", elem_id="results-score")
    status = gr.Markdown(elem_id="results-status")
    with gr.Row():
        shown = gr.Dropdown(SHOWN, value="general",
                            label="Protocol shown", elem_id="results-shown")
        judge = gr.Dropdown([h.COMMON_JUDGE], value=h.COMMON_JUDGE, label="Judge shown",
                            info=h.COMMON_JUDGE_INFO, elem_id="results-judge")
        samples = gr.Dropdown(h.SAMPLE_RULE_CHOICES, value="majority", label="Samples rule",
                              info=h.SAMPLE_RULE_INFO, scale=2, elem_id="results-samples")
        extraction = gr.Dropdown(h.EXTRACTION_CHOICES, value="cluelab",
                                 label="Multiple-choice answers read by",
                                 elem_id="results-extraction")
        by = gr.Dropdown(h.BREAKDOWN_CHOICES, value="domain", label="Break down by",
                         elem_id="results-by")
    with gr.Row():
        human = gr.Dropdown([(h.NO_HUMAN, h.NO_HUMAN)], value=h.NO_HUMAN, label="Human baseline",
                            scale=3, elem_id="results-human")
        # boxes as tall as the row, not Gradio's 230 px of empty drop zone (a review)
        human_file = gr.File(label="Add a human baseline (JSON)", file_types=[".json"],
                             scale=2, height=110, elem_id="results-human-file")
        show = gr.Button("Show results", scale=1, elem_id="results-show")
    # Until results are shown, one line says what to do (an empty Dataframe shows the
    # placeholder headers "1 2 3"); after a refusal, why nothing is shown (ui/results_page).
    empty = gr.Markdown(page.EMPTY_STATE, elem_id="results-empty")
    # Columns as wide as their longest word, title or cell (ui/table_fit.py); when that is
    # wider than the page, the table scrolls sideways with the model names pinned.
    # as tall as its rows up to 1,600 px (Gradio's 500 px cut the last row of 21 runs in
    # half, inside a box of its own): the page scrolls, not a box within it
    table = gr.Dataframe(label="Accuracy (%) with 95% CI", interactive=False, visible=False,
                         wrap=True, pinned_columns=1, elem_id="results-table",
                         max_height=1600)
    rules = gr.Markdown(page.RULES, elem_id="results-rules")
    with gr.Row():
        group_chart = gr.HTML(elem_id="results-breakdown")
        second_chart = gr.HTML(elem_id="results-breakdown-2")
    with gr.Row():
        drop_chart = gr.HTML(elem_id="results-drop")
        length_chart = gr.HTML(elem_id="results-length")
    # the clue-injection map on a row of its own, the page's width: a half-width card cut
    # its last column (No Clue, the baseline) and its title at 1400x900 (review round 28)
    injection = gr.HTML(label="Clue injection", elem_id="results-injection")
    with gr.Row():
        correlation = gr.HTML(label="Reasoning-type correlation", elem_id="results-correlation")
    with gr.Row():
        kind = gr.Dropdown(list(h.TABLE_KINDS), value="main", label="Table",
                           elem_id="results-kind")
        fmt = gr.Dropdown(list(h.EXPORT_FORMATS), value="md", label="Format",
                          elem_id="results-format")
        export = gr.Button("Export", elem_id="results-export")
        download = gr.File(label="Download", interactive=False, height=90,
                           elem_id="results-file")
    export_status = gr.Markdown(elem_id="results-export-status")

    def refresh_choices():
        return gr.update(choices=h.run_choices(store)), \
            gr.update(choices=h.judge_choices(store)), gr.update(choices=h.human_choices(store))

    def do_score(run_ids, judge_names, chosen, with_semantic, progress=gr.Progress()):
        def tick(done, total, desc):
            progress((done, total) if total else None, desc=desc)
        try:
            return h.score_runs(store, run_ids, judge_names, chosen, tick,
                                semantic=with_semantic)
        except h.ResultsUiError as error:
            raise messages.error(error) from None

    def do_show(run_ids, chosen, judge_name, rule, baseline, read_by, group,
                request: gr.Request):
        out = page.shown(store, run_ids, chosen, judge_name, rule, baseline, read_by, group)
        if out["refused"] is not None:
            if from_script(request):
                raise messages.error(out["refused"])
            return (gr.update(visible=False), out["rules"], *[out[c] for c in page.CHARTS],
                    gr.update(value=out["notice"], visible=True))
        widths, scrolls = column_widths(out["table"])
        label = out["title"] + (
            f" · {len(widths)} columns: scroll sideways, the model stays" if scrolls else "")
        return (gr.update(value=out["marked"], label=label, column_widths=widths,
                          visible=True), out["rules"], *[out[c] for c in page.CHARTS],
                gr.update(visible=False))

    def rerender(run_ids, chosen, judge_name, rule, baseline, read_by, group,
                 request: gr.Request):
        """A reading changed: show again, unless no run is chosen yet."""
        if not run_ids:
            return [gr.skip()] * 9
        return do_show(run_ids, chosen, judge_name, rule, baseline, read_by, group, request)

    def judge_update(run_ids, chosen, current):
        names = h.shown_judge_choices(store, run_ids, chosen)
        return gr.update(choices=names,
                         value=current if current in names else h.COMMON_JUDGE)

    def scored_judge(run_ids, chosen, judge_names, current):
        """The judge shown after a score: the one just used (`h.scored_judge`)."""
        return gr.update(choices=h.shown_judge_choices(store, run_ids, chosen),
                         value=h.scored_judge(store, run_ids, judge_names, chosen, current))

    def scored_shown(scored, current):
        """The protocol shown after a score: the one scored ("all" and "verbench": as it was).
        Unchanged, it is skipped: set anew, its change event would run `judge_update` on the
        judge shown before the score, racing `scored_judge`."""
        return gr.update(value=scored) if scored in SHOWN and scored != current \
            else gr.skip()

    def do_add_human(path, request: gr.Request):
        try:
            name = h.add_human(store, path, user_of(request))
        except h.ResultsUiError as error:
            raise messages.error(error) from None
        return gr.update(choices=h.human_choices(store), value=name), None

    def do_export(run_ids, chosen, table_kind, table_format, judge_name, rule, baseline,
                  read_by, group, request: gr.Request):
        path, line, refused = page.exported(store, run_ids, chosen, table_kind, table_format,
                                            judge_name, rule, baseline, read_by, group,
                                            account=user_of(request))
        if refused is not None and from_script(request):
            raise messages.error(refused)
        return path, line

    def choice_changed():
        """The runs or the table asked for changed: a refusal about the old choice goes."""
        return gr.update(value=page.notice_reset()), ""

    reading = [judge, samples, human, extraction, by]
    outputs = [table, rules, group_chart, second_chart, drop_chart, length_chart, injection,
               correlation, empty]
    refresh.click(refresh_choices, None, [runs, judges, human], api_name="results_runs")
    if opened is not None:
        opened(refresh_choices, None, [runs, judges, human], api_name="results_on_open",
               show_progress="hidden")
    # A score shows its runs at once, in the protocol just scored: the page said "Scored 4
    # runs" above "No results shown yet: choose one or more scored runs" with them chosen.
    score.click(do_score, [runs, judges, protocol, semantic], status, api_name="score_runs") \
        .success(scored_shown, [protocol, shown], shown, api_visibility="private") \
        .success(scored_judge, [runs, shown, judges, judge], judge, api_visibility="private") \
        .success(rerender, [runs, shown, *reading], outputs, api_visibility="private")
    show.click(do_show, [runs, shown, *reading], outputs, api_name="show_results")
    for choice in reading:
        choice.input(rerender, [runs, shown, *reading], outputs, api_visibility="private")
    runs.change(judge_update, [runs, shown, judge], judge, api_name="shown_judges")
    shown.change(judge_update, [runs, shown, judge], judge, api_visibility="private")
    added = human_file.upload(do_add_human, human_file, [human, human_file],
                              api_name="add_human")
    added.then(rerender, [runs, shown, *reading], outputs, api_visibility="private")
    # a refused file leaves the upload box too (an added one left it already), so the next
    # try is a new file, not this one (Gradio's .failure did not fire for an upload event)
    added.then(lambda: None, None, human_file, api_name="clear_refused_human",
               show_progress="hidden")
    export.click(do_export, [runs, shown, kind, fmt, *reading], [download, export_status],
                 api_name="export_results")
    for choice in (runs, kind, fmt):
        choice.change(choice_changed, None, [empty, export_status], api_visibility="private",
                      show_progress="hidden")
