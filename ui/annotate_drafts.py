"""Drafts on the Annotate page: every edit is kept as the user's draft as it happens, and
two tabs of one user never silently replace each other's draft (store/drafts.py): the tab
that did not see the other's latest write is offered the choice (open it, or keep its own).
Also: the clue table's box counts follow the boxes as they are drawn, and Discard asks first.

Two ways into the draft, one for each kind of edit:
- what the user types or picks in a field (its `.input`) is read back from the widgets by
  `autosave` (AUTOSAVED_INPUTS);
- an event that changes the item itself (a type switch, an added clue, option or image) keeps
  as the draft the item it shows, with `draft_line`, in the same handler. Such an event's
  trigger must not also be an autosave trigger: the autosave reads the widgets as they were
  *before* the event changed them (the aliases a switch had set aside, the gold before it
  came back), and whichever of the two writes last is the draft a reload shows. That is how a
  switch to numeric and back lost a location item's three aliases, and a multiple-choice
  item its gold, at the next reload (tests/test_ui_wiring_drafts.py checks both rules).

A draft is kept for the item its values were typed into, never the one open when it reaches
the server. The form's values come from the page as they were when the event was sent, but
the session's `work` (a gr.State) is read on the server when the event runs: the autosave of
keys typed just before Alt+→ ran after Next had opened the next item, and kept the item left's
whole form as the next item's draft (its own draft lost, a Ctrl+S then saved it there). So
the page sends, with the values, the item and version it shows them for (`draft_key`,
rendered with the form); values of another item or version are not kept (`typed_into`).
Next and Previous send the form too, and keep the keys typed just before them as the item
left's draft before opening the other (`keep_typed`): the last autosave of them is sent
after Next, with the next item's values or, refused, with the item left's.
"""
from __future__ import annotations

import gradio as gr

from store import DraftConflict, StoreError
from ui import editor_model as em
from ui import draft_gone, messages, times
from ui.editor_handlers import FIELDS, DraftSetAside
from ui.editor_model import EditError
from ui.session import browser_session, user_of
from ui.answer_form import ANSWER_FIELDS

# The page-only event before autosave_boxes: passes on when the annotator still shows the
# image it showed last time (the boxes were edited), else throws and autosave_boxes is not
# sent (assets/clue_table.js). Quiet because this event has no outputs (GRADIO_JS_THROW).
BOX_EDITS_ONLY = "(...args) => window.cluelabGates.boxEditsOnly(args)"
BOX_UNDO = "(value) => window.cluelabBoxUndo.undo(value)"

# The save bar's two lines never contradict each other: once the draft line says there are
# unsaved edits (whichever event wrote it: typing, boxes, clues, images), the line about the
# last save ("Saved … as version N", "Restored …") is stale and goes. In the page: no event
# of its own on the server, and every writer of the draft line is covered. A refusal ("Not
# saved: the gold answer is not a number") is about the edits still there, and stays: the
# autosave of the keys typed just before the save cleared it as it came back. So is the
# line of a delete ("Deleted X. Undo delete …"), about another item: the next one opened
# with its own draft cleared it at once.
STALE_SAVE_LINE = ("(draft, saved) => (draft && draft.trim() && "
                   "!/^(Not saved|Deleted )/.test(String(saved || '').trim()) ? '' : saved)")


def table_rows(table) -> list[list]:
    """The rows of a table's value as the page sends it ({"headers", "data"}) or as rows:
    the box counts were worked out over a dict's two keys, right only for two clues."""
    rows = table.get("data") if isinstance(table, dict) else table
    return [list(row) for row in rows or []]


def recounted(rows: list[list] | None, shown: list[list]) -> list[str] | None:
    """The box counts of the `shown` clue table's rows after a box edit (`rows`: the item's
    clue rows now, one per filled row of the table, in its order), or None when they are
    the counts it shows. The page puts them in (SHOW_BOX_COUNTS): the table itself as the
    event's output erased what was typed during its round trip (the clue typed right after
    Add clue, under load)."""
    if rows is None:
        return None
    filled = iter(rows)
    counts = []
    for row in shown:
        if any(str(cell if cell is not None else "").strip() for cell in row[:3]):
            counts.append(str(next(filled, [""])[-1]))
        else:
            counts.append(str(row[-1] if row[-1] is not None else ""))
    return counts if counts != [str(row[-1] if row[-1] is not None else "")
                                for row in shown] else None


