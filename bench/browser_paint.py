#!/usr/bin/env python3
"""Benchmark: what an annotator waits for in a real browser (Chromium via Playwright).

(a) big image: a database with one item holding an 8000x6000 photo-like JPEG (quality 90,
    ~10 MB; generated once into bench/out/paint-src/). For each repetition, a fresh browser
    context (cold HTTP cache) opens `?item=paint/big` and we measure
      first paint  from navigation start (performance.timeOrigin) until the annotator canvas
                   shows the image: an init script polls the canvas on every animation frame
                   with getImageData at five points where the image has flat magenta patches,
                   and records performance.now() when all five read magenta. Target <= 2.5 s.
      save         a box is drawn (Create box, drag, pick "clue 1", OK, as
                   tests/browser/test_annotate_flow.py does); once its draft autosave has
                   settled, #save-item is clicked. Time from the click event until
                   #save-message reads "Saved ... as version N" (both in-page timestamps).
                   Target <= 0.5 s.
      editor ready from navigation start until the whole editor can be used: the question
                   box filled, the save button and the item list (with the item) shown. The
                   page builds them after the first image (ui/annotate_layout.DEFER_PANELS).
    plus, from the Resource Timing API, when the image request started and ended, to show
    what dominates. Each repetition runs twice: cold (a new browser profile, so the app's
    ~120 script and style files are fetched too) and warm (the same new profile first opens
    a small item, then navigates to the big one: an annotator who has used ClueLab before).

(b) next item: on the MMR-Life database from bench/import_mmr_life.py, open an item, then
    click #next-item N times. The poller keeps a log of every change of a pixel signature
    (canvas size + 30 points in the central band, where every displayed image lies); after
    each click we wait until #item-id shows the expected next id and the canvas has been
    stable for 400 ms, then take the first logged frame after the click whose signature
    equals that final one (so a cleared or half-updated canvas does not count). The final
    canvas is checked against the image file on disk (the item's first context image) at
    five points. Target <= 0.8 s from the click.

Browser: /usr/bin/chromium, headless, --no-sandbox --disable-gpu --disable-background-networking
--disable-component-update --disable-sync, viewport 1600x1000.

Run:  python -m bench.browser_paint [--reps 5] [--next 20] [--part a|b|both]
"""
from __future__ import annotations

import argparse
import io
import json
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from bench._common import (CHROMIUM, CHROMIUM_ARGS, DEFAULT_DB, OUT, REPO, QuietGate, Server, emit,
                           log, machine, module_command, summarize)

TARGET_PAINT_MS = 2500.0
TARGET_SAVE_MS = 500.0
TARGET_NEXT_MS = 800.0
BIG_W, BIG_H = 8000, 6000
MAGENTA = (255, 0, 255)
# image fractions of the flat magenta patches' centres (the probe points)
PROBES = [(0.2, 0.2), (0.8, 0.2), (0.5, 0.5), (0.2, 0.8), (0.8, 0.8)]
BOX = (0.30, 0.62, 0.42, 0.72)       # where the benchmark draws its box (away from probes)
ITEM_ID = "paint/big"
WARMUP_ID = "paint/warmup"   # a small item opened first in the warm-cache runs

