"""`item duplicate|delete|restore|reopen|deleted` and `dataset delete`: the life cycle of items.

The command line is the operator's tool (whoever can open the database file): it records the
author given with `--author` (default `cli`) in history. Deleting a dataset is final, so
without `--yes` it only prints what it would remove; with `--yes` it removes exactly the
number of items it printed (store.lifecycle.delete_dataset refuses if that changed).
"""
from __future__ import annotations

import json

from cli.endpoint_commands import fail, open_store
from domain.item_ids import look_alike, new_id_refusal, shown_id, typed_id_refusal


def add_parsers(sub) -> None:
    p = sub.add_parser("item", help="duplicate, delete, restore or reopen an item")
    actions = p.add_subparsers(dest="item_command", metavar="ACTION", required=True)
    for name, help_text in (("duplicate", "copy ITEM to NEW_ID (a draft)"),
                            ("delete", "delete ITEM (restorable: `item restore`)"),
                            ("restore", "bring a deleted ITEM back"),
                            ("reopen", "make a released ITEM editable (needs --reason)"),
                            ("deleted", "list deleted items")):
        a = actions.add_parser(name, help=help_text)
        a.add_argument("--db", default="cluelab.db")
        if name != "deleted":
            a.add_argument("item_id", metavar="ITEM")
            a.add_argument("--author", default="cli")
        if name == "duplicate":
            a.add_argument("new_id", metavar="NEW_ID")
        if name in ("delete", "restore", "reopen"):
            a.add_argument("--reason", default="", help="recorded in the item's history")
        if name == "deleted":
            a.add_argument("--dataset")
        a.set_defaults(handler=run_item)

    p = sub.add_parser("dataset", help="delete a dataset for good")
    actions = p.add_subparsers(dest="dataset_command", metavar="ACTION", required=True)
    d = actions.add_parser("delete", help="show what deleting NAME removes; --yes deletes it")
    d.add_argument("name", metavar="NAME")
    d.add_argument("--db", default="cluelab.db")
    d.add_argument("--yes", action="store_true", help="really delete")
    d.add_argument("--json", action="store_true")
    d.set_defaults(handler=run_dataset_delete)


def run_item(args) -> int:
    return _with_store(args, _item_action)


def _with_store(args, action) -> int:
    """Run `action(store, args)` on the database; a store refusal is an error line, exit 2."""
    from store import StoreError

    store = open_store(args.db)
    try:
        return action(store, args)
    except StoreError as err:
        return fail(str(err))
    finally:
        store.close()


def _item_action(store, args) -> int:
    action = args.item_command
    for typed in (getattr(args, "item_id", ""), getattr(args, "new_id", "")):
        if refused := typed_id_refusal(typed):      # never printed back: see domain/item_ids
            return fail(f"item {action}: {refused}")
    if action == "deleted":
        for row in store.deleted_items(args.dataset):
            print(f"{row['id']}\tdeleted by {row['deleted_by']} at {row['deleted_at']}")
        return 0
    if action == "duplicate":      # held to the rules the page's Duplicate applies
        if refused := new_id_refusal(args.new_id):
            return fail(f"item duplicate: {refused}")
        twin = look_alike(args.new_id, store.item_ids())
        if twin is not None:
            return fail(f"item duplicate: the new id reads as {shown_id(twin)}, an item "
                        "there is; choose one told apart from it")
        store.duplicate_item(args.item_id, args.new_id, args.author)
        print(f"created {args.new_id} (version 1, draft) from {args.item_id}")
        return 0
    call = {"delete": store.delete_item, "restore": store.restore_deleted,
            "reopen": store.reopen_item}[action]
    version = call(args.item_id, args.author, args.reason)
    done = {"delete": "deleted", "restore": "restored", "reopen": "reopened"}[action]
    print(f"{done} {args.item_id} (history: version {version})")
    return 0


def run_dataset_delete(args) -> int:
    return _with_store(args, _dataset_delete)


def _dataset_delete(store, args) -> int:
    from store.lifecycle import describe_counts

    counts = store.dataset_counts(args.name)
    if args.yes:
        store.delete_dataset(args.name, counts["items"])
    if args.json:
        print(json.dumps({**counts, "deleted": args.yes}))
    else:
        print(("Deleted" if args.yes else "Would delete") + " " + describe_counts(counts)
              + ("" if args.yes else "\nRun again with --yes to delete it."))
    return 0
