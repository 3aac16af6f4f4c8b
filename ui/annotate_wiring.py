"""Events of the Annotate tab: each connects widgets to a handler, with an api_name.

Handlers live in editor_handlers / editor_ops / browser_handlers / history_handlers and take
plain values; the functions here unpack widget values, call them and raise their refusals.
"""
from __future__ import annotations

import gradio as gr

from domain.vocabulary import ITEM_STATUSES

from ui import access, draft_gone, messages
from ui.gradio_hooks import event_caller
from ui.annotate_drafts import (autosaved, draft_conflict_offer, keep_typed, wire_drafts,
                                with_comment)
from ui.annotate_layout import COMPARE_HIDE, COMPARE_SHOW
from ui.annotate_lifecycle import wire_item_menu
from ui.annotate_render import Renderer, notice_html
from ui.browser_wiring import ItemList, open_id
from ui.conflict_marks import table_value
from ui.conflict_merge import take_saved_label
from ui.annotate_steps import wire_steps
from ui.annotate_structure import wire_structure
from ui.answer_wiring import wire_answer
from ui.problems_wiring import wire_problems
from ui.editor_handlers import FIELDS, EditorHandlers
from ui import editor_model as em
from ui import editor_notices as notices
from ui.editor_model import EditError
from ui.handler_errors import from_script
from ui.history_handlers import HistoryHandlers
from ui.session import browser_session, user_of


CONFLICT_WAITING = "Not saved yet: waiting for your choice in the conflict panel above."
"""The save bar's line on a conflict; the panel says the rest (one message, no toast)."""

# Runs in the page before init_browser, which builds the rest of the editor: waits until the
# first image has arrived and two frames have passed (its decode and draw), so that building
# the list and the form does not compete with it (at most 2 s; at once without an image).
# The list's filters are those this browser kept (assets/list_filters.js), sent as JSON.
AFTER_FIRST_IMAGE = """(value, status, kept, work) => new Promise((resolve_) => {
  kept = window.cluelabListFilters ? window.cluelabListFilters.json() : '';
  const resolve = ([v, s]) => resolve_([v, s, kept, work]);
  const image = value && value.image ? (value.image.url || value.image.path) : null;
  if (!image) { resolve([value, status]); return; }
  const path = image.replace(/^https?:\\/\\/[^/]+/, '');
  let observer = null, timer = null, settled = false;
  const done = () => {
    if (settled) return;
    settled = true; clearTimeout(timer); if (observer) observer.disconnect();
    requestAnimationFrame(() => requestAnimationFrame(() => resolve([value, status])));
  };
  timer = setTimeout(done, 2000);
  observer = new PerformanceObserver((list) => {
    if (list.getEntries().some((e) => decodeURIComponent(e.name).endsWith(path))) done();
  });
  observer.observe({type: 'resource', buffered: true});
})"""


def menu_closed():
    """The "Item ▾" menu closed, as the list, the id box, Next or Previous open another item:
    it stayed open over the next item, its Delete a click away from the wrong item. The
    menu's own actions close it too once they succeed (ui/annotate_lifecycle.py: open, it
    pushed the image ~280 px down): their outcome is said in a toast."""
    return gr.update(open=False)


def image_of_url(number, item: dict) -> int:
    """The image index `&image=N` names (1-based), 0 when it names none of the item's."""
    try:
        index = int(str(number or "1").strip()) - 1
    except ValueError:
        return 0
    return index if 0 <= index < len(item.get("images") or []) else 0


