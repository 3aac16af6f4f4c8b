"""Layout of the Inspect tab: the failure browser on top, then one response side by side
(ground truth left, model right), zoom, verdicts, tags and notes, compare, export.

Only components are created here; `inspect_tab` wires them. Element ids tests rely on:
inspect-run, inspect-filter, inspect-results, inspect-count, inspect-work-id, inspect-next,
inspect-prev, inspect-gt-image, inspect-model-image, inspect-output, inspect-gt-clues,
inspect-model-clues, inspect-verdicts, inspect-zoom, inspect-tags, inspect-save-tags,
inspect-tag-filter, inspect-open-item, inspect-link, inspect-old-gt, inspect-remove-tag,
inspect-remove-tag-button, inspect-flip-protocol, inspect-a-images, inspect-b-images.
"""
from __future__ import annotations

from types import SimpleNamespace

import gradio as gr

from ui.galleries import whole_image_gallery
from ui.inspect_browser import (ALL, ANY, DISAGREE_CHOICES, FLIP_CHOICES, HEADERS, NO_RUN,
                                PROTOCOLS, SORT_CHOICES, STATUS_CHOICES, VERDICT_CHOICES,
                                WIDTHS)
from ui.inspect_compare import COMPARE_HEADERS
from ui.inspect_handlers import GT_HEADERS, MODEL_CLUES, MODEL_HEADERS, VERDICT_HEADERS, \
    ZOOM_HINT
from ui.inspect_tags import COUNT_HEADERS, NOTE_HEADERS, TAG_LOG_HEADERS, VOCABULARY_HEADERS

# J / K walk the filtered list while the Inspect tab is shown and no text field has focus
# (Alt+arrows and PageUp/PageDown belong to the annotation workspace's item list).
KEYS_JS = """
if (!window.__cluelabInspectKeys) {
  window.__cluelabInspectKeys = true;
  document.addEventListener('keydown', (e) => {
    const t = e.target;
    const typing = t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.isContentEditable);
    if (typing || e.ctrlKey || e.metaKey || e.altKey) return;
    const next = document.getElementById('inspect-next');
    if (!next || next.offsetParent === null) return;
    const key = e.key.toLowerCase();
    if (key === 'j') { e.preventDefault(); next.click(); }
    else if (key === 'k') {
      e.preventDefault();
      const prev = document.getElementById('inspect-prev');
      if (prev) prev.click();
    }
  });
}
"""

STYLE = """<style>
#inspect-output textarea { font-family: var(--font-mono); font-size: 0.85em; }
#inspect-verdict-detail textarea { font-family: var(--font-mono); font-size: 0.8em; }
#inspect-gt, #inspect-model { border: 1px solid var(--border-color-primary); border-radius: 8px;
  padding: 6px; }
#inspect-version p { margin: 2px 0; }
#inspect-old-gt { border-left: 4px solid #f08c00; padding-left: 8px; }
#inspect-open-item a { font-weight: 600; }
#inspect-zoom img { width: 100%; height: 100%; object-fit: contain; }
</style>"""

HELP = ("**J / K** (or the buttons) open the next / previous response of the list. Click a "
        "GT or model clue to zoom to its box at full resolution; click a verdict for the "
        "judge's prompt and reply. GT boxes are solid, model boxes dashed in the colour of "
        "the GT clue they matched (grey: no match).")


VERDICTS_MAX_PX = 2400
"""The verdicts table's height cap: past every row a response can have (4 protocols x a few
judges, each row up to 3 wrapped lines of ~24 px), so the page scrolls, not a box in it."""


def _image(label: str, elem_id: str, height: int = 420, visible: bool = True,
           **kwargs) -> gr.Image:
    return gr.Image(type="filepath", interactive=False, label=label, height=height,
                    buttons=["fullscreen"], elem_id=elem_id, visible=visible, **kwargs)


def _dynamic(choices, value, label: str, elem_id: str, **kwargs) -> gr.Dropdown:
    """A dropdown whose choices are filled when the tab opens (API callers may pass a value
    before that; the handlers check it)."""
    return gr.Dropdown(choices, value=value, label=label, elem_id=elem_id,
                       allow_custom_value=True, **kwargs)


