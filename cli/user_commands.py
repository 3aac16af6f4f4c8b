"""`user add NAME --role ROLE`: accounts for the login.

The password comes from CLUELAB_PASSWORD or a prompt, never from the command line,
so it does not end up in shell history or `ps`.
"""
from __future__ import annotations

import getpass
import os
import sys

ROLES = ("admin", "researcher", "annotator", "participant")


def add_parser(sub) -> None:
    p = sub.add_parser("user", help="manage users")
    users = p.add_subparsers(dest="user_command", metavar="ACTION", required=True)
    add = users.add_parser("add", help="add a user (password from $CLUELAB_PASSWORD or a prompt)")
    add.add_argument("name")
    add.add_argument("--role", required=True, choices=ROLES)
    add.add_argument("--db", default="cluelab.db")
    add.set_defaults(handler=run_user_add)
    ls = users.add_parser("list", help="list users")
    ls.add_argument("--db", default="cluelab.db")
    ls.set_defaults(handler=run_user_list)


def read_password() -> str:
    password = os.environ.get("CLUELAB_PASSWORD")
    if password:
        return password
    if not sys.stdin.isatty():
        raise SystemExit("error: set CLUELAB_PASSWORD or run in a terminal to be prompted")
    first = getpass.getpass("password: ")
    if first != getpass.getpass("again: "):
        raise SystemExit("error: the passwords differ")
    return first


def run_user_add(args) -> int:
    from store import Store, StoreError

    password = read_password()
    if len(password) < 8:
        print("error: the password needs at least 8 characters", file=sys.stderr)
        return 2
    store = Store.open(args.db)
    try:
        store.add_user(args.name, args.role, password)
    except StoreError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    print(f"Added user {args.name} with role {args.role}.")   # a sentence, the same each time
    return 0


def run_user_list(args) -> int:
    from store import Store

    for user in Store.open(args.db).list_users():
        print(f"{user['name']}\t{user['role']}")
    return 0