POLLER_JS = r"""
(() => {
  const cfg = __CONFIG__;
  performance.setResourceTimingBufferSize(100000);   // default 250 fills up during (b)
  const B = window.__bench = {painted: null, ready: null, log: [], lastSig: null, lastChange: 0,
                              clicks: {next: [], save: []}, ids: [], saves: [], frames: 0};
  document.addEventListener('click', (e) => {
    const t = performance.now();
    if (e.target.closest && e.target.closest('#next-item')) B.clicks.next.push(t);
    if (e.target.closest && e.target.closest('#save-item')) B.clicks.save.push(t);
  }, true);
  const near = (p, c, tol) => Math.abs(p[0] - c[0]) <= tol && Math.abs(p[1] - c[1]) <= tol
                              && Math.abs(p[2] - c[2]) <= tol && p[3] === 255;
  let lastId = null, lastSave = '';
  function tick() {
    const t = performance.now();
    B.frames++;
    const idBox = document.querySelector('#item-id textarea, #item-id input');
    if (idBox && idBox.value !== lastId) { lastId = idBox.value; B.ids.push([t, lastId]); }
    const msg = document.querySelector('#save-message');
    const text = msg ? msg.textContent : '';
    if (text !== lastSave) {
      lastSave = text;
      if (/Saved .* as version \d+/.test(text)) B.saves.push([t, text.trim()]);
    }
    if (B.ready === null) {
      // the whole editor usable: the form filled, the save button and the item list shown
      const question = document.querySelector('#item-question textarea');
      const save = document.querySelector('#save-item');
      const list = document.querySelector('#item-list');
      if (question && question.value && save && save.offsetParent !== null && list
          && list.offsetParent !== null && list.textContent.includes(lastId)) B.ready = t;
    }
    const canvas = document.querySelector('#annotator canvas');
    if (canvas && canvas.width > 0 && canvas.height > 0) {
      const ctx = canvas.getContext('2d');
      const w = canvas.width, h = canvas.height;
      if (cfg.probes && B.painted === null) {
        // the big image is wider than the canvas, so it fills the canvas (no letterbox)
        const ok = cfg.probes.every(([fx, fy]) => near(
          ctx.getImageData(Math.floor(fx * w), Math.floor(fy * h), 1, 1).data, cfg.colour, cfg.tol));
        if (ok) B.painted = t;
      }
      // part (a) needs only its probes: reading pixels costs the page's main thread time
      // (~1 ms a frame for the signature), which would slow the very paint being measured
      if (cfg.probes) { requestAnimationFrame(tick); return; }
      // signature: size + a 5x6 grid in the central band (images are centred, >= 64 px wide)
      const sig = [w, h];
      for (const dx of [-24, -12, 0, 12, 24]) {
        for (const fy of [0.1, 0.25, 0.4, 0.6, 0.75, 0.9]) {
          const d = ctx.getImageData(Math.floor(w / 2 + dx), Math.floor(fy * h), 1, 1).data;
          sig.push(d[0], d[1], d[2], d[3]);
        }
      }
      const s = sig.join(',');
      if (s !== B.lastSig) {
        B.lastSig = s; B.lastChange = t;
        B.log.push([t, s]);
        if (B.log.length > 400) B.log.splice(0, 100);
      }
    }
    requestAnimationFrame(tick);
  }
  requestAnimationFrame(tick);
})();
"""

SAMPLE_JS = r"""
([fracs, imgW, imgH]) => {
  const canvas = document.querySelector('#annotator canvas');
  const ctx = canvas.getContext('2d');
  const w = canvas.width, h = canvas.height;
  // the annotator draws the image at the canvas height, centred horizontally
  const dispH = h, dispW = h * imgW / imgH, x0 = (w - dispW) / 2;
  return fracs.map(([fx, fy]) => Array.from(
    ctx.getImageData(Math.floor(x0 + fx * dispW), Math.floor(fy * dispH), 1, 1).data));
}
"""


