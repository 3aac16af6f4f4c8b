"""Layout of the Annotate tab: item browser on the left, editor on the right.

Only components are created here; `annotate_wiring` connects them to the handlers.
Element ids that tests and users' scripts rely on: annotator, save-item, next-item,
prev-item, item-id, item-status.
"""
from __future__ import annotations

import warnings

from types import SimpleNamespace

import gradio as gr
from gradio_image_annotation import image_annotator

from domain.vocabulary import ANSWER_TYPES, ITEM_STATUSES

from ui import annotator_values  # noqa: F401 - patches the annotator's preprocess
from ui import answer_form as af
from ui import editor_model as em
from ui.conflict_marks import HEADERS
from ui.conflict_merge import take_saved_label
from ui.annotate_lifecycle import build_item_menu
from ui.browser_handlers import ALL, FLAGGED_CHOICES, LIST_HEADERS
from ui.history_handlers import DIFF_HEADERS, HISTORY_HEADERS
from ui.problems_wiring import build_problem_actions

CONFLICT_HEADERS = HEADERS       # ui/conflict_marks: the saved column named as it is shown
from ui.thumbnails import STRIP_JS


# A fresh page builds the annotator's column first. The item list, the form and the save bar
# start invisible, and so do the status and every table, radio, number and accordion (`late`
# below): Gradio neither builds an invisible component nor loads the scripts of a kind whose
# every widget is invisible. init_browser, sent once the first image has arrived, shows them
# all (annotate_wiring).
# Building ~70 widgets and loading those kinds before the first event was most of what
# delayed a fresh page's first image (docs/PERFORMANCE.md, section 3). The columns keep
# their place, so the image does not move when the rest appears.
# False: everything built at start (bench/_patched_server.py `no-defer` measures it).
DEFER_PANELS = True

# The first screen (the lines around the annotator) is plain HTML, not Markdown: no widget
# a fresh page builds at once needs Gradio's Markdown scripts, ~0.3 s of its cold start.
# One line under the image (the canvas takes the height a paragraph took, and the save bar
# cut that paragraph off at 1400x900); "?" opens the whole of it over the page, so opening
# it moves nothing (assets/cluelab.css, .cl-pop).
HELP = (
    '<div class="cl-hint"><span><kbd>C</kbd> draw · <kbd>D</kbd> select · <kbd>E</kbd> '
    'relabel · <kbd>Del</kbd> remove · <kbd>Ctrl+Z</kbd> undo · wheel zoom · '
    '<kbd>Space</kbd> reset · '
    '<kbd>Ctrl+S</kbd> save</span>'
    '<details class="cl-pop cl-pop-up"><summary title="How to draw and label boxes">?</summary>'
    "<div><b>Boxes:</b> press <kbd>C</kbd> over the image (or the ✚ tool) and drag to draw "
    "(while a text field has the cursor, letters go to it: click the image first); "
    "pick the clue it belongs to (<code>clue 1</code>, <code>clue 2</code>, …) or type its "
    "number and Enter. <kbd>D</kbd> (the hand tool) selects, moves and resizes: click a box "
    "there, then "
    "<kbd>E</kbd> relabels it and <kbd>Del</kbd> removes it (not while drawing). Wheel zooms, "
    "<kbd>Space</kbd> resets the view. <kbd>Ctrl+Z</kbd> undoes the last box change "
    "(drawn, moved, relabelled or removed) on this image. <kbd>Ctrl+S</kbd> saves, "
    "<kbd>Alt+→</kbd> / "
    "<kbd>Alt+←</kbd> next / previous item. Edits are kept as a draft until you save.</div>"
    "</details></div>"
)

# The item list's show/hide button (assets/list_toggle.js keeps the choice per browser).
LIST_TOGGLE = ('<button type="button" id="list-toggle" class="cl-list-toggle" '
               'aria-controls="item-browser" title="Show or hide the item list">☰ Items</button>')


# id and status whole (26-character demo ids, "candidate" at the list's 12px), the question
# all the rest of the list's width: Gradio gives a table's spare width to its "auto" columns
# (assets/cluelab.css, "#item-list"). Shares of the width (62/25/13%) left the question two
# characters at 1400x900; the browser column is wider for it too.
LIST_WIDTHS = ["200px", "82px", "auto"]


