"""The Annotate page's item menu: new item from images, duplicate, delete, restore a deleted
item, reopen a released one, delete a dataset. Plain functions over the store, free of Gradio.

Each returns what the page shows next (the id of the item to open, or a message) or raises
EditError with a sentence naming what was wrong; a refused action writes nothing. Who may do
what is the caller's check (editors: create, duplicate, delete; admins: the rest), passed
in where it decides what an action may do: `new_datasets`, may a new item make a dataset
not there yet (ui/access.py ACTS make_dataset: those who may import)?
"""
from __future__ import annotations

from pathlib import Path

from domain.item_ids import id_key, look_alike, new_id_refusal, visible, without_direction_marks
from store import ConflictError, MediaError, NewDatasetRefusedError, StoreError, diff_items
from store.lifecycle import describe_counts
from ui.access import roles_that_may
from ui.editor_model import EditError, content_only
from ui.editor_notices import AFTER_RELOAD, restore_ways
from ui.times import in_message, shown


def no_dataset(dataset: str) -> str:
    """Why a new item may not make the dataset its id names (ui/access.py ACTS)."""
    return (f"there is no dataset '{visible(dataset)}'; a dataset is made by importing, by "
            f"an {roles_that_may('make_dataset')}")


def stale_delete(err: ConflictError) -> str:
    """Why a delete of a version since saved over was refused, and what to do: it read
    "was changed by ann2 at 2026-12-07T04:16:24Z (version 2); you edited version 1" to a
    user who had edited nothing, and left them there."""
    return (f"{err.item_id} was changed by {err.updated_by} at {shown(err.updated_at)} "
            f"(now version {err.current_version}); you had version {err.base_version} open. "
            f"Open it again in the item list to see version {err.current_version}, then "
            "delete it if you still want to")