# In the page: the box counts put into the clue table as it is now (with what was typed
# since the event was sent); not when its rows changed meanwhile (assets/clue_table.js). The
# check is an event of its own, with no outputs (ui/workarounds.py, GRADIO_JS_THROW).
BOX_COUNTS_FIT = "(counts, table) => window.cluelabGates.boxCountsFit(counts, table)"
SHOW_BOX_COUNTS = "(counts, table) => window.cluelabBoxCounts.show(counts, table)"


def draft_line(editor, work: dict, item: dict, request) -> list:
    """Keep `item`, the item an event now shows, as the user's draft; (the save bar's line
    about it, the tab-choice row). Every event that changes the item itself calls it."""
    try:
        return [editor.keep_draft(work, item, user_of(request), browser_session(request)),
                gr.skip()]
    except DraftConflict as err:
        return list(draft_conflict_offer(err))
    except StoreError as err:
        return [not_kept(err), gr.skip()]


def edited(editor, renderer, work: dict, item: dict, request, **changes) -> list:
    """The structural outputs (annotate_render.Renderer.structural_outputs) and the draft
    line (+ the tab-choice row) of an event that changed the item to `item`."""
    work = {**work, "item": item, **changes}
    return renderer.annotator_only(work) + draft_line(editor, work, item, request)


def draft_conflict_offer(err: DraftConflict, refused: str = "Not kept as a draft") -> tuple:
    """(the line, the tab-choice row shown): a line that asks the user to choose between
    this tab's edits and the other tab's draft always comes with the two choices. A draft
    this tab set aside (a version opened for a review) is said as the user's own."""
    mine = getattr(err, "mine", "")
    return (messages.status(f"{refused}: {whose_draft(err)}. Open it or keep this tab's "
                            f"edits{f' (of {mine})' if mine else ''}."),
            gr.update(visible=True))


def whose_draft(err: DraftConflict) -> str:
    """Whose draft a DraftConflict keeps, when it was written, and the parts it edited
    (EditorHandlers.named_conflict): the two-tab choice's questions name what goes
    (assets/confirm.js reads them from the line)."""
    theirs = getattr(err, "theirs", "")
    edits = f" (its edits of {theirs})" if theirs else ""
    if isinstance(err, DraftSetAside):
        return ("your draft of this item, set aside and not shown here, was kept at "
                f"{times.shown(err.updated_at)}{edits}")
    return (f"another tab or window changed this item's draft at "
            f"{times.shown(err.updated_at)}{edits}")


def not_kept(err: StoreError) -> str:
    """The save bar's draft line when the store refused the draft (the account's drafts are
    full: store/draft_budget.py; a draft over the item's limits; a busy database): it came
    as "Something went wrong on the server", the edits seemingly kept. What was kept before
    stays, and the edits stay on the page for a save."""
    # a size over its limit: the reason alone ("Alias 2 is 3,000 characters; the limit is
    # 1,000"), not the store's "draft demo/x: data: …"
    said = getattr(err, "reason", None) or times.in_message(err)
    return messages.status(f"Not kept as a draft: {said}. Your edits stay on this page; "
                           "shorten it to save them.") if getattr(err, "reason", None) \
        else messages.status(f"Not kept as a draft: {said}")


# The fields whose typing (or picking) the autosave reads back. Not the answer type: its
# switch changes other fields, and keeps its own draft (ui/answer_wiring.py).
AUTOSAVED_INPUTS = ("question", "answer", "aliases", "gt_reasoning", "reasoning_type",
                    "status", "domain", "subtask", "clues", "options", *ANSWER_FIELDS)


def draft_key(work: dict | None) -> dict | None:
    """The item and version the form shows (the page sends it back with the form's values)."""
    if not work:
        return None
    return {"item": work["item"]["id"], "version": work["base_version"]}


def typed_into(key, work: dict | None) -> bool:
    """Were the values sent with `key` typed into the item and version `work` holds? Not
    when another item (or a new version) was opened after they were sent."""
    return bool(work) and isinstance(key, dict) and key == draft_key(work)


