"""The Annotate page's item menu (an "Item ▾" panel under the item header): its widgets and
its events. Handlers are in ui/lifecycle_handlers.py.

Who may call each event is declared in ui/access.py: show_item_menu, check_new_item,
create_item, duplicate_item, delete_item, undo_delete (one's own delete only: the store checks
who deleted the item) and the list refreshes chained after each change, with the other
annotation events; restore_deleted_item, reopen_item, dataset_delete_preview and
delete_dataset for admins only. The menu offers a control only to the roles the table lets
call its event (`offered`). A new or duplicated item goes in a dataset not there yet only
for those the table lets make datasets (ACTS make_dataset: those who may import). The panel's widgets are mounted when it is first opened,
like History (a fresh page does not pay for them).
"""
from __future__ import annotations

from types import SimpleNamespace

import gradio as gr

from ui import access, messages
from ui.account_slots import IMAGE_READS, SlotsTaken
from ui.editor_model import EditError
from ui.gradio_hooks import event_caller
from ui.handler_errors import from_script
from ui.lifecycle_handlers import LifecycleHandlers
from ui.session import user_of
from ui.text import escape_html, short


def build_item_menu(ui: SimpleNamespace, visible: bool) -> None:
    """Add the panel's widgets to `ui` (call inside the editor column)."""
    with gr.Accordion("Item ▾  new · duplicate · delete", open=False, elem_id="item-menu",
                      visible=visible) as ui.item_menu:
        with gr.Column(visible=False, elem_id="item-menu-body") as ui.item_menu_body:
            with gr.Row():
                # wide enough for its placeholder whole (it was cut after "a copy: e")
                ui.new_id = gr.Textbox(label="New id", scale=3, max_lines=1, min_width=290,
                                       placeholder="dataset/name (copy: <id>-copy)",
                                       elem_id="new-item-id")
                ui.new_question = gr.Textbox(label="New item's question", scale=2,
                                             max_lines=1, elem_id="new-item-question")
                # offered once the id and the question allow a new item (check_new_item)
                ui.create_item = gr.UploadButton("New item from images…", file_types=["image"],
                                                 file_count="multiple", size="sm", scale=0,
                                                 min_width=180, elem_id="create-item",
                                                 interactive=False)
                ui.duplicate_item = gr.Button("Duplicate this item", size="sm", scale=0,
                                              min_width=140, elem_id="duplicate-item")
            with gr.Row():
                ui.lifecycle_reason = gr.Textbox(label="Reason",
                                                 scale=3, max_lines=1,
                                                 placeholder="why (kept in history)",
                                                 elem_id="lifecycle-reason")
                ui.delete_item = gr.Button("Delete this item", size="sm", variant="stop",
                                           scale=0, min_width=130, elem_id="delete-item")
                # shown after the user's own delete, in this page: a mistake is undone at once
                ui.undo_delete = gr.Button("Undo delete", size="sm", scale=0, min_width=110,
                                           visible=False, elem_id="undo-delete")
                ui.reopen_item = gr.Button("Reopen released (admin)", size="sm", scale=0,
                                           min_width=170, elem_id="reopen-item")
                ui.deleted_pick = gr.Dropdown([], label="Deleted items (admin)", scale=2,
                                              elem_id="deleted-items")
                ui.restore_deleted = gr.Button("Restore", size="sm", scale=0, min_width=90,
                                               elem_id="restore-deleted")
            with gr.Row():
                ui.dataset_pick = gr.Dropdown([], label="Dataset (admin)", scale=2,
                                              elem_id="dataset-to-delete")
                ui.dataset_preview = gr.Button("What would it remove?", size="sm", scale=0,
                                               min_width=170, elem_id="dataset-delete-preview")
                ui.delete_dataset = gr.Button("Delete dataset", size="sm", variant="stop",
                                              scale=0, min_width=130, elem_id="delete-dataset")
                gr.HTML("", elem_id="item-menu-spacer")
            ui.lifecycle_message = gr.HTML(elem_id="lifecycle-message")
            ui.dataset_expected = gr.State(None)
            ui.just_deleted = gr.State(None)      # the id this page deleted last


def undo_label(item_id: str) -> str:
    """The Undo button after a delete, naming the deleted item (shortened when long)."""
    return f"Undo delete of {short(item_id, 40)}"


def offered(ui: SimpleNamespace) -> dict:
    """The menu's controls that only some roles may use, each with the event it calls: the
    menu shows a control when the access table lets the caller call that event."""
    return {ui.reopen_item: "reopen_item", ui.deleted_pick: "restore_deleted_item",
            ui.restore_deleted: "restore_deleted_item", ui.dataset_pick: "delete_dataset",
            ui.dataset_preview: "dataset_delete_preview", ui.delete_dataset: "delete_dataset"}


