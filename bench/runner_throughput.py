"""Runner throughput, client CPU per request and warm-cache rerun time (issue 3, §6).

    python -m bench.runner_throughput [--items 1000] [--samples 2] [--concurrency 64] [--latency 0.2]

Against the fake OpenAI server (tests/openai_server.py, its own process) answering after
`latency` seconds: one run of items x samples requests (default 2,000) at `concurrency`, then
the same run again with a warm cache. Each item has one small image, so requests carry a real
data URL. Reports throughput against the ideal (concurrency / latency), the client's CPU per
request (time.process_time of this process, all threads, over planning + execution), and the
warm rerun's wall time; targets: >= 0.9 of ideal, <= 2 ms, <= 3 s. The last stdout line is a
JSON summary. Figures belong in docs/PERFORMANCE.md (maintained separately).
"""
from __future__ import annotations

import argparse
import asyncio
import io
import json
import shutil
import sys
import time

from PIL import Image

from bench._common import OUT, log, machine
from runner.client import ChatClient
from runner.config import Execution, RunConfig
from runner.engine import execute
from runner.planning import create_run, plan_run
from store import Store
from tests.openai_server import start_server


def build_store(path, items: int) -> Store:
    store = Store.open(path)
    images = []
    for n in range(16):  # a few distinct images, as items of one dataset share sizes
        buffer = io.BytesIO()
        Image.new("RGB", (96, 72), (n * 15, 100, 200 - n * 10)).save(buffer, "PNG")
        images.append(store.add_image(buffer.getvalue(), f"bench_{n}.png").sha256)
    for n in range(items):
        image = images[n % len(images)]
        store.create_item({
            "id": f"bench/Q_{n}", "dataset": "bench", "question": f"Which option fits {n}?",
            "answer_type": "multiple_choice", "answer": "A", "status": "candidate",
            "options": [{"label": label, "text": f"option {label}", "image": None}
                        for label in "ABCDE"],
            "images": [image],
            "clues": [{"text": "a sign", "reasoning": "",
                       "boxes": [{"image": image, "x0": 5, "y0": 5, "x1": 30, "y1": 20}]}],
        }, "bench")
    return store


def one_run(store, args) -> dict:
    cpu, wall = time.process_time(), time.perf_counter()
    plan = plan_run(store, RunConfig(endpoint="fake", setting="cot", samples=args.samples,
                                     seed=1, filters={"dataset": "bench"}),
                    Execution(concurrency=args.concurrency))
    run_id = create_run(store, plan)
    planned = time.perf_counter()
    outcome = execute(store, run_id, items=plan.items, own_process=True)  # as the CLI does
    done = time.perf_counter()
    totals = outcome.totals
    return {"status": outcome.status, "results": totals["done"], "cached": totals["cached"],
            "requests": totals["requests"], "plan_s": round(planned - wall, 3),
            "execute_s": round(done - planned, 3), "wall_s": round(done - wall, 3),
            "cpu_s": round(time.process_time() - cpu, 3),
            "latency_p50": totals["latency_p50"], "latency_p95": totals["latency_p95"]}


async def _floor(url: str, n: int, concurrency: int, payload: dict) -> float:
    """Requests per second of bare ChatClient calls (no engine, no store): what this machine
    and server allow, so the engine's own overhead can be read off the difference."""
    client = ChatClient(url, max_connections=concurrency)
    slots = asyncio.Semaphore(concurrency)

    async def one(i: int) -> None:
        async with slots:
            await client.chat({**payload, "seed": i})

    started = time.perf_counter()
    await asyncio.gather(*(one(i) for i in range(n)))
    elapsed = time.perf_counter() - started
    await client.close()
    return n / elapsed


def floor_payload(store) -> dict:
    """A request shaped like the benchmark's: system prompt, one image, question, options."""
    from runner.messages import ImageEncoder, materialise
    from runner.prompts import PromptSet, default_names, default_text
    from runner.work import WorkBuilder

    plan = plan_run(store, RunConfig(endpoint="fake", setting="cot", ids=["bench/Q_0"]))
    builder = WorkBuilder(plan.resolved, PromptSet({n: default_text(n) for n in
                                                    default_names()}), plan.items)
    request = builder.build({"phase": "answer", "item_id": "bench/Q_0", "repeat": 0,
                             "sample": 0, "id": 0})
    return {"model": "fake-vlm", "messages": materialise(request.messages,
                                                         ImageEncoder(store))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--items", type=int, default=1000)
    parser.add_argument("--samples", type=int, default=2)
    parser.add_argument("--concurrency", type=int, default=64)
    parser.add_argument("--latency", type=float, default=0.2)
    args = parser.parse_args()
    folder = OUT / "runner-bench"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    store = build_store(folder / "bench.db", args.items)
    n = args.items * args.samples
    log(f"{args.items} items x {args.samples} samples = {n} requests, concurrency "
        f"{args.concurrency}, server latency {args.latency * 1000:.0f} ms")
    with start_server(latency=args.latency, letters="ABCDE") as server:
        store.add_endpoint("fake", server.url, "fake-vlm", concurrency=args.concurrency)
        cold = one_run(store, args)
        sent = sum(1 for r in server.requests() if r["path"].endswith("/chat/completions"))
        log(f"cold: {cold}")
        warm = one_run(store, args)
        resent = sum(1 for r in server.requests()
                     if r["path"].endswith("/chat/completions")) - sent
        log(f"warm: {warm}")
        floor = asyncio.run(_floor(server.url, n, args.concurrency, floor_payload(store)))
        log(f"bare client floor: {floor:.0f} req/s")
    ideal = args.concurrency / args.latency
    throughput = cold["results"] / cold["execute_s"]
    summary = {
        "benchmark": "runner", "requests": n, "concurrency": args.concurrency,
        "latency_ms": args.latency * 1000, "cold": cold, "warm": warm,
        "server_requests_cold": sent, "server_requests_warm": resent,
        "throughput_rps": round(throughput, 1), "ideal_rps": round(ideal, 1),
        "throughput_vs_ideal": round(throughput / ideal, 3),
        "bare_client_floor_rps": round(floor, 1),
        "bare_client_floor_vs_ideal": round(floor / ideal, 3),
        "cpu_ms_per_request": round(cold["cpu_s"] / n * 1000, 3),
        "warm_rerun_s": warm["wall_s"],
        "targets": {"throughput_vs_ideal": ">= 0.9", "cpu_ms_per_request": "<= 2",
                    "warm_rerun_s": "<= 3"},
        "machine": machine(),
    }
    summary["pass"] = (summary["throughput_vs_ideal"] >= 0.9
                       and summary["cpu_ms_per_request"] <= 2 and warm["wall_s"] <= 3
                       and resent == 0)
    store.close()
    print(json.dumps(summary))
    sys.exit(0 if summary["pass"] else 1)


if __name__ == "__main__":
    main()