def with_comment(values) -> tuple[list, str | None]:
    """([*form values, annotator value], the revision comment) from the values an autosave
    is sent: the comment box's value comes after the annotator's (None when not sent: a
    script's call; the comment kept with the draft stays)."""
    values = list(values)
    if len(values) > len(FIELDS) + 1:
        return values[:len(FIELDS) + 1], str(values[len(FIELDS) + 1] or "")
    return values, None


def autosaved(editor, request, work, form_values: dict, annot, *, key,
              force=False, comment: str | None = None) -> tuple:
    """(the save bar's draft line, the tab-choice row) after keeping the widgets' values as
    the draft: another tab's newer draft is not replaced unseen; the row offers to open it
    or to keep this tab's edits. Values typed into another item or version than `work`'s
    (`key`: see typed_into) are not kept, and the page is left alone."""
    if not typed_into(key, work):
        return gr.skip(), gr.skip()
    try:
        line = editor.autosave(work, form_values, annot, user_of(request),
                               browser_session(request), force, comment)
    except DraftConflict as err:
        return draft_conflict_offer(err)
    except StoreError as err:
        return not_kept(err), gr.skip()
    if line is None:        # an autosave overtaken by this tab's save
        return gr.skip(), gr.skip()
    return line, (gr.update(visible=False) if force else gr.skip())


def refusal_line(work, line, refusal: str):
    """The save bar's line after an edit: a refusal an edit can fix (work["refused"]) goes
    once the edits pass the save's rules (`refusal` is ""); it stayed, saying "Not saved:
    the gold answer is not a number" beside a gold fixed since, until the next save."""
    if (work or {}).get("refused") and str(line or "").startswith("Not saved") and not refusal:
        return ""
    return gr.skip()


def keep_typed(editor, request, work, form_values: dict, annot, key,
               comment: str | None = None) -> tuple | None:
    """Before Next or Previous opens another item: keep the values sent with it (`key`: the
    item they were typed into) as the draft of the item left. Not kept (said): values of
    another item, a draft over its limits. A draft another tab changed since is not
    replaced, and the item is not left (its edits were on the page only): returned is the
    offer to choose (draft_conflict_offer), which the page shows instead of the next item
    (assets/draft_choice_stay.js holds Next while it is shown; this is for a Next sent
    before the offer came)."""
    if not form_values or not typed_into(key, work):
        return None
    try:
        editor.autosave(work, form_values, annot, user_of(request), browser_session(request),
                        comment=comment)
    except DraftConflict as err:
        messages.warn(f"Not opened: {work['item']['id']}: {whose_draft(err)}. Open that "
                      "draft or keep this tab's edits, then go on.")
        return draft_conflict_offer(err, "Not opened")
    except StoreError as err:
        messages.warn(f"The last edits of {work['item']['id']} were not kept as a draft: "
                      f"{times.in_message(err)}")
    return None