def wire_item_menu(store, ui, renderer, open_item, nav_ids, refresh_list, demo) -> None:
    """`open_item(item_id, request, before)` renders an item; `nav_ids` holds the ids of the
    filtered list (after a delete, the next one opens); `refresh_list` is (function, inputs,
    outputs) of the item list's refresh, chained after each change; `demo` the page (does
    it ask for a login: who the caller is)."""
    menu = LifecycleHandlers(store)
    controls = offered(ui)

    def fail(err: EditError):
        raise messages.error(str(err)) from None

    def show_menu(request: gr.Request):
        who = event_caller(store, request, demo)
        shown = {control: access.may(who, event) for control, event in controls.items()}
        return (gr.Column(visible=True),
                gr.update(**menu.deleted_pick(shown[ui.deleted_pick])),
                gr.update(choices=store.facets()["dataset"] if shown[ui.dataset_pick] else [],
                          value=None, visible=shown[ui.dataset_pick]),
                *[gr.update(visible=shown[control]) for control in controls
                  if control not in (ui.deleted_pick, ui.dataset_pick)])

    ui.item_menu.expand(show_menu, None,
                        [ui.item_menu_body, ui.deleted_pick, ui.dataset_pick,
                         *[c for c in controls if c not in (ui.deleted_pick, ui.dataset_pick)]],
                        api_name="show_item_menu", api_visibility="private")

    def opened(item_id, request, work, message):
        messages.info(message)
        return open_item(item_id, request, work)

    def new_datasets(request) -> bool:
        """May the caller's new item make a dataset (ui/access.py ACTS make_dataset)?"""
        return access.may(event_caller(store, request, demo), "make_dataset")

    def create(work, new_id, question, files, request: gr.Request):
        user = user_of(request)
        dataset = work["saved"]["dataset"] if work else None
        try:
            with IMAGE_READS.held(user):        # its images are decoded one by one
                item_id = menu.create_from_images(new_id, question, files, user, dataset,
                                                  new_datasets(request))
        except (EditError, SlotsTaken) as err:
            fail(err)
        # the menu's fields are emptied: they described the item just made, and left filled
        # a second click made the same item again (refused: the id exists)
        return opened(item_id, request, work, f"Created {item_id} (draft).") + \
            ["", "", gr.update(value=None, interactive=False),
             escape_html(f"Created {item_id} (draft)."), gr.Accordion(open=False)]

    def check_new_item(work, new_id, question, request: gr.Request):
        """New item from images is offered only once its id and question allow an item:
        before, the file dialog came first and the id was refused after the upload."""
        dataset = work["saved"]["dataset"] if work else None
        if not (new_id or "").strip() and not (question or "").strip():
            return gr.update(interactive=False), ""
        try:
            item_id = menu.new_item_id(new_id, question, dataset, new_datasets(request))
        except EditError as err:
            return gr.update(interactive=False), escape_html(f"New item: {err}.")
        return gr.update(interactive=True), escape_html(
            f"New item {item_id}: choose its images with New item from images.")

    def refused_in_menu(err: EditError, refused: str, skipped: int, after: int = 0) -> list:
        """A refusal said on the menu's message line ("Not duplicated: …"), where it stays
        (a script's call fails with it): it showed only in a fading toast, and the line kept
        what it said before ("New item: type the new item's question first.")."""
        if from_script():
            fail(err)
        reason = str(err).rstrip(".")
        if not reason.casefold().startswith(refused.casefold()):
            reason = f"{refused}: {reason}"
        line = escape_html(f"{reason[:1].upper()}{reason[1:]}.")
        return [gr.skip()] * skipped + [line] + [gr.skip()] * after

    def duplicate(work, new_id, request: gr.Request):
        user = user_of(request)
        messages.require_open(work)
        try:
            item_id = menu.duplicate(work["saved"]["id"], new_id, user, new_datasets(request))
        except EditError as err:
            return refused_in_menu(err, "Not duplicated", len(renderer.outputs) + 1, 1)
        done = menu.duplicated(work, item_id, user)
        # the menu closes over the new item (open, it pushed its image down to ~320 px)
        return opened(item_id, request, work, done) + ["", escape_html(done),
                                                       gr.Accordion(open=False)]

    def after_change(request) -> list:
        """The deleted items' list as it now is, nothing picked, and the Reason emptied:
        the list was read when the menu opened (an item deleted since was missing, a
        restored one stayed listed and picked) and the reason stayed for the next action."""
        shown = access.may(event_caller(store, request, demo), "restore_deleted_item")
        return [gr.update(**menu.deleted_pick(shown)), ""]

    def delete(work, reason, ids, request: gr.Request):
        user = user_of(request)
        messages.require_open(work)
        current = work["saved"]["id"]
        try:
            unsaid = menu.drafts_unsaid(work, user)
            if unsaid:      # the question named the drafts of when the item opened
                work = {**work, "delete_named": sorted({*work.get("delete_named", []),
                                                        *unsaid})}
                raise EditError(
                    f"{', '.join(unsaid)} started an unsaved draft of {current} since it "
                    "opened here. Deleting keeps it, but it cannot be saved while the item "
                    "is deleted; press Delete again to delete anyway")
            message = menu.delete(work, reason, user)
        except EditError as err:
            refused = refused_in_menu(err, "Not deleted",
                                      len(renderer.outputs) + len(menu_after), 3)
            refused[renderer.index("work")] = work     # the colleagues now said
            return refused
        rest = [i for i in (ids or store.item_ids()) if i != current]
        messages.info(message)
        # the button names the item it brings back: the next item opens at once, and a bare
        # "Undo delete" read, over that one (or any item opened since), as undoing it. The
        # menu closes: it stayed open over the next item, Delete where the last click was
        undo = [escape_html(message), current, gr.update(visible=True, value=undo_label(current)),
                gr.Accordion(open=False)]
        if not rest:
            return [gr.skip()] * len(renderer.outputs) + after_change(request) + undo
        following = ids.index(current) if current in (ids or []) else 0
        out = open_item(rest[min(following, len(rest) - 1)], request, work)
        # said in the save bar's line of the item that opens, where it stays: the toast
        # faded, and the next item opened as if nothing had happened (the menu closes)
        out[renderer.index("save_message")] = messages.status(message)
        return out + after_change(request) + undo

    def undo_delete(work, item_id, request: gr.Request):
        try:
            message = menu.undo_own_delete(item_id, user_of(request))
        except EditError as err:
            fail(err)
        out = opened(item_id, request, work, message)
        # said in the save bar's line, as Restore and Delete say theirs: the item came back
        # with the bar empty (a toast alone faded)
        out[renderer.index("save_message")] = messages.status(message)
        # the menu closes over the item brought back, as after Duplicate and Delete (open,
        # it pushed the image ~280 px down)
        return out + after_change(request) + ["", None, gr.update(visible=False),
                                              gr.Accordion(open=False)]

    def restore(work, item_id, reason, request: gr.Request):
        user = user_of(request)
        try:
            message = menu.restore_deleted(item_id, reason, user)
        except EditError as err:
            fail(err)
        out = opened(item_id, request, work, message)
        # said in the save bar's line too, as Delete says its own (a toast alone faded)
        out[renderer.index("save_message")] = messages.status(message)
        return out + after_change(request) + [gr.Accordion(open=False)]   # the menu closes

    def reopen(work, reason, request: gr.Request):
        user = user_of(request)
        messages.require_open(work)
        try:
            message = menu.reopen(work, reason, user)
        except EditError as err:
            fail(err)
        return opened(work["saved"]["id"], request, work, message) + [gr.Accordion(open=False)]

    def preview(dataset):
        try:
            text, expected = menu.dataset_preview(dataset)
        except EditError as err:
            fail(err)
        return f"<b>{escape_html(text)}</b>", expected

    def delete_dataset(dataset, expected):
        try:
            message = menu.delete_dataset(dataset, expected)
        except EditError as err:
            fail(err)
        messages.info(message)
        return escape_html(message), None, gr.update(choices=store.facets()["dataset"],
                                                     value=None)

    refresh, refresh_in, refresh_out = refresh_list
    menu_after = [ui.deleted_pick, ui.lifecycle_reason]
    undo_outputs = [ui.lifecycle_message, ui.just_deleted, ui.undo_delete]
    gr.on([ui.new_id.input, ui.new_question.input], check_new_item,
          [ui.work, ui.new_id, ui.new_question], [ui.create_item, ui.lifecycle_message],
          trigger_mode="always_last", api_name="check_new_item", show_progress="hidden")
    changes = {
        "create_item": ui.create_item.upload(
            create, [ui.work, ui.new_id, ui.new_question, ui.create_item],
            renderer.outputs + [ui.new_id, ui.new_question, ui.create_item,
                                ui.lifecycle_message, ui.item_menu], api_name="create_item"),
        "duplicate_item": ui.duplicate_item.click(
            duplicate, [ui.work, ui.new_id],
            renderer.outputs + [ui.new_id, ui.lifecycle_message, ui.item_menu],
            api_name="duplicate_item"),
        "delete_item": ui.delete_item.click(
            delete, [ui.work, ui.lifecycle_reason, nav_ids],
            renderer.outputs + menu_after + undo_outputs + [ui.item_menu],
            api_name="delete_item"),
        "undo_delete": ui.undo_delete.click(
            undo_delete, [ui.work, ui.just_deleted],
            renderer.outputs + menu_after + undo_outputs + [ui.item_menu],
            api_name="undo_delete"),
        "restore_deleted_item": ui.restore_deleted.click(
            restore, [ui.work, ui.deleted_pick, ui.lifecycle_reason],
            renderer.outputs + menu_after + [ui.item_menu], api_name="restore_deleted_item"),
        "reopen_item": ui.reopen_item.click(
            reopen, [ui.work, ui.lifecycle_reason], renderer.outputs + [ui.item_menu],
            api_name="reopen_item"),
        "delete_dataset": ui.delete_dataset.click(
            delete_dataset, [ui.dataset_pick, ui.dataset_expected],
            [ui.lifecycle_message, ui.dataset_expected, ui.dataset_pick],
            api_name="delete_dataset"),
    }
    for name, event in changes.items():  # the item list shows the change
        event.success(refresh, refresh_in, refresh_out, api_name=f"{name}_list",
                      api_visibility="private", show_progress="hidden")
    ui.dataset_preview.click(preview, ui.dataset_pick,
                             [ui.lifecycle_message, ui.dataset_expected],
                             api_name="dataset_delete_preview")