def build_browser() -> SimpleNamespace:
    ui = SimpleNamespace()
    with gr.Column(scale=1, min_width=440, elem_id="item-browser"), \
            gr.Column(visible=not DEFER_PANELS, elem_id="item-browser-body") as ui.body:
        # applied on Enter and on leaving the box (ui/browser_wiring.py): a box cleared
        # and left kept its filter
        ui.search = gr.Textbox("", label="Search (Enter or leaving the box applies it)",
                               placeholder="id, question, answer or clue text",
                               elem_id="browser-search")
        with gr.Row():
            ui.dataset = gr.Dropdown([ALL], value=ALL, label="Dataset", elem_id="filter-dataset",
                                     min_width=100)
            ui.status_filter = gr.Dropdown([ALL], value=ALL, label="Status",
                                           elem_id="filter-status", min_width=100)
        with gr.Row():
            ui.domain = gr.Dropdown([ALL], value=ALL, label="Domain", elem_id="filter-domain",
                                    min_width=100)
            ui.subtask = gr.Dropdown([ALL], value=ALL, label="Subtask", elem_id="filter-subtask",
                                     min_width=100)
        ui.flagged = gr.Radio(FLAGGED_CHOICES, value="all", label="Import problems",
                              elem_id="filter-flagged", visible=not DEFER_PANELS)
        ui.count = gr.Markdown(elem_id="browser-count")
        ui.items = gr.Dataframe(headers=LIST_HEADERS, interactive=False, max_height=640,
                                wrap=False, column_widths=LIST_WIDTHS,
                                elem_id="item-list", visible=not DEFER_PANELS)
        with gr.Row(elem_id="list-pager"):
            ui.page_prev = gr.Button("◀ page", size="sm", min_width=60, elem_id="list-prev-page")
            ui.page = gr.Number(1, precision=0, show_label=False, min_width=60,
                                container=False, elem_id="list-page", visible=not DEFER_PANELS)
            ui.page_next = gr.Button("page ▶", size="sm", min_width=60, elem_id="list-next-page")
            ui.refresh = gr.Button("↻ Refresh", size="sm", min_width=60, elem_id="list-refresh")
        ui.nav_ids = gr.State([])
        ui.shown = gr.State(None)       # the filters the list was drawn with, and its page
        # the filters this browser kept, as JSON, for the events that draw or walk the list
        # before it is drawn (assets/list_filters.js fills it; ui/browser_handlers.parse_kept)
        ui.kept = gr.Textbox("", visible="hidden", show_label=False, container=False,
                             elem_id="kept-filters")
        # where the open item's row is on the page shown (assets/list_current.js scrolls
        # it into view; cluelab.css hides this line)
        ui.open_row = gr.HTML(elem_id="list-open-row", apply_default_css=False)
    ui.late = [ui.flagged]      # the list and its page number are shown with their values
    return ui


