"""Layout of the Experiments tab: run builder on the left, runs and progress on the right.

Only components are created here; `experiments_tab` connects them to the handlers.
Element ids tests rely on: run-form (the form's panel), run-endpoint, run-setting,
run-preview, run-start (both in run-actions, under run-form), run-summary, run-transcript,
run-images, run-use-cache, run-box-convention, runs-list, run-id, run-progress, run-pause, run-cancel, run-resume,
run-resume-budget, run-name, run-note, run-save-labels, run-delete (-confirm, -yes, -no), endpoint-* and price-*.
"""
from __future__ import annotations

from types import SimpleNamespace

import gradio as gr

from domain.vocabulary import IMAGE_MODE_TITLES
from runner.config import (CLUE_PASS_SETTINGS, ID_LIST_RULE, IMAGE_FORMATS, IMAGE_MODES,
                           MASK_STYLES, SETTINGS)
from scoring.compared import SETTING_TITLES
from ui.browser_handlers import ALL, FLAGGED_CHOICES
from ui.experiments_endpoints import EDIT_HINT, ENDPOINT_HEADERS, ENDPOINT_WIDTHS, PRICE_HEADERS
from ui.experiments_handlers import BOX_CONVENTION_CHOICES, BOX_CONVENTION_INFO, \
    CLUE_SOURCE_LABELS, PRESET_CHOICES
from ui.experiments_runs import (RESPONSE_FILTERS, RESPONSE_HEADERS, RESPONSE_WIDTHS,
                                  RUN_HEADERS, RUN_WIDTHS, SAMPLE_ROWS)
from ui.galleries import whole_image_gallery

SAMPLE_LABEL = f"A sample (first {SAMPLE_ROWS}); click one to read it"


def sample_label(rows: list, status: str | None) -> str:
    """The response sample's caption: SAMPLE_LABEL, or, when the filter matches nothing,
    say so (an empty table kept "A sample (first 50); click one to read it")."""
    if rows:
        return SAMPLE_LABEL
    if (status or "all") == "all":
        return "No responses: the run has no work rows"
    words = dict((value, label) for label, value in RESPONSE_FILTERS).get(status, status)
    return f"No responses match \"{words.split(':')[0]}\": choose another filter"


SETTING_INFO = ("No-CoT: answer only · CoT: think step by step · Clue-guided CoT: find the "
                "visual clues, then answer · Structured: JSON with answer and clues/boxes")
SETTING_CHOICES = [(SETTING_TITLES[s], s) for s in SETTINGS]
"""(title, value): titled as the tables title a setting; the value stays `run --setting`'s."""


def build_endpoints(ui: SimpleNamespace) -> None:
    with gr.Accordion("Endpoints (OpenAI-compatible servers)", open=False,
                      elem_id="endpoints-panel") as ui.endpoints_panel:
        ui.endpoints = gr.Dataframe(headers=ENDPOINT_HEADERS, interactive=False, max_height=330,
                                    wrap=True, column_widths=ENDPOINT_WIDTHS,
                                    elem_id="endpoint-list", label=EDIT_HINT)
        with gr.Row():
            ui.ep_name = gr.Textbox(label="Name", elem_id="endpoint-name", scale=1)
            ui.ep_url = gr.Textbox("", label="Base URL", placeholder="http://localhost:8000/v1",
                                   elem_id="endpoint-url", scale=2)
            ui.ep_model = gr.Textbox("", label="Model", elem_id="endpoint-model", scale=2)
        with gr.Row():
            ui.ep_env = gr.Textbox("", label="API key environment variable (name, not the key)",
                                   placeholder="OPENAI_API_KEY — empty: no key",
                                   elem_id="endpoint-key-env", scale=2)
            ui.ep_concurrency = gr.Number(8, label="Concurrency", step=1, minimum=1,
                                          elem_id="endpoint-concurrency", scale=1)
            ui.ep_pixels = gr.Textbox(label="Max image pixels", placeholder="empty: no limit",
                                      elem_id="endpoint-max-pixels", scale=1)
        with gr.Row():
            ui.ep_save = gr.Button("Save endpoint", variant="primary", elem_id="endpoint-save")
            ui.ep_test = gr.Button("Test connection", elem_id="endpoint-test")
            ui.ep_delete = gr.Button("Delete", variant="stop", elem_id="endpoint-delete")
        ui.ep_result = gr.Markdown(elem_id="endpoint-result")


