"""Events that change an item's structure (clues, images, option images), its history
and its reviews. Each structural event collects the widgets first, so text typed and
boxes drawn just before the click are part of the new state.
"""
from __future__ import annotations

import json

from pathlib import Path

import gradio as gr

from domain.item_ids import without_direction_marks
from store import MediaError
from ui import editor_model as em
from ui import editor_ops as ops
from ui import messages
from ui.account_slots import IMAGE_READS, SlotsTaken
from ui.annotate_drafts import edited
from ui.annotate_render import reviews_md
from ui.editor_model import EditError
from ui.handler_errors import from_script
from ui.history_handlers import NewerVersion
from ui.save_rules import content_changed
from ui.session import browser_session, user_of


# The clue table's row edits: the page sends only those that add, drop or move a clue,
# and numbers the rows once the item has its new clues (assets/clue_table.js says when;
# ui/workarounds.py, DATAFRAME_NO_ROW_EVENT). A check that stops an event throws, in an
# event with no outputs (GRADIO_JS_THROW).
CLUE_ROWS_COUNTED = "(value) => window.cluelabClueRows.counted(value)"
CLUE_ROWS_CHANGED = "(value) => window.cluelabGates.clueRowsChanged(value, ADDED)"
CLUE_ROWS_UNNUMBERED = "(value) => window.cluelabGates.clueRowsUnnumbered(value)"
NUMBER_CLUE_ROWS = "(value) => window.cluelabClueRows.number(value)"
# Remove clue removes the row the page shows selected when it was clicked, the one its
# question named (assets/confirm.js), not the row clicked last: that one's highlight may be
# gone (a click elsewhere), and it was removed after a question about "the selected clue".
PAGE_SELECTED_CLUE = ("(work, selected, ...rest) => [work, window.cluelabConfirm ? "
                      "window.cluelabConfirm.clueAsked() : selected, ...rest]")