def build_editor() -> SimpleNamespace:
    ui = SimpleNamespace()
    with gr.Column(scale=4, elem_id="item-editor"):
        # one slim line: the image is to start high on the first screen
        with gr.Row(equal_height=True, elem_id="item-nav"):
            gr.HTML(LIST_TOGGLE, elem_id="list-toggle-box", js_on_load=None,
                    apply_default_css=False, scale=0, min_width=90)
            ui.prev = gr.Button("◀ Previous", elem_id="prev-item", scale=0, min_width=130)
            # one line whatever the id's length (a 300-character id made it five lines)
            ui.item_id = gr.Textbox(label="Item id (Enter opens)", show_label=False,
                                    container=False, placeholder="item id (Enter opens)",
                                    max_lines=1, elem_id="item-id", scale=3)
            ui.next = gr.Button("Next ▶", elem_id="next-item", scale=0, min_width=110)
            # its choices follow the caller's role when opened (status_choices: only an
            # admin is offered `released`); any value is taken back, the save decides.
            # Its label shows on its line, before it (cluelab.css #item-status): a bare
            # "draft" beside Next read like a filter; wide enough for it and "candidate".
            # (Gradio warns that show_label does nothing without a container, at every
            # start: it keeps the label for screen readers, which the CSS shows)
            with warnings.catch_warnings():
                warnings.filterwarnings("ignore", "show_label has no effect")
                ui.status = gr.Dropdown(ITEM_STATUSES, label="Status", show_label=True,
                                        allow_custom_value=True,
                                        container=False, elem_id="item-status", scale=1,
                                        min_width=195, visible=not DEFER_PANELS)
        ui.header = gr.HTML(elem_id="item-header")
        # the menu's line is kept while the menu is not shown yet (cluelab.css): shown after
        # the image, it moved the image down under a box being drawn
        with gr.Column(elem_id="item-menu-line"):
            build_item_menu(ui, visible=not DEFER_PANELS)
        ui.notice = gr.HTML(elem_id="item-notice")
        build_problem_actions(ui)           # ui/problems_wiring.py
        # the image column is the widest: the main task is boxing small clues in large images
        with gr.Row(elem_id="editor-row"):
            with gr.Column(scale=3, min_width=420, elem_id="image-column"):
                # the image's own line: thumbnails, which image at what size, its buttons
                # (Move and Remove are hidden while they have nothing to act on, cluelab.css)
                with gr.Row(elem_id="image-bar"):
                    ui.strip = gr.HTML(elem_id="image-strip", js_on_load=STRIP_JS,
                                       apply_default_css=False)
                    ui.image_info = gr.HTML(elem_id="image-info")
                    # the buttons as one group: when the thumbnails need the line, the
                    # group goes under them whole (cluelab.css, #image-bar)
                    with gr.Row(elem_id="image-actions"):
                        ui.add_image = gr.UploadButton("Add image", file_types=["image"],
                                                       size="sm", elem_id="add-image",
                                                       scale=0, min_width=90)
                        ui.image_left = gr.Button("◀ Move", size="sm", scale=0, min_width=70,
                                                  elem_id="image-left")
                        ui.image_right = gr.Button("Move ▶", size="sm", scale=0,
                                                   min_width=70, elem_id="image-right")
                        ui.remove_image = gr.Button("Remove image", size="sm", variant="stop",
                                                    elem_id="remove-image", scale=0,
                                                    min_width=110)
                ui.annotator = image_annotator(
                    label="Clue boxes", elem_id="annotator", image_type="filepath",
                    sources=[], show_clear_button=False, show_download_button=False,
                    show_share_button=False, show_remove_button=True, box_min_size=0,
                    # box_min_size 0: the component's minimum is in canvas pixels of the
                    # whole-image view, whatever the zoom: a 7 px clue drawn zoomed in on a
                    # 9000 px photo was saved 37 px wide. A click (no area) draws no box.
                    # auto: the canvas keeps the image's aspect ratio (assets/annotator.js)
                    height="auto", boxes_alpha=0.25, handles_cursor=True, show_label=False,
                    label_list=[em.PICK_LABEL], label_colors=[em.PICK_COLOR],
                )
                gr.HTML(HELP, elem_id="annotator-help")
            with gr.Column(scale=2, min_width=380, elem_id="form-column"), \
                    gr.Column(visible=not DEFER_PANELS, elem_id="item-form") as ui.form_body:
                build_conflict_panel(ui)
                ui.clues = schema_table(em.CLUE_HEADERS, static_columns=[0, 3], wrap=True,
                                       label="Clues", column_widths=["16%", "32%", "34%", "18%"],
                                       elem_id="clue-table", visible=not DEFER_PANELS)
                # the clue row clicked last (Up / Down move it); the page sends the row it
                # shows selected in its place with Remove clue (ui/annotate_structure.py,
                # PAGE_SELECTED_CLUE), and every item opened clears it (annotate_render)
                ui.selected_clue = gr.JSON(None, visible="hidden", elem_id="selected-clue")
                # the clue table's box counts after a box edit, put in by the page
                # (ui/annotate_drafts.py, SHOW_BOX_COUNTS)
                ui.box_counts = gr.JSON(visible="hidden", elem_id="clue-box-counts")
                with gr.Row():
                    ui.add_clue = gr.Button("Add clue", size="sm", elem_id="add-clue")
                    # the selected clue (click its row) one place up or down
                    ui.clue_up = gr.Button("▲ Up", size="sm", min_width=60, elem_id="clue-up")
                    ui.clue_down = gr.Button("▼ Down", size="sm", min_width=60,
                                             elem_id="clue-down")
                    ui.remove_clue = gr.Button("Remove clue", size="sm", variant="stop",
                                               elem_id="remove-clue")
                ui.question = gr.Textbox(label="Question", lines=3, elem_id="item-question")
                build_answer_controls(ui)
                ui.gt_reasoning = gr.Textbox(label="GT reasoning", lines=3,
                                             elem_id="item-gt-reasoning")
                # min widths that hold values such as "Planning and Consumption": the row
                # wraps a field onto the next line rather than cut its value
                with gr.Row(elem_id="item-taxonomy"):
                    ui.domain = gr.Dropdown([], label="Domain", allow_custom_value=True,
                                            elem_id="item-domain", min_width=275)
                    ui.subtask = gr.Dropdown([], label="Subtask", allow_custom_value=True,
                                             elem_id="item-subtask", min_width=275)
                    ui.reasoning_type = gr.Textbox(label="Reasoning type", min_width=275,
                                                   elem_id="item-reasoning-type")
        # The save bar sticks to the bottom of the screen. Its own line (#save-row) keeps one
        # height: the save message and the draft's state wrap inside a box of two lines that
        # scrolls (a long refusal grew the bar and shrank the image), and toasts show over
        # that box (assets/toasts.js). Another tab's draft asks its question above that line,
        # in view where the user is; a refused save's panel is beside the image instead
        # (build_conflict_panel).
        with gr.Column(visible=not DEFER_PANELS, elem_id="item-footer") as ui.footer:
            # shown when another tab of the same user wrote this item's draft meanwhile
            with gr.Row(visible=False, elem_id="draft-choice") as ui.draft_choice:
                ui.draft_theirs = gr.Button("Open the other tab's draft", size="sm",
                                            elem_id="draft-open-other")
                ui.draft_mine = gr.Button("Keep this tab's edits", size="sm",
                                          elem_id="draft-keep-mine")
            with gr.Row(equal_height=True, elem_id="save-row"):
                ui.comment = gr.Textbox(label="Comment for this revision (optional)", scale=3,
                                        show_label=False, container=False, min_width=200,
                                        placeholder="revision comment (optional)",
                                        elem_id="save-comment", max_lines=1)
                with gr.Column(scale=4, min_width=200, elem_id="save-status"):
                    ui.save_message = gr.Markdown(elem_id="save-message")
                    ui.draft_state = gr.Markdown(elem_id="draft-state")
                ui.save = gr.Button("Save (Ctrl+S)", variant="primary", elem_id="save-item",
                                    scale=0, min_width=150)
                ui.discard = gr.Button("Discard draft", scale=0, min_width=130,
                                       elem_id="discard-draft")
            ui.conflict_version = gr.State(None)
        # History and review, below the editor: it does not stick.
        # The panel's widgets stay unmounted until it is first opened (visible=False): a
        # closed accordion's content is still built by Gradio's front end, ~14 widgets
        # that every fresh page would pay for (docs/PERFORMANCE.md).
        with gr.Accordion("History and review", open=False, elem_id="history",
                          visible=not DEFER_PANELS) as ui.history_panel:
            with gr.Column(visible=False, elem_id="history-body") as ui.history_body:
                # the panel's width, a comment wrapped (its first line, shortened:
                # ui/history_handlers.comment_cell; assets/cluelab.css, #history-table)
                ui.history = gr.Dataframe(headers=HISTORY_HEADERS, interactive=False,
                                          wrap=True, column_widths=["9%", "14%", "25%", "52%"],
                                          elem_id="history-table",
                                          visible=not DEFER_PANELS)
                with gr.Row():
                    ui.version_a = gr.Number(1, label="Version A",
                                             elem_id="history-version-a",
                                             visible=not DEFER_PANELS)
                    ui.version_b = gr.Number(1, label="Version B",
                                             visible=not DEFER_PANELS)
                    ui.show_diff = gr.Button("Diff A → B", elem_id="history-diff")
                    ui.restore = gr.Button("Restore version A", variant="stop",
                                           elem_id="history-restore")
                # the panel's width, cells wrapped (assets/cluelab.css, #history-diff-table)
                # (HTML cells: ui/history_handlers escapes every text; option images small)
                ui.diff = gr.Dataframe(headers=DIFF_HEADERS, interactive=False, wrap=True,
                                       datatype=["html", "html", "html"],
                                       column_widths=["16%", "42%", "42%"],
                                       elem_id="history-diff-table",
                                       visible=not DEFER_PANELS)
                with gr.Row():
                    # room for the three verdicts side by side (they wrapped at 1400x900)
                    ui.review_verdict = gr.Radio(["approve", "revise", "reject"],
                                                 label="Review", elem_id="review-verdict",
                                                 min_width=340,
                                                 visible=not DEFER_PANELS)
                    ui.review_note = gr.Textbox(label="Review note", scale=2,
                                                elem_id="review-note")
                    with gr.Column(min_width=160, elem_id="review-actions"):
                        ui.review_submit = gr.Button("Submit review", elem_id="review-submit")
                        # a review refused because a newer version was saved meanwhile
                        # offers that version here (ui/annotate_structure.open_latest)
                        ui.review_open_latest = gr.Button(
                            "Open the latest version", visible=False, variant="primary",
                            elem_id="review-open-latest")
                ui.reviews = gr.Markdown(elem_id="review-list")
        ui.work = gr.State(None)
        # how many presses of Next (or Previous) an event stands for (assets/shortcuts.js)
        ui.nav_steps = gr.Textbox("1", visible="hidden", show_label=False, container=False,
                                  elem_id="nav-steps")
        # the item (and version) the form shows, sent with every draft of its values and
        # with Next/Previous: a draft is kept for the item typed into (ui/annotate_drafts.py)
        ui.draft_key = gr.JSON(visible="hidden", elem_id="draft-key")
        # Ctrl+Z over the image: the last box change undone (assets/box_undo.js)
        ui.box_undo = gr.Button("Undo box change", visible="hidden", elem_id="box-undo")
        # back in this tab: the draft line read again (assets/draft_choice_stay.js)
        ui.draft_recheck = gr.Button("Check draft", visible="hidden", elem_id="draft-recheck")
    ui.late = [ui.status, ui.item_menu, ui.clues, ui.options, ui.answer_yes_no,
               ui.answer_number, ui.conflict_diff, ui.history_panel, ui.history,
               ui.version_a, ui.version_b, ui.diff, ui.review_verdict]
    return ui


