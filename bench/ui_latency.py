#!/usr/bin/env python3
"""Benchmark: latency of the editor's `load_item` and `save_item` API calls on the real server.

Starts `python app.py serve --db DB --no-auth` (a subprocess on a free port) on the MMR-Life
database made by bench/import_mmr_life.py, connects with gradio_client, and for N items spread
evenly over the database (every k-th id in browser order):

  load   client.predict(item_id, api_name="/load_item")            (the item-id box's Enter)
  save   client.predict(*form values as load returned them, annotator, comment,
                        api_name="/save_item")                       (the Save button)

in the same client session, so the server-side `work` state of the session is the item just
loaded. The question gets a trailing " [bench]" marker toggled on or off, so every save
writes a new revision (and two runs leave the text as it was).

Timing is the wall time of `Client.predict` (queue join + SSE stream + the handler + pre- and
post-processing), which is what the browser waits for minus its own rendering. The client is
created with download_files=False: by default gradio_client downloads every image a response
names (strip, annotator, option gallery) before predict returns, which the browser does not
do before showing the form. Targets (issue): p95 <= 150 ms for each.

The annotator input of save_item is an AnnotatedImageData dict. Variants (--annotator):
  path  {"image": <the FileData dict load_item returned>, "boxes": <its boxes>}: what the
        browser sends; the server's preprocess only takes the path (no decode, no copy).
  none  None: the annotator's boxes are left as the work state has them (cheapest).
  both  (default) alternate path and none item by item, so their ratio comes from one run.
{"image": None, "boxes": [...]} is refused by the component's data model (422-style
validation error: FileData.meta required), so it is not an option.

Run:  python bench/ui_latency.py [--db bench/out/mmr.db] [--items 200] [--annotator both]
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import DEFAULT_DB, Server, emit, log, machine, summarize

TARGET_P95_MS = 150.0
MARK = " [bench]"


def unwrap(value):
    """gr.update(...) outputs arrive as {"__type__": "update", "value": ...}."""
    if isinstance(value, dict) and value.get("__type__") == "update":
        return value.get("value")
    return value


def pick_ids(db: Path, n: int) -> list[str]:
    from store import Store

    store = Store(db)           # no migrations, read only
    try:
        ids = store.item_ids()
    finally:
        store.close()
    if not ids:
        raise SystemExit(f"{db} has no items; run bench/import_mmr_life.py first")
    step = max(1, len(ids) // n)
    return ids[::step][:n]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n", 2)[2])
    ap.add_argument("--db", type=Path, default=DEFAULT_DB,
                    help=f"database from bench/import_mmr_life.py (default {DEFAULT_DB})")
    ap.add_argument("--items", type=int, default=200)
    ap.add_argument("--warmup", type=int, default=5, help="untimed load+save pairs first")
    ap.add_argument("--annotator", choices=("path", "none", "both"), default="both")
    ap.add_argument("--download-files", action="store_true",
                    help="let gradio_client download the images of every response "
                         "(its default; not what a browser does)")
    args = ap.parse_args(argv)

    from gradio_client import Client

    db = args.db.resolve()
    if not db.exists():
        raise SystemExit(f"{db} not found; run bench/import_mmr_life.py first")
    ids = pick_ids(db, args.items + args.warmup)
    warm, ids = ids[:args.warmup], ids[args.warmup:]

    with Server(db) as server:
        log(f"server up in {server.startup_s:.1f} s at {server.url}")
        client = Client(server.url, verbose=False, download_files=args.download_files)
        api = client.view_api(return_format="dict", print_info=False)["named_endpoints"]
        returns = [p["label"] for p in api["/load_item"]["returns"]]
        params = [p["label"] for p in api["/save_item"]["parameters"]]
        missing = [p for p in params if p not in returns and not p.startswith("Comment")]
        if missing:
            raise SystemExit(f"save_item inputs not among load_item outputs: {missing}")

        def save_args(loaded: dict, variant: str) -> list:
            values = []
            for label in params:
                if label.startswith("Comment"):
                    values.append("bench/ui_latency.py")
                    continue
                value = unwrap(loaded[label])
                if label == "Question":
                    value = value[:-len(MARK)] if value.endswith(MARK) else value + MARK
                elif label == "Clue boxes":
                    value = None if variant == "none" or not value else \
                        {"image": value["image"], "boxes": value.get("boxes", [])}
                values.append(value)
            return values

        samples = {"load": [], "save": {"path": [], "none": []}}
        failures = []

        def one(item_id: str, variant: str, timed: bool) -> None:
            t = time.perf_counter()
            out = client.predict(item_id, api_name="/load_item")
            t_load = time.perf_counter() - t
            loaded = dict(zip(returns, out))
            if loaded.get("Item id (Enter opens)") != item_id:
                failures.append((item_id, "load returned another item"))
            values = save_args(loaded, variant)
            t = time.perf_counter()
            out = client.predict(*values, api_name="/save_item")
            t_save = time.perf_counter() - t
            if not any(isinstance(o, str) and o.startswith(f"Saved {item_id} as version")
                       for o in out):
                failures.append((item_id, "save did not report 'Saved … version N'"))
            if timed:
                samples["load"].append(t_load)
                samples["save"][variant].append(t_save)

        for item_id in warm:
            one(item_id, "path", timed=False)
        started = time.perf_counter()
        for n, item_id in enumerate(ids):
            variant = args.annotator if args.annotator != "both" else ("path", "none")[n % 2]
            one(item_id, variant, timed=True)
            if (n + 1) % 50 == 0:
                log(f"{n + 1}/{len(ids)} items, load median "
                    f"{1000 * statistics.median(samples['load']):.0f} ms")
        wall = time.perf_counter() - started

    load = summarize(samples["load"], 1000)
    save_all = samples["save"]["path"] + samples["save"]["none"]
    save = {"all": summarize(save_all, 1000)}
    for variant in ("path", "none"):
        if samples["save"][variant]:
            save[variant] = summarize(samples["save"][variant], 1000)
    ratios = {"load_p95_to_target": round(load["p95"] / TARGET_P95_MS, 2),
              "save_p95_to_target": round(save["all"]["p95"] / TARGET_P95_MS, 2)}
    if "path" in save and "none" in save:
        ratios["save_median_path_over_none"] = round(save["path"]["median"]
                                                     / save["none"]["median"], 2)
    summary = {
        "benchmark": "ui_latency",
        "items": len(ids),
        "annotator_variant": args.annotator,
        "download_files": args.download_files,
        "load_item_ms": load,
        "save_item_ms": save,
        "target_p95_ms": TARGET_P95_MS,
        "ratios": ratios,
        "meets_target": {"load": load["p95"] <= TARGET_P95_MS,
                         "save": save["all"]["p95"] <= TARGET_P95_MS},
        "failures": failures[:10],
        "failure_count": len(failures),
        "wall_s": round(wall, 1),
        "db": str(db),
        "machine": machine(),
    }
    emit(summary)
    return 0 if not failures else 1


if __name__ == "__main__":
    sys.exit(main())
