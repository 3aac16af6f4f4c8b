#!/usr/bin/env python3
"""Benchmark: latency of the editor's `load_item` and `save_item` API calls on the real server.

Starts `python app.py serve --db DB --no-auth` (a subprocess on a free port) on the MMR-Life
database made by bench/import_mmr_life.py. For each item (every k-th id in browser order, a
different item for every call pair):

  load   api_name "/load_item" with the item id        (the item-id box's Enter)
  save   api_name "/save_item" with the form values as load returned them, the annotator
         value, a comment                              (the Save button)

in one client session, so the server-side `work` state is the item just loaded. The question
gets a trailing " [bench]" marker toggled on or off, so every save writes a new revision (two
runs leave the text as it was). Wall time per call, medians and p95. Target (issue): p95
<= 150 ms for each.

Arms, rotated item by item so their ratios come from one run:
  gradio/none  gradio_client.Client(download_files=False, ssl_verify=False).predict(...);
               annotator input None (the session keeps the boxes it has). The least overhead
               gradio_client allows. ssl_verify=False changes nothing on the wire for an
               http:// URL (there is no TLS); it only stops gradio_client from building a
               certificate store, which it does for every request: see gradio-default.
  gradio-default/none
               the same with gradio_client's default ssl_verify=True: each call creates two
               httpx clients (the POST and the SSE stream), and each loads certifi's CA
               bundle, about 55 ms of client CPU apiece on this machine.
  gradio/path  gradio_client, annotator {"image": <FileData load returned>, "boxes": [...]}.
               gradio_client treats any FileData dict with a local path as a file to UPLOAD,
               so each save first POSTs the image to /upload (and the server then preprocesses
               the uploaded copy). Cheap for MMR-Life's small PNGs, seconds for a 10 MB photo.
  raw/path     the browser's protocol with nothing added (bench/_common.RawGradioClient):
               keep-alive POST /gradio_api/queue/join + GET /queue/data (SSE) until
               process_completed; annotator sent back as the FileData the server returned
               (its static media path; no upload), boxes with "rgb(r, g, b)" colours.
               This is what the page waits for, minus its own rendering.

Why the two clients differ: gradio_client (2.7) opens a new httpx client for every POST and
every SSE stream, runs a cancel-watcher thread per call and polls for the result with 50 ms
sleeps; the browser keeps connections open and is event driven. download_files=False avoids
gradio_client downloading every image a response names (strip, annotator, options) before
predict returns, which the browser does not wait for either.
{"image": None, "boxes": [...]} is refused by the component's data model (FileData.meta is
required), so it is not an option. Box colours must be sent as "rgb(r, g, b)": echoing the
[r, g, b] lists that load returns makes the component's preprocess raise TypeError.

Run:  python -m bench.ui_latency [--db bench/out/mmr.db] [--items 200] [--arms gradio/none,raw/path]
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from bench._common import DEFAULT_DB, QuietGate, Server, emit, log, machine, summarize

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
        raise SystemExit(f"{db} has no items; run python -m bench.import_mmr_life first")
    step = max(1, len(ids) // n)
    return ids[::step][:n]


def fix_boxes(boxes: list) -> list:
    """Boxes as the browser's annotator sends them: colour as an "rgb(r, g, b)" string.

    The component's postprocess returns colours as [r, g, b] lists, which its own preprocess
    cannot parse (TypeError in re.match), so a value echoed back unchanged fails on any item
    that has boxes.
    """
    out = []
    for box in boxes or []:
        box = dict(box)
        if isinstance(box.get("color"), (list, tuple)):
            box["color"] = "rgb({}, {}, {})".format(*box["color"][:3])
        out.append(box)
    return out


def toggle(question: str) -> str:
    return question[:-len(MARK)] if question.endswith(MARK) else question + MARK


ARMS = {
    "gradio/none": "gradio_client (ssl_verify=False); annotator input None (boxes left as the "
                   "session has them)",
    "gradio-default/none": "gradio_client with its default ssl_verify=True (a CA bundle loaded "
                           "twice per call); annotator input None",
    "gradio/path": "gradio_client (ssl_verify=False); annotator = {image: FileData as returned, boxes}: "
                   "gradio_client uploads that file again before the call",
    "raw/path": "browser protocol (keep-alive POST /queue/join + SSE); annotator = FileData "
                "as returned (static media path, no upload), boxes: what the page sends",
}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n", 2)[2])
    ap.add_argument("--db", type=Path, default=DEFAULT_DB,
                    help=f"database from bench/import_mmr_life.py (default {DEFAULT_DB})")
    ap.add_argument("--items", type=int, default=200, help="items per arm (default 200)")
    ap.add_argument("--warmup", type=int, default=5, help="untimed load+save pairs per arm")
    ap.add_argument("--arms", default=",".join(ARMS),
                    help=f"comma-separated, rotated item by item (default all: {', '.join(ARMS)})")
    ap.add_argument("--download-files", action="store_true",
                    help="let gradio_client download the images of every response "
                         "(its default; not what a browser does)")
    ap.add_argument("--max-busy", type=float, default=0.6,
                    help="before each round wait until fewer cores than this are busy "
                         "(other users' jobs; default 0.6 of 2)")
    ap.add_argument("--no-quiet-wait", action="store_true", help="measure regardless of load")
    args = ap.parse_args(argv)

    from gradio_client import Client

    from bench._common import RawGradioClient

    arms = [a.strip() for a in args.arms.split(",") if a.strip()]
    unknown = [a for a in arms if a not in ARMS]
    if unknown:
        raise SystemExit(f"unknown arm(s) {unknown}; choose from {list(ARMS)}")
    db = args.db.resolve()
    if not db.exists():
        raise SystemExit(f"{db} not found; run python -m bench.import_mmr_life first")
    total = (args.items + args.warmup) * len(arms)
    ids = pick_ids(db, total)
    if len(ids) < total:
        raise SystemExit(f"{db} has only {len(ids)} items; lower --items")

    samples = {arm: {"load": [], "save": []} for arm in arms}
    failures = []
    with Server(db) as server:
        log(f"server up in {server.startup_s:.1f} s at {server.url}")
        clients = {
            "gradio": Client(server.url, verbose=False, download_files=args.download_files,
                             ssl_verify=False),
            "gradio-default": Client(server.url, verbose=False,
                                     download_files=args.download_files),
        }
        gc = clients["gradio"]
        api = gc.view_api(return_format="dict", print_info=False)["named_endpoints"]
        returns = [p["label"] for p in api["/load_item"]["returns"]]
        params = [p["label"] for p in api["/save_item"]["parameters"]]
        ticks = "Import problems you have resolved"     # the save's ticks: none here
        missing = [p for p in params if p not in returns and not p.startswith("Comment")
                   and p != ticks]
        if missing:
            raise SystemExit(f"save_item inputs not among load_item outputs: {missing}")
        raw = RawGradioClient(server.url)
        id_box = next(c for c in raw.deps["load_item"]["inputs"])

        def gradio_arm(gc, item_id: str, variant: str) -> tuple[float, float]:
            t = time.perf_counter()
            out = gc.predict(item_id, api_name="/load_item")
            t_load = time.perf_counter() - t
            loaded = dict(zip(returns, out))
            if loaded.get(returns[0]) != item_id:
                failures.append((item_id, "load returned another item"))
            values = []
            for label in params:
                if label.startswith("Comment"):
                    values.append("bench/ui_latency.py")
                    continue
                if label == ticks:
                    values.append([])
                    continue
                value = unwrap(loaded[label])
                if label == "Question":
                    value = toggle(value)
                elif label == "Clue boxes":
                    value = None if variant == "none" or not value else \
                        {"image": value["image"], "boxes": fix_boxes(value.get("boxes"))}
                values.append(value)
            t = time.perf_counter()
            out = gc.predict(*values, api_name="/save_item")
            t_save = time.perf_counter() - t
            if not any(isinstance(o, str) and o.replace("\\", "").startswith(f"Saved {item_id} as version")
                       for o in out):
                failures.append((item_id, "save did not report 'Saved … version N'"))
            return t_load, t_save

        def raw_arm(item_id: str) -> tuple[float, float]:
            t = time.perf_counter()
            out = raw.call("load_item", {id_box: item_id})
            t_load = time.perf_counter() - t
            values = {}
            for cid in raw.deps["save_item"]["inputs"]:
                label = raw.label(cid) or ""
                if raw.is_state(cid):
                    continue
                if label.startswith("Comment"):
                    values[cid] = "bench/ui_latency.py"
                    continue
                value = unwrap(out.get(cid))
                if label == "Question":
                    value = toggle(value)
                elif label == "Clue boxes" and value:
                    value = {"image": value["image"], "boxes": fix_boxes(value.get("boxes")),
                             "orientation": value.get("orientation", 0)}
                values[cid] = value
            t = time.perf_counter()
            out = raw.call("save_item", values)
            t_save = time.perf_counter() - t
            if not any(isinstance(o, str) and o.replace("\\", "").startswith(f"Saved {item_id} as version")
                       for o in out.values()):
                failures.append((item_id, "raw save did not report 'Saved … version N'"))
            return t_load, t_save

        def run(arm: str, item_id: str):
            client, variant = arm.split("/")
            if client == "raw":
                return raw_arm(item_id)
            return gradio_arm(clients[client], item_id, variant)

        it = iter(ids)
        for _ in range(args.warmup):
            for arm in arms:
                run(arm, next(it))
        gate = QuietGate(args.max_busy, enabled=not args.no_quiet_wait)
        started = time.perf_counter()
        for n in range(args.items):
            gate.wait()
            for arm in arms:
                t_load, t_save = run(arm, next(it))
                samples[arm]["load"].append(t_load)
                samples[arm]["save"].append(t_save)
            if (n + 1) % 50 == 0:
                log(f"{n + 1}/{args.items} rounds: " + "; ".join(
                    f"{arm} load {1000 * statistics.median(samples[arm]['load']):.0f} ms "
                    f"save {1000 * statistics.median(samples[arm]['save']):.0f} ms"
                    for arm in arms))
        wall = time.perf_counter() - started
        raw.close()

    results = {}
    for arm in arms:
        load = summarize(samples[arm]["load"], 1000)
        save = summarize(samples[arm]["save"], 1000)
        results[arm] = {"what": ARMS[arm], "load_item_ms": load, "save_item_ms": save,
                        "p95_to_target": {"load": round(load["p95"] / TARGET_P95_MS, 2),
                                          "save": round(save["p95"] / TARGET_P95_MS, 2)},
                        "meets_target": {"load": load["p95"] <= TARGET_P95_MS,
                                         "save": save["p95"] <= TARGET_P95_MS}}
    ratios = {}
    if "gradio/none" in results and "raw/path" in results:
        for k in ("load_item_ms", "save_item_ms"):
            ratios[f"{k[:-3]} median gradio/none over raw/path"] = round(
                results["gradio/none"][k]["median"] / results["raw/path"][k]["median"], 2)
    if "gradio/none" in results and "gradio/path" in results:
        ratios["save_item median gradio/path over gradio/none"] = round(
            results["gradio/path"]["save_item_ms"]["median"]
            / results["gradio/none"]["save_item_ms"]["median"], 2)
    summary = {
        "benchmark": "ui_latency",
        "items_per_arm": args.items,
        "target_p95_ms": TARGET_P95_MS,
        "arms": results,
        "ratios": ratios,
        "download_files": args.download_files,
        "failures": failures[:10],
        "failure_count": len(failures),
        "wall_s": round(wall, 1),
        "quiet_gate": gate.report(),
        "db": str(db),
        "machine": machine(),
    }
    emit(summary)
    return 0 if not failures else 1


if __name__ == "__main__":
    sys.exit(main())
