"""`user add NAME --role ROLE`, `list`, `disable`, `enable`, `password`, `role`: accounts
for the login.

The password comes from CLUELAB_PASSWORD or a prompt, never from the command line,
so it does not end up in shell history or `ps`. A disabled account cannot log in, and a
running server ends its logins at their next request, as it does after a new password; a
new role applies from the account's next request (store/users.py, ui/login_route.py).
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
    for action, helps, handler in (
            ("disable", "disable a user: no login, and its logins end", run_user_disable),
            ("enable", "enable a disabled user again", run_user_enable),
            ("password", "set a user's password ($CLUELAB_PASSWORD or a prompt); "
                         "its logins end", run_user_password)):
        one = users.add_parser(action, help=helps)
        one.add_argument("name")
        one.add_argument("--db", default="cluelab.db")
        one.set_defaults(handler=handler)
    role = users.add_parser("role", help="set a user's role")
    role.add_argument("name")
    role.add_argument("role", choices=ROLES)
    role.add_argument("--db", default="cluelab.db")
    role.set_defaults(handler=run_user_role)


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


def new_password() -> str | None:
    """The password to set (read_password), None after saying why it is refused."""
    password = read_password()
    if len(password) < 8:
        print("error: the password needs at least 8 characters", file=sys.stderr)
        return None
    return password


def changed(args, change, said: str) -> int:
    """Apply `change(store)` to an existing user of --db, then print `said`; an unknown
    user (or a refused value) is an error naming it. The database must exist already."""
    from store import Store, StoreError

    if not os.path.exists(args.db):
        print(f"error: no database at {args.db}", file=sys.stderr)
        return 2
    store = Store.open(args.db)
    try:
        said = change(store) or said
    except StoreError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    finally:
        store.close()
    print(said)
    return 0


def run_user_disable(args) -> int:
    return changed(args, lambda store: None if store.set_disabled(args.name, True) else
                   f"User {args.name} was disabled already.",
                   f"Disabled user {args.name}: it cannot log in, and its logins end.")


def run_user_enable(args) -> int:
    return changed(args, lambda store: None if store.set_disabled(args.name, False) else
                   f"User {args.name} was enabled already.",
                   f"Enabled user {args.name}.")


def run_user_password(args) -> int:
    if (password := new_password()) is None:
        return 2
    return changed(args, lambda store: store.set_password(args.name, password),
                   f"Set the password of user {args.name}; its logins end.")


def run_user_role(args) -> int:
    return changed(args, lambda store: store.set_role(args.name, args.role),
                   f"User {args.name} now has role {args.role}.")


def run_user_add(args) -> int:
    from store import Store, StoreError

    if (password := new_password()) is None:
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
        disabled = "\tdisabled" if user.get("disabled_at") else ""
        print(f"{user['name']}\t{user['role']}{disabled}")
    return 0
