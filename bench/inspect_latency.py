"""Benchmark: the Inspect tab on a 50,000-response run, through the real server.

    python -m bench.inspect_latency [--items 2000] [--repeats 5] [--samples 5] [--opens 80]
                                    [--filter-rounds 5] [--keep DIR]

Builds a database in a temporary folder (or DIR): items of two datasets over 6 domains x 4
subtasks, each with 1-2 real 1600x1200 JPEG images and 3 GT clues with boxes; two runs of
items x repeats x samples responses each (50,000 by default), written through the store as
the engine writes them (structured replies with clues and pixel boxes, extraction stored,
item versions recorded); five verdicts per response (general / rigorous / grounded offline,
general / rigorous by an LLM judge that disagrees on ~8%); failure tags on ~2%. Then starts
`app.py serve` on it and measures:

  open    `inspect_open` (one response side by side: GT and model overlays, clue tables,
          verdicts, tags, compare choices) for --opens responses never opened before (so
          their overlays are drawn), then the same responses again (cached). Timed with a raw
          HTTP client speaking the browser's queue protocol (POST /queue/join, read
          /queue/data), and with gradio_client (which adds its own polling). Target: raw p95
          <= 150 ms.
  filter  `inspect_filter` (count + first page) over the 50,000-response run for a set of
          filters (run only, verdicts, right answer / wrong reason, flips against the other
          run, unparsed and errors, judge disagreement, tag, domain, item text, sort by output
          length or item), raw HTTP, each after a real write (a tag toggled from this process)
          so that the server's remembered matches are stale and everything is recomputed;
          the same filter repeated (remembered); paging; and the same filters as store calls
          in-process with the memory cleared. Target: p95 <= 300 ms.
Before each measurement block it waits (up to 30 s) until the shared machine is quiet and
records the cores it saw busy. Prints progress on stderr and one JSON line on stdout.
"""
from __future__ import annotations

import argparse
import io
import json
import os
import random
import shutil
import tempfile
import time
from pathlib import Path

from bench._common import RawGradioClient, Server, emit, log, machine, summarize

DOMAINS = ["Location", "Spatial", "Daily", "Science", "Culture", "Nature"]
SEEDED = ["illusionary clue", "useless clue", "missed clue", "perception error",
          "reasoning error", "knowledge error", "format error"]
FILLER = ("Looking at the image, the scene shows several objects; the sign on the left is "
          "partly hidden and the light suggests late afternoon. ")


def _scene(rng: random.Random) -> bytes:
    from PIL import Image, ImageDraw

    image = Image.new("RGB", (1600, 1200), tuple(rng.randint(150, 240) for _ in range(3)))
    draw = ImageDraw.Draw(image)
    for _ in range(40):
        x, y = rng.randint(0, 1500), rng.randint(0, 1100)
        draw.rectangle([x, y, x + rng.randint(20, 300), y + rng.randint(20, 200)],
                       fill=tuple(rng.randint(0, 255) for _ in range(3)))
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", quality=85)
    return buffer.getvalue()


def build_items(store, n_items: int, rng: random.Random) -> list[dict]:
    shas = [store.add_image(_scene(rng), f"scene{k}.jpg").sha256 for k in range(16)]
    items = []
    with store.atomic():
        for i in range(n_items):
            images = [shas[i % 16]] + ([shas[(i + 5) % 16]] if i % 5 == 0 else [])
            clues = []
            for c in range(3):
                x, y = rng.randint(0, 1300), rng.randint(0, 900)
                colour = ["red", "blue", "green"][c]
                clues.append({"text": f"clue {c} of item {i}: a {colour} sign reading {i * 7 + c}",
                              "reasoning": "it names the place",
                              "boxes": [{"image": images[c % len(images)], "x0": x, "y0": y,
                                         "x1": x + rng.randint(40, 280),
                                         "y1": y + rng.randint(40, 280)}]})
            domain = DOMAINS[i % 6]
            item = {"id": f"bench-{'ab'[i % 2]}/{i}", "dataset": f"bench-{'ab'[i % 2]}",
                    "domain": domain, "subtask": f"{domain}-{(i // 6) % 4}",
                    "question": f"Question {i}: which place is this?",
                    "answer_type": "multiple_choice", "answer": "ABCD"[i % 4],
                    "options": [{"label": L, "text": f"place {L}", "image": None}
                                for L in "ABCD"], "aliases": [], "status": "verified",
                    "images": images, "clues": clues, "gt_reasoning": "the signs say so"}
            store.create_item(item, "bench")
            items.append({**item, "version": 1})
    return items