def wire_drafts(editor, renderer, ui, form, split, open_item, render_loaded,
                edits_refusal) -> None:
    """`edits_refusal(request, work, form_values, annot)`: why a save would be refused now."""
    def autosave(request: gr.Request, key, work, *values, force=False):
        """`values`: [*form, annotator, the revision comment (optional)]."""
        values, comment = with_comment(values)
        form_values, annot = split(values)
        return autosaved(editor, request, work, form_values, annot, key=key, force=force,
                         comment=comment)

    def autosave_and_line(request: gr.Request, key, work, line, *values):
        form_values, annot = split(with_comment(values)[0])
        refusal = edits_refusal(request, work, form_values, annot) if \
            (work or {}).get("refused") and typed_into(key, work) else "?"
        return (*autosave(request, key, work, *values), refusal_line(work, line, refusal))

    draft_outputs = [ui.draft_state, ui.draft_choice]
    ui.draft_state.change(None, [ui.draft_state, ui.save_message], ui.save_message,
                          js=STALE_SAVE_LINE, api_name="stale_save_line",
                          api_visibility="private", show_progress="hidden")
    # the revision comment is kept with the draft as every field is (its typing too)
    gr.on([*(getattr(ui, field).input for field in AUTOSAVED_INPUTS), ui.comment.input],
          autosave_and_line,
          [ui.draft_key, ui.work, ui.save_message, *form, ui.annotator, ui.comment],
          [*draft_outputs, ui.save_message],
          trigger_mode="always_last", api_name="autosave_draft", show_progress="hidden")

    def autosave_boxes(request: gr.Request, key, work, saved_line, *values):
        """The draft, and the clue table's box counts as the boxes are now (drawn,
        relabelled or deleted), not as they were at the last save."""
        line, choice, refusal = autosave_and_line(request, key, work, saved_line, *values)
        if not typed_into(key, work):
            return line, choice, gr.skip(), refusal
        form_values, annot = split(with_comment(values)[0])
        try:
            rows = em.clue_rows(editor.collect(work, form_values, annot)) if work else None
        except EditError:
            rows = None
        counts = recounted(rows, table_rows(form_values.get("clues")))
        return line, choice, (counts if counts is not None else gr.skip()), refusal

    # The annotator has no user-only event: `change` also fires when the server shows
    # another image. Those changes are not edits, so they are dropped in the page
    # (BOX_EDITS_ONLY) instead of costing a round trip after every Next.
    ui.annotator.change(None, ui.annotator, None, js=BOX_EDITS_ONLY, api_name="box_edits_only",
                        api_visibility="private").success(
        autosave_boxes, [ui.draft_key, ui.work, ui.save_message, *form, ui.annotator,
                         ui.comment],
        [*draft_outputs, ui.box_counts, ui.save_message],
        trigger_mode="always_last", api_name="autosave_boxes", show_progress="hidden")
    # Ctrl+Z: the annotator back to its boxes before the last box change, in the page
    # (assets/box_undo.js); its change then keeps the draft as any box edit does
    ui.box_undo.click(None, ui.annotator, ui.annotator, js=BOX_UNDO, api_name="undo_box_change",
                      api_visibility="private", show_progress="hidden")
    ui.box_counts.change(None, [ui.box_counts, ui.clues], None, js=BOX_COUNTS_FIT,
                         api_name="box_counts_fit", api_visibility="private",
                         show_progress="hidden").success(
        None, [ui.box_counts, ui.clues], ui.clues, js=SHOW_BOX_COUNTS,
        api_name="show_box_counts", api_visibility="private", show_progress="hidden")

    def keep_mine(request: gr.Request, key, work, *values):
        return autosave(request, key, work, *values, force=True)

    ui.draft_mine.click(keep_mine, [ui.draft_key, ui.work, *form, ui.annotator, ui.comment],
                        draft_outputs,
                        api_name="keep_this_tabs_draft")

    def open_other_draft(request: gr.Request, key, work, *values):
        """The other tab's draft opened; when it is gone (that tab saved or discarded),
        this tab's edits are kept instead, never replaced by the item as saved (draft_gone)."""
        messages.require_open(work)
        why = draft_gone.gone_why(editor, request, work)
        kept = autosave(request, key, work, *values, force=True) if why else None
        if not why or kept[0] == "":        # a draft to open, or no edits here to lose
            return open_item(work["item"]["id"], request, work)
        out = [gr.skip()] * len(renderer.outputs)
        out[renderer.index("draft_state")], out[renderer.index("draft_choice")] = \
            draft_gone.kept_instead(kept, why)
        return out

    ui.draft_theirs.click(open_other_draft, [ui.draft_key, ui.work, *form, ui.annotator,
                                             ui.comment],
                          renderer.outputs, api_name="open_other_tabs_draft")

    def discard(work, request: gr.Request):
        messages.require_open(work)
        user, session = user_of(request), browser_session(request)
        try:
            fresh = editor.discard_draft(work, user, session)
        except DraftConflict as err:
            line, offer = draft_conflict_offer(err, "Not discarded")
            messages.warn(f"Not discarded: another tab or window changed the draft of "
                          f"{err.item_id} at {times.shown(err.updated_at)}; open it or keep "
                          "this tab's edits first.")
            kept = [gr.skip()] * len(renderer.outputs)
            kept[renderer.index("draft_choice")] = offer
            kept[renderer.index("draft_state")] = line
            return kept
        return render_loaded(fresh, before=work)

    # the draft line too (in the render): a refusal shows the choice it asks for (the
    # tab-choice row)
    ui.discard.click(discard, ui.work, renderer.outputs, api_name="discard_draft")
