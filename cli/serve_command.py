"""`python app.py [serve] [--db PATH] [--host H] [--port P] [--auth|--no-auth] [--import-root DIR]`.

A database that does not exist yet, or holds only the users added before its first start,
is seeded with the demo dataset, so the first start shows something to annotate. On a loopback address the app runs in local
single-user mode unless `--auth` is given; on any other address a login is mandatory,
because the media files and every API endpoint would otherwise be open to the network.
Server paths on the Import page are read only inside the import roots (ui/import_roots.py).
"""
from __future__ import annotations

import ipaddress
import socket
import sys
from pathlib import Path

from ui.import_roots import ImportRootError, ImportRoots

ASSETS = Path(__file__).resolve().parent.parent / "assets"
DEMO_JSONL = ASSETS / "demo" / "demo.jsonl"


def add_parser(sub) -> None:
    p = sub.add_parser("serve", help="serve the web UI (the default command)")
    p.add_argument("--db", default="cluelab.db", help="SQLite database (default cluelab.db)")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=7860)
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--auth", action="store_true", help="require a login even on loopback")
    mode.add_argument("--no-auth", action="store_true",
                      help="local single-user mode without login (loopback addresses only)")
    p.add_argument("--import-root", action="append", default=[], metavar="DIR",
                   help="a folder the Import page may read server paths from (repeatable; "
                        "default: none with a login, else the working directory, the "
                        "database's folder and the home folder)")
    p.set_defaults(handler=run_serve)


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        try:
            return all(ipaddress.ip_address(info[4][0]).is_loopback
                       for info in socket.getaddrinfo(host, None))
        except OSError:
            return False


def open_seeded(db: str | Path):
    """The server's store, seeded with the demo when it was never seeded and holds no item
    (Store.needs_demo), whoever created the file first (`user add`, `endpoint add`, ...)."""
    from store import Store

    # absolute: media URLs then name the same folder the server's static paths and cache
    # headers (ui/media_http.py) resolve, whatever the working directory
    store = Store.open(Path(db).resolve())
    if store.needs_demo():
        seed_demo(store)
        store.mark_demo_seeded()
    return store


def seed_demo(store) -> None:
    """Import the demo dataset shipped in assets/ into a brand-new database."""
    from formats import import_path

    report = import_path(store, "jsonl", str(DEMO_JSONL), author="demo", may_release=True)
    print(f"seeded the new database with the demo dataset ({report.to_dict()['imported']} items)")


def run_serve(args) -> int:
    from store import Store

    loopback = is_loopback(args.host)
    if args.no_auth and not loopback:
        print(f"error: --no-auth is only allowed on a loopback address, not {args.host}: "
              "anyone on the network could edit the data", file=sys.stderr)
        return 2
    require_login = args.auth or not loopback
    try:     # checked before the database is created: a wrong flag changes nothing
        roots = ImportRoots(args.import_root) if args.import_root else \
            ImportRoots.defaults(local_mode=not require_login, db_path=args.db)
    except ImportRootError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    store = open_seeded(args.db)
    if require_login and not store.list_users():
        print("error: a login is required but the database has no users; add one with\n"
              f"  python app.py user add NAME --role admin --db {args.db}", file=sys.stderr)
        return 2
    mode = "login required" if require_login else "local single-user mode, no login (--no-auth)"
    print(f"ClueLab on http://{args.host}:{args.port}  database {args.db}  ({mode})")
    print(f"server paths importable from: {roots.describe()}")

    from ui.server import launch

    launch(store, host=args.host, port=args.port, require_login=require_login,
           import_roots=roots)
    return 0