def _verdicts(run_id, wid, gold_ok, status, answer, rng) -> list[dict]:
    general = "error" if status == "error" else "unparsed" if answer is None else \
        "correct" if gold_ok else "wrong"
    rigorous = general if general != "correct" else ("correct" if rng.random() < 0.7 else "wrong")
    grounded = rigorous if rigorous != "correct" else \
        ("correct" if rng.random() < 0.5 else "wrong")
    flip = {"correct": "wrong", "wrong": "correct"}
    llm_general = flip.get(general, general) if rng.random() < 0.08 else general
    llm_rigorous = flip.get(rigorous, rigorous) if rng.random() < 0.08 else rigorous
    matched = general == "correct"
    details = {"answer_value": general, "best_gt": [0, 2] if matched else [],
               "clue_scores": [92.0, 40.0] if matched else [], "gt_missed": [1],
               "clues_from": "clue list"}
    out = []
    for protocol, judge, value, extra in (
            ("general", "offline", general, {}), ("rigorous", "offline", rigorous, details),
            ("grounded", "offline", grounded, {"best_iou": [0.6, None]}),
            ("general", "llm:judge", llm_general, {}),
            ("rigorous", "llm:judge", llm_rigorous,
             {**details, "clue_scores": [100.0, 0.0] if matched else [],
              "illusionary": [{"clue": 2, "text": "x"}] if matched else []})):
        out.append({"run_id": run_id, "protocol": protocol, "judge": judge, "work_id": wid,
                    "value": value, "rationale": f"{protocol} by {judge}: {value}",
                    "decided_by": judge if judge != "offline" else f"rule:{protocol}",
                    "answer": answer, "details": extra})
    return out