def build_prices(ui: SimpleNamespace) -> None:
    with gr.Accordion("Prices (USD per 1M tokens; model id or glob like gpt-4o*; admins set "
                      "them)", open=False, elem_id="prices-panel"):
        ui.prices = gr.Dataframe(headers=PRICE_HEADERS, interactive=False, max_height=200,
                                 elem_id="price-list", label=EDIT_HINT)
        with gr.Row():
            ui.price_pattern = gr.Textbox(label="Model pattern", elem_id="price-pattern")
            ui.price_in = gr.Number(label="Input $/1M", elem_id="price-input")
            ui.price_out = gr.Number(label="Output $/1M", elem_id="price-output")
        with gr.Row():
            ui.price_save = gr.Button("Save price", elem_id="price-save")
            ui.price_delete = gr.Button("Delete price", variant="stop", size="sm",
                                        elem_id="price-delete")


def build_builder(ui: SimpleNamespace) -> None:
    gr.Markdown("### New run")
    with gr.Row():
        ui.endpoint = gr.Dropdown([], label="Endpoint", elem_id="run-endpoint", scale=1,
                                  allow_custom_value=True)
        # three parts of the row: at 1400x900 two cut the last choice to "Structurec"
        ui.setting = gr.Radio(SETTING_CHOICES, value="cot", label="Prompt setting",
                              info=SETTING_INFO, elem_id="run-setting", scale=3)
    # The clue source wide enough for "the model's own clues (first pass)" (in a row with
    # its companions and the image mode it was cut to "the model's own clu", under its
    # arrow); what it and the image mode ask for next on a row of their own (not shown when
    # they ask for nothing: assets/cluelab.css).
    with gr.Row():
        ui.clues = gr.Dropdown(CLUE_SOURCE_LABELS, value="none", label="Clue source",
                               elem_id="run-clues", scale=3)
        ui.image_mode = gr.Dropdown([(IMAGE_MODE_TITLES.get(m, m), m) for m in IMAGE_MODES],
                                    value="full", label="Image mode",
                                    elem_id="run-image-mode", scale=2)
    with gr.Row(elem_id="run-clue-more"):
        ui.clue_run = gr.Dropdown([], label="Clues from run", visible=False,
                                  allow_custom_value=True, elem_id="run-clue-run", scale=3)
        ui.clue_pass = gr.Dropdown([(SETTING_TITLES[s], s) for s in CLUE_PASS_SETTINGS],
                                   value="clue_guided",
                                   label="First pass setting (own clues)", visible=False,
                                   elem_id="run-clue-pass", scale=3)
        ui.mask_style = gr.Radio(list(MASK_STYLES), value="black", label="Mask",
                                 visible=False, elem_id="run-mask-style", scale=2)
    # Whole numbers, read by the handler (experiments_common.as_int): precision=0 made
    # Gradio round "2.5" repeats to 2 without a word.
    # Two rows: the six fields and the preset side by side left each 90 px, too narrow for
    # "Temperature" and "max_tokens" (cut to "Temperatu", "max_toke") at 1400x900.
    with gr.Row(equal_height=False, elem_classes="field-row"):
        ui.samples = gr.Number(1, label="Samples", step=1, minimum=1, min_width=80,
                               elem_id="run-samples")
        ui.repeats = gr.Number(1, label="Repeats", step=1, minimum=1, min_width=80,
                               elem_id="run-repeats")
        # One control for the preset: a separate "MMR-Life preset" button beside this box
        # did what choosing it here does (experiments_preset.py), two ways to one end.
        ui.preset = gr.Dropdown(PRESET_CHOICES, value="none", label="Preset",
                                min_width=240, scale=4, elem_id="run-preset")
    with gr.Row(equal_height=True):
        ui.temperature = gr.Textbox(label="Temperature", placeholder="default",
                                    min_width=90, elem_id="run-temperature")
        ui.top_p = gr.Textbox(label="top_p", placeholder="default", min_width=80,
                              elem_id="run-top-p")
        ui.max_tokens = gr.Textbox(label="max_tokens", placeholder="default", min_width=90,
                                   elem_id="run-max-tokens")
        ui.seed = gr.Textbox(label="Seed (base)", placeholder="none", min_width=90,
                             elem_id="run-seed")
    # Dataset and subtask on a row of their own: five filters in one row left each 190 px,
    # and MMR-Life's subtasks were cut ("Animal Relation In…").
    with gr.Accordion("Items", open=True):
        with gr.Row():
            ui.dataset = gr.Dropdown([ALL], value=ALL, label="Dataset", elem_id="run-dataset",
                                     allow_custom_value=True, scale=2)
            ui.subtask = gr.Dropdown([ALL], value=ALL, label="Subtask", elem_id="run-subtask",
                                     allow_custom_value=True, scale=3)
        with gr.Row():
            ui.domain = gr.Dropdown([ALL], value=ALL, label="Domain", elem_id="run-domain",
                                    allow_custom_value=True)
            ui.status = gr.Dropdown([ALL], value=ALL, label="Status", elem_id="run-status-filter",
                                    allow_custom_value=True)
            ui.flagged = gr.Dropdown(FLAGGED_CHOICES, value="all", label="Import problems",
                                     elem_id="run-flagged")
        ui.ids = gr.Textbox(label="…or explicit item ids (overrides the filter)",
                            info=f"Ids {ID_LIST_RULE}.",
                            placeholder="demo/bus-stop-wait, demo/parcel-fee-sms",
                            lines=2, max_lines=6, elem_id="run-ids")
    with gr.Accordion("Images, boxes, budget, deadline, cache", open=False):
        with gr.Row():
            ui.image_max_pixels = gr.Textbox(label="Max pixels", placeholder="the endpoint's",
                                             elem_id="run-image-max-pixels")
            ui.image_format = gr.Dropdown(list(IMAGE_FORMATS), value="jpeg", label="Format",
                                          elem_id="run-image-format")
            ui.image_quality = gr.Slider(1, 100, value=90, step=1, label="Quality",
                                         elem_id="run-image-quality")
        ui.box_convention = gr.Dropdown(BOX_CONVENTION_CHOICES, value="auto",
                                        label="Boxes in replies", info=BOX_CONVENTION_INFO,
                                        elem_id="run-box-convention")
        with gr.Row():
            ui.budget = gr.Textbox(label="Budget (USD)", placeholder="none",
                                   elem_id="run-budget")
            ui.deadline = gr.Textbox(label="Deadline (seconds)", placeholder="none",
                                     elem_id="run-deadline")
        ui.use_cache = gr.Checkbox(True, label="Take replies from the cache",
                                   info="A cached reply is an earlier run's draw of the same "
                                        "item, repeat and sample (the run says whose); untick "
                                        "to send every request.",
                                   elem_id="run-use-cache")