# ---- data --------------------------------------------------------------------------------
def make_big_jpeg(path: Path, seed: int = 7) -> Path:
    """8000x6000 photo-like JPEG: smooth colour field, shapes, per-pixel grain, and flat
    magenta patches centred on PROBES (so the probes have a known colour)."""
    import numpy as np
    from PIL import Image, ImageDraw

    rng = np.random.default_rng(seed)
    small = Image.fromarray(rng.integers(0, 256, (60, 80, 3), dtype=np.uint8))
    im = small.resize((BIG_W, BIG_H), Image.BICUBIC)
    draw = ImageDraw.Draw(im)
    for _ in range(400):
        x0, y0 = int(rng.integers(0, BIG_W - 50)), int(rng.integers(0, BIG_H - 50))
        x1, y1 = x0 + int(rng.integers(20, 900)), y0 + int(rng.integers(20, 900))
        fill = tuple(int(v) for v in rng.integers(0, 200, 3))   # never magenta-like
        (draw.rectangle if rng.random() < 0.5 else draw.ellipse)((x0, y0, x1, y1), fill=fill)
    arr = np.asarray(im).astype(np.int16)
    arr += rng.integers(-9, 10, arr.shape, dtype=np.int16)       # sensor-like grain
    im = Image.fromarray(np.clip(arr, 0, 255).astype(np.uint8))
    draw = ImageDraw.Draw(im)
    half = int(0.05 * BIG_W)
    for fx, fy in PROBES:
        cx, cy = int(fx * BIG_W), int(fy * BIG_H)
        draw.rectangle((cx - half, cy - half, cx + half, cy + half), fill=MAGENTA)
    path.parent.mkdir(parents=True, exist_ok=True)
    buf = io.BytesIO()
    im.save(buf, "JPEG", quality=90)
    path.write_bytes(buf.getvalue())
    return path


def build_paint_db(db: Path, jpeg: Path) -> str:
    from store import Store

    for suffix in ("", "-wal", "-shm"):
        Path(str(db) + suffix).unlink(missing_ok=True)
    shutil.rmtree(db.with_name(f"{db.stem}-media"), ignore_errors=True)
    store = Store.open(db)
    try:
        info = store.add_image(jpeg, jpeg.name)
        store.create_item({
            "id": ITEM_ID, "dataset": "paint", "domain": None, "subtask": None,
            "reasoning_type": None, "question": "Where is the magenta sign?",
            "answer_type": "open", "options": [], "answer": "centre", "aliases": [],
            "gt_reasoning": "", "status": "draft", "problems": [], "metadata": {},
            "images": [info.sha256],
            "clues": [{"text": "the magenta patch", "reasoning": "", "boxes": []}],
        }, "bench")
        from PIL import Image

        small = Image.new("RGB", (640, 480), (90, 120, 150))
        buf = io.BytesIO()
        small.save(buf, "PNG")
        warm = store.add_image(buf.getvalue(), "warmup.png")
        store.create_item({
            "id": WARMUP_ID, "dataset": "paint", "question": "Warm-up item (not measured)",
            "answer_type": "open", "answer": "-", "images": [warm.sha256], "clues": [],
        }, "bench")
    finally:
        store.close()
    return info.sha256


# ---- browser helpers -----------------------------------------------------------------------
def launch(playwright, headed: bool):
    return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS,
                                      headless=not headed)


def new_page(browser, config: dict):
    context = browser.new_context(viewport={"width": 1600, "height": 1000})
    page = context.new_page()
    page.add_init_script(POLLER_JS.replace("__CONFIG__", json.dumps(config)))
    return context, page


def draw_box(page, fx0, fy0, fx1, fy1, clue_label="clue 1"):
    """As tests/browser/test_annotate_flow.py: Create box, drag, pick the clue, OK."""
    page.click("#annotator button[aria-label='Create box']")
    box = page.locator("#annotator canvas").bounding_box()
    page.mouse.move(box["x"] + box["width"] * fx0, box["y"] + box["height"] * fy0)
    page.mouse.down()
    box = page.locator("#annotator canvas").bounding_box()
    page.mouse.move(box["x"] + box["width"] * fx1, box["y"] + box["height"] * fy1, steps=6)
    page.mouse.up()
    modal = page.locator("#model-box-edit")
    modal.locator("input").first.click()
    page.locator("[data-testid='dropdown-option']", has_text=clue_label).click()
    modal.locator("button", has_text="OK").click()


def resource_timing(page, needle: str) -> dict | None:
    entries = page.evaluate(
        "(n) => performance.getEntriesByType('resource').filter(e => e.name.includes(n))"
        ".map(e => ({name: e.name, start: e.startTime, responseStart: e.responseStart,"
        " end: e.responseEnd, bytes: e.encodedBodySize}))", needle)
    return entries[0] if entries else None


