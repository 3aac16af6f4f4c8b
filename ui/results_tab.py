"""Results tab: choose runs, score them (offline or with LLM judges), see the main table and
plots, download tables. Layout and wiring only; the logic is in results_handlers.

Scoring runs in Gradio's worker threads with a progress bar, so the rest of the UI stays
responsive; every event has an api_name (tests drive the tab through gradio_client).
"""
from __future__ import annotations

import gradio as gr

from judges.stats import COUNTING_RULES
from ui import results_handlers as h


def build_results_tab(store) -> None:
    with gr.Row():
        runs = gr.Dropdown(h.run_choices(store), multiselect=True, label="Runs", scale=4,
                           elem_id="results-runs")
        refresh = gr.Button("Refresh runs", scale=1, elem_id="results-refresh")
    with gr.Row():
        judges = gr.Dropdown(h.judge_choices(store), multiselect=True,
                             label="LLM judge(s): none scores offline, several form a "
                                   "majority panel", elem_id="results-judges")
        protocol = gr.Dropdown(["general", "rigorous", "grounded", "verbench", "all"],
                               value="general", label="Protocol to score",
                               elem_id="results-protocol")
        score = gr.Button("Score", variant="primary", elem_id="results-score")
    status = gr.Markdown(elem_id="results-status")
    with gr.Row():
        shown = gr.Dropdown(["general", "rigorous", "grounded"], value="general",
                            label="Protocol shown", elem_id="results-shown")
        show = gr.Button("Show results", elem_id="results-show")
    table = gr.Dataframe(label="Accuracy (%) with 95% CI", interactive=False,
                         elem_id="results-table")
    rules = gr.Markdown(COUNTING_RULES, elem_id="results-rules")
    with gr.Row():
        domain_plot = gr.BarPlot(x="group", y="accuracy", color="run", y_lim=[0, 100],
                                 label="Accuracy per domain", elem_id="results-domains")
        subtask_plot = gr.BarPlot(x="group", y="accuracy", color="run", y_lim=[0, 100],
                                  x_label_angle=-30, label="Accuracy per subtask",
                                  elem_id="results-subtasks")
    with gr.Row():
        drop_plot = gr.BarPlot(x="run", y="accuracy", color="protocol", y_lim=[0, 100],
                               label="General vs rigorous (DailyClue Fig. 7)",
                               elem_id="results-drop")
        length_plot = gr.ScatterPlot(x="output_tokens", y="accuracy", color="run",
                                     label="Accuracy against output length (MMR-Life)",
                                     elem_id="results-length")
    with gr.Row():
        injection = gr.HTML(label="Clue injection", elem_id="results-injection")
        correlation = gr.HTML(label="Reasoning-type correlation", elem_id="results-correlation")
    with gr.Row():
        kind = gr.Dropdown(list(h.TABLE_KINDS), value="main", label="Table",
                           elem_id="results-kind")
        fmt = gr.Dropdown(list(h.EXPORT_FORMATS), value="md", label="Format",
                          elem_id="results-format")
        export = gr.Button("Export", elem_id="results-export")
        download = gr.File(label="Download", interactive=False, elem_id="results-file")

    def refresh_choices():
        return gr.update(choices=h.run_choices(store)), \
            gr.update(choices=h.judge_choices(store))

    def do_score(run_ids, judge_names, chosen, progress=gr.Progress()):
        def tick(done, total, desc):
            progress((done, total) if total else None, desc=desc)
        try:
            return h.score_runs(store, run_ids, judge_names, chosen, tick)
        except h.ResultsUiError as error:
            raise gr.Error(str(error)) from None

    def do_show(run_ids, chosen):
        try:
            out = h.show_results(store, run_ids, chosen)
        except h.ResultsUiError as error:
            raise gr.Error(str(error)) from None
        return (out["table"], out["rules"], out["domain_bars"], out["subtask_bars"],
                out["drop_bars"], out["length_points"], out["injection"], out["correlation"])

    def do_export(run_ids, chosen, table_kind, table_format):
        try:
            return h.export_table(store, run_ids, chosen, table_kind, table_format)
        except h.ResultsUiError as error:
            raise gr.Error(str(error)) from None

    refresh.click(refresh_choices, None, [runs, judges], api_name="results_runs")
    score.click(do_score, [runs, judges, protocol], status, api_name="score_runs")
    show.click(do_show, [runs, shown], [table, rules, domain_plot, subtask_plot, drop_plot,
                                        length_plot, injection, correlation],
               api_name="show_results")
    export.click(do_export, [runs, shown, kind, fmt], download, api_name="export_results")