def _browser(ui: SimpleNamespace) -> None:
    with gr.Accordion("Failure browser", open=True, elem_id="inspect-browser"):
        with gr.Row():
            ui.run = _dynamic([("(all runs)", ALL)], ALL, "Run", "inspect-run", scale=3)
            ui.judge = _dynamic(["offline"], "offline", "Judge (verdict filters and columns)",
                                "inspect-judge", scale=2)
            ui.sort = gr.Dropdown(SORT_CHOICES, value="run order", label="Sort", scale=1,
                                  elem_id="inspect-sort")
        with gr.Row():
            ui.dataset = _dynamic([ALL], ALL, "Dataset", "inspect-dataset")
            ui.domain = _dynamic([ALL], ALL, "Domain", "inspect-domain")
            ui.subtask = _dynamic([ALL], ALL, "Subtask", "inspect-subtask")
            ui.item = gr.Textbox(label="Item id contains", elem_id="inspect-item-filter")
            ui.status = gr.Dropdown(STATUS_CHOICES, value=ALL, label="Response status",
                                    elem_id="inspect-status")
            ui.tag_filter = _dynamic([ANY], ANY, "Tag", "inspect-tag-filter")
        with gr.Row():
            ui.general = gr.Dropdown(VERDICT_CHOICES, value=ANY, label="General",
                                     elem_id="inspect-general")
            ui.rigorous = gr.Dropdown(VERDICT_CHOICES, value=ANY, label="Rigorous",
                                      elem_id="inspect-rigorous")
            ui.grounded = gr.Dropdown(VERDICT_CHOICES, value=ANY, label="Grounded",
                                      elem_id="inspect-grounded")
            ui.verbench = gr.Dropdown(VERDICT_CHOICES, value=ANY, label="VER-Bench",
                                      elem_id="inspect-verbench")
            ui.disagree = gr.Dropdown(DISAGREE_CHOICES, value="(off)",
                                      label="Judges disagree on", elem_id="inspect-disagree")
            ui.wrong_reason = gr.Checkbox(label="Right answer, wrong reason (general correct, "
                                                "rigorous wrong)", elem_id="inspect-wrong-reason")
        with gr.Row():
            # a row of the flip's own, its run wide enough for a run's label to its short id
            # (ui/run_choices.run_label): at 1400 px it was cut to "vlm-b · CoT · 2026120…",
            # two runs reading the same
            ui.flip_run = _dynamic([(NO_RUN, NO_RUN)], NO_RUN, "Flips against run",
                                   "inspect-flip-run", scale=4)
            ui.flip = gr.Dropdown(FLIP_CHOICES, value=FLIP_CHOICES[0],
                                  label="Flip (same item, repeat and sample)",
                                  elem_id="inspect-flip", scale=2)
            ui.flip_protocol = gr.Dropdown(list(PROTOCOLS), value="general",
                                           label="Flip of the verdict of",
                                           elem_id="inspect-flip-protocol")
        with gr.Row(equal_height=True):
            ui.apply = gr.Button("Filter", variant="primary", scale=0, min_width=120,
                                 elem_id="inspect-filter")
            ui.prev_page = gr.Button("◀ Page", scale=0, min_width=90,
                                     elem_id="inspect-prev-page")
            ui.next_page = gr.Button("Page ▶", scale=0, min_width=90,
                                     elem_id="inspect-next-page")
            ui.count = gr.Markdown(elem_id="inspect-count")
        ui.results = gr.Dataframe(headers=HEADERS, interactive=False, max_height=380,
                                  wrap=True, column_widths=WIDTHS, elem_id="inspect-results",
                                  label="Responses (click one to open it)")
        ui.nav = gr.State(None)