# ---- part a --------------------------------------------------------------------------------
def measure_big(page, url: str, needle: str, warm: bool = False, editor: bool = True) -> dict:
    """One fresh page: first paint of the big image, then draw a box and time the save.

    warm: the context first opens a small item (so the app's scripts and styles are in the
    browser's HTTP cache, as for an annotator who has used ClueLab before), then navigates to
    the big one; the clock starts at that second navigation. The big image itself is never
    cached."""
    if warm:
        page.goto(f"{url}/?item={WARMUP_ID}", wait_until="commit")
        page.wait_for_function(
            "(id) => window.__bench && window.__bench.ids.some(x => x[1] === id)",
            arg=WARMUP_ID, timeout=60000, polling=100)
        page.wait_for_timeout(1000)
    page.goto(f"{url}/?item={ITEM_ID}", wait_until="commit")
    page.wait_for_function("window.__bench && window.__bench.painted !== null",
                           timeout=60000, polling=100)
    b = page.evaluate("window.__bench")
    res = resource_timing(page, needle)
    dcl = page.evaluate("performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd")
    joins = page.evaluate("performance.getEntriesByType('resource')"
                          ".filter(e => e.name.includes('/queue/join')).map(e => e.startTime)")
    ids = [t for t, v in b["ids"] if v == ITEM_ID]
    timings = {"paint": b["painted"], "dcl": dcl, "first_join": min(joins) if joins else None,
               "id_shown": ids[0] if ids else None,
               "fetch_start": res["start"] if res else None,
               "fetch_end": res["end"] if res else None, "ready": None, "save": None,
               "save_text": None}
    if not editor:                                     # the `floor` page has none
        return timings
    page.wait_for_function("window.__bench.ready !== null", timeout=30000, polling=100)
    timings["ready"] = page.evaluate("window.__bench.ready")
    draw_box(page, *BOX)
    try:        # let the box's draft autosave settle first: we time the save alone
        page.wait_for_function(
            "document.querySelector('#draft-state') && "
            "/draft/.test(document.querySelector('#draft-state').textContent)", timeout=5000)
    except Exception:
        pass
    page.wait_for_timeout(300)
    page.click("#save-item")
    page.wait_for_function("window.__bench.saves.length > 0", timeout=30000, polling=50)
    b2 = page.evaluate("window.__bench")
    return {**timings, "save": b2["saves"][0][0] - b2["clicks"]["save"][-1],
            "save_text": b2["saves"][0][1]}