COMPARE_HIDE, COMPARE_SHOW = "Hide comparison", "Show comparison"
"""The conflict panel's button over its table: the table is open when the panel opens, and
"Compare with saved" there changed nothing to be seen (a review)."""


def build_conflict_panel(ui) -> None:
    """A save refused because someone else saved meanwhile: what they changed, and the
    choice. It opens at the top of the form column, in the flow of the page beside the
    image, and is scrolled into view (assets/conflict_panel.js): in the sticky save bar it
    floated over half of the image and the Question, the very item being merged, and
    toasts (shown in the bar) sat over its rows; at the page's end it was out of view. It
    scrolls within a bounded height."""
    with gr.Column(visible=False, elem_id="conflict-panel") as ui.conflict_panel:
        ui.conflict_message = gr.Markdown(elem_id="conflict-message")
        # the choices go once the saved version is reloaded (they offered a merge of edits
        # no longer there); a new conflict brings them back
        with gr.Row(elem_id="conflict-actions") as ui.conflict_actions:
            # hides the comparison below, or shows it again with the edits as they are now
            ui.compare = gr.Button(COMPARE_HIDE, elem_id="conflict-compare")
            ui.take_theirs = gr.Button("Reload saved version", elem_id="conflict-reload")
            ui.keep_mine = gr.Button("Save merged", variant="stop",
                                     elem_id="conflict-overwrite")
        # of the parts both sides changed, those ticked here are saved as theirs
        ui.conflict_take_saved = gr.CheckboxGroup(
            [], label=take_saved_label("the other person's version"), elem_id="conflict-take-saved",
            visible=False)
        # the two versions side by side, the words that differ marked (HTML cells:
        # ui/conflict_marks.marked_rows escapes every text), long texts wrapped
        ui.conflict_diff = gr.Dataframe(headers=CONFLICT_HEADERS,
                                        interactive=False, wrap=True,
                                        datatype=["str", "str", "html", "html"],
                                        column_widths=["15%", "19%", "33%", "33%"],
                                        elem_id="conflict-diff",
                                        visible=not DEFER_PANELS)


