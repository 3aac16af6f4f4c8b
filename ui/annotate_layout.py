"""Layout of the Annotate tab: item browser on the left, editor on the right.

Only components are created here; `annotate_wiring` connects them to the handlers.
Element ids that tests and users' scripts rely on: annotator, save-item, next-item,
prev-item, item-id, item-status.
"""
from __future__ import annotations

from types import SimpleNamespace

import gradio as gr
from gradio_image_annotation import image_annotator

from ui import editor_model as em
from ui.browser_handlers import ALL, FLAGGED_CHOICES, LIST_HEADERS
from ui.history_handlers import DIFF_HEADERS, HISTORY_HEADERS
from ui.thumbnails import STRIP_JS

def _path_only(self, image):
    """The annotator's image is one of ours (in the media folder): its path is all the
    handlers need. The library's own preprocess decodes and re-encodes the whole image,
    possibly 8000×6000 px, on every event that takes the annotator as input. Patched on the
    class because Gradio replaces the instance in session state after the first update."""
    return None if image is None else image.path


image_annotator.preprocess_image = _path_only

HELP = (
    "**Boxes:** press **C** over the image (or the ✚ tool) and drag to draw; pick the clue "
    "it belongs to (`clue 1`, `clue 2`, …). **D** moves/resizes, **E** relabels, **Del** "
    "removes, wheel zooms, **Space** resets the view. **Ctrl+S** saves, **Alt+→ / Alt+←** "
    "next / previous item. Edits are kept as a draft until you save."
)


def build_browser() -> SimpleNamespace:
    ui = SimpleNamespace()
    with gr.Column(scale=1, min_width=320, elem_id="item-browser"):
        ui.search = gr.Textbox(label="Search", placeholder="id, question, answer or clue text",
                               elem_id="browser-search")
        with gr.Row():
            ui.dataset = gr.Dropdown([ALL], value=ALL, label="Dataset", elem_id="filter-dataset")
            ui.status_filter = gr.Dropdown([ALL], value=ALL, label="Status",
                                           elem_id="filter-status")
        with gr.Row():
            ui.domain = gr.Dropdown([ALL], value=ALL, label="Domain", elem_id="filter-domain")
            ui.subtask = gr.Dropdown([ALL], value=ALL, label="Subtask", elem_id="filter-subtask")
        ui.flagged = gr.Radio(FLAGGED_CHOICES, value="all", label="Import problems",
                              elem_id="filter-flagged")
        ui.count = gr.Markdown(elem_id="browser-count")
        ui.items = gr.Dataframe(headers=LIST_HEADERS, interactive=False, max_height=640,
                                wrap=False, column_widths=["40%", "20%", "40%"],
                                elem_id="item-list")
        with gr.Row(elem_id="list-pager"):
            ui.page_prev = gr.Button("◀ page", size="sm", min_width=60, elem_id="list-prev-page")
            ui.page = gr.Number(1, precision=0, minimum=1, show_label=False, min_width=60,
                                container=False, elem_id="list-page")
            ui.page_next = gr.Button("page ▶", size="sm", min_width=60, elem_id="list-next-page")
        ui.nav_ids = gr.State([])
    return ui