def part_a(browser_factory, reps: int, variants: list[str | None], gate: QuietGate) -> dict:
    """Variants: None (app.py as it is) or BENCH_PATCHES for bench/_patched_server.py.

    Every variant gets its own fresh database and server, all started up front; the
    repetitions alternate between variants, so their ratios come from the same minutes.
    """
    src = OUT / "paint-src" / "big-8000x6000-q90.jpg"
    if not src.exists():
        log("generating the 8000x6000 JPEG …")
        make_big_jpeg(src)
    size_mb = src.stat().st_size / 1e6
    servers, shas, samples, failures = {}, {}, {}, {}
    try:
        for variant in variants:
            name = variant or "app"
            db = OUT / f"paint-{name.replace(',', '+')}.db"
            # in a child process: the store caches created media folders per process, so
            # building the same database twice in one process fails (docs/PERFORMANCE.md)
            proc = subprocess.run(module_command("browser_paint", "--_build-paint-db", str(db), str(src)),
                                  capture_output=True, text=True, check=True, cwd=REPO)
            shas[name] = proc.stdout.strip().splitlines()[-1]
            servers[name] = Server(db, module="_patched_server" if variant else None,
                                   env={"BENCH_PATCHES": variant} if variant else None)
            samples[name], failures[name] = [], []
            log(f"(a) {name}: server up in {servers[name].startup_s:.1f} s; image {size_mb:.1f} MB")
        with browser_factory() as browser:
            config = {"probes": PROBES, "colour": MAGENTA, "tol": 40}
            # every server is measured cold (a new browser profile: nothing cached) and warm
            runs = [(name, warm) for name in servers for warm in (False, True)]
            for name, warm in runs:
                samples.setdefault(f"{name}-warm" if warm else name, [])
                failures.setdefault(f"{name}-warm" if warm else name, [])
            for rep in range(reps + 1):        # rep 0 warms servers, previews and OS cache
                for server_name, warm in runs:
                    server, sha = servers[server_name], shas[server_name]
                    name = f"{server_name}-warm" if warm else server_name
                    needle = f"previews/{sha}" if "preview" in name else f"/{sha[:2]}/{sha}"
                    busy = gate.wait()
                    context, page = new_page(browser, config)
                    try:
                        m = measure_big(page, server.url, needle, warm,
                                        editor=not server_name.startswith("floor"))
                        m["busy_before"] = busy
                    except Exception as exc:     # keep going, report it
                        failures[name].append(f"rep {rep}: {type(exc).__name__}: {exc}"[:300])
                        log(failures[name][-1])
                        continue
                    finally:
                        context.close()
                    log(f"(a) {name} rep {rep}{' (warm-up)' if rep == 0 else ''}: paint "
                        f"{m['paint']:.0f} ms (id shown {m['id_shown'] or float('nan'):.0f}, "
                        f"image fetch {m['fetch_start'] or float('nan'):.0f}-"
                        f"{m['fetch_end'] or float('nan'):.0f} ms), editor ready "
                        f"{m['ready'] or float('nan'):.0f} ms, save {m['save'] or float('nan'):.0f} ms")
                    if rep:
                        samples[name].append(m)
    finally:
        for server in servers.values():
            server.stop()

    def col(name, key):
        return [m[key] for m in samples[name] if m[key] is not None]

    out = {}
    for name in samples:
        paint, save = col(name, "paint"), col(name, "save")
        decode = [m["paint"] - m["fetch_end"] for m in samples[name] if m["fetch_end"]]
        base_name = name.removesuffix("-warm")
        out[name] = {
            "server": ("app.py" if base_name == "app" else
                       f"bench/_patched_server.py BENCH_PATCHES={base_name} (what-if)")
                      + ("; warm browser cache (a small item opened first)"
                         if name.endswith("-warm") else "; cold browser cache"),
            "first_paint_ms": summarize(paint),
            "save_ms": summarize(save),
            "phases_ms": {"dom_content_loaded": summarize(col(name, "dcl")),
                          "first_queue_join (init_browser sent)": summarize(col(name, "first_join")),
                          "item_id_shown": summarize(col(name, "id_shown")),
                          "image_request_start": summarize(col(name, "fetch_start")),
                          "image_response_end": summarize(col(name, "fetch_end")),
                          "response_end_to_paint (decode + draw)": summarize(decode),
                          "editor_ready (form, save button, list)": summarize(col(name, "ready"))},
            "ratios_to_target": {
                "first_paint": round(statistics.median(paint) / TARGET_PAINT_MS, 2) if paint else None,
                "save": round(statistics.median(save) / TARGET_SAVE_MS, 2) if save else None},
            "failures": failures[name],
        }
    result = {"image": {"path": str(src), "mb": round(size_mb, 2), "px": f"{BIG_W}x{BIG_H}"},
              "targets_ms": {"first_paint": TARGET_PAINT_MS, "save": TARGET_SAVE_MS},
              "variants": out}
    if "app" in out and len(out) > 1:
        def ratio(v, key):
            ours, theirs = v[key].get("median"), out["app"][key].get("median")
            return round(ours / theirs, 2) if ours and theirs else None

        result["what_if_ratios_median"] = {
            name: {"first_paint": ratio(v, "first_paint_ms"), "save": ratio(v, "save_ms")}
            for name, v in out.items() if name != "app" and v["first_paint_ms"].get("n")}
    return result