def schema_table(headers: list[str], **kwargs) -> gr.Dataframe:
    """An editable table whose columns are a schema: rows may change, columns may not.

    Gradio's cell menu offers "Add column left/right" and "Delete column" unless the column
    count is *fixed* (`static_columns` does not fix it, whatever its docstring says); a column
    added there once shifted the clue table's cells and Save wrote every reasoning as empty.
    type="pandas" keeps the headers the browser sends, so that editor_model.table_rows can
    refuse a table whose columns are not exactly `headers` instead of reading it by position.
    """
    return gr.Dataframe(headers=headers, column_count=(len(headers), "fixed"), type="pandas",
                        interactive=True, **kwargs)


def build_answer_controls(ui) -> None:
    """The gold answer's controls, one panel per answer type (ui/answer_form.panels says
    which are shown), then the options editor of multiple choice (text or image options)."""
    with gr.Row(elem_id="answer-row"):
        ui.answer_type = gr.Dropdown(ANSWER_TYPES, label="Answer type", scale=1,
                                     min_width=220, elem_id="item-answer-type")
        with gr.Column(scale=2, min_width=200, elem_id="answer-text-panel") as \
                ui.answer_text_panel:
            ui.answer = gr.Textbox(label="Gold answer", max_lines=1, elem_id="item-answer",
                                   placeholder="the answer; an option label for multiple choice")
        with gr.Column(scale=2, min_width=200, visible=False, elem_id="answer-yes-no-panel") \
                as ui.yes_no_panel:
            ui.answer_yes_no = gr.Radio(af.YES_NO_CHOICES, label="Gold answer",
                                        elem_id="item-answer-yes-no", visible=not DEFER_PANELS)
            # a stored gold that is neither Yes nor No, which the choice cannot show
            ui.yes_no_warning = gr.Markdown(elem_id="item-answer-yes-no-warning")
        with gr.Column(scale=2, min_width=200, visible=False, elem_id="answer-number-panel") \
                as ui.number_panel:
            # text, not a number field: the wheel and arrow keys changed a number field's
            # value, it rounded decimals and held no unit ("5.30 €"); save checks the text
            ui.answer_number = gr.Textbox(label="Gold answer (a number, a unit allowed)",
                                          max_lines=1, elem_id="item-answer-number",
                                          placeholder="e.g. 12.8 · 5.30 € · 3 km",
                                          visible=not DEFER_PANELS)
    # what the answer's controls leave to do (a gold that is no option, one set aside),
    # beside them for as long as it holds (ui/answer_form.answer_notes)
    ui.answer_note = gr.Markdown(elem_id="item-answer-note")
    with gr.Column(visible=False, elem_id="answer-location-panel") as ui.location_panel:
        with gr.Row():
            ui.loc_country = gr.Dropdown(af.country_choices(), label="Country",
                                         allow_custom_value=True, min_width=140,
                                         elem_id="item-loc-country")
            ui.loc_region = gr.Textbox(label="Region (first level)", max_lines=1,
                                       min_width=140, elem_id="item-loc-region")
        ui.loc_aliases = gr.Textbox(label="Other names of the region, /-separated",
                                    max_lines=1, elem_id="item-loc-aliases",
                                    placeholder="e.g. latium/roma")
        # a stored gold the builder cannot show (an import's "12345")
        ui.location_warning = gr.Markdown(elem_id="item-answer-location-warning")
    with gr.Column(elem_id="answer-aliases-panel") as ui.aliases_panel:
        ui.aliases = gr.Textbox(label="Accepted aliases (one per line)", lines=2,
                                elem_id="item-aliases")
    with gr.Column(visible=False, elem_id="options-panel") as ui.options_panel:
        ui.options = schema_table(em.OPTION_HEADERS, static_columns=[2], label="Options",
                                 column_widths=["16%", "62%", "22%"], elem_id="option-table",
                                 visible=not DEFER_PANELS)
        ui.option_gallery = gr.HTML(elem_id="option-images", js_on_load=None,
                                    apply_default_css=False)
        # one slim row: the option picked (a field of one line, labelled beside it: what
        # Remove option and Set option image act on) and what to do with it; emptied when
        # an item opens (annotate_render) or its options are set aside (answer_wiring)
        with gr.Row(equal_height=True, elem_id="option-edit-row"):
            ui.option_label = gr.Textbox(label="Selected option", container=False,
                                         placeholder="click a row", scale=1,
                                         max_lines=1, min_width=100, elem_id="option-label")
            ui.add_option = gr.Button("Add option", size="sm", scale=0, min_width=95,
                                      elem_id="add-option")
            ui.remove_option = gr.Button("Remove option", size="sm", scale=0, min_width=120,
                                         variant="stop", elem_id="remove-option")
        with gr.Row():
            ui.option_upload = gr.UploadButton("Set option image", file_types=["image"],
                                               size="sm", scale=1)
            ui.option_clear = gr.Button("Remove option image", size="sm", scale=1)
