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
    plus, from the Resource Timing API, when the image request started and ended, to show
    what dominates.

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

Run:  python bench/browser_paint.py [--reps 5] [--next 20] [--part a|b|both]
"""
from __future__ import annotations

import argparse
import io
import json
import shutil
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import (CHROMIUM, CHROMIUM_ARGS, DEFAULT_DB, OUT, Server, emit, log, machine,
                     summarize)

TARGET_PAINT_MS = 2500.0
TARGET_SAVE_MS = 500.0
TARGET_NEXT_MS = 800.0
BIG_W, BIG_H = 8000, 6000
MAGENTA = (255, 0, 255)
# image fractions of the flat magenta patches' centres (the probe points)
PROBES = [(0.2, 0.2), (0.8, 0.2), (0.5, 0.5), (0.2, 0.8), (0.8, 0.8)]
BOX = (0.30, 0.62, 0.42, 0.72)       # where the benchmark draws its box (away from probes)
ITEM_ID = "paint/big"

POLLER_JS = r"""
(() => {
  const cfg = __CONFIG__;
  const B = window.__bench = {painted: null, log: [], lastSig: null, lastChange: 0,
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
def part_a(browser_factory, reps: int, headed: bool) -> dict:
    src = OUT / "paint-src" / "big-8000x6000-q90.jpg"
    if not src.exists():
        log("generating the 8000x6000 JPEG …")
        make_big_jpeg(src)
    size_mb = src.stat().st_size / 1e6
    db = OUT / "paint.db"
    sha = build_paint_db(db, src)
    paint, save, fetch_start, fetch_end, id_shown, decode_draw = [], [], [], [], [], []
    failures = []
    with Server(db) as server, browser_factory() as browser:
        log(f"(a) server up in {server.startup_s:.1f} s; image {size_mb:.1f} MB")
        config = {"probes": PROBES, "colour": MAGENTA, "tol": 40}
        for rep in range(reps + 1):            # rep 0 warms the server and the OS cache
            context, page = new_page(browser, config)
            try:
                page.goto(f"{server.url}/?item={ITEM_ID}", wait_until="commit")
                page.wait_for_function("window.__bench && window.__bench.painted !== null",
                                       timeout=60000, polling=100)
                b = page.evaluate("window.__bench")
                res = resource_timing(page, sha)
                ids = [t for t, v in b["ids"] if v == ITEM_ID]
                # save round trip
                draw_box(page, *BOX)
                try:        # let the box's draft autosave settle first
                    page.wait_for_function(
                        "document.querySelector('#draft-state') && "
                        "/draft/.test(document.querySelector('#draft-state').textContent)",
                        timeout=5000)
                except Exception:
                    pass
                page.wait_for_timeout(300)
                page.click("#save-item")
                page.wait_for_function("window.__bench.saves.length > 0", timeout=30000,
                                       polling=50)
                b2 = page.evaluate("window.__bench")
                t_click = b2["clicks"]["save"][-1]
                t_saved = b2["saves"][0][0]
                if rep == 0:
                    log(f"(a) warm-up: paint {b['painted']:.0f} ms, save {t_saved - t_click:.0f} ms")
                    continue
                paint.append(b["painted"])
                save.append(t_saved - t_click)
                if ids:
                    id_shown.append(ids[0])
                if res:
                    fetch_start.append(res["start"])
                    fetch_end.append(res["end"])
                    decode_draw.append(b["painted"] - res["end"])
                log(f"(a) rep {rep}: paint {b['painted']:.0f} ms (id shown "
                    f"{ids[0] if ids else float('nan'):.0f}, image fetch "
                    f"{res['start'] if res else float('nan'):.0f}-{res['end'] if res else float('nan'):.0f}"
                    f" ms), save {t_saved - t_click:.0f} ms ({b2['saves'][0][1]})")
            except Exception as exc:     # keep going, report it
                failures.append(f"rep {rep}: {type(exc).__name__}: {exc}"[:300])
                log(failures[-1])
            finally:
                context.close()
    return {
        "image": {"path": str(src), "mb": round(size_mb, 2), "px": f"{BIG_W}x{BIG_H}"},
        "first_paint_ms": summarize(paint),
        "save_ms": summarize(save),
        "phases_ms": {"item_id_shown": summarize(id_shown),
                      "image_request_start": summarize(fetch_start),
                      "image_response_end": summarize(fetch_end),
                      "response_end_to_paint (decode + draw)": summarize(decode_draw)},
        "targets_ms": {"first_paint": TARGET_PAINT_MS, "save": TARGET_SAVE_MS},
        "ratios_to_target": {
            "first_paint": round(statistics.median(paint) / TARGET_PAINT_MS, 2) if paint else None,
            "save": round(statistics.median(save) / TARGET_SAVE_MS, 2) if save else None},
        "failures": failures,
    }


# ---- part b --------------------------------------------------------------------------------
def part_b(browser_factory, db: Path, n_next: int, start_index: int) -> dict:
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
                log(f"(b) {k:2d} {want}: painted {t_paint - t_click:.0f} ms after the click")
        finally:
            context.close()
    return {
        "items": len(times),
        "next_to_paint_ms": summarize(times),
        "next_to_first_canvas_change_ms": summarize(first_change),
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
    args = ap.parse_args(argv)

    from playwright.sync_api import sync_playwright

    summary = {"benchmark": "browser_paint"}
    started = time.perf_counter()
    with sync_playwright() as pw:
        factory = BrowserFactory(pw, args.headed)
        if args.part in ("a", "both"):
            summary["a_big_image"] = part_a(factory, args.reps, args.headed)
        if args.part in ("b", "both"):
            db = args.db.resolve()
            if not db.exists():
                raise SystemExit(f"{db} not found; run bench/import_mmr_life.py first")
            summary["b_next_item"] = part_b(factory, db, args.next, args.start)
    summary["wall_s"] = round(time.perf_counter() - started, 1)
    summary["machine"] = machine()
    emit(summary)
    return 0


if __name__ == "__main__":
    sys.exit(main())