# ---- part b --------------------------------------------------------------------------------
def part_b(browser_factory, db: Path, n_next: int, start_index: int, gate: QuietGate) -> dict:
    from PIL import Image
    from store import Store

    store = Store(db)
    ids = store.item_ids()
    seq = ids[start_index:start_index + n_next + 1]
    expected = {}
    for item_id in seq:
        item = store.get_item(item_id)
        expected[item_id] = store.image_path(item["images"][0]) if item["images"] else None
    store.close()
    check_fracs = [(0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)]

    times, first_change, mismatches, failures = [], [], [], []
    phases = {"item_id_shown": [], "first_queue_data_end": [], "image_request_start": [],
              "image_response_end": []}
    with Server(db) as server, browser_factory() as browser:
        log(f"(b) server up in {server.startup_s:.1f} s")
        context, page = new_page(browser, {"probes": None})
        try:
            page.goto(f"{server.url}/?item={seq[0]}", wait_until="commit")
            page.wait_for_function(
                "(id) => window.__bench.ids.some(x => x[1] === id) && window.__bench.log.length"
                " && performance.now() - window.__bench.lastChange > 1000", arg=seq[0],
                timeout=60000, polling=100)
            for k in range(1, len(seq)):
                want = seq[k]
                n_clicks = len(page.evaluate("window.__bench.clicks.next"))
                gate.wait()
                page.click("#next-item")
                try:
                    page.wait_for_function(
                        "([id, n]) => { const b = window.__bench;"
                        " return b.clicks.next.length > n && b.ids.length &&"
                        " b.ids[b.ids.length - 1][1] === id &&"
                        " b.log[b.log.length - 1][0] > b.clicks.next[n] &&"
                        " performance.now() - b.lastChange > 400; }",
                        arg=[want, n_clicks], timeout=30000, polling=50)
                except Exception as exc:
                    failures.append(f"{want}: {type(exc).__name__}: {exc}"[:300])
                    log(failures[-1])
                    continue
                b = page.evaluate("window.__bench")
                t_click = b["clicks"]["next"][n_clicks]
                final = b["log"][-1][1]
                after = [(t, s) for t, s in b["log"] if t >= t_click]
                t_paint = next(t for t, s in after if s == final)
                times.append(t_paint - t_click)
                first_change.append(after[0][0] - t_click)
                shown = [t for t, v in b["ids"] if v == want and t >= t_click]
                if shown:
                    phases["item_id_shown"].append(shown[0] - t_click)
                entries = page.evaluate(
                    "(t0) => performance.getEntriesByType('resource').filter(e => e.startTime >= t0)"
                    ".map(e => [e.name, e.startTime, e.responseEnd])", t_click)
                data_ends = [end for name, st, end in entries if "/queue/data" in name]
                if data_ends:
                    phases["first_queue_data_end"].append(min(data_ends) - t_click)
                if expected[want] is not None:
                    img = [(st, end) for name, st, end in entries if expected[want].stem in name]
                    if img:
                        phases["image_request_start"].append(img[0][0] - t_click)
                        phases["image_response_end"].append(img[0][1] - t_click)
                # check the canvas against the file on disk
                path = expected[want]
                if path is not None:
                    with Image.open(path) as im:
                        im = im.convert("RGB")
                        want_px = [im.getpixel((min(im.width - 1, int(fx * im.width)),
                                                min(im.height - 1, int(fy * im.height))))
                                   for fx, fy in check_fracs]
                        got = page.evaluate(SAMPLE_JS, [check_fracs, im.width, im.height])
                    bad = sum(1 for g, w in zip(got, want_px)
                              if max(abs(g[i] - w[i]) for i in range(3)) > 24)
                    if bad > 1:      # one probe may sit on a shape's anti-aliased edge
                        mismatches.append({"item": want, "bad_probes": bad})
                log(f"(b) {k:2d} {want}: painted {t_paint - t_click:.0f} ms after the click "
                    f"(id shown {shown[0] - t_click if shown else float('nan'):.0f} ms)")
        finally:
            context.close()
    return {
        "items": len(times),
        "next_to_paint_ms": summarize(times),
        "next_to_first_canvas_change_ms": summarize(first_change),
        "phases_ms_after_click": {k: summarize(v) for k, v in phases.items()},
        "target_ms": TARGET_NEXT_MS,
        "ratio_to_target": round(statistics.median(times) / TARGET_NEXT_MS, 2) if times else None,
        "pixel_mismatches": mismatches,
        "failures": failures,
        "start_item": seq[0],
    }