def make_run(store, run_id: str, items: list[dict], repeats: int, samples: int,
             rng: random.Random, accuracy: float) -> int:
    config = {"endpoint": {"name": "e", "base_url": "http://x/v1", "model": run_id},
              "setting": "structured", "clues": "none", "image_mode": "full",
              "image_max_pixels": None, "samples": samples, "repeats": repeats}
    store.create_run(run_id, f"cfg-{run_id}", config, {}, "e",
                     [("answer", it["id"], r, s, None, it["version"]) for it in items
                      for r in range(repeats) for s in range(samples)])
    by_id = {it["id"]: it for it in items}
    pending = store.pending_work(run_id)
    for start in range(0, len(pending), 5000):
        batch, scores = [], []
        for w in pending[start:start + 5000]:
            item, draw = by_id[w["item_id"]], rng.random()
            status = "error" if draw < 0.03 else "unparsed" if draw < 0.08 else \
                "truncated" if draw < 0.10 else "ok"
            ok = rng.random() < accuracy
            answer = None if status in ("error", "unparsed") else \
                item["answer"] if ok else "ABCD"[("ABCD".index(item["answer"]) + 1) % 4]
            clues = [{"text": c["text"].split(": ", 1)[1], "reasoning": None,
                      "box": [c["boxes"][0][k] + 5 for k in ("x0", "y0", "x1", "y1")]}
                     for c in item["clues"][:2]]
            text = None if status == "error" else FILLER * rng.randint(2, 8) + json.dumps(
                {"answer": answer, "clues": clues})
            batch.append({"work_id": w["id"], "status": status, "answer": answer,
                          "reason": "bench", "text": text, "clues": clues if answer else [],
                          "box_convention": "pixels" if answer else None,
                          "completion_tokens": rng.randint(50, 900),
                          "latency": rng.uniform(0.5, 9.0)})
            scores += _verdicts(run_id, w["id"], ok, status, answer, rng)
        store.record_run_batch(run_id, "bench", batch, [], {})
        store.upsert_scores(scores)
    tagged = rng.sample([w["id"] for w in pending], len(pending) // 50)
    for wid in tagged:
        store.set_response_tags(wid, rng.sample(SEEDED, rng.randint(1, 2)), "bench")
    return len(pending)


def busy_cores(interval: float = 0.5) -> float:
    """Cores busy (all processes) over `interval` seconds, from /proc/stat."""
    def read():
        with open("/proc/stat") as f:
            parts = [int(x) for x in f.readline().split()[1:]]
        return sum(parts), parts[3] + (parts[4] if len(parts) > 4 else 0)
    t0, i0 = read()
    time.sleep(interval)
    t1, i1 = read()
    return round((1 - (i1 - i0) / max(1, t1 - t0)) * (os.cpu_count() or 1), 2)


class Quiet:
    """The machine is shared (2 cores): before each measurement wait (up to `timeout` s)
    until fewer than `max_busy` cores are busy, and record what was seen."""

    def __init__(self, max_busy: float = 0.8, timeout: float = 30.0):
        self.max_busy, self.timeout, self.seen, self.gave_up = max_busy, timeout, [], 0

    def wait(self) -> None:
        start = time.monotonic()
        while (busy := busy_cores()) > self.max_busy:
            if time.monotonic() - start > self.timeout:
                self.gave_up += 1
                break
        self.seen.append(busy)

    def report(self) -> dict:
        return {"max_busy_cores": self.max_busy, "gave_up": self.gave_up,
                "busy_cores_before": summarize(self.seen, digits=2)}


FILTERS = {  # name: (widget values after sort and run, sort)
    "run only": ({}, "run order"),
    "general wrong": ({"general": "wrong"}, "run order"),
    "rigorous not correct, llm judge": ({"rigorous": "not correct", "judge": "llm:judge"},
                                        "run order"),
    "right answer, wrong reason": ({"wrong_reason": True}, "run order"),
    "fixed vs other run": ({"flip_run": "other", "flip": "fixed (wrong there, correct here)"},
                           "run order"),
    "broken vs other run": ({"flip_run": "other", "flip": "broken (correct there, wrong here)"},
                            "run order"),
    "fixed vs other run, rigorous": ({"flip_run": "other", "flip_protocol": "rigorous",
                                      "flip": "fixed (wrong there, correct here)"}, "run order"),
    "unparsed and errors": ({"status": "not ok (unparsed, error, refused, truncated)"},
                            "run order"),
    "judges disagree (rigorous)": ({"disagree": "rigorous"}, "run order"),
    "tag perception error": ({"tag": "perception error"}, "run order"),
    "domain + general correct": ({"domain": "Science", "general": "correct"}, "run order"),
    "item id contains": ({"item": "/17"}, "run order"),
    "longest output first": ({}, "longest output"),
    "item order": ({}, "item"),
}
WIDGETS = ["run", "dataset", "domain", "subtask", "item", "status", "judge", "general",
           "rigorous", "grounded", "verbench", "wrong_reason", "flip_run", "flip", "flip_protocol",
           "disagree", "tag"]
DEFAULTS = {"run": "main", "dataset": "(all)", "domain": "(all)", "subtask": "(all)",
            "item": "", "status": "(all)", "judge": "offline", "general": "(any)",
            "rigorous": "(any)", "grounded": "(any)", "verbench": "(any)",
            "wrong_reason": False, "flip_run": "(none)", "flip": "(no flip filter)",
            "flip_protocol": "general", "disagree": "(off)", "tag": "(any)"}


def widget_values(overrides: dict) -> list:
    return [{**DEFAULTS, **overrides}[k] for k in WIDGETS]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--items", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--samples", type=int, default=5)
    parser.add_argument("--opens", type=int, default=80)
    parser.add_argument("--filter-rounds", type=int, default=5)
    parser.add_argument("--keep", type=Path, help="build in (or reuse) this folder")
    args = parser.parse_args()

    from gradio_client import Client

    from store import Store
    from ui.inspect_browser import browse, filters_from

    folder = args.keep or Path(tempfile.mkdtemp(prefix="cluelab-bench-inspect-"))
    folder.mkdir(parents=True, exist_ok=True)
    db = folder / "inspect.db"
    rng = random.Random(5)
    store = Store.open(db)
    started = time.perf_counter()
    if not store.list_runs():
        items = build_items(store, args.items, rng)
        n = make_run(store, "main", items, args.repeats, args.samples, rng, 0.55)
        make_run(store, "other", items, args.repeats, args.samples, rng, 0.45)
        log(f"built {len(items)} items and two runs of {n} responses in "
            f"{time.perf_counter() - started:.1f} s")
    n = store.count_responses({"run_id": "main"})
    work_ids = [r["work_id"] for r in store.list_responses({"run_id": "main"}, limit=n)]

    from store import inspect_browse

    direct = {}
    for name, (overrides, sort) in FILTERS.items():
        filters = filters_from(*widget_values(overrides))
        times = []
        for _ in range(args.filter_rounds):
            inspect_browse._cache.clear()
            t = time.perf_counter()
            found = browse(store, filters, sort, 1)
            times.append(time.perf_counter() - t)
        direct[name] = {"matches": found["total"], **summarize(times, 1000)}
    t = time.perf_counter()
    browse(store, filters_from(*widget_values({})), "run order", n // 50)
    deep_direct_ms = round((time.perf_counter() - t) * 1000, 1)
    toggled = work_ids[len(work_ids) // 2]

    def invalidate():
        """A real write the server sees (a tag toggled): its remembered matches are stale."""
        tags = [t["tag"] for t in store.response_tags(toggled)]
        store.set_response_tags(toggled, [] if "format error" in tags else ["format error"],
                                "bench")

    opens = random.Random(7).sample(work_ids, args.opens)
    # "first" opens draw their overlays: forget those of an earlier run on a kept folder
    shutil.rmtree(db.with_name(db.stem + "-media") / "inspect-cache", ignore_errors=True)
    with Server(db) as server:
        log(f"server up in {server.startup_s:.1f} s")
        raw = RawGradioClient(server.url)
        # first call: connections, imports
        raw.call_list("inspect_open", [str(work_ids[-1]), "offline"])
        quiet = Quiet()

        def time_opens() -> list[float]:
            """Seconds per `inspect_open` of each response in `opens`, quiet-gated every 10."""
            took = []
            for k, wid in enumerate(opens):
                if k % 10 == 0:
                    quiet.wait()
                t = time.perf_counter()
                raw.call_list("inspect_open", [str(wid), "offline"])
                took.append(time.perf_counter() - t)
            return took

        first = time_opens()    # each response drawn for the first time
        again = time_opens()    # the same ones again: overlays from the cache
        client = Client(server.url, verbose=False, download_files=False)
        via_client = []
        for wid in opens[: max(10, args.opens // 4)]:
            t = time.perf_counter()
            client.predict(str(wid), "offline", api_name="/inspect_open")
            via_client.append(time.perf_counter() - t)
        served, all_times, cached = {}, [], []
        for name, (overrides, sort) in FILTERS.items():
            times = []
            for _ in range(args.filter_rounds):
                invalidate()
                quiet.wait()
                t = time.perf_counter()
                out = raw.call_list("inspect_filter", [sort, *widget_values(overrides)])
                times.append(time.perf_counter() - t)
            t = time.perf_counter()
            raw.call_list("inspect_filter", [sort, *widget_values(overrides)])
            cached.append(time.perf_counter() - t)
            all_times += times
            served[name] = {"count": out[1].split("**")[1] if "**" in out[1] else out[1],
                            **summarize(times, 1000)}
        raw.call_list("inspect_filter", ["run order", *widget_values({})])
        pages = []
        for page in range(args.filter_rounds * 4):
            t = time.perf_counter()
            raw.call_list("inspect_next_page", [None])
            pages.append(time.perf_counter() - t)
    store.close()
    opens_all = first + again
    summary = {
        "bench": "inspect", "responses_per_run": n, "runs": 2, "items": args.items,
        "open_raw_first_ms": summarize(first, 1000), "open_raw_cached_ms": summarize(again, 1000),
        "open_raw_all_ms": summarize(opens_all, 1000),
        "open_gradio_client_ms": summarize(via_client, 1000), "open_target_p95_ms": 150,
        "filter_raw_ms": summarize(all_times, 1000), "filter_target_p95_ms": 300,
        "filter_raw_repeat_ms": summarize(cached, 1000),
        "filter_raw_by_filter_ms": served, "filter_store_by_filter_ms": direct,
        "deep_page_store_ms": deep_direct_ms, "next_page_raw_ms": summarize(pages, 1000),
        "db_mb": round(db.stat().st_size / 1e6, 1), "folder": str(folder),
        "quiet": quiet.report(),
        "machine": machine(),
    }
    emit(summary)


if __name__ == "__main__":
    main()