def build_actions(ui: SimpleNamespace) -> None:
    """Preview and Start, on one line (no label above the box), below the form's panel and
    not over it (assets/cluelab.css, #run-actions): always in view, never covering a field.
    At 1400x900 Start was 250 px below the fold; a bar stuck over the form hid the Items
    fields."""
    with gr.Row(equal_height=True, elem_id="run-actions"):
        ui.preview_item = gr.Textbox(label="Preview item", show_label=False, scale=3,
                                     container=False, max_lines=1,
                                     placeholder="Preview item (empty: first)",
                                     elem_id="run-preview-item")
        ui.preview = gr.Button("Preview request", scale=2, size="md", elem_id="run-preview")
        ui.start = gr.Button("Start run", variant="primary", scale=2, size="md",
                             elem_id="run-start")


def build_preview(ui: SimpleNamespace) -> None:
    """What Preview request shows: the summary, the request as sent, its images and body."""
    ui.summary = gr.Markdown(elem_id="run-summary")
    with gr.Row():
        ui.transcript = gr.Textbox(label="Request as sent (images as text)", lines=14, max_lines=30, interactive=False,
                                   buttons=["copy"], elem_id="run-transcript", scale=3)
        ui.thumbs = whole_image_gallery("Images as sent", "run-images", scale=2)
    with gr.Accordion("Request body (JSON)", open=False):
        ui.payload = gr.Code(language="json", interactive=False, max_lines=40,
                             elem_id="run-payload")