def build_editor() -> SimpleNamespace:
    ui = SimpleNamespace()
    with gr.Column(scale=4, elem_id="item-editor"):
        with gr.Row(equal_height=True):
            ui.prev = gr.Button("◀ Previous", elem_id="prev-item", scale=0, min_width=110)
            ui.item_id = gr.Textbox(label="Item id (Enter opens)", elem_id="item-id", scale=3)
            ui.next = gr.Button("Next ▶", elem_id="next-item", scale=0, min_width=110)
            ui.status = gr.Dropdown(em.STATUSES, label="Status", elem_id="item-status", scale=1)
        ui.header = gr.Markdown(elem_id="item-header")
        ui.notice = gr.Markdown(elem_id="item-notice")
        with gr.Row():
            with gr.Column(scale=3, min_width=420):
                ui.strip = gr.HTML(elem_id="image-strip", js_on_load=STRIP_JS,
                                   apply_default_css=False)
                with gr.Row():
                    ui.add_image = gr.UploadButton("Add image", file_types=["image"],
                                                   size="sm", elem_id="add-image")
                    ui.image_left = gr.Button("◀ Move", size="sm")
                    ui.image_right = gr.Button("Move ▶", size="sm")
                    ui.remove_image = gr.Button("Remove image", size="sm", variant="stop",
                                                elem_id="remove-image")
                ui.image_info = gr.Markdown(elem_id="image-info")
                ui.annotator = image_annotator(
                    label="Clue boxes", elem_id="annotator", image_type="filepath",
                    sources=[], show_clear_button=False, show_download_button=False,
                    show_share_button=False, show_remove_button=True, box_min_size=3,
                    height="70vh", boxes_alpha=0.25, handles_cursor=True, show_label=False,
                    label_list=[em.PICK_LABEL], label_colors=[em.PICK_COLOR],
                )
                gr.Markdown(HELP, elem_id="annotator-help")
            with gr.Column(scale=2, min_width=380):
                ui.clues = gr.Dataframe(headers=em.CLUE_HEADERS, type="array", interactive=True,
                                        static_columns=[0, 3], wrap=True, label="Clues",
                                        column_widths=["14%", "38%", "36%", "12%"],
                                        elem_id="clue-table")
                ui.selected_clue = gr.State(None)
                with gr.Row():
                    ui.add_clue = gr.Button("Add clue", size="sm", elem_id="add-clue")
                    ui.clue_up = gr.Button("▲", size="sm", min_width=40)
                    ui.clue_down = gr.Button("▼", size="sm", min_width=40)
                    ui.remove_clue = gr.Button("Remove clue", size="sm", variant="stop",
                                               elem_id="remove-clue")
                ui.question = gr.Textbox(label="Question", lines=3, elem_id="item-question")
                with gr.Row():
                    ui.answer_type = gr.Dropdown(em.ANSWER_TYPES, label="Answer type",
                                                 elem_id="item-answer-type")
                    ui.answer = gr.Textbox(label="Gold answer", elem_id="item-answer")
                ui.aliases = gr.Textbox(label="Accepted aliases (one per line)", lines=2,
                                        elem_id="item-aliases")
                ui.options = gr.Dataframe(headers=em.OPTION_HEADERS, type="array",
                                          interactive=True, static_columns=[2], label="Options",
                                          column_widths=["12%", "73%", "15%"],
                                          elem_id="option-table")
                ui.option_gallery = gr.HTML(elem_id="option-images", js_on_load=None,
                                            apply_default_css=False)
                with gr.Row():
                    ui.option_label = gr.Textbox(label="Option label", scale=1, max_lines=1)
                    ui.option_upload = gr.UploadButton("Set option image", file_types=["image"],
                                                       size="sm", scale=1)
                    ui.option_clear = gr.Button("Remove option image", size="sm", scale=1)
                ui.gt_reasoning = gr.Textbox(label="GT reasoning", lines=3,
                                             elem_id="item-gt-reasoning")
                with gr.Row():
                    ui.domain = gr.Dropdown([], label="Domain", allow_custom_value=True,
                                            elem_id="item-domain")
                    ui.subtask = gr.Dropdown([], label="Subtask", allow_custom_value=True,
                                             elem_id="item-subtask")
                    ui.reasoning_type = gr.Textbox(label="Reasoning type",
                                                   elem_id="item-reasoning-type")
        with gr.Row(equal_height=True):
            ui.comment = gr.Textbox(label="Comment for this revision (optional)", scale=4,
                                    elem_id="save-comment", max_lines=1)
            ui.save = gr.Button("Save (Ctrl+S)", variant="primary", elem_id="save-item",
                                scale=1)
            ui.discard = gr.Button("Discard draft", scale=0, min_width=130,
                                   elem_id="discard-draft")
        with gr.Row():
            ui.save_message = gr.Markdown(elem_id="save-message")
            ui.draft_state = gr.Markdown(elem_id="draft-state")
        with gr.Group(visible=False, elem_id="conflict-panel") as ui.conflict_panel:
            ui.conflict_message = gr.Markdown(elem_id="conflict-message")
            with gr.Row():
                ui.compare = gr.Button("Compare with saved", elem_id="conflict-compare")
                ui.take_theirs = gr.Button("Reload saved version", elem_id="conflict-reload")
                ui.keep_mine = gr.Button("Save mine over it", variant="stop",
                                         elem_id="conflict-overwrite")
            ui.conflict_diff = gr.Dataframe(headers=["field", "saved", "yours"],
                                            interactive=False, wrap=True,
                                            elem_id="conflict-diff")
        ui.conflict_version = gr.State(None)
        # The panel's widgets stay unmounted until it is first opened (visible=False): a
        # closed accordion's content is still built by Gradio's front end, ~14 widgets
        # that every fresh page would pay for (docs/PERFORMANCE.md).
        with gr.Accordion("History and review", open=False, elem_id="history") as ui.history_panel:
            with gr.Column(visible=False, elem_id="history-body") as ui.history_body:
                ui.history = gr.Dataframe(headers=HISTORY_HEADERS, interactive=False,
                                          elem_id="history-table")
                with gr.Row():
                    ui.version_a = gr.Number(label="Version A", precision=0, minimum=1)
                    ui.version_b = gr.Number(label="Version B", precision=0, minimum=1)
                    ui.show_diff = gr.Button("Diff A → B", elem_id="history-diff")
                    ui.restore = gr.Button("Restore version A", variant="stop",
                                           elem_id="history-restore")
                ui.diff = gr.Dataframe(headers=DIFF_HEADERS, interactive=False, wrap=True,
                                       elem_id="history-diff-table")
                with gr.Row():
                    ui.review_verdict = gr.Radio(["approve", "revise", "reject"], label="Review",
                                                 elem_id="review-verdict")
                    ui.review_note = gr.Textbox(label="Review note", scale=2)
                    ui.review_submit = gr.Button("Submit review", elem_id="review-submit")
                ui.reviews = gr.Markdown(elem_id="review-list")
        ui.work = gr.State(None)
    return ui