class LifecycleHandlers:
    def __init__(self, store):
        self.store = store

    def new_item_id(self, new_id: str, question: str, current_dataset: str | None,
                    new_datasets: bool = False) -> str:
        """The id a new item would get (`new_id` without a `dataset/` prefix goes in
        `current_dataset`), or EditError when the id or the question does not allow one
        (a dataset not there yet: only with `new_datasets`).
        Asked before the images are chosen, so that nobody picks and uploads files for an
        item the id already refuses."""
        new_id = (new_id or "").strip()
        if not new_id:
            raise EditError("type an id for the new item first (e.g. mydata/street-42)")
        if not (question or "").strip():
            raise EditError("type the new item's question first")
        if "/" not in new_id and current_dataset:
            new_id = f"{current_dataset}/{new_id}"
        if refused := new_id_refusal(new_id):
            raise EditError(f"no item created: {refused}")
        if self.store.item_exists(new_id):
            raise EditError(f"an item with id '{new_id}' already exists")
        self._reads_apart(new_id, "no item created")
        self._in_a_dataset(new_id, new_datasets, "no item created")
        return new_id

    def _in_a_dataset(self, new_id: str, new_datasets: bool, refused: str) -> None:
        """Without `new_datasets`, a new item goes only in a dataset that is there: an
        annotator's Duplicate to "javascript:alert(1)//x" made a dataset of that name,
        listed in everyone's Dataset filter, Export list and Statistics."""
        dataset = new_id.split("/", 1)[0]
        if "/" in new_id and not new_datasets and not self.store.dataset_exists(dataset):
            raise EditError(f"{refused}: {no_dataset(dataset)}")

    def _reads_apart(self, new_id: str, refused: str) -> None:
        """A new id must not read as another's: told apart only by case or look-alike
        characters ("demо/bus-stop", a Cyrillic o), a copy with another gold answer stood in
        the list beside the item, and its dataset beside "demo" (domain/item_ids.look_alike)."""
        twin = look_alike(new_id, self.store.item_ids())
        if twin is not None:
            what = f"it reads as {twin}" if id_key(twin) == id_key(new_id) else \
                f"its dataset {new_id.split('/', 1)[0]} reads as {twin.split('/', 1)[0]}"
            raise EditError(f"{refused}: {what}, told apart only by case, spaces or "
                            "look-alike characters; choose an id that reads differently")

    def create_from_images(self, new_id: str, question: str, files: list, user: str,
                           current_dataset: str | None = None,
                           new_datasets: bool = False) -> str:
        """Create a draft item with the uploaded images; returns its id.

        Every image is checked (decoded) before the item is created: one bad file and no
        item is made. `new_id` without a `dataset/` prefix goes in `current_dataset`; a
        dataset not there yet only with `new_datasets`."""
        new_id = self.new_item_id(new_id, question, current_dataset, new_datasets)
        if not files:
            raise EditError("choose one or more images for the new item")
        shas = []
        for upload in files:
            path = Path(upload if isinstance(upload, str) else upload.name)
            try:
                sha = self.store.add_image(path, without_direction_marks(path.name)).sha256
            except MediaError as err:
                raise EditError(f"no item created: {err}") from None
            if sha not in shas:
                shas.append(sha)
        item = {"id": new_id, "question": question.strip(), "answer_type": "open",
                "status": "draft", "images": shas}
        self._call(self.store.create_item, item, user, "created from uploaded images",
                   counted=True, may_add_dataset=new_datasets)
        return new_id

    def duplicate(self, item_id: str, new_id: str, user: str, new_datasets: bool = False) -> str:
        """Copy the item as a draft under `new_id` (default: `<id>-copy`, `-copy-2`, …; an
        id without a `dataset/` prefix goes in the item's dataset; a dataset not there yet
        only with `new_datasets`)."""
        new_id = (new_id or "").strip()
        if new_id and "/" not in new_id and "/" in item_id:
            new_id = f"{item_id.split('/', 1)[0]}/{new_id}"
        new_id = new_id or self._free_id(f"{item_id}-copy")
        if refused := new_id_refusal(new_id):
            raise EditError(f"not duplicated: {refused}")
        self._reads_apart(new_id, "not duplicated")
        self._in_a_dataset(new_id, new_datasets, "not duplicated")
        self._call(self.store.duplicate_item, item_id, new_id, user, new_datasets)
        return new_id

    def duplicated(self, work: dict, new_id: str, user: str) -> str:
        """The line saying what Duplicate made of the open item: a copy of it as saved. With
        unsaved edits of it (the user's draft, or edits the page holds) the line says they
        are not in the copy: "a copy of t/open2 (draft)" read as a copy of the draft."""
        item_id = work["saved"]["id"]
        edited = self.store.get_draft(user, item_id) is not None or bool(
            diff_items(content_only(work["item"]), content_only(work["saved"])))
        if not edited:
            return f"Created {new_id}, a copy of {item_id} (draft)."
        version = self.store.get_item(item_id)["version"]      # the one copied (store)
        return (f"Created {new_id} (draft), a copy of {item_id} as saved (version {version}): "
                f"your unsaved edits of {item_id} are not in it; they stay in your draft of "
                f"{item_id}.")

    def _free_id(self, wanted: str) -> str:
        candidate, n = wanted, 1
        while self.store.item_exists(candidate):
            n += 1
            candidate = f"{wanted}-{n}"
        return candidate

    def drafts_unsaid(self, work: dict, user: str) -> list[str]:
        """The colleagues with an unsaved draft of the open item that Delete's question did
        not name (`work["delete_named"]`: the drafts when the item opened or was refreshed):
        one started a moment before Delete went unsaid."""
        named = set(work.get("delete_named") or [])
        return sorted({d["user"] for d in self.store.others_drafts(work["item"]["id"], user)}
                      - named)

    def delete(self, work: dict, reason: str, user: str) -> str:
        """Delete the open item (as the user last loaded it); returns a message. The user's
        own draft of it stays, as colleagues' drafts do: it was dropped, and Undo delete
        brought the item back without the unsaved edits made just before the delete."""
        item_id, version = work["item"]["id"], work["saved"]["version"]
        try:
            self.store.delete_item(item_id, user, reason or "", version)
        except ConflictError as err:
            raise EditError(stale_delete(err)) from None
        except StoreError as err:
            raise EditError(in_message(str(err))) from None
        kept = (" Your unsaved edits of it are kept as your draft and come back with it."
                if self.store.get_draft(user, item_id) else "")
        return (f"Deleted {item_id}. \"Undo delete of {item_id}\" (in the Item menu) brings "
                f"it back and opens it while this page is open; {AFTER_RELOAD}"
                f"{restore_ways(item_id)}.{kept}")

    def restore_deleted(self, item_id: str, reason: str, user: str) -> str:
        """Bring back a deleted item (admins): the sentence the save bar shows."""
        if not item_id:
            raise EditError("choose a deleted item to restore")
        version = self._call(self.store.restore_deleted, item_id, user, reason or "")
        return f"Restored {item_id} (version {version})."

    def undo_own_delete(self, item_id: str | None, user: str) -> str:
        """Bring back the item `user` deleted last in this page: a delete by mistake was
        for an admin to undo. Only the user's own delete (the store checks it). Returns the
        sentence the save bar shows, as Restore's: "Restored ui/beta (version 4)." (the
        save bar said nothing after an undo)."""
        if not item_id:
            raise EditError("nothing to undo: you deleted no item in this page")
        version = self._call(self.store.restore_deleted, item_id, user, "undo of own delete",
                             user)
        return f"Restored {item_id} (version {version})."

    def reopen(self, work: dict, reason: str, user: str) -> str:
        item_id = work["item"]["id"]
        version = self._call(self.store.reopen_item, item_id, user, reason,
                             work["saved"]["version"])
        return f"Reopened {item_id} (version {version}, status in_review)."

    def deleted_ids(self) -> list[str]:
        return [row["id"] for row in self.store.deleted_items()]

    def deleted_pick(self, shown: bool) -> dict:
        """The "Deleted items" list as the menu opens and after each delete or restore: the
        deleted items as they now are (for those who may restore; hidden for the others),
        nothing picked."""
        return {"choices": self.deleted_ids() if shown else [], "value": None,
                "visible": shown}

    def dataset_preview(self, dataset: str) -> tuple[str, int]:
        """(what deleting the dataset removes, its item count to confirm with)."""
        if not dataset:
            raise EditError("choose a dataset")
        counts = self._call(self.store.dataset_counts, dataset)
        return (f"Deleting {describe_counts(counts)}. This cannot be undone.",
                counts["items"])

    def delete_dataset(self, dataset: str, expected_items: int | None) -> str:
        if not dataset or expected_items is None:
            raise EditError("show what deleting the dataset removes first, then confirm")
        counts = self._call(self.store.delete_dataset, dataset, int(expected_items))
        return f"Deleted {describe_counts(counts)}."

    @staticmethod
    def _call(function, *args, **kwargs):
        """The store's refusals as EditError (their messages name the item and field)."""
        try:
            return function(*args, **kwargs)
        except NewDatasetRefusedError as err:   # made since _in_a_dataset looked
            raise EditError(no_dataset(err.dataset)) from None
        except StoreError as err:  # not found, duplicate id, conflict, read-only, invalid
            raise EditError(in_message(str(err))) from None