def wire_structure(store, editor, renderer, ui, form, split, may_release) -> list:
    """`may_release(request)`: may the caller set status `released` (a restore of a released
    version by one who may not keeps the item's status: HistoryHandlers.restore)."""
    # every structural edit also updates the draft, and says so in the save bar
    structural = renderer.structural_outputs + [ui.draft_state, ui.draft_choice]
    collect_inputs = [ui.work, *form, ui.annotator]

    def collected(work, values):
        messages.require_open(work)
        form_values, annot = split(values)
        try:
            return editor.collect(work, form_values, annot)
        except EditError as err:
            raise messages.error(err) from None

    def shown(work, item, request, **changes):
        """The structural outputs for the edited `item`, its draft kept."""
        return edited(editor, renderer, work, item, request, **changes)

    # ---- clues ---------------------------------------------------------------------------
    def clue_op(op):
        def handler(request: gr.Request, work, selected, *values):
            item = collected(work, values)
            try:
                item, selected = op(item, selected)
            except EditError as err:
                raise messages.error(err) from None
            return shown(work, item, request) + [selected]
        return handler

    clue_outputs = structural + [ui.selected_clue]
    clue_inputs = [ui.work, ui.selected_clue, *form, ui.annotator]
    ui.add_clue.click(clue_op(lambda item, _sel: ops.add_clue(item)), clue_inputs,
                      clue_outputs, api_name="add_clue")
    def remove_clue(item, selected):
        """Remove the selected clue, saying which (a toast): the button acts at once."""
        removed = ops.remove_clue(item, selected)
        messages.info(ops.removed_clue_note(item, selected))
        return removed

    ui.remove_clue.click(clue_op(remove_clue), clue_inputs, clue_outputs,
                         api_name="remove_clue", js=PAGE_SELECTED_CLUE)
    ui.clue_up.click(clue_op(lambda item, sel: ops.move_clue(item, sel, -1)), clue_inputs,
                     clue_outputs, api_name="move_clue_up")
    ui.clue_down.click(clue_op(lambda item, sel: ops.move_clue(item, sel, 1)), clue_inputs,
                       clue_outputs, api_name="move_clue_down")

    def edit_clue_rows(targets):
        """A row added with the clue table's own "+" (or its cell menu) and typed in, or a
        row deleted or moved there, is a new, removed or moved clue, as with Add clue /
        Remove clue / Up: the item is shown again, so that a new clue takes boxes at once
        (before, not until the next save) and a removed one's boxes go. Only such edits are
        sent (CLUE_ROWS_CHANGED); `targets`: the structural outputs it updates."""
        def handler(request: gr.Request, work, *values):
            form_values, _ = split(values)
            if not work or not em.rows_renumbered(form_values.get("clues"),
                                                   len(work["item"].get("clues", []))):
                return [gr.skip()] * len(targets)
            everything = shown(work, collected(work, values), request)
            return [out for out, target in zip(everything, structural) if target in targets]
        return handler

    ui.clues.change(None, ui.clues, None, js=CLUE_ROWS_COUNTED, api_name="clue_rows_counted",
                    api_visibility="private", show_progress="hidden")
    # Rows deleted or moved: the table too, numbered again. Rows added and typed in: not
    # the table, which as an output lost what was typed during the round trip (the
    # reasoning typed after the new clue's text); their labels follow at the next
    # structural event.
    for added, name, targets in (
            (False, "edit_clue_rows", structural),
            (True, "add_clue_rows", [t for t in structural if t is not ui.clues])):
        gate = CLUE_ROWS_CHANGED.replace("ADDED", str(added).lower())
        sent = ui.clues.input(None, ui.clues, None, js=gate, api_name=f"{name}_gate",
                              api_visibility="private", show_progress="hidden").success(
            edit_clue_rows(targets), collect_inputs, targets, trigger_mode="always_last",
            api_name=name, show_progress="hidden")
        if added:   # the item now has the new clues in the table's order: their labels
            sent.success(None, ui.clues, None, js=CLUE_ROWS_UNNUMBERED,
                         api_name="clue_rows_unnumbered", api_visibility="private",
                         show_progress="hidden").success(
                None, ui.clues, ui.clues, js=NUMBER_CLUE_ROWS, api_name="number_clue_rows",
                api_visibility="private", show_progress="hidden")

    def select_clue(evt: gr.SelectData):
        return selected_row(evt.index)

    ui.clues.select(select_clue, None, ui.selected_clue, api_name="select_clue")

    # ---- images ----------------------------------------------------------------------------
    def select_image(request: gr.Request, evt: gr.SelectData, work, *values):
        item = collected(work, values)
        return shown(work, item, request, image_index=evt.index)

    ui.strip.select(select_image, collect_inputs, structural, api_name="select_image")

    def read_image(request, upload) -> str:
        """The uploaded image stored (decoded in full: store/decode.py), one at a time per
        account (ui/account_slots.IMAGE_READS); its sha256, or ImageRefused."""
        path = Path(upload if isinstance(upload, str) else upload.name)
        try:
            with IMAGE_READS.held(user_of(request)):
                return store.add_image(path, without_direction_marks(path.name)).sha256
        except (MediaError, SlotsTaken) as err:
            raise ImageRefused(err) from None

    def image_refused(work, err, what: str) -> list:
        """An image refused ("huge.png: image is 15000×15000 pixels, above …"), said in the
        save bar's line, where it stays: it showed only in a fading toast, beside an older
        "Saved … version 2" that read as if all was well (a script's call fails with it)."""
        if from_script():
            raise messages.error(err) from None
        refused = [gr.skip()] * len(structural) + [messages.status(f"{what}: {err}")]
        refused[0] = {**work, "image_refused": True} if work else gr.skip()
        return refused

    def image_taken(work, item, request, **changes) -> list:
        """The outputs of an image taken: the line of an image refused before goes."""
        return shown(work, item, request, image_refused=False, **changes) + \
            ["" if work.get("image_refused") else gr.skip()]

    def add_image(request: gr.Request, work, upload, *values):
        item = collected(work, values)
        if not upload:
            raise messages.error("no file received")
        try:
            item, index = ops.add_image(item, read_image(request, upload))
        except (ImageRefused, EditError) as err:
            return image_refused(work, err, "Image not added")
        return image_taken(work, item, request, image_index=index)

    ui.add_image.upload(add_image, [ui.work, ui.add_image, *form, ui.annotator],
                        structural + [ui.save_message], api_name="add_image")

    def image_op(op):
        def handler(request: gr.Request, work, *values):
            item = collected(work, values)
            try:
                item, index = op(item, work.get("image_index", 0))
            except EditError as err:
                raise messages.error(err) from None
            return shown(work, item, request, image_index=index)
        return handler

    def remove_image(item, index):
        note = ops.removed_image_note(item, index)
        removed = ops.remove_image(item, index)
        messages.info(note)             # said, as Remove clue says its clue
        return removed

    ui.remove_image.click(image_op(remove_image), collect_inputs, structural,
                          api_name="remove_image")
    ui.image_left.click(image_op(lambda item, i: ops.move_image(item, i, -1)), collect_inputs,
                        structural, api_name="move_image_left")
    ui.image_right.click(image_op(lambda item, i: ops.move_image(item, i, 1)), collect_inputs,
                         structural, api_name="move_image_right")

    # ---- option images ---------------------------------------------------------------------
    def set_option_image(request: gr.Request, work, label, upload, *values):
        item = collected(work, values)
        try:
            sha = None if upload is None else read_image(request, upload)
        except ImageRefused as err:
            return image_refused(work, err, "Option image not set")
        try:
            note = ops.option_image_note(item, label, sha)
            item = ops.set_option_image(item, label, sha)
        except EditError as err:
            raise messages.error(err) from None
        if note:        # an option's image set, replaced or removed: said (it was silent)
            messages.info(note)
        return image_taken(work, item, request)

    ui.option_upload.upload(set_option_image,
                            [ui.work, ui.option_label, ui.option_upload, *form, ui.annotator],
                            structural + [ui.save_message], api_name="set_option_image")
    def clear_option_image(request: gr.Request, work, label, *values):
        return set_option_image(request, work, label, None, *values)

    ui.option_clear.click(clear_option_image,
                          [ui.work, ui.option_label, *form, ui.annotator],
                          structural + [ui.save_message], api_name="clear_option_image")

    # ---- history and reviews ---------------------------------------------------------------
    def show_diff(work, a, b, request: gr.Request):
        """The diff of A → B. A refused one (a version the item lacks) empties the table on
        a page, its reason a warning: the diff shown before stayed under the new numbers,
        reading as the diff of 7 → 3 (a review). Then `reviews_now` drops the line about
        that old diff. A script's call fails with the reason."""
        messages.require_open(work)
        try:
            return editor_history(renderer).diff(work["item"]["id"], a, b)
        except EditError as err:
            if from_script(request):
                raise messages.error(err) from None
            messages.warn(err)
            return []

    def diff_on_open(work, a, b):
        """The diff of the versions the panel opens with: it showed A and B filled in over
        an empty table until Diff A → B was pressed (a review). Nothing to compare: as is."""
        if not work or a in (None, "") or b in (None, "") or a == b:
            return gr.skip()
        try:
            return editor_history(renderer).diff(work["item"]["id"], a, b)
        except EditError:
            return gr.skip()

    ui.history_panel.expand(lambda: gr.Column(visible=True), None, ui.history_body,
                            api_name="show_history", api_visibility="private").then(
        diff_on_open, [ui.work, ui.version_a, ui.version_b], ui.diff,
        api_name="history_diff_open", api_visibility="private", show_progress="hidden")

    def reviews_now(work):
        """The reviews without the line above them: after Diff, the last review action's
        line ("the diff above shows what changed since version 3", a refusal) stayed, about
        a diff no longer shown."""
        return reviews_md(store, work["item"]["id"]) if work else gr.skip()

    ui.show_diff.click(show_diff, [ui.work, ui.version_a, ui.version_b], ui.diff,
                       api_name="diff_revisions").success(
        reviews_now, ui.work, ui.reviews, api_name="diff_revisions_reviews",
        api_visibility="private", show_progress="hidden")

    def restore(work, version, request: gr.Request):
        user = user_of(request)
        messages.require_open(work)
        item_id = work["item"]["id"]
        try:
            message = editor_history(renderer).restore(item_id, version,
                                                        work["saved"]["version"], user,
                                                        may_release(request))
        except EditError as err:
            raise messages.error(err) from None
        editor.drop_own_draft(work, user, browser_session(request))
        fresh = editor.load(item_id, user)
        return renderer.render(fresh, messages.status(message), before=work)

    restored = ui.restore.click(restore, [ui.work, ui.version_a], renderer.outputs,
                                api_name="restore_revision")

    def said_in_reviews(line, item_id) -> list:
        """The review's outputs left as they are but the line above the reviews."""
        kept = [gr.skip()] * (len(renderer.outputs) + 2)
        kept[renderer.index("reviews")] = (f"**{messages.status(line)}**\n\n"
                                          + reviews_md(store, item_id))
        return kept

    def draft_on_screen(work, user) -> str | None:
        """Why a review is not recorded while the form shows the reviewer's own unsaved
        edits (her draft, applied when the item opened, or typed since): the review is of
        the version as saved, which is not what she sees. None: the form is that version
        (no draft, or one set aside by Open version N)."""
        if work.get("draft_aside") is not None or \
                store.get_item(work["item"]["id"])["version"] != work["saved"]["version"]:
            return None         # or a newer version: that refusal offers to open it
        draft = store.get_draft(user, work["item"]["id"])
        if not draft or not content_changed(draft["data"], work["saved"]):
            return None
        return (f"Review not recorded: the form shows your unsaved edits, not version "
                f"{work['saved']['version']} as saved, which a review is of. Save them (a "
                "new version, for a colleague to review) or press Discard draft, then review.")

    def review(work, verdict, note, request: gr.Request):
        """Record the review, and show the item again: a verdict on the latest version sets
        its status as a new version (store add_review), which the page must build on. A
        review of a version someone saved over since is refused, and the button under
        Submit review offers the version saved now (open_latest)."""
        user = user_of(request)
        messages.require_open(work)
        item_id = work["item"]["id"]
        if not verdict:     # said where the review is made ("open an item", it said)
            if from_script(request):
                raise messages.error(NO_VERDICT)
            return said_in_reviews(NO_VERDICT, item_id)
        if (shown := draft_on_screen(work, user)) is not None:
            if from_script(request):
                raise messages.error(shown)
            return said_in_reviews(shown, item_id)
        try:
            line = editor_history(renderer).review(item_id, work["saved"]["version"], user,
                                                   verdict, note or "")
        except EditError as err:
            # said where the review is made, in place of the last review's line (a refusal
            # only in a toast left "Reviewed version 3: revise." on screen once it faded);
            # the verdict and the note stay, for the review of the version saved now; no
            # toast (it covered the key line under the image, repeating this line)
            if from_script(request):
                raise messages.error(err) from None
            kept = said_in_reviews(err, item_id)
            if isinstance(err, NewerVersion):
                kept[renderer.index("review_open_latest")] = gr.update(
                    visible=True, value=f"Open version {err.latest}")
            return kept
        messages.info(line)
        # the version reviewed as saved, a draft of the reviewer's set aside and said (her
        # draft shown again under it was announced as "saved by you, in another tab or
        # window": the version this tab's review made)
        fresh = editor.load_for_review(item_id, user)
        out = renderer.render(fresh, before=work)
        # the diff of the version the review made (its status), or of the one reviewed:
        # History's table stayed empty until Diff was pressed
        latest = int(fresh["saved"]["version"])
        if latest > 1:
            out[renderer.index("version_a")], out[renderer.index("version_b")] = \
                latest - 1, latest
            out[renderer.index("diff")] = editor_history(renderer).diff(item_id, latest - 1,
                                                                        latest)
        out[renderer.index("reviews")] = (f"**{messages.status(line)}**\n\n"
                                          + reviews_md(store, item_id))
        return out + [None, ""]

    reviewed = ui.review_submit.click(
        review, [ui.work, ui.review_verdict, ui.review_note],
        renderer.outputs + [ui.review_verdict, ui.review_note], api_name="submit_review")

    def open_latest(work, request: gr.Request):
        """The version saved now, History showing what changed since the one on screen (the
        reviewer's verdict and note stay, to review it)."""
        messages.require_open(work)
        item_id, seen = work["item"]["id"], int(work["saved"]["version"])
        # that version, not the reviewer's draft (on version 2, it was shown under "Open
        # version 3", and reviewed as version 3): the draft is kept, set aside and said
        fresh = editor.load_for_review(item_id, user_of(request))
        latest = int(fresh["saved"]["version"])
        out = renderer.render(fresh, before=work)
        line = f"Opened version {latest}, saved by {fresh['saved'].get('updated_by')}."
        if latest > seen:
            out[renderer.index("version_a")], out[renderer.index("version_b")] = seen, latest
            out[renderer.index("diff")] = editor_history(renderer).diff(item_id, seen, latest)
            line = (f"{line[:-1]}: the diff above shows what changed since version {seen}, "
                    "the one you had open.")
        out[renderer.index("reviews")] = (f"**{messages.status(line)}**\n\n"
                                          + reviews_md(store, item_id))
        return out

    ui.review_open_latest.click(open_latest, ui.work, renderer.outputs,
                                api_name="open_latest_version")
    return [restored, reviewed]   # the events that write a revision (the list follows)


NO_VERDICT = ("Review not recorded: pick a verdict first (approve, revise or reject), then "
              "Submit review.")


def editor_history(renderer):
    return renderer.history


class ImageRefused(Exception):
    """An uploaded image the store did not take (MediaError) or this account's image reads
    are all taken (SlotsTaken): its words are the refusal's."""


def selected_row(index) -> str:
    """The clue row a click selected, for the hidden gr.JSON #selected-clue: as JSON text
    (read back as the number), since gr.JSON warns in the server's log of every bare int
    it is given ("JSON component received unexpected type <class 'int'>", each click)."""
    return json.dumps(index[0] if isinstance(index, (list, tuple)) else index)