def build_monitor(ui: SimpleNamespace) -> None:
    gr.Markdown("### Runs")
    ui.runs = gr.Dataframe(headers=RUN_HEADERS, interactive=False, max_height=300, wrap=True,
                           column_widths=RUN_WIDTHS, elem_id="runs-list",
                           label="Click a run to watch it")
    # ↻ and Show responses level with their field, their own height (assets/cluelab.css
    # .field-button): stretched to the row's height they were tall, almost empty boxes
    with gr.Row(equal_height=False, elem_classes="field-row"):
        ui.run_id = gr.Textbox(label="Run id or name (Enter to watch it)", elem_id="run-id",
                               scale=3)
        ui.refresh = gr.Button("↻", size="sm", scale=0, min_width=50, elem_id="runs-refresh",
                               elem_classes="field-button")
    ui.progress = gr.HTML(elem_id="run-progress")
    with gr.Row():
        ui.pause = gr.Button("Pause", size="sm", elem_id="run-pause")
        ui.cancel = gr.Button("Cancel", size="sm", variant="stop", elem_id="run-cancel")
        ui.resume = gr.Button("Resume", size="sm", elem_id="run-resume")
    # What Resume takes besides the run: a run stopped by its budget goes on only with a
    # higher one, or none (ui/experiments_steering.py)
    with gr.Row(equal_height=True):
        ui.resume_budget = gr.Textbox("", label="Budget on resume (USD)", max_lines=1, scale=2,
                                      placeholder="empty: the run's",
                                      info="empty keeps the run's budget · none: no budget",
                                      elem_id="run-resume-budget")
        ui.retry_errors = gr.Checkbox(False, label="retry errors", scale=1, interactive=False,
                                      elem_id="run-retry-errors")  # on with Resume
    ui.control_message = gr.Markdown(elem_id="run-control-message")
    with gr.Accordion("Name, note, delete", open=True, elem_id="run-labels"):
        with gr.Row(equal_height=False, elem_id="run-name-row"):
            ui.run_name = gr.Textbox(label="Name (shown in every run picker)", max_lines=1,
                                     placeholder="e.g. GPT-4o GT clues, fixed prompt",
                                     elem_id="run-name", scale=3)
            ui.save_labels = gr.Button("Save name and note", size="sm", scale=1,
                                       elem_id="run-save-labels")
        ui.run_note = gr.Textbox(label="Note", lines=2, max_lines=8, elem_id="run-note")
        ui.ask_delete = gr.Button("Delete run…", size="sm", variant="stop",
                                  elem_id="run-delete")
        with gr.Group(visible=False, elem_id="run-delete-confirm") as ui.confirm_panel:
            ui.confirm_text = gr.Markdown(elem_id="run-delete-question")
            with gr.Row():
                ui.confirm_delete = gr.Button("Delete for good", variant="stop", size="sm",
                                              elem_id="run-delete-yes")
                ui.keep_run = gr.Button("Keep the run", size="sm", elem_id="run-delete-no")
    with gr.Accordion("Configuration and totals", open=False):
        # key: value lines (ui/experiments_config.py), not gr.JSON's one token a line
        ui.config = gr.Code(language="yaml", interactive=False, max_lines=40,
                            show_label=False, elem_id="run-config")
    with gr.Row(equal_height=False, elem_classes="field-row"):
        ui.response_filter = gr.Dropdown(RESPONSE_FILTERS, value="all", label="Responses",
                                         elem_id="run-response-filter", scale=2)
        ui.responses_refresh = gr.Button("Show responses", size="sm", scale=0,
                                         elem_id="run-responses-refresh",
                                         elem_classes="field-button")
    # wrapped in set widths: with wrap off the monitor's column showed its first four
    # columns, "refused (clue" cut and the answer and reason out of view
    ui.responses = gr.Dataframe(headers=RESPONSE_HEADERS, interactive=False, max_height=320,
                                wrap=True, column_widths=RESPONSE_WIDTHS,
                                elem_id="run-responses",
                                label=SAMPLE_LABEL)
    ui.response_text = gr.Textbox(label="Model output (as received, shown as plain text)",
                                  lines=8, max_lines=24, interactive=False,
                                  elem_id="run-response-text")
    ui.response_extracted = gr.Code(label="Extracted", language="json", interactive=False,
                                    max_lines=20, elem_id="run-response-extracted")


def build_layout() -> SimpleNamespace:
    ui = SimpleNamespace()
    # Two panels filling the window below the navbar, each scrolling on its own
    # (assets/cluelab.css): the form (its Preview / Start bar under it) and the monitor, in
    # view however far down the form is, so the progress shows when Start is pressed.
    with gr.Row(elem_id="experiments"):
        with gr.Column(scale=3, min_width=560, elem_id="run-builder"):
            with gr.Column(elem_id="run-form"):
                build_endpoints(ui)
                build_builder(ui)
                build_preview(ui)
                build_prices(ui)
            build_actions(ui)
        # The runs list's six columns in view at 1400x900 (at scale 2 it was 474 px: cost
        # and by cut).
        with gr.Column(scale=3, min_width=420, elem_id="run-monitor"):
            build_monitor(ui)
    ui.timer = gr.Timer(2.0, active=False)
    ui.seen = gr.State({})
    ui.pending_delete = gr.State(None)
    # the last preview's summary as this server made it: marked stale from here, never from
    # the page's copy (what a page sends is never sent back as it came)
    ui.previewed = gr.State(None)
    return ui