def _side_by_side(ui: SimpleNamespace) -> None:
    with gr.Row(equal_height=True):
        ui.prev = gr.Button("◀ Previous (K)", scale=0, min_width=140, elem_id="inspect-prev")
        ui.work_id = gr.Textbox(label="Response (work id; Enter opens)", scale=1,
                                elem_id="inspect-work-id")
        ui.next = gr.Button("Next (J) ▶", scale=0, min_width=140, elem_id="inspect-next")
        ui.item_link = gr.HTML(js_on_load=None, elem_id="inspect-open-item", scale=2)
        ui.link = gr.Textbox(label="Link to this response", interactive=False, scale=2,
                             buttons=["copy"], elem_id="inspect-link")
    ui.header = gr.Markdown(elem_id="inspect-header")
    ui.version = gr.Markdown(elem_id="inspect-version")
    ui.image = gr.Radio([], label="Image", visible=False, elem_id="inspect-image")
    with gr.Row():
        with gr.Column(elem_id="inspect-gt"):
            gr.Markdown("### Ground truth")
            ui.gt_image = _image("GT boxes (solid, colour = clue)", "inspect-gt-image")
            ui.gold = gr.Markdown(elem_id="inspect-gold")
            ui.gt_clues = gr.Dataframe(headers=GT_HEADERS, interactive=False, wrap=True,
                                       column_widths=["9%", "29%", "25%", "11%", "26%"],
                                       label="GT clues (click one to zoom)",
                                       elem_id="inspect-gt-clues")
            ui.old_gt = gr.Markdown(visible=False, elem_id="inspect-old-gt")
        with gr.Column(elem_id="inspect-model"):
            gr.Markdown("### Model")
            ui.model_image = _image("Model boxes (dashed; GT as thin outlines)",
                                    "inspect-model-image")
            ui.answer = gr.Markdown(elem_id="inspect-answer")
            ui.model_clues = gr.Dataframe(headers=MODEL_HEADERS, interactive=False, wrap=True,
                                          column_widths=["9%", "30%", "17%", "27%", "17%"],
                                          label=MODEL_CLUES,
                                          elem_id="inspect-model-clues")
            ui.output = gr.Textbox(label="Model output (as received)", lines=8, max_lines=22,
                                   interactive=False, autoscroll=False, buttons=["copy"],
                                   elem_id="inspect-output")
    # The zoom is shown only with a clue's box in it (a 480 px empty panel sat beside the
    # verdicts); until then its caption is a one-line hint (ui/inspect_tab.py, zoom_shown).
    # Beside it the verdicts keep two thirds of the row: at half of it (1400x900) their six
    # columns were ~90 px each, "offline:lexical" read "offline:lexica / l"; their columns
    # hold "grounded:lexical:iou0.5" and "llm:gpt-4o-mini" whole at 800 px.
    with gr.Row():
        ui.zoom = _image("Zoom (full resolution)", "inspect-zoom", height=480, visible=False,
                         scale=1, min_width=380)
        with gr.Column(scale=2, min_width=760):
            ui.zoom_caption = gr.Markdown(ZOOM_HINT, elem_id="inspect-zoom-caption")
            # as tall as its rows (a response has a few: protocols x judges): at Gradio's
            # 500 px VER-Bench's rows sat below an inner scroll, the last one cut in half
            ui.verdicts = gr.Dataframe(headers=VERDICT_HEADERS, interactive=False, wrap=True,
                                       max_height=VERDICTS_MAX_PX,
                                       column_widths=["12%", "16%", "11%", "8%", "24%", "29%"],
                                       label="Verdicts (click one for the judge's prompt and "
                                             "reply)", elem_id="inspect-verdicts")
            # the box read empty until a verdict was clicked: it says what comes in it
            ui.verdict_detail = gr.Textbox(label="Verdict detail", lines=3, max_lines=18,
                                           placeholder="Click a verdict above: its judge's "
                                                       "prompt and reply show here.",
                                           interactive=False, autoscroll=False,
                                           elem_id="inspect-verdict-detail")


