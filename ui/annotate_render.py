"""Turn a work dict into the values of the editor's widgets (the one place that does).

Every event that replaces the item on screen returns `render(...)`, so a loaded item,
a saved item and a restored revision always look the same.
"""
from __future__ import annotations

import re

from urllib.parse import quote

import gradio as gr

from domain.limits import SHOWN_NOTE_LINES
from store import MediaError
from ui import answer_form as af
from ui import editor_model as em
from ui import times
from ui.annotate_drafts import draft_key
from ui.editor_handlers import RELEASED_NOTICE, EditorHandlers, current_image
from ui.problems_wiring import problem_choices, problems_html, question_value
from ui.text import escape_html, escape_md, note_lines
from ui.media_http import media_url, preview_url
from ui.thumbnails import option_images_html, strip_html


HANDLE_SIZE = 8     # gradio_image_annotation's default: the handles of an editable item's boxes


class Renderer:
    def __init__(self, store, ui, history):
        self.store = store
        self.ui = ui
        self.history = history

    # What render() returns, by name (ui attributes), in this order; the answer controls and
    # their panels come last so that the earlier positions stay what API scripts know.
    OUTPUTS = ("work", "item_id", "header", "notice", "strip", "annotator", "image_info",
               "clues", "question", "answer_type", "answer", "aliases", "gt_reasoning",
               "domain", "subtask", "reasoning_type", "status", "options", "option_gallery",
               "history", "reviews", "draft_choice", "conflict_panel", "save_message",
               "comment",
               *af.ANSWER_FIELDS, *af.PANELS, "version_a", "version_b", "diff",
               "problems_row", "problems_pick", "yes_no_warning", "draft_state",
               "location_warning", "answer_note", "review_open_latest", "draft_key",
               "option_label", "selected_clue", *("add_clue", "clue_up", "clue_down",
                                                  "remove_clue", "add_image", "image_left",
                                                  "image_right", "remove_image"),
               "discard", "add_option", "remove_option", "option_upload", "option_clear")
    EDIT_BUTTONS = OUTPUTS[-13:]
    """The buttons that change the item's structure (the options' too), and Discard draft:
    disabled on a released item (Discard stayed enabled there, with nothing it may do; the
    options' buttons were only dimmed with the form, and looked pressable)."""

    @property
    def outputs(self) -> list:
        return [getattr(self.ui, name) for name in self.OUTPUTS]

    def index(self, name: str) -> int:
        """Position of output `name` in render()'s list."""
        return self.OUTPUTS.index(name)

    def render(self, work: dict, save_message: str = "", before: dict | None = None) -> list:
        """`before` is the work this session showed until now (None on a fresh page): when
        it had as many clues, the annotator keeps its label picker and gets a plain value.

        Plain values matter for speed: Gradio answers any property update (choices,
        label_list, visible) by rebuilding the component and its JSON schema, about a
        third of a load's server time. Domain and subtask therefore get plain values too;
        their choices are filled when the user opens the dropdown (see wire).
        """
        # the revision comment kept with a draft restored as the item opened: shown once
        # (it was emptied at a reload that brought the draft's edits back)
        comment = work.get("draft_comment") or ""
        work = {k: v for k, v in work.items() if k != "draft_comment"}
        item, saved = work["item"], work["saved"]
        form = EditorHandlers.form_values(item)
        annotator, image_info = self.annotator(work, before)
        strip, unreadable = self.strip_and_problems(work)
        values = {
            **form, "work": work, "item_id": item["id"], "header": self.header(saved, work.get("base_version")),
            "notice": notice_html(work) + unreadable, "question": question_value(item, before),
            "strip": strip,
            "annotator": annotator, "image_info": image_info,
            "option_gallery": self.option_gallery(item), "history": self.history.rows(item["id"]),
            "reviews": reviews_md(self.store, item["id"]),
            "draft_choice": gr.update(visible=False),
            "conflict_panel": gr.update(visible=False), "save_message": save_message,
            "comment": comment, **self.panels(item),
            # History compares the latest version with the one before it (both were 1)
            "version_a": max(1, int(saved.get("version") or 1) - 1),
            "version_b": int(saved.get("version") or 1),
            # and shows no diff until asked: the one shown was of the item shown before
            "diff": [],
            **dict(zip(("problems_row", "problems_pick"), problem_choices(item))),
            "yes_no_warning": escape_md(af.yes_no_warning(item)),
            "location_warning": escape_md(af.location_warning(item)),
            "answer_note": answer_note(item),
            # offered after a review refused for a newer version (annotate_structure)
            "review_open_latest": gr.update(visible=False),
            "draft_state": EditorHandlers(self.store).draft_state(
                {**work, "draft_comment": comment}),
            # with the form's values in every event that keeps a draft (ui/annotate_drafts)
            "draft_key": draft_key(work),
            # no option row, no clue row selected: the item opened (saved, restored) is
            # drawn anew, and Remove option removed the previous item's option C from it
            "option_label": "", "selected_clue": None,
            **self.edit_buttons(work, before),
        }
        return [values[name] for name in self.OUTPUTS]

    @classmethod
    def edit_buttons(cls, work: dict, before: dict | None) -> dict:
        """Add clue, Up, Down, Remove clue, the image buttons and Discard draft, disabled
        while the item is read-only (released): they looked enabled, and each press was
        refused (or, Discard, did nothing). Sent only
        when that changes (or the page shown before is not known): an update rebuilds the
        component (see render)."""
        read_only, discardable = cls.editable(work)
        if before is not None and cls.editable(before) == (read_only, discardable):
            return {name: gr.skip() for name in cls.EDIT_BUTTONS}
        return {name: gr.update(interactive=discardable if name == "discard" else not read_only)
                for name in cls.EDIT_BUTTONS}

    @staticmethod
    def editable(work: dict) -> tuple[bool, bool]:
        """(read-only, Discard draft enabled): on a released item Discard drops the user's
        draft of it, which is not shown (ui/editor_handlers.load), and nothing else."""
        read_only = bool(work.get("read_only"))
        return read_only, not read_only or bool(work.get("released_draft"))

    @staticmethod
    def handles(work: dict, before: dict | None) -> dict:
        """{"handle_size": …} when the item's read-only state differs from the one shown
        before: a released item's boxes showed resize handles (the annotator is inert there,
        assets/read_only.js); gradio_image_annotation 0.5.6 draws every box's handles at
        `handle_size`, 0 draws none. {} when it is the same (an update rebuilds the
        component: see render)."""
        read_only = bool(work.get("read_only"))
        if before is not None and bool(before.get("read_only")) == read_only:
            return {}
        return {"handle_size": 0 if read_only else HANDLE_SIZE}

    @staticmethod
    def panels(item: dict) -> dict:
        """Which answer controls are shown (answer_form.panels), as visibility updates of
        their columns (layout blocks: no component is rebuilt)."""
        return {name: gr.update(visible=shown)
                for name, shown in af.panels(item.get("answer_type"), item).items()}

    def annotator_only(self, work: dict) -> list:
        """Outputs after a structural edit: work, annotator, clue table, strip, options."""
        item = work["item"]
        return [work, *self.annotator(work), em.clue_rows(item), self.strip(work),
                em.option_rows(item), self.option_gallery(item)]

    @property
    def structural_outputs(self) -> list:
        ui = self.ui
        return [ui.work, ui.annotator, ui.image_info, ui.clues, ui.strip, ui.options,
                ui.option_gallery]

    def header(self, saved: dict, base_version: int | None = None) -> str:
        """One line: the id (ellipsized when long, whole in its tooltip and when copied),
        then dataset, version, who saved it when, the link (assets/cluelab.css, .cl-head).
        A draft of an older version (`base_version`) says so: the line read "version 2"
        over a draft on version 1."""
        item_id = escape_html(saved["id"])
        link = escape_html(f"?item={quote(saved['id'], safe='')}")
        version = f"version {saved['version']}"
        if base_version is not None and base_version != saved["version"]:
            version = f"draft on version {base_version}; saved version {saved['version']}"
        parts = [f"dataset {escape_html(saved['dataset'])}", version,
                 f"saved by {escape_html(saved.get('updated_by'))} at "
                 f"{escape_html(times.shown(saved.get('updated_at')))}",
                 f'<a href="{link}">link to this item</a>']
        if saved.get("flagged"):
            parts.append("⚑ flagged")
        return (f'<div class="cl-head"><b class="cl-head-id" title="{item_id}">{item_id}</b>'
                f'<span class="cl-head-rest"> · {" · ".join(parts)}</span></div>')

    def strip(self, work: dict) -> str:
        return self.strip_and_problems(work)[0]

    def strip_and_problems(self, work: dict) -> tuple[str, str]:
        """(the image strip, a notice naming each image that cannot be shown).

        Images are decoded at import since this version, but a database made before may
        hold one that does not decode: the item still opens, and says which image it is."""
        urls, problems = [], []
        for number, sha in enumerate(work["item"].get("images", []), start=1):
            try:
                urls.append(self._url(self.store.preview_path(sha)))
            except MediaError as err:
                urls.append(self._url(self.store.image_path(sha)))
                problems.append(f"Image {number} cannot be shown: {err}. Add a good copy "
                                f"of it and remove this one.")
        lines = "".join(f"<div>⚠ {escape_html(p)}</div>" for p in problems)
        return strip_html(urls, work.get("image_index", 0)), lines

    def option_gallery(self, item: dict) -> str:
        return option_images_html([
            (preview_url(self.store, o["image"]) or "",
             self._url(self.store.image_path(o["image"])), o.get("label", ""))
            for o in item.get("options", []) if o.get("image")])

    def _url(self, path) -> str:
        """A media file's URL on ClueLab's own route: no server path in the page."""
        return media_url(path, self.store.media_dir)

    def annotator(self, work: dict, before: dict | None = None) -> tuple:
        """(annotator value or update, the line above it saying which image at what size).

        The label picker (one label and colour per clue) is sent only when the number of
        clues differs from what the session shows (`before`)."""
        item = work["item"]
        n_clues = len(item.get("clues", []))
        labels, colors = em.label_list(n_clues)
        same_labels = bool(before) and len(before["item"].get("clues", [])) == n_clues
        sha = current_image(work)
        if sha is None:
            return (gr.update(value=None, label_list=labels, label_colors=colors),
                    f'<span data-images="0">{no_image_line(item)}</span>')
        n = len(item.get("images", []))
        index = work.get("image_index", 0)
        info = self.store.image_info(sha)
        value = {"image": str(self.store.image_path(sha)), "boxes": em.boxes_for_image(item, sha)}
        update = value if same_labels else gr.update(value=value, label_list=labels,
                                                     label_colors=colors)
        if handles := self.handles(work, before):
            update = gr.update(value=value, label_list=labels, label_colors=colors, **handles)
        # data-width/height: assets/annotator.js fits the image to the screen by them
        # data-images: Move is offered from two images on (assets/cluelab.css)
        return update, (f'<span data-width="{int(info["width"])}" '
                        f'data-height="{int(info["height"])}" data-images="{n}" '
                        f'data-image="{index + 1}" data-item="{escape_html(item["id"])}">'
                        f"<b>Image {index + 1} of {n}</b> · "
                        f"{info['width']}×{info['height']} px · "
                        f"{escape_html(info['format'])}</span>")


