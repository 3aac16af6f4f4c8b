"""`import`, `export` and `stats`: moving benchmark files in and out of a database.

These commands never seed demo data: only the server does, so a researcher's database
holds exactly what they imported.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from cli.progress import TerminalProgress


def add_parsers(sub) -> None:
    from formats import EXPORT_FORMATS, IMPORT_FORMATS

    p = sub.add_parser("import", help="import a benchmark file into a database")
    p.add_argument("--db", default="cluelab.db", help="SQLite database (created if missing)")
    p.add_argument("--format", required=True, choices=sorted(IMPORT_FORMATS))
    p.add_argument("--images", help="folder that image paths in the file are relative to")
    p.add_argument("--dataset", help="dataset name (overrides the file's own)")
    p.add_argument("--replace", action="store_true",
                   help="items already in the store: replace those that differ (a new "
                        "revision, history kept) instead of skipping them")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.add_argument("path", help="file (or folder, for verbench) to import")
    p.set_defaults(handler=run_import)

    p = sub.add_parser("export", help="export a database (or one dataset) to a file")
    p.add_argument("--db", default="cluelab.db")
    p.add_argument("--format", required=True, choices=sorted(EXPORT_FORMATS))
    p.add_argument("--dataset", help="export only this dataset")
    p.add_argument("out", help="output file")
    p.set_defaults(handler=run_export)

    p = sub.add_parser("stats", help="counts and distributions of a database")
    p.add_argument("--db", default="cluelab.db")
    p.add_argument("--json", action="store_true")
    p.set_defaults(handler=run_stats)


def _open_store(db: str, must_exist: bool):
    from store import Store

    if must_exist and not Path(db).exists():
        raise SystemExit(f"error: database {db} does not exist")
    return Store.open(db)


def run_import(args) -> int:
    from formats import FormatError, import_path
    from store import StoreError

    store = _open_store(args.db, must_exist=False)
    progress = None if args.json else TerminalProgress("importing")
    try:
        report = import_path(
            store, args.format, args.path, images_dir=args.images,
            dataset=args.dataset, author="cli", progress=progress, replace=args.replace,
            may_release=True,    # the operator of the database file: every role's rights
        )
    except (FormatError, StoreError) as err:
        if progress:
            progress.close()
        if args.json:
            print(json.dumps({"error": str(err)}))
        print(f"error: {err}", file=sys.stderr)
        print("nothing was imported; the database is unchanged", file=sys.stderr)
        return 2
    if progress:
        progress.close()
    if args.json:
        print(json.dumps(report.to_dict(), ensure_ascii=False))
    else:
        print(report.render_text())
    return 0


def run_export(args) -> int:
    from formats import FormatError, export_path
    from store import StoreError

    store = _open_store(args.db, must_exist=True)
    try:
        summary = export_path(store, args.format, args.out, dataset=args.dataset)
    except (FormatError, StoreError, OSError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    print(json.dumps(summary, ensure_ascii=False))
    if summary.get("formula_cells"):
        from ui.io_lines import FORMULA_ADVICE
        print(f"warning: {summary['formula_cells']} cells begin with = + - or @ (kept as "
              f"written): {FORMULA_ADVICE}", file=sys.stderr)
    from ui.io_lines import controls_said, lost_options_said
    for said in filter(None, (controls_said(summary), lost_options_said(summary))):
        print(f"warning: {said}", file=sys.stderr)
    return 0


def run_stats(args) -> int:
    from store.stats import render_stats

    store = _open_store(args.db, must_exist=True)
    stats = store.stats()
    if args.json:
        print(json.dumps(stats, ensure_ascii=False, sort_keys=True))
        return 0
    print(render_stats(stats))
    return 0