class BrowserFactory:
    def __init__(self, playwright, headed):
        self.playwright, self.headed = playwright, headed

    def __call__(self):
        factory = self

        class _Ctx:
            def __enter__(self):
                self.browser = launch(factory.playwright, factory.headed)
                return self.browser

            def __exit__(self, *exc):
                self.browser.close()
        return _Ctx()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n", 2)[2])
    ap.add_argument("--part", choices=("a", "b", "both"), default="both")
    ap.add_argument("--reps", type=int, default=5, help="(a) repetitions, fresh context each")
    ap.add_argument("--next", type=int, default=20, help="(b) number of Next clicks")
    ap.add_argument("--start", type=int, default=100,
                    help="(b) index (browser order) of the item to start from")
    ap.add_argument("--db", type=Path, default=DEFAULT_DB,
                    help=f"(b) MMR-Life database from bench/import_mmr_life.py ({DEFAULT_DB})")
    ap.add_argument("--headed", action="store_true", help="show the browser (needs a display)")
    ap.add_argument("--max-busy", type=float, default=0.6,
                    help="before each measurement wait until fewer cores than this are busy "
                         "(other users' jobs; default 0.6 of 2)")
    ap.add_argument("--no-quiet-wait", action="store_true", help="measure regardless of load")
    ap.add_argument("--_build-paint-db", dest="build_paint_db", nargs=2, type=Path,
                    help=argparse.SUPPRESS)
    ap.add_argument("--what-if", action="store_true",
                    help="(a) also run with bench/_patched_server.py: the annotator shows the "
                         "2048-px display preview instead of the original (timing only: boxes "
                         "are not rescaled), to measure what that change would buy")
    ap.add_argument("--variant", action="append", default=[], metavar="PATCHES",
                    help="(a) also measure bench/_patched_server.py with BENCH_PATCHES=PATCHES "
                         "(repeatable; see that file for the patches), alternating with app.py")
    args = ap.parse_args(argv)

    if args.build_paint_db:
        print(build_paint_db(*args.build_paint_db))
        return 0

    from playwright.sync_api import sync_playwright

    summary = {"benchmark": "browser_paint"}
    started = time.perf_counter()
    with sync_playwright() as pw:
        factory = BrowserFactory(pw, args.headed)
        if args.part in ("a", "both"):
            variants = [None] + (["preview"] if args.what_if else []) + args.variant
            gate_a = QuietGate(args.max_busy, enabled=not args.no_quiet_wait)
            summary["a_big_image"] = part_a(factory, args.reps, variants, gate_a)
            summary["a_big_image"]["quiet_gate"] = gate_a.report()
        if args.part in ("b", "both"):
            db = args.db.resolve()
            if not db.exists():
                raise SystemExit(f"{db} not found; run python -m bench.import_mmr_life first")
            gate_b = QuietGate(args.max_busy, enabled=not args.no_quiet_wait)
            summary["b_next_item"] = part_b(factory, db, args.next, args.start, gate_b)
            summary["b_next_item"]["quiet_gate"] = gate_b.report()
    summary["wall_s"] = round(time.perf_counter() - started, 1)
    summary["machine"] = machine()
    emit(summary)
    return 0


if __name__ == "__main__":
    sys.exit(main())