# the import problems of an image that could not be read: "<why>: image N (...)" (the
# importer's, formats/importer.materialize) or "missing image: ..." (the formats' own)
LOST_IMAGE = re.compile(r"^(missing image\b|[^:]+: image \d+\b)")


def no_image_line(item: dict) -> str:
    """The line above an empty annotator: an item made without images has none *yet*; one
    whose images the import could not read lost them, and the problems above say which."""
    lost = any(LOST_IMAGE.match(str(p)) for p in item.get("problems") or [])
    if lost:
        return "Image lost at import (see its problems): <b>Add image</b> adds one."
    return "No image yet: <b>Add image</b> (on this line) adds one."


def answer_note(item: dict) -> str:
    """The note beside the gold answer's controls (ui/answer_form.answer_notes), one
    paragraph per thing left to do; empty when there is none."""
    reading = af.number_reading(item)       # information, not a warning: in italics, which
    return "\n\n".join([f"⚠ {escape_md(note)}" for note in af.answer_notes(item)]  # the CSS
                       + ([f"*{escape_md(reading)}*"] if reading else []))     # shows grey


def notice_html(work: dict) -> str:
    """The notice above the editor: the handlers' text (a draft restored, others' drafts,
    the latest review; escaped here, its line breaks kept: a review note of several lines
    read as one), the working copy's import problems (escaped there), and, on a released
    item, that it is read-only (assets/read_only.js makes the editor inert under it)."""
    notice = "<br>".join(escape_html(line) for line in
                         str(work.get("notice") or "").splitlines())
    html = "".join(f'<div class="cl-note">{x}</div>'
                   for x in (notice, problems_html(work["item"])) if x)
    if work.get("read_only"):
        html = f'<div class="cl-note cl-read-only">{escape_html(RELEASED_NOTICE)}</div>' + html
    if work.get("released_draft"):      # Discard draft stays enabled (assets/read_only.js)
        html += (f'<span hidden data-cl-released-draft='
                 f'"{escape_html(work.get("released_parts") or "")}"></span>')
    if work.get("delete_question"):     # what Delete asks (assets/confirm.js): no line shown
        html += f'<span hidden data-cl-delete="{escape_html(work["delete_question"])}"></span>'
    return html


def reviews_md(store, item_id: str) -> str:
    reviews = store.reviews(item_id)
    if not reviews:
        return "No reviews yet."
    return "\n".join(
        f"- **{escape_md(r['verdict'])}** by {escape_md(r['reviewer'])} on version "
        f"{r['version']} at {escape_md(times.shown_with_age(r['created_at']))}: "
        f"{note_md(r.get('note'))}" for r in reviews)


def note_md(note) -> str:
    """A review note in the review list, its lines kept (escaped, joined by <br>): a note
    of many lines read as one run-on line. At most SHOWN_NOTE_LINES lines are shown, as in
    the notice above the editor; the rest folded under "… (N more lines)", a click away
    (the notice says the whole note is here)."""
    lines = [escape_md(line) for line in note_lines(note)]
    shown = "<br>".join(lines[:SHOWN_NOTE_LINES])
    rest = lines[SHOWN_NOTE_LINES:]
    if rest:
        shown += (f"<details class=\"cl-note-rest\"><summary>… ({len(rest)} more "
                  f"line{'s' * (len(rest) != 1)})</summary>{'<br>'.join(rest)}</details>")
    return shown