def _tags_and_more(ui: SimpleNamespace) -> None:
    with gr.Row():
        with gr.Column():
            ui.tags = gr.CheckboxGroup([], label="Failure tags", elem_id="inspect-tags")
            # small buttons level with their field (assets/cluelab.css .field-button): they
            # were 64 and 94 px tall, "Add to vocabulary" on two lines
            with gr.Row(equal_height=False, elem_classes="field-row"):
                ui.save_tags = gr.Button("Save tags", variant="primary", size="sm", scale=0,
                                         elem_id="inspect-save-tags",
                                         elem_classes="field-button")
                ui.new_tag = gr.Textbox(placeholder="a new tag", label="New tag",
                                        show_label=False, scale=2, elem_id="inspect-new-tag")
                ui.add_tag = gr.Button("Add to vocabulary", size="sm", scale=0,
                                       elem_id="inspect-add-tag", elem_classes="field-button")
            with gr.Row(equal_height=False, elem_classes="field-row"):
                ui.remove_tag = _dynamic([], None, "Tag to take off this response",
                                         "inspect-remove-tag", scale=2)
                ui.remove_tag_button = gr.Button("Remove tag", size="sm", scale=0,
                                                 elem_id="inspect-remove-tag-button",
                                                 elem_classes="field-button")
            ui.tag_message = gr.Markdown(elem_id="inspect-tag-message")
            ui.tag_log = gr.Dataframe(headers=TAG_LOG_HEADERS, interactive=False,
                                      label="Who tagged and when", elem_id="inspect-tag-log")
        with gr.Column():
            ui.note = gr.Textbox(label="Note", lines=2, elem_id="inspect-note")
            ui.add_note = gr.Button("Add note", elem_id="inspect-add-note")
            # the time and the author on one line each, the note wrapping beside them
            ui.notes = gr.Dataframe(headers=NOTE_HEADERS, interactive=False, wrap=True,
                                    label="Notes", elem_id="inspect-notes",
                                    column_widths=["30%", "17%", "53%"])
    with gr.Accordion("Compare with another response to this item", open=False,
                      elem_id="inspect-compare-panel"):
        with gr.Row(equal_height=True):
            ui.compare_with = _dynamic([], None, "Response B (A is the one open above)",
                                       "inspect-compare-with", scale=4)
            ui.compare = gr.Button("Compare", scale=0, min_width=110, elem_id="inspect-compare")
        ui.compare_summary = gr.Markdown(elem_id="inspect-compare-summary")
        ui.compare_verdicts = gr.Dataframe(headers=COMPARE_HEADERS, interactive=False,
                                           label="Verdicts of A and B",
                                           elem_id="inspect-compare-verdicts")
        with gr.Row():
            for side in ("a", "b"):
                with gr.Column():
                    setattr(ui, f"{side}_answer", gr.Markdown(elem_id=f"inspect-{side}-answer"))
                    setattr(ui, f"{side}_images", whole_image_gallery(
                        f"{side.upper()}: model boxes on every image",
                        f"inspect-{side}-images"))
                    setattr(ui, f"{side}_output", gr.Textbox(
                        label=f"{side.upper()}: model output", lines=6, max_lines=16,
                        interactive=False, autoscroll=False, elem_id=f"inspect-{side}-output"))
    _vocabulary(ui)
    # its counts fill when it opens and after a tag is saved or removed (ui/inspect_tag_wiring):
    # they stayed empty until one pressed a button that read as the table's caption
    with gr.Accordion("Tag counts and export of tagged cases", open=False,
                      elem_id="inspect-export-panel") as ui.counts_panel:
        with gr.Row(equal_height=True):
            ui.export_format = gr.Radio(["csv", "json"], value="csv", label="Format",
                                        elem_id="inspect-export-format")
            ui.export = gr.Button("Export tagged cases (the run and tag chosen above)",
                                  elem_id="inspect-export")
            ui.counts_button = gr.Button("↻ Refresh tag counts", elem_id="inspect-counts")
        ui.export_file = gr.File(label="Download", interactive=False,
                                 elem_id="inspect-export-file")
        ui.counts = gr.Dataframe(headers=COUNT_HEADERS, interactive=False,
                                 label="Tag counts per run (the run chosen above, or all)",
                                 elem_id="inspect-tag-counts")


def _vocabulary(ui: SimpleNamespace) -> None:
    with gr.Accordion("Tag vocabulary (rename, delete)", open=False,
                      elem_id="inspect-vocabulary-panel"):
        with gr.Row(equal_height=True):
            ui.rename_from = _dynamic([], None, "Tag", "inspect-rename-from", scale=2)
            ui.rename_to = gr.Textbox(label="New name", scale=2, elem_id="inspect-rename-to")
            ui.rename = gr.Button("Rename", scale=0, min_width=110, elem_id="inspect-rename")
            ui.delete_tag = gr.Button("Delete (unused tags only)", scale=0, min_width=180,
                                      elem_id="inspect-delete-tag")
        ui.vocabulary = gr.Dataframe(headers=VOCABULARY_HEADERS, interactive=False,
                                     label="Vocabulary (renaming keeps every use)",
                                     elem_id="inspect-vocabulary")


def build_layout() -> SimpleNamespace:
    ui = SimpleNamespace()
    gr.HTML(STYLE, js_on_load=KEYS_JS, elem_id="inspect-keys")
    gr.Markdown(HELP, elem_id="inspect-help")
    _browser(ui)
    # hidden while the database has no run: ~2,000 px of empty image boxes, tables and tag
    # controls under "No run yet" (a review); shown when the page opens on a run
    with gr.Column(elem_id="inspect-workspace") as ui.workspace:
        _side_by_side(ui)
        _tags_and_more(ui)
    return ui