def wire(store, demo, browser, ui) -> None:
    editor = EditorHandlers(store)
    item_list = ItemList(store, browser, ui.work)
    items = item_list.items
    history = HistoryHandlers(store)
    renderer = Renderer(store, ui, history)
    form = [getattr(ui, field) for field in FIELDS]
    list_outputs = item_list.outputs

    def split(values):
        """(form dict, annotator boxes) from [*form values, annotator value]."""
        annot = values[len(FIELDS)]
        form_values = {field: em.plain_table(value)
                       for field, value in zip(FIELDS, values[:len(FIELDS)])}
        return form_values, (annot or {}).get("boxes") if annot else None

    def render_loaded(work, before=None):
        """The outputs of every event that opens an item (the notice: annotate_render)."""
        return renderer.render(work, before=before)

    def open_item(item_id, request: gr.Request, before=None):
        try:
            return render_loaded(editor.load(item_id, user_of(request)), before)
        except EditError as err:
            raise messages.error(err) from None

    def open_listed(item_id, request, before, rows, ids, shown):
        """open_item, and the item list following it (ItemList.after_open); the item menu
        closed (menu_closed)."""
        out = open_item(item_id, request, before)
        return out + item_list.after_open(out[0]["saved"], rows, ids, shown) + [menu_closed()]

    # ---- browser ---------------------------------------------------------------------
    # The list, the form and the save bar are built after the first image (see
    # annotate_layout.DEFER_PANELS): init_browser, sent once that image has arrived
    # (AFTER_FIRST_IMAGE), shows them.
    panels = [browser.body, ui.form_body, ui.footer, *browser.late, *ui.late]

    def init_browser(annotator=None, status=None, kept="", work=None,
                     request: gr.Request = None):
        """The panels shown, the filters this browser kept (assets/list_filters.js, as
        JSON: `kept`), and the list at the page holding the item opened."""
        choices = items.facet_choices()
        dataset, domain, subtask, status_filter, flagged, text = items.parse_kept(kept)
        rows, count, ids, page, shown, row = item_list.listing(
            [dataset, domain, subtask, status_filter, flagged, text], 1, open_id(work), True)
        shows = [gr.update(visible=True)] * len(panels)
        shows[panels.index(browser.flagged)] = gr.update(visible=True, value=flagged)
        return [*shows, gr.update(choices=choices["dataset"], value=dataset),
                gr.update(choices=choices["domain"], value=domain),
                gr.update(choices=choices["subtask"], value=subtask),
                gr.update(choices=choices["status"], value=status_filter), text,
                gr.update(value=rows, visible=True), count, ids,
                gr.update(value=page, visible=True), shown, row,
                status_choices(status, request)]

    def open_initial(request: gr.Request):
        """The item of the URL (`?item=`), else the first one. Runs first, and the item
        list (init_browser) follows: the page's first update is the item and its image,
        which then load while the list is drawn (~0.13 s sooner painted than with both
        in parallel, docs/PERFORMANCE.md)."""
        wanted = request.query_params.get("item") if request else None
        first = next(iter(store.item_ids()), None)
        for target in dict.fromkeys(t for t in (wanted, first) if t):
            try:
                work = editor.load(target, user_of(request))
                if target == wanted:    # on the image of `&image=` (sync_url_image)
                    work["image_index"] = image_of_url(request.query_params.get("image"),
                                                       work["item"])
                return render_loaded(work)
            except EditError as err:
                # an unknown or deleted ?item= opens the first item, not a blank form that
                # took typing and then refused to save it ("open an item first")
                shown = f" The first item of the list is open: {first}." \
                    if target == wanted and first and first != wanted else ""
                said = str(err)
                if target == wanted and said.startswith("no item with id"):
                    # not quoted: the address bar shows it, and a crafted link put its own
                    # words in the toast ("No item with id 'session expired, log in at …'")
                    said = "no item has the id in this page's address"
                messages.warn(f"{said[:1].upper()}{said[1:]}.{shown}")
        return [gr.skip()] * len(renderer.outputs)

    # Events that open an item show their progress on the annotator alone: one spinner
    # where the image comes, instead of one on each of ~30 outputs, whose loading states
    # cost the page ~0.1 s of script on every open (docs/PERFORMANCE.md).
    demo.load(open_initial, None, renderer.outputs, api_name="open_initial",
              show_progress_on=ui.annotator).then(
        init_browser, [ui.annotator, ui.status, browser.kept, ui.work],
        [*panels, browser.dataset, browser.domain, browser.subtask, browser.status_filter,
         browser.search, *list_outputs, ui.status], api_name="init_browser",
        show_progress_on=browser.items, js=AFTER_FIRST_IMAGE)
    item_list.wire()

    def select_row(work, rows, ids, shown, evt: gr.SelectData, request: gr.Request):
        row = evt.row_value or []
        return open_listed(str(row[0]).removeprefix("⚑ ") if row else None, request, work,
                           rows, ids, shown)

    def load_item(item_id, work, rows, ids, shown, request: gr.Request):
        """The item typed in the id box. An id that opens nothing leaves the page on the
        open item, and the box says so again: it kept the unknown id, so it no longer
        named the item on screen. The message stays in the save bar's line too."""
        try:
            fresh = editor.load(item_id, user_of(request))
        except EditError as err:
            if not work or from_script(request):
                raise messages.error(err) from None
            reason = str(err)
            still = (f"{reason[:1].upper()}{reason[1:]}; the item open is still "
                     f"{work['item']['id']}.")
            messages.warn(still)
            kept = [gr.skip()] * len(opened)
            kept[renderer.index("item_id")] = work["item"]["id"]
            kept[renderer.index("save_message")] = messages.status(still)
            return kept
        out = render_loaded(fresh, work)
        return out + item_list.after_open(out[0]["saved"], rows, ids, shown) + [menu_closed()]

    # the events that open another item from the list, the id box, Next or Previous
    opened = renderer.outputs + list_outputs + [ui.item_menu]
    listed = [browser.items, browser.nav_ids, browser.shown]
    browser.items.select(select_row, [ui.work, *listed], opened, api_name="select_item",
                         show_progress_on=ui.annotator)
    ui.item_id.submit(load_item, [ui.item_id, ui.work, *listed], opened,
                      api_name="load_item", show_progress_on=ui.annotator)

    def facet_choices(field):
        return lambda: gr.update(choices=store.facets().get(field, []))

    # The editor's domain and subtask get plain values on load (see Renderer.render), so
    # their choices are filled when the user opens them.
    ui.domain.focus(facet_choices("domain"), None, ui.domain, api_visibility="private",
                    api_name="domain_choices", show_progress="hidden")
    ui.subtask.focus(facet_choices("subtask"), None, ui.subtask, api_visibility="private",
                     api_name="subtask_choices", show_progress="hidden")

    BY_REVIEW_ONLY = {
        "verified": "Not saved: an item becomes verified when another person approves it "
                    "(History and review, approve); choose another status.",
        "rejected": "Not saved: an item becomes rejected when another person rejects it in a "
                    "review (History and review, reject), which keeps why; choose another "
                    "status."}
    """A save may keep an item verified or rejected, never make it so: an annotator set their
    own edit verified over a reviewer's "revise" (the verified filter listed unreviewed
    items), and marked anyone's item rejected with no review recorded."""

    def may_release(request) -> bool:
        """May the caller set status `released` (ui/access ACTS)? Every write of an item
        passes this to the store, which applies it (store/items.check_status)."""
        return access.may(event_caller(store, request, demo), "release_item")

    def release_refusal(request) -> str:
        who = event_caller(store, request, demo)
        return (f"Not saved: {access.refusal('release_item', who)} Choose another status, "
                "or ask an admin.")

    def status_refusal(request, work, form_values) -> str:
        """Why a save would be refused for the status picked ("" when it would not be)."""
        status = form_values.get("status")
        was = ((work or {}).get("saved") or {}).get("status")
        if status == was:
            return ""
        if status in BY_REVIEW_ONLY:
            return BY_REVIEW_ONLY[status]
        return release_refusal(request) if status == "released" and \
            not may_release(request) else ""

    def edits_refusal(request, work, form_values, annot) -> str:
        """Why a save of these edits would be refused ("" when it would not): the save bar's
        refusal goes once an edit fixes it (ui/annotate_drafts.autosaved)."""
        return (status_refusal(request, work, form_values)
                or editor.edits_refusal(work, form_values, annot))

    def status_choices(current, request: gr.Request):
        """The statuses the caller may set (`released`: ui/access ACTS), and the current one."""
        offered = [s for s in ITEM_STATUSES if s == current or s not in BY_REVIEW_ONLY
                   and (s != "released" or may_release(request))]
        return gr.update(choices=offered)

    ui.status.focus(status_choices, ui.status, ui.status, api_visibility="private",
                    api_name="status_choices", show_progress="hidden")

    def keep_typed_values(request, work, key, values):
        """The values Next or Previous sent (none from a script) kept as the draft of the
        item left (ui/annotate_drafts.keep_typed); the tab-choice offer when another tab
        changed that draft meanwhile (the item is then not left)."""
        comment = values[len(FIELDS) + 1] if values and len(values) > len(FIELDS) + 1 \
            else None
        return keep_typed(editor, request, work, *split(values), key, comment) if values \
            else None

    # the comment box too: its last keys before Alt+→ were lost (its own autosave waits for
    # typing to pause, and the draft kept the comment without them)
    wire_steps(ui, browser, items, open_listed, opened,
               {**dict(zip(FIELDS, form)), "annotator": ui.annotator, "comment": ui.comment},
               keep_typed_values)
    # the address bar and the item list's highlight (assets/list_current.js) follow it
    url_js = ("(id) => { if (id) { const u = new URL(window.location);"
              " u.searchParams.set('item', id); history.replaceState(null, '', u); }"
              " if (window.cluelabShowOpenItem) window.cluelabShowOpenItem(id); }")
    ui.item_id.change(None, ui.item_id, None, js=url_js, api_visibility="private",
                      api_name="sync_url")
    # and `&image=N` the image shown (not the first): a reload opened image 1 of the item
    image_js = ("(info) => { const m = /data-image=\"(\\d+)\"/.exec(info || '');"
                " const u = new URL(window.location);"
                " if (m && m[1] !== '1') u.searchParams.set('image', m[1]);"
                " else u.searchParams.delete('image'); history.replaceState(null, '', u); }")
    ui.image_info.change(None, ui.image_info, None, js=image_js, api_visibility="private",
                         api_name="sync_url_image")

    # ---- saving, drafts and conflicts ----------------------------------------------------
    conflict_outputs = [ui.conflict_panel, ui.conflict_message, ui.conflict_diff,
                        ui.conflict_version, ui.conflict_take_saved, ui.conflict_actions,
                        ui.compare]

    def told(keep, work, user, header=False):
        """`keep` (the outputs of a save that opens nothing) with the notice as the store
        holds the colleagues' drafts now and (`header`: a conflict) the header naming the
        version saved now: it said "saved version 5" beside the panel's "now version 6"."""
        work, current = editor.told_now(work, user)
        keep[0] = work
        keep[renderer.index("notice")] = notice_html(work) + renderer.strip_and_problems(work)[1]
        if header and current:
            keep[renderer.index("header")] = renderer.header(current, work.get("base_version"))

    def do_save(request, work, *values, base_version=None, take_saved=()):
        """`values`: [*form, annotator, comment, the import problems ticked to mark
        resolved] (a script may leave the ticks out: none)."""
        user = user_of(request)
        *values, comment, ticked = values
        form_values, annot = split(values)
        shown = work
        keep = [gr.skip()] * len(renderer.outputs)

        def refused(message, by_edits):
            """A refusal: a script's call fails with it; the page says it once, in the save
            bar (a toast said it again over the bar's line), the rest of the page unchanged.
            `by_edits`: an edit can fix it, and the line goes when one does (autosave)."""
            if from_script(request):
                raise messages.error(message, quiet=True) from None
            keep[0] = {**work, "refused": by_edits} if work else gr.skip()
            keep[renderer.index("save_message")] = messages.status(message)
            return keep + [gr.skip()] * len(conflict_outputs)

        was = ((work or {}).get("saved") or {}).get("status")
        if form_values.get("status") in BY_REVIEW_ONLY and form_values["status"] != was:
            return refused(BY_REVIEW_ONLY[form_values["status"]], True)
        if form_values.get("status") == "released" != was and not may_release(request):
            # the rights first: "add a clue" to an annotator's release was advice to fix
            # what would be refused anyway (the store refuses it too: check_status)
            return refused(release_refusal(request), True)
        work, outcome = editor.save(work, form_values, annot, comment, user, base_version,
                                    take_saved or (), may_release(request), ticked or (),
                                    browser_session(request))
        if outcome["kind"] == "release_refused":
            return refused(release_refusal(request), True)
        if outcome["kind"] == "saved" or outcome["kind"] == "unchanged" and work is not shown:
            # (unchanged and a new work: merged, the edits were the version saved, now shown)
            messages.info(outcome["message"])
            out = render_loaded(work, before=shown)
            out[renderer.index("save_message")] = messages.status(outcome["message"])
            return out + [gr.update(visible=False), "", [], None,
                          gr.update(choices=[], value=[], visible=False),
                          gr.update(visible=True), gr.skip()]
        if outcome["kind"] == "switched" and not from_script(request):
            # nothing saved: the form the type had not switched is switched and shown
            out = render_loaded({**work, "refused": True}, before=shown)
            out[renderer.index("save_message")] = messages.status(outcome["message"])
            return out + [gr.skip()] * len(conflict_outputs)
        if outcome["kind"] == "unchanged":      # no new version: the page stays as it is
            messages.info(outcome["message"])
            keep[renderer.index("save_message")] = messages.status(outcome["message"])
            if not store.get_draft(user, work["item"]["id"]):   # a comment's draft dropped
                keep[renderer.index("draft_state")] = ""
            told(keep, editor.without_restored_notice(work, user), user)
            return keep + [gr.skip()] * len(conflict_outputs)
        if outcome["kind"] == "conflict":
            # said once, in the panel: a toast said it again over the panel's table, and the
            # save bar's line stayed empty (or kept the last "Saved …")
            told(keep, {**work, "refused": False}, user, header=True)
            keep[renderer.index("save_message")] = messages.status(CONFLICT_WAITING)
            if outcome.get("draft_conflict"):   # another tab's draft kept: the choice asked
                keep[renderer.index("draft_state")], keep[renderer.index("draft_choice")] = \
                    draft_conflict_offer(outcome["draft_conflict"])
            both = outcome["both"]
            return keep + [gr.update(visible=True), messages.status(outcome["message"]),
                           gr.update(value=table_value(outcome["table"], outcome["saved_heading"]),
                                     visible=True),
                           outcome["current_version"],
                           gr.update(choices=both, value=outcome.get("ticked") or [],
                                     visible=bool(both),
                                     label=take_saved_label(outcome["take_from"])),
                           gr.update(visible=True), COMPARE_HIDE]
        # refused (invalid, or released and read-only, or deleted meanwhile)
        # (an edit can fix it when the edits themselves break a rule; not a deleted item)
        if outcome["kind"] == "switched":
            return refused(outcome["message"], True)
        return refused(f"Not saved: {outcome['message']}",
                       bool(work and editor.edits_refusal(work, form_values, annot)))

    def save_item(request: gr.Request, work, *values):
        return do_save(request, work, *values)

    def save_over(request: gr.Request, work, version, take_saved, *values):
        return do_save(request, work, *values, base_version=version, take_saved=take_saved)

    # the ticks of "Mark import problems resolved" go with every save (ui/problems_wiring)
    save_inputs = [ui.work, *form, ui.annotator, ui.comment, ui.problems_pick]
    # the progress (a spinner and its "1.3s") over the image only, as an item's opening:
    # over every output it sat on the form's fields and began the save's message ("0.1s")
    on_image = {"show_progress_on": ui.annotator}
    saves = {
        "save_item": ui.save.click(save_item, save_inputs, renderer.outputs + conflict_outputs,
                                   api_name="save_item", **on_image),
        "save_item_by_enter": ui.comment.submit(
            save_item, save_inputs, renderer.outputs + conflict_outputs,
            api_name="save_item_by_enter", **on_image),
        "save_over_conflict": ui.keep_mine.click(
            save_over, [ui.work, ui.conflict_version, ui.conflict_take_saved, *form,
                        ui.annotator, ui.comment, ui.problems_pick],
            renderer.outputs + conflict_outputs, api_name="save_over_conflict", **on_image),
    }

    def compare(shown, work, *values):
        """The comparison hidden, or shown again with the edits as they are now: it is open
        when the panel opens, and "Compare with saved" there changed nothing to be seen (a
        review). The button says which it does."""
        if shown == COMPARE_HIDE:
            return gr.update(visible=False), COMPARE_SHOW
        form_values, annot = split(values)
        return gr.update(value=editor.compare_with_saved(messages.require_open(work),
                                                         form_values, annot),
                         visible=True), COMPARE_HIDE

    ui.compare.click(compare, [ui.compare, ui.work, *form, ui.annotator],
                     [ui.conflict_diff, ui.compare], api_name="compare_with_saved")

    def take_theirs(work, request: gr.Request):
        messages.require_open(work)
        user = user_of(request)
        shown = gr.update(value=editor.reloaded_rows(work), visible=True)  # before edits go
        fresh = editor.reload_saved(work, user, browser_session(request))
        out = render_loaded(fresh, before=work)
        out[renderer.outputs.index(ui.conflict_panel)] = gr.update(visible=True)
        return out + [f"Loaded the saved version (version {fresh['item']['version']}). Your edits "
                      "are gone from the form; the column of yours below lists them so that "
                      "you can copy what you need.", gr.update(visible=False),
                      gr.update(visible=False), shown]

    ui.take_theirs.click(take_theirs, ui.work, renderer.outputs + [
        ui.conflict_message, ui.conflict_actions, ui.conflict_take_saved, ui.conflict_diff],
        api_name="reload_saved")

    wire_drafts(editor, renderer, ui, form, split, open_item, render_loaded, edits_refusal)
    saves["restore_revision"], saves["submit_review"] = wire_structure(
        store, editor, renderer, ui, form, split, may_release)
    # The item list's rows follow every save: its status column showed the status before
    # (and the rows re-read the store, so a colleague's changes show with them), at the page
    # holding the item saved.
    refresh_list = (item_list.following, [browser.shown, ui.work], list_outputs)

    def notice_now(work, request: gr.Request):
        """↻ Refresh reads the colleagues' drafts again: the notice that one had unsaved
        edits of the item stayed after they saved (until the item was opened again)."""
        if not work:
            return gr.skip()
        return notice_html({**work, **editor.notice_now(work, user_of(request))}) + \
            renderer.strip_and_problems(work)[1]

    browser.refresh.click(notice_now, [ui.work], ui.notice, api_name="refresh_notice",
                          api_visibility="private", show_progress="hidden")

    def draft_now(request: gr.Request, key, work, line, *values):
        """The save bar's draft line read again: "(draft kept)" stayed after another tab of
        the account saved the item (its save drops the draft) until this tab's next edit.
        On ↻ Refresh and on coming back to the tab (#draft-recheck: assets/draft_choice_stay.js).
        A two-tab choice whose other draft is gone keeps this tab's edits (ui/draft_gone)."""
        if draft_gone.offered(line) and (why := draft_gone.gone_why(editor, request, work)):
            values, comment = with_comment(values)
            form_values, annot = split(values)
            return draft_gone.kept_instead(autosaved(
                editor, request, work, form_values, annot, key=key, force=True,
                comment=comment), why)
        gone = notices.draft_gone_line(store, work, user_of(request), line)
        return (gr.skip() if gone is None else messages.status(gone)), \
            (gr.update(visible=False) if draft_gone.moot(editor, request, work) else gr.skip())

    for trigger, name in ((browser.refresh, "recheck_draft"),
                          (ui.draft_recheck, "recheck_draft_on_return")):
        trigger.click(draft_now, [ui.draft_key, ui.work, ui.draft_state, *form, ui.annotator,
                                  ui.comment], [ui.draft_state, ui.draft_choice],
                      api_name=name, api_visibility="private", show_progress="hidden")
    for name, event in saves.items():
        event.success(*refresh_list, api_name=f"{name}_list", api_visibility="private",
                      show_progress="hidden")
    wire_answer(editor, renderer, ui, form, split)
    wire_problems(editor, renderer, ui, form, split, notice_html)
    wire_item_menu(store, ui, renderer, open_item, browser.nav_ids, refresh_list, demo)
