#!/usr/bin/env python3
"""Generate ClueLab's demo dataset: ``assets/demo/demo.jsonl`` and ``assets/demo/images/``.

Why a generator instead of checked-in photos: the demo seeds every new database, so it must be
small, licence-clean and exactly reproducible, and every clue box must frame the evidence it names.
Each scene below is drawn with Pillow primitives, and its boxes are computed from the very
coordinates used to draw the evidence -- never typed in by hand.

The items imitate the three seed benchmarks: DailyClue's four domains and 16 subtasks
(question-clue-answer triplets), VER-Bench (several boxes per clue, a reasoning step per clue,
tiny clues on large images) and MMR-Life (a multi-image sequence with five image options A-E).

Run:  python assets/make_demo.py [--out assets/demo]
Deterministic: fixed seeds, Pillow's built-in font only (``ImageFont.load_default(size=...)``,
scalable since Pillow 10.1), no clocks -- the same Pillow version writes byte-identical files.
"""
from __future__ import annotations

import argparse
import json
import math
import random
import re
from functools import lru_cache
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

HERE = Path(__file__).resolve().parent
DEFAULT_OUT = HERE / "demo"
DATASET = "demo"


# --------------------------------------------------------------------------------------------
# Drawing helpers
# --------------------------------------------------------------------------------------------
@lru_cache(maxsize=None)
def font(size: int) -> ImageFont.FreeTypeFont:
    """Pillow's embedded scalable font: no system fonts, so output is the same on every machine."""
    return ImageFont.load_default(size=size)


# The embedded font covers ASCII (plus a few symbols) only. Accented letters and the euro sign are
# drawn as their base letter plus a mark, so French and German signs stay authentic (no tofu).
ACCENTED = {
    "ä": ("a", "uml"), "ö": ("o", "uml"), "ü": ("u", "uml"),
    "Ä": ("A", "uml"), "Ö": ("O", "uml"), "Ü": ("U", "uml"),
    "é": ("e", "acute"), "É": ("E", "acute"), "è": ("e", "grave"), "È": ("E", "grave"),
    "ê": ("e", "circ"), "Ê": ("E", "circ"), "à": ("a", "grave"), "â": ("a", "circ"),
    "ô": ("o", "circ"), "ç": ("c", "cedil"), "€": ("C", "euro"),
}
NATIVE = set(chr(c) for c in range(32, 127)) | set("°©«»±·")

Rect = tuple  # (x0, y0, x1, y1)


def union(*rects: Rect) -> Rect:
    """Smallest rectangle holding all given rectangles (used to build clue boxes)."""
    return (min(r[0] for r in rects), min(r[1] for r in rects),
            max(r[2] for r in rects), max(r[3] for r in rects))


def lerp(c0, c1, t):
    return tuple(int(round(a + (b - a) * t)) for a, b in zip(c0, c1))


class Canvas:
    """An RGB image plus drawing helpers that return the rectangle they painted.

    Returning rectangles is the point: clue boxes are unions of what was actually drawn.
    """

    def __init__(self, w: int, h: int, bg=(255, 255, 255)):
        self.im = Image.new("RGB", (w, h), bg)
        self.d = ImageDraw.Draw(self.im)
        self.w, self.h = w, h

    # -- text ---------------------------------------------------------------------------------
    def text(self, xy, s: str, size: int, fill=(0, 0, 0), anchor="la", bold=False) -> Rect:
        """Draw ``s`` (accents supported, see ACCENTED) and return its bounding box."""
        bad = [c for c in s if c not in NATIVE and c not in ACCENTED]
        if bad:
            raise ValueError(f"font cannot draw {bad!r} in {s!r}")
        f = font(size)
        stroke = max(1, size // 28) if bold else 0
        base = "".join(ACCENTED.get(c, (c,))[0] for c in s)
        self.d.text(xy, base, font=f, fill=fill, anchor=anchor, stroke_width=stroke, stroke_fill=fill)
        box = self.d.textbbox(xy, base, font=f, anchor=anchor, stroke_width=stroke)
        length = f.getlength(base)
        start = xy[0] - {"l": 0, "m": length / 2, "r": length}[anchor[0]]
        for i, ch in enumerate(s):
            if ch in ACCENTED:
                cx = start + f.getlength(base[:i])
                glyph = self.d.textbbox((cx, xy[1]), base[i], font=f, anchor="l" + anchor[1])
                box = union(box, self._mark(ACCENTED[ch][1], glyph, size, fill))
        return box

    def measure(self, xy, s: str, size: int, anchor="la", bold=False) -> Rect:
        """Box that ``text`` would paint, without painting (to size a sign before drawing it)."""
        real, self.d = self.d, ImageDraw.Draw(Image.new("RGB", (1, 1)))
        try:
            return self.text(xy, s, size, anchor=anchor, bold=bold)
        finally:
            self.d = real

    def _mark(self, kind, g, s, fill) -> Rect:
        """Draw a diacritic (or the euro bars) on glyph box ``g``; return the mark's box."""
        gx0, gy0, gx1, gy1 = g
        cx = (gx0 + gx1) / 2
        w = max(1, round(s * 0.07))
        if kind == "uml":
            r = max(1.5, s * 0.055)
            y = gy0 - s * 0.13
            for dx in (-s * 0.13, s * 0.13):
                self.d.ellipse((cx + dx - r, y - r, cx + dx + r, y + r), fill=fill)
            return (cx - s * 0.13 - r, y - r, cx + s * 0.13 + r, y + r)
        if kind == "acute":
            pts = [(cx - s * 0.04, gy0 - s * 0.05), (cx + s * 0.08, gy0 - s * 0.21)]
        elif kind == "grave":
            pts = [(cx + s * 0.04, gy0 - s * 0.05), (cx - s * 0.08, gy0 - s * 0.21)]
        elif kind == "circ":
            pts = [(cx - s * 0.11, gy0 - s * 0.05), (cx, gy0 - s * 0.19), (cx + s * 0.11, gy0 - s * 0.05)]
        elif kind == "cedil":
            pts = [(cx, gy1), (cx, gy1 + s * 0.08), (cx - s * 0.07, gy1 + s * 0.16)]
        else:  # euro: two bars through a "C"
            hgt = gy1 - gy0
            for t in (0.38, 0.62):
                y = gy0 + hgt * t
                self.d.line((gx0 - s * 0.08, y, gx0 + (gx1 - gx0) * 0.72, y), fill=fill, width=w)
            return (gx0 - s * 0.08, gy0, gx1, gy1)
        self.d.line(pts, fill=fill, width=w, joint="curve")
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        return (min(xs) - w, min(ys) - w, max(xs) + w, max(ys) + w)

    # -- shapes ---------------------------------------------------------------------------------
    def rect(self, r: Rect, fill=None, outline=None, width=1, radius=0) -> Rect:
        if radius:
            self.d.rounded_rectangle(r, radius=radius, fill=fill, outline=outline, width=width)
        else:
            self.d.rectangle(r, fill=fill, outline=outline, width=width)
        return r

    def ellipse(self, r: Rect, fill=None, outline=None, width=1) -> Rect:
        self.d.ellipse(r, fill=fill, outline=outline, width=width)
        return r

    def circle(self, cx, cy, r, fill=None, outline=None, width=1) -> Rect:
        return self.ellipse((cx - r, cy - r, cx + r, cy + r), fill, outline, width)

    def polygon(self, pts, fill=None, outline=None, width=1) -> Rect:
        self.d.polygon(pts, fill=fill, outline=outline, width=width)
        return (min(p[0] for p in pts), min(p[1] for p in pts), max(p[0] for p in pts), max(p[1] for p in pts))

    def line(self, pts, fill, width=1) -> Rect:
        self.d.line(pts, fill=fill, width=width, joint="curve")
        flat = list(pts) if isinstance(pts[0], (int, float)) else [c for p in pts for c in p]
        xs, ys = flat[0::2], flat[1::2]
        h = width / 2
        return (min(xs) - h, min(ys) - h, max(xs) + h, max(ys) + h)

    def vgrad(self, r: Rect, stops) -> None:
        """Vertical gradient through ``stops`` = [(t in 0..1, rgb), ...]."""
        x0, y0, x1, y1 = r
        for y in range(y0, y1):
            t = (y - y0) / max(1, y1 - y0 - 1)
            for (ta, ca), (tb, cb) in zip(stops, stops[1:]):
                if ta <= t <= tb:
                    self.d.line((x0, y, x1 - 1, y), fill=lerp(ca, cb, (t - ta) / max(1e-9, tb - ta)))
                    break

    # -- boxes ----------------------------------------------------------------------------------
    def box(self, image_index: int, r: Rect, pad: int = 4) -> dict:
        """A clue box in ClueLab JSONL form: padded, rounded outwards, clamped inside the image."""
        x0 = max(0, math.floor(r[0] - pad))
        y0 = max(0, math.floor(r[1] - pad))
        x1 = min(self.w, math.ceil(r[2] + pad))
        y1 = min(self.h, math.ceil(r[3] + pad))
        assert x0 < x1 and y0 < y1, r
        return {"image": image_index, "x0": x0, "y0": y0, "x1": x1, "y1": y1}


def photo_finish(im: Image.Image, seed: int) -> Image.Image:
    """Soften edges and add sensor-like noise so a large scene looks photographic (and is a JPEG)."""
    im = im.filter(ImageFilter.GaussianBlur(0.9))
    a = np.asarray(im).astype(np.int16)
    a += np.random.default_rng(seed).normal(0, 3.0, a.shape).round().astype(np.int16)
    return Image.fromarray(a.clip(0, 255).astype(np.uint8))


def dim_h(c: Canvas, x0, x1, y, label, size=26, color=(30, 60, 140)) -> Rect:
    """Horizontal dimension line with arrowheads and a centred label above it."""
    c.line((x0, y, x1, y), color, 3)
    for x, s in ((x0, 1), (x1, -1)):
        c.polygon([(x, y), (x + 14 * s, y - 7), (x + 14 * s, y + 7)], fill=color)
        c.line((x, y - 14, x, y + 14), color, 2)
    t = c.text(((x0 + x1) / 2, y - 8), label, size, color, anchor="ms")
    return union((x0, y - 14, x1, y + 14), t)


def dim_v(c: Canvas, x, y0, y1, label, size=26, color=(30, 60, 140)) -> Rect:
    """Vertical dimension line with arrowheads and a label to its right."""
    c.line((x, y0, x, y1), color, 3)
    for y, s in ((y0, 1), (y1, -1)):
        c.polygon([(x, y), (x - 7, y + 14 * s), (x + 7, y + 14 * s)], fill=color)
        c.line((x - 14, y, x + 14, y), color, 2)
    t = c.text((x + 12, (y0 + y1) / 2), label, size, color, anchor="lm")
    return union((x - 14, y0, x + 14, y1), t)


def person(c: Canvas, x, foot, h, coat, skin=(226, 188, 160), hat=None, scarf=None, legs=(45, 45, 55)) -> Rect:
    """A simple standing figure (head, coat, legs, optional knitted hat and scarf); returns its box."""
    r = h * 0.085
    head_cy = foot - h + r + (h * 0.07 if hat else 0)
    top = head_cy + r
    w = h * 0.30
    coat_bottom = foot - h * 0.26
    c.rect((x - w * 0.32, coat_bottom - 4, x - w * 0.08, foot), fill=legs)
    c.rect((x + w * 0.08, coat_bottom - 4, x + w * 0.32, foot), fill=legs)
    c.polygon([(x - w / 2, top + 6), (x + w / 2, top + 6), (x + w * 0.6, coat_bottom), (x - w * 0.6, coat_bottom)], fill=coat)
    arm = tuple(max(0, v - 30) for v in coat)
    c.line((x - w / 2, top + 12, x - w * 0.66, coat_bottom - h * 0.1), arm, int(h * 0.07))
    c.line((x + w / 2, top + 12, x + w * 0.66, coat_bottom - h * 0.1), arm, int(h * 0.07))
    c.circle(x, head_cy, r, fill=skin)
    box = (x - w * 0.72, head_cy - r, x + w * 0.72, foot)
    if scarf:
        c.rect((x - w * 0.36, top - 2, x + w * 0.36, top + h * 0.06), fill=scarf, radius=4)
        c.rect((x + w * 0.12, top + h * 0.04, x + w * 0.26, top + h * 0.2), fill=scarf)
    if hat:
        c.d.chord((x - r * 1.08, head_cy - r * 1.15, x + r * 1.08, head_cy + r * 0.9), 180, 360, fill=hat)
        c.rect((x - r * 1.1, head_cy - r * 0.25, x + r * 1.1, head_cy + r * 0.05), fill=tuple(max(0, v - 40) for v in hat))
        c.circle(x, head_cy - r * 1.2, r * 0.32, fill=(245, 245, 245))
        box = (box[0], head_cy - r * 1.52, box[2], box[3])
    return box


# --------------------------------------------------------------------------------------------
# Items
# --------------------------------------------------------------------------------------------
class Demo:
    """Collects items and writes images; each ``scene_*`` method adds one item."""

    def __init__(self, out: Path):
        self.out = out
        self.items: list[dict] = []
        self.written: set[str] = set()

    def save(self, c: Canvas, name: str, photo_seed: int | None = None) -> str:
        """Save under images/; big photo-like scenes become JPEG q85, drawings stay PNG."""
        rel = f"images/{name}"
        path = self.out / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if photo_seed is not None:
            photo_finish(c.im, photo_seed).save(path, "JPEG", quality=85, optimize=True)
        else:
            c.im.save(path, "PNG", optimize=True)
        self.written.add(rel)
        return rel

    def add(self, slug, *, domain, subtask, question, answer_type, answer, images, clues,
            status="draft", options=(), aliases=(), gt_reasoning="", reasoning_type=None, metadata=None):
        self.items.append({
            "id": f"{DATASET}/{slug}", "dataset": DATASET, "domain": domain, "subtask": subtask,
            "reasoning_type": reasoning_type, "question": question, "answer_type": answer_type,
            "options": list(options), "answer": answer, "aliases": list(aliases),
            "gt_reasoning": gt_reasoning, "status": status, "problems": [],
            "metadata": dict(metadata or {}), "images": list(images),
            "clues": [{"text": t, "reasoning": r, "boxes": list(b)} for t, r, b in clues],
        })

    # ---------------------------------------------------------------- Location Identification
    def scene_munich(self):
        """Large photo-like street (3000x2000): three tiny clues pin it to Munich, Bavaria."""
        W, H = 3000, 2000
        c = Canvas(W, H)
        c.vgrad((0, 0, W, 1500), [(0, (118, 168, 224)), (1, (208, 224, 240))])
        facades = [(0, 520, 380, (222, 196, 150)), (520, 1180, 300, (238, 228, 205)),
                   (1180, 1760, 420, (214, 160, 150)), (1760, 2300, 260, (190, 205, 180)),
                   (2300, 3000, 350, (225, 215, 190))]
        for x0, x1, top, col in facades:
            c.rect((x0, top, x1, 1500), fill=col, outline=(120, 110, 100), width=3)
            c.rect((x0 - 10, top - 40, x1 + 10, top), fill=(130, 70, 55))
            cols, ww, wh = max(2, (x1 - x0) // 170), 90, 140
            gap = (x1 - x0 - cols * ww) / (cols + 1)
            y = top + 80
            while y + wh < 1120:
                for k in range(cols):
                    wx = x0 + gap + (ww + gap) * k
                    c.rect((wx - 8, y - 8, wx + ww + 8, y + wh + 8), fill=(246, 243, 236))
                    c.rect((wx, y, wx + ww, y + wh), fill=(92, 118, 140))
                    c.line((wx + ww / 2, y, wx + ww / 2, y + wh), (246, 243, 236), 5)
                    c.line((wx, y + wh * 0.4, wx + ww, y + wh * 0.4), (246, 243, 236), 5)
                y += wh + 70
            c.rect((x0 + 40, 1240, x1 - 40, 1490), fill=(70, 86, 96), outline=(60, 50, 45), width=6)
        # distractor: a German bakery sign (German-speaking, but not region-specific)
        t = c.measure((850, 1190), "Bäckerei · Café", 50, anchor="mm")
        c.rect((t[0] - 30, 1152, t[2] + 30, 1228), fill=(110, 62, 36))
        c.text((850, 1190), "Bäckerei · Café", 50, (250, 236, 200), anchor="mm")
        # clue: street-name sign at the corner of the third house
        t = c.measure((1350, 1190), "Leopoldstr.", 46, anchor="mm")
        sign = (t[0] - 22, t[1] - 16, t[2] + 22, t[3] + 16)
        c.rect(sign, fill=(24, 62, 142))
        c.rect((sign[0] + 6, sign[1] + 6, sign[2] - 6, sign[3] - 6), outline=(255, 255, 255), width=3)
        c.text((1350, 1190), "Leopoldstr.", 46, (255, 255, 255), anchor="mm")
        # sidewalk, curb, road
        c.rect((0, 1500, W, 1640), fill=(186, 183, 177))
        for x in range(0, W, 150):
            c.line((x, 1500, x - 40, 1640), (160, 157, 150), 3)
        c.rect((0, 1640, W, 1662), fill=(150, 148, 142))
        c.rect((0, 1662, W, H), fill=(88, 90, 94))
        for x in range(40, W, 280):
            c.rect((x, 1870, x + 160, 1884), fill=(235, 235, 230))
        # a tree and pedestrians (context)
        c.rect((1945, 1120, 1975, 1600), fill=(92, 66, 44))
        for dx, dy, r in ((-150, -40, 150), (120, -60, 160), (0, -190, 170), (-40, 60, 130), (140, 70, 120)):
            c.circle(1960 + dx, 1000 + dy, r, fill=(70, 120, 60))
        person(c, 320, 1600, 270, coat=(60, 70, 90))
        person(c, 1640, 1610, 260, coat=(150, 60, 60))
        # clue: U-Bahn sign "Muenchner Freiheit" on a post in front of the last house
        c.rect((2444, 1010, 2456, 1600), fill=(70, 72, 76))
        u = c.rect((2395, 900, 2505, 1010), fill=(0, 82, 160))
        c.text((2450, 955), "U", 90, (255, 255, 255), anchor="mm", bold=True)
        t = c.measure((2450, 1041), "Münchner Freiheit", 30, anchor="mm")
        panel = c.rect((t[0] - 14, 1016, t[2] + 14, 1066), fill=(255, 255, 255), outline=(0, 82, 160), width=3)
        c.text((2450, 1041), "Münchner Freiheit", 30, (0, 60, 130), anchor="mm")
        ubahn = union(u, panel)
        # clue: a car seen from behind with a German plate "M LK 4821"
        c.polygon([(745, 1560), (1055, 1560), (1090, 1660), (710, 1660)], fill=(34, 62, 112))
        c.rect((765, 1576, 1035, 1648), fill=(40, 48, 58))
        c.rect((690, 1650, 1110, 1800), fill=(40, 72, 128), radius=18)
        c.rect((702, 1670, 768, 1712), fill=(200, 30, 30))
        c.rect((1032, 1670, 1098, 1712), fill=(200, 30, 30))
        c.rect((690, 1780, 1110, 1812), fill=(50, 52, 56))
        c.rect((705, 1805, 780, 1850), fill=(20, 20, 22))
        c.rect((1020, 1805, 1095, 1850), fill=(20, 20, 22))
        plate = self._german_plate(c, 900, 1740)
        self.add(
            "munich-street", domain="Location Identification", subtask="Location Identification",
            question="In which country and within which first-level administrative region of that country was this "
                     "picture taken? Please answer in the format $country,administrative_area_level_1$.",
            answer_type="location", answer="$germany,bavaria/bayern$",
            aliases=["$germany,bavaria$", "$germany,bayern$", "$deutschland,bayern$"],
            images=[self.save(c, "munich_street.jpg", photo_seed=11)],
            clues=[
                ("Blue street-name sign on the corner house reading 'Leopoldstr.'",
                 "'Str.' abbreviates 'Straße', so this is a German-speaking country; Leopoldstraße is the main "
                 "avenue of Munich's Schwabing district.", [c.box(0, sign)]),
                ("U-Bahn sign (white U on blue) with the station name 'Münchner Freiheit'",
                 "Münchner Freiheit is a station of the Munich U-Bahn (lines U3/U6) on Leopoldstraße, "
                 "which places the photo in Munich, Bavaria.", [c.box(0, ubahn)]),
                ("Number plate 'M LK 4821' with the blue EU strip marked 'D'",
                 "'D' is Germany's EU country code and the district code 'M' stands for München.", [c.box(0, plate)]),
            ],
            gt_reasoning="The street sign (German 'Str.'), the U-Bahn station 'Münchner Freiheit' and the 'M' number "
                         "plate with the 'D' strip all point to Munich, the capital of Bavaria, Germany.",
            status="verified", metadata={"source": "synthetic drawing", "style": "SeekWorld"},
        )

    @staticmethod
    def _german_plate(c: Canvas, cx, cy) -> Rect:
        """German plate: EU strip, district code, two round seals, letters and digits."""
        size = 40
        f = font(size)
        w_m, w_r = f.getlength("M"), f.getlength("LK 4821")
        total = 30 + 14 + w_m + 10 + 22 + 10 + w_r + 14
        x0, y0, x1, y1 = cx - total / 2, cy - 29, cx + total / 2, cy + 29
        c.rect((x0, y0, x1, y1), fill=(250, 250, 246), outline=(20, 20, 20), width=3, radius=5)
        c.rect((x0 + 3, y0 + 3, x0 + 30, y1 - 3), fill=(0, 51, 153))
        c.circle(x0 + 16.5, y0 + 17, 8, outline=(255, 204, 0), width=2)
        c.text((x0 + 16.5, y1 - 7), "D", 17, (255, 255, 255), anchor="ms")
        x = x0 + 44
        c.text((x, cy), "M", size, anchor="lm")
        x += w_m + 10
        c.circle(x + 11, cy - 12, 10, fill=(60, 130, 200), outline=(40, 40, 40))
        c.circle(x + 11, cy + 12, 10, fill=(230, 200, 60), outline=(40, 40, 40))
        c.text((x + 32, cy), "LK 4821", size, anchor="lm")
        return (x0, y0, x1, y1)

    def scene_montreal(self):
        """Montreal street corner: French stop sign, Quebec plate, 'dépanneur', exterior staircases."""
        W, H = 1600, 1000
        c = Canvas(W, H)
        c.vgrad((0, 0, W, 640), [(0, (138, 184, 230)), (1, (212, 226, 240))])
        # two brick plexes
        for x0, x1, top in ((0, 620, 180), (620, 1120, 210)):
            c.rect((x0, top, x1, 640), fill=(158, 72, 52), outline=(90, 40, 30), width=3)
            for y in range(top + 14, 640, 18):
                c.line((x0, y, x1, y), (176, 96, 76), 2)
            c.rect((x0, top - 24, x1, top), fill=(70, 60, 55))
            for k in range(3):
                wx = x0 + 70 + k * ((x1 - x0 - 140) // 2) - 45
                for wy in (top + 40, top + 200):
                    c.rect((wx, wy, wx + 90, wy + 120), fill=(240, 236, 228))
                    c.rect((wx + 8, wy + 8, wx + 82, wy + 112), fill=(84, 110, 130))
        # exterior staircase on the second plex (iron, typical of Montreal)
        iron = (25, 25, 28)
        stairs = [c.rect((700, 405, 1040, 415), fill=iron),            # balcony
                  c.line((700, 350, 1040, 350), iron, 4),                # balcony railing
                  c.line((750, 640, 1000, 405), iron, 5),                # stringer
                  c.line((750, 585, 1000, 350), iron, 4)]                # stair railing
        for x in range(700, 1041, 34):
            c.line((x, 350, x, 405), iron, 3)
        for k in range(13):
            px, py = 750 + 250 * k / 12, 640 - 235 * k / 12
            c.line((px - 14, py, px + 14, py), iron, 5)
            c.line((px, py, px, py - 55), iron, 2)
        c.line((700, 415, 700, 640), iron, 5)
        staircase = union(*stairs)
        # corner store on the first plex
        t = c.measure((310, 498), "DÉPANNEUR", 56, anchor="mm")
        t2 = c.measure((310, 548), "Bière · Vin · Loto", 26, anchor="mm")
        store_sign = c.rect((min(t[0], t2[0]) - 26, t[1] - 16, max(t[2], t2[2]) + 26, t2[3] + 12), fill=(22, 96, 60), outline=(240, 240, 230), width=3)
        c.text((310, 498), "DÉPANNEUR", 56, (255, 255, 255), anchor="mm")
        c.text((310, 548), "Bière · Vin · Loto", 26, (255, 230, 120), anchor="mm")
        c.rect((40, 580, 580, 640), fill=(60, 80, 90))
        # sidewalk, road
        c.rect((0, 640, W, 700), fill=(186, 184, 178))
        c.rect((0, 700, W, H), fill=(84, 86, 90))
        for x in range(0, W, 220):
            c.rect((x, 930, x + 120, 942), fill=(235, 215, 80))
        # post with street-name sign and stop sign
        c.rect((1294, 300, 1306, 700), fill=(140, 142, 146))
        t = c.measure((1300, 318), "Rue Sainte-Catherine", 28, anchor="mm")
        street = c.rect((t[0] - 16, 292, t[2] + 16, 345), fill=(20, 70, 140), outline=(255, 255, 255), width=2)
        c.text((1300, 318), "Rue Sainte-Catherine", 28, (255, 255, 255), anchor="mm")
        oct_out = [(1300 + 78 * math.cos(math.radians(22.5 + 45 * k)), 460 + 78 * math.sin(math.radians(22.5 + 45 * k))) for k in range(8)]
        oct_in = [(1300 + 70 * math.cos(math.radians(22.5 + 45 * k)), 460 + 70 * math.sin(math.radians(22.5 + 45 * k))) for k in range(8)]
        stop = c.polygon(oct_out, fill=(255, 255, 255))
        c.polygon(oct_in, fill=(198, 22, 32))
        c.text((1300, 466), "ARRÊT", 34, (255, 255, 255), anchor="mm", bold=True)
        # car from behind with a Quebec plate
        c.polygon([(470, 680), (730, 680), (770, 770), (430, 770)], fill=(150, 150, 156))
        c.rect((488, 694, 712, 762), fill=(40, 48, 58))
        c.rect((420, 765, 780, 935), fill=(176, 176, 182), radius=16)
        c.rect((430, 785, 486, 820), fill=(200, 30, 30))
        c.rect((714, 785, 770, 820), fill=(200, 30, 30))
        c.rect((440, 930, 505, 975), fill=(20, 20, 22))
        c.rect((695, 930, 760, 975), fill=(20, 20, 22))
        plate = c.rect((510, 830, 690, 920), fill=(250, 250, 250), outline=(40, 60, 140), width=3, radius=6)
        blue = (22, 58, 150)
        c.text((600, 848), "QUÉBEC", 18, blue, anchor="mm", bold=True)
        c.text((600, 878), "F24 KLM", 38, blue, anchor="mm")
        c.text((600, 908), "Je me souviens", 14, blue, anchor="mm")
        self.add(
            "montreal-corner", domain="Location Identification", subtask="Location Identification",
            question="In which country and within which first-level administrative region of that country was this "
                     "picture taken? Please answer in the format $country,administrative_area_level_1$.",
            answer_type="location", answer="$canada,quebec/québec$",
            aliases=["$canada,quebec$", "$canada,québec$", "$canada,qc$"],
            images=[self.save(c, "montreal_corner.png")],
            clues=[
                ("Stop sign reading 'ARRÊT'", "A French-language stop sign: France and other francophone countries use "
                 "'STOP', while 'ARRÊT' is characteristic of Quebec, Canada.", [c.box(0, stop)]),
                ("Licence plate 'QUÉBEC' with the motto 'Je me souviens'", "'Je me souviens' is Quebec's motto, printed "
                 "on its licence plates.", [c.box(0, plate)]),
                ("Shop sign 'DÉPANNEUR - Bière · Vin · Loto'", "'Dépanneur' is the Quebec French word for a corner shop "
                 "selling beer and wine.", [c.box(0, store_sign)]),
                ("Street sign 'Rue Sainte-Catherine' and an exterior iron staircase",
                 "Rue Sainte-Catherine is Montreal's main commercial street; outdoor staircases on brick plexes are "
                 "typical of Montreal.", [c.box(0, street), c.box(0, staircase)]),
            ],
            gt_reasoning="The French stop sign 'ARRÊT', the Quebec plate, the 'dépanneur' and Rue Sainte-Catherine place "
                         "the scene in Montreal, Quebec, Canada.",
            status="released", metadata={"source": "synthetic drawing", "style": "SeekWorld"},
        )

    # ------------------------------------------------------------------- Spatial Relationship
    def scene_chess(self):
        """Chessboard: a rook and a queen share a file, but a pawn blocks the path."""
        W, H = 900, 880
        c = Canvas(W, H, (250, 248, 244))
        ox, oy, sq = 100, 40, 90
        for f in range(8):
            for r in range(8):
                col = (240, 217, 181) if (f + r) % 2 == 0 else (181, 136, 99)
                c.rect((ox + f * sq, oy + r * sq, ox + (f + 1) * sq, oy + (r + 1) * sq), fill=col)
        c.rect((ox, oy, ox + 8 * sq, oy + 8 * sq), outline=(60, 40, 30), width=3)
        files = {}
        for f, ch in enumerate("abcdefgh"):
            files[ch] = c.text((ox + f * sq + sq / 2, oy + 8 * sq + 12), ch, 30, (60, 40, 30), anchor="mt")
        for r in range(1, 9):
            c.text((ox - 20, oy + (8 - r) * sq + sq / 2), str(r), 30, (60, 40, 30), anchor="rm")

        def piece(square, letter, white):
            f, r = "abcdefgh".index(square[0]), int(square[1])
            cx, cy = ox + f * sq + sq / 2, oy + (8 - r) * sq + sq / 2
            c.circle(cx, cy, 34, fill=(250, 250, 250) if white else (32, 32, 32), outline=(20, 20, 20), width=3)
            c.text((cx, cy), letter, 38, (20, 20, 20) if white else (245, 245, 245), anchor="mm", bold=True)
            return (cx - 34, cy - 34, cx + 34, cy + 34)

        boxes = {}
        for sqr, let, white in (("g1", "K", True), ("f3", "R", True), ("c3", "N", True), ("g2", "P", True),
                                ("h2", "P", True), ("e4", "P", True), ("g8", "K", False), ("f7", "Q", False),
                                ("f5", "P", False), ("g7", "P", False), ("h7", "P", False), ("c6", "N", False),
                                ("a8", "R", False)):
            boxes[sqr] = piece(sqr, let, white)
        self.add(
            "chess-blocked-rook", domain="Spatial Relationship", subtask="Logical Spatial Relations",
            question="White plays from the bottom of the board (letters on the discs: K king, Q queen, R rook, "
                     "N knight, P pawn). Can the white rook capture the black queen in one move?",
            answer_type="yes_no", answer="No",
            images=[self.save(c, "chess_blocked_rook.png")],
            clues=[
                ("The white rook on f3 and the black queen on f7 stand on the same file (f)",
                 "A rook moves along files and ranks, so the queen is on a line the rook could use.",
                 [c.box(0, boxes["f3"]), c.box(0, boxes["f7"]), c.box(0, files["f"])]),
                ("A black pawn on f5 stands between them", "A rook cannot jump over pieces; the pawn on f5 blocks the "
                 "path from f3 to f7, so the queen cannot be captured this move.", [c.box(0, boxes["f5"])]),
            ],
            gt_reasoning="Rook f3 and queen f7 share the f-file, but the black pawn on f5 blocks the line, so the "
                         "capture is impossible in one move.",
            status="in_review", metadata={"source": "synthetic drawing"},
        )

    def scene_pantry(self):
        """Pantry shelf with labelled jars: 'directly below' questions need a clean grid."""
        W, H = 1100, 1000
        c = Canvas(W, H, (236, 230, 220))
        wood, dark = (196, 154, 108), (150, 110, 70)
        c.rect((100, 60, 1000, 932), fill=(222, 196, 160))
        c.rect((80, 40, 1020, 60), fill=dark)
        c.rect((80, 40, 100, 960), fill=dark)
        c.rect((1000, 40, 1020, 960), fill=dark)
        shelves = [330, 620, 910]
        for y in shelves:
            c.rect((100, y, 1000, y + 22), fill=wood, outline=dark)
        names = [["FLOUR", "SUGAR", "COFFEE", "TEA"], ["RICE", "PASTA", "OATS", "LENTILS"],
                 ["SALT", "HONEY", "BEANS", "COCOA"]]
        fills = {"FLOUR": (246, 244, 238), "SUGAR": (252, 252, 252), "COFFEE": (70, 44, 30), "TEA": (90, 110, 60),
                 "RICE": (240, 236, 222), "PASTA": (232, 196, 110), "OATS": (214, 190, 150), "LENTILS": (180, 90, 50),
                 "SALT": (248, 248, 250), "HONEY": (226, 160, 40), "BEANS": (130, 40, 40), "COCOA": (100, 60, 40)}
        heights = [[190, 170, 200, 160], [180, 200, 175, 190], [160, 205, 185, 170]]
        jars = {}
        for row, y in enumerate(shelves):
            for col in range(4):
                name, h = names[row][col], heights[row][col]
                cx = 212 + col * 225
                body = c.rect((cx - 75, y - h, cx + 75, y), fill=(214, 230, 236), outline=(150, 170, 180), width=3, radius=18)
                c.rect((cx - 68, y - h * 0.75, cx + 68, y - 7), fill=fills[name], radius=12)
                lid = c.rect((cx - 62, y - h - 24, cx + 62, y - h + 4), fill=(120, 120, 128), radius=6)
                c.rect((cx - 62, y - h / 2 - 22, cx + 62, y - h / 2 + 22), fill=(255, 255, 255), outline=(90, 90, 90), width=2)
                c.text((cx, y - h / 2), name, 24, (20, 20, 20), anchor="mm", bold=True)
                jars[name] = union(body, lid)
        self.add(
            "pantry-shelf", domain="Spatial Relationship", subtask="Static Spatial Relations",
            question="Which jar stands directly below the coffee jar?",
            answer_type="multiple_choice", answer="D",
            options=[{"label": "A", "text": "Tea"}, {"label": "B", "text": "Pasta"},
                     {"label": "C", "text": "Lentils"}, {"label": "D", "text": "Oats"}],
            images=[self.save(c, "pantry_shelf.png")],
            clues=[
                ("The COFFEE jar is on the top shelf, third from the left", "Locates the reference object's column.",
                 [c.box(0, jars["COFFEE"])]),
                ("On the middle shelf, third from the left, stands the OATS jar", "Same column, one shelf lower: "
                 "this is the jar directly below the coffee.", [c.box(0, jars["OATS"])]),
            ],
            gt_reasoning="Coffee is in the third column of the top shelf; the jar in the third column of the shelf "
                         "below is Oats.",
            status="candidate", metadata={"source": "synthetic drawing"},
        )

    def scene_floorplan(self):
        """Floor plan with dimensions: which furniture fits the alcove (functional spatial reasoning)."""
        W, H = 1300, 900
        c = Canvas(W, H, (252, 252, 250))
        wall = (40, 40, 40)
        pts = [(80, 280), (243, 280), (243, 93), (587, 93), (587, 280), (700, 280), (700, 820), (80, 820), (80, 280)]
        c.line(pts, wall, 14)
        # door gap in the bottom wall, with its swing arc
        c.rect((440, 810, 580, 830), fill=(252, 252, 250))
        c.line((440, 820, 440, 690), wall, 4)
        c.d.arc((310, 690, 570, 950), 270, 360, fill=(120, 120, 120), width=2)
        # window in the left wall
        c.rect((74, 450, 86, 650), fill=(190, 220, 240), outline=wall, width=2)
        c.text((390, 560), "BEDROOM", 34, (110, 110, 110), anchor="mm", bold=True)
        c.text((415, 255), "alcove", 24, (110, 110, 110), anchor="mm")
        alcove_w = dim_h(c, 250, 580, 150, "110 cm")
        alcove_d = dim_v(c, 625, 100, 280, "60 cm", size=22)
        for y in (100, 280):  # extension lines from the alcove's inner faces to the dimension
            c.line((596, y, 638, y), (30, 60, 140), 1)
        # furniture to place, same scale (3 px = 1 cm)
        c.text((780, 40), "Furniture to place (top view, same scale)", 26, (40, 40, 40), bold=True)
        pieces = {}
        for name, x1, y0, y1, dy, w_cm, col in (("WARDROBE", 1160, 130, 310, 340, 120, (206, 176, 136)),
                                               ("BOOKCASE", 1100, 400, 505, 535, 100, (170, 196, 160)),
                                               ("DESK", 1220, 600, 810, 840, 140, (190, 180, 214))):
            body = c.rect((800, y0, x1, y1), fill=col, outline=(60, 60, 60), width=3)
            c.text(((800 + x1) / 2, (y0 + y1) / 2), name, 26, (40, 40, 40), anchor="mm", bold=True)
            pieces[name] = (body, dim_h(c, 800, x1, dy, f"{w_cm} cm"))
        c.line((80, 870, 230, 870), (40, 40, 40), 4)
        c.text((240, 870), "50 cm", 20, (40, 40, 40), anchor="lm")
        self.add(
            "alcove-furniture", domain="Spatial Relationship", subtask="Functional Spatial Relations",
            question="Which piece of furniture fits into the bedroom alcove?",
            answer_type="multiple_choice", answer="C",
            options=[{"label": "A", "text": "The wardrobe"}, {"label": "B", "text": "The desk"},
                     {"label": "C", "text": "The bookcase"}, {"label": "D", "text": "None of them"}],
            images=[self.save(c, "alcove_floorplan.png")],
            clues=[
                ("The alcove is 110 cm wide and 60 cm deep", "These are the limits any piece must respect.",
                 [c.box(0, alcove_w), c.box(0, alcove_d)]),
                ("The bookcase is 100 cm wide (and shallow)", "100 cm < 110 cm, and its depth is far less than 60 cm, "
                 "so it fits.", [c.box(0, pieces["BOOKCASE"][0]), c.box(0, pieces["BOOKCASE"][1])]),
                ("The wardrobe is 120 cm and the desk 140 cm wide", "Both are wider than the 110 cm alcove.",
                 [c.box(0, pieces["WARDROBE"][1]), c.box(0, pieces["DESK"][1])]),
            ],
            gt_reasoning="Only the 100 cm bookcase is narrower than the 110 cm alcove; the wardrobe (120 cm) and desk "
                         "(140 cm) are too wide.",
            status="draft", metadata={"source": "synthetic drawing"},
        )

    # ---------------------------------------------------------------------- Daily Commonsense
    def scene_bus_stop(self):
        """Bus shelter: clock display + weekday/weekend timetable -> minutes to wait."""
        W, H = 1600, 1100
        c = Canvas(W, H)
        c.vgrad((0, 0, W, 850), [(0, (160, 196, 228)), (1, (218, 228, 238))])
        for x0, x1, top in ((0, 380, 300), (380, 820, 220), (820, 1200, 340), (1200, 1600, 260)):
            c.rect((x0, top, x1, 850), fill=(196, 192, 186), outline=(160, 156, 150), width=2)
        c.rect((0, 850, W, 960), fill=(186, 184, 178))
        c.rect((0, 960, W, H), fill=(86, 88, 92))
        c.rect((200, 250, 1300, 300), fill=(60, 64, 70))
        c.rect((220, 300, 1280, 850), fill=(206, 226, 234), outline=(120, 130, 136), width=4)
        c.rect((212, 300, 228, 850), fill=(90, 94, 100))
        c.rect((1272, 300, 1288, 850), fill=(90, 94, 100))
        c.rect((380, 690, 880, 716), fill=(110, 80, 60))
        c.rect((400, 716, 414, 850), fill=(70, 70, 74))
        c.rect((846, 716, 860, 850), fill=(70, 70, 74))
        display = c.rect((540, 306, 900, 380), fill=(18, 18, 20), outline=(90, 90, 94), width=3)
        c.text((720, 344), "TUE 14:37", 44, (255, 168, 40), anchor="mm", bold=True)
        # timetable panel
        c.rect((930, 330, 1250, 820), fill=(255, 255, 255), outline=(40, 40, 40), width=3)
        c.text((1090, 356), "LINE 42", 34, (20, 20, 20), anchor="mt", bold=True)
        c.text((1090, 396), "to Central Station", 22, (40, 40, 40), anchor="mt")
        y = 440
        rows = {}
        tables = (("Mon-Fri", {13: "05  25  45", 14: "05  25  45", 15: "05  25  45", 16: "05  20  35  50"}),
                  ("Sat-Sun", {13: "10  40", 14: "10  40", 15: "10  40", 16: "10  40"}))
        for title, table in tables:
            rows[title] = c.text((950, y), title, 24, (150, 20, 20), bold=True)
            c.line((950, y + 32, 1230, y + 32), (150, 20, 20), 2)
            y += 42
            for hour, mins in table.items():
                a = c.text((955, y), str(hour), 22, (20, 20, 20), bold=True)
                b = c.text((1010, y), mins, 22, (20, 20, 20))
                rows[(title, hour)] = union(a, b)
                y += 32
            y += 18
        # bus stop pole
        c.rect((1414, 330, 1426, 950), fill=(120, 122, 126))
        pole_sign = c.rect((1350, 190, 1490, 330), fill=(255, 255, 255), outline=(20, 110, 60), width=6, radius=12)
        c.text((1420, 236), "BUS", 28, (20, 110, 60), anchor="mm", bold=True)
        c.text((1420, 288), "42", 48, (20, 20, 20), anchor="mm", bold=True)
        self.add(
            "bus-stop-wait", domain="Daily Commonsense", subtask="Transportation and Travel",
            question="A passenger arrives at this stop right now. How many minutes will they wait for the next "
                     "line 42 bus, if it runs on time?",
            answer_type="numeric", answer="8", aliases=["8 minutes", "8 min"],
            images=[self.save(c, "bus_stop.png")],
            clues=[
                ("The shelter display shows 'TUE 14:37'", "It is Tuesday, 14:37: a weekday afternoon.",
                 [c.box(0, display)]),
                ("Mon-Fri timetable, row 14: departures at :05, :25 and :45", "On a weekday the next departure after "
                 "14:37 is 14:45, i.e. 8 minutes later (the Sat-Sun table does not apply).",
                 [c.box(0, rows["Mon-Fri"]), c.box(0, rows[("Mon-Fri", 14)])]),
                ("The stop sign shows line 42", "Confirms that line 42 serves this stop.", [c.box(0, pole_sign)]),
            ],
            gt_reasoning="Tuesday 14:37 -> weekday timetable; next line 42 departure is 14:45 -> 8 minutes.",
            status="verified", metadata={"source": "synthetic drawing"},
        )

    def scene_bakery(self):
        """Bakery front: price board + breakfast deal -> cheapest basket."""
        W, H = 1600, 1100
        c = Canvas(W, H, (236, 226, 206))
        c.rect((300, 60, 1300, 170), fill=(24, 76, 52), outline=(200, 180, 120), width=4)
        c.text((800, 115), "CORNER BAKERY", 72, (248, 236, 200), anchor="mm", bold=True)
        for k, x in enumerate(range(150, 1450, 65)):
            c.rect((x, 190, x + 65, 320), fill=(200, 36, 40) if k % 2 == 0 else (250, 248, 242))
            c.d.chord((x, 290, x + 65, 350), 0, 180, fill=(200, 36, 40) if k % 2 == 0 else (250, 248, 242))
        c.rect((150, 380, 880, 950), fill=(250, 236, 204), outline=(90, 60, 40), width=12)
        c.rect((250, 430, 780, 900), fill=(36, 42, 40), outline=(150, 110, 70), width=14)
        chalk = (242, 242, 236)
        c.text((515, 470), "TODAY", 40, chalk, anchor="mm", bold=True)
        lines = {}
        for i, (name, price) in enumerate((("Croissant", "€1.80"), ("Baguette", "€2.20"), ("Pain au chocolat", "€2.10"),
                                           ("Coffee", "€2.50"), ("Tea", "€2.00"))):
            y = 530 + 66 * i
            a = c.text((285, y), name, 34, chalk)
            b = c.text((745, y), price, 34, chalk, anchor="ra")
            lines[name] = union(a, b)
        c.rect((950, 380, 1230, 1000), fill=(120, 80, 50), outline=(80, 50, 30), width=6)
        c.rect((980, 410, 1200, 790), fill=(214, 230, 232))
        c.circle(1205, 830, 10, fill=(220, 190, 90))
        poster = c.rect((1000, 440, 1180, 690), fill=(255, 214, 64), outline=(200, 40, 30), width=4)
        red = (190, 30, 30)
        c.text((1090, 476), "BREAKFAST", 26, red, anchor="mm", bold=True)
        c.text((1090, 510), "DEAL", 30, red, anchor="mm", bold=True)
        c.text((1090, 560), "Coffee +", 24, (30, 30, 30), anchor="mm")
        c.text((1090, 592), "Croissant", 24, (30, 30, 30), anchor="mm")
        c.text((1090, 646), "€3.50", 44, red, anchor="mm", bold=True)
        c.rect((1280, 380, 1500, 950), fill=(250, 236, 204), outline=(90, 60, 40), width=12)
        for k in range(4):
            y = 460 + k * 120
            c.rect((1300, y + 50, 1480, y + 58), fill=(150, 110, 70))
            c.ellipse((1310, y, 1470, y + 48), fill=(214, 160, 90), outline=(160, 110, 60), width=2)
        c.rect((0, 1000, W, H), fill=(180, 178, 172))
        self.add(
            "bakery-breakfast-deal", domain="Daily Commonsense", subtask="Planning and Consumption",
            question="What is the lowest total price for one coffee and two croissants at this bakery?",
            answer_type="multiple_choice", answer="B",
            options=[{"label": "A", "text": "€6.10"}, {"label": "B", "text": "€5.30"},
                     {"label": "C", "text": "€3.50"}, {"label": "D", "text": "€7.00"}],
            images=[self.save(c, "bakery_front.png")],
            clues=[
                ("Chalkboard prices: Croissant €1.80, Coffee €2.50", "Bought separately: 2.50 + 2 x 1.80 = €6.10.",
                 [c.box(0, lines["Croissant"]), c.box(0, lines["Coffee"])]),
                ("Poster on the door: 'Breakfast deal - Coffee + Croissant €3.50'", "Deal plus one extra croissant: "
                 "3.50 + 1.80 = €5.30, cheaper than €6.10.", [c.box(0, poster)]),
            ],
            gt_reasoning="Use the €3.50 deal for coffee + one croissant and buy the second croissant at €1.80: €5.30.",
            status="candidate", metadata={"source": "synthetic drawing"},
        )

    def scene_kitchen(self):
        """Kitchen: calendar + fridge note + dark window -> put the bins out tonight?"""
        W, H = 1600, 1100
        c = Canvas(W, H, (238, 226, 200))
        for y in range(0, 760, 40):
            c.line((0, y, 1260, y), (232, 218, 190), 1)
        # night window
        window = c.rect((130, 140, 600, 560), fill=(246, 246, 244))
        c.vgrad((150, 160, 580, 540), [(0, (10, 16, 40)), (1, (30, 40, 80))])
        rnd = random.Random(8)
        for _ in range(40):
            x, y = rnd.randint(160, 570), rnd.randint(170, 520)
            c.circle(x, y, rnd.choice((1, 1, 2)), fill=(240, 240, 220))
        c.circle(480, 230, 26, fill=(240, 236, 210))
        c.circle(468, 222, 24, fill=(16, 24, 52))
        c.rect((355, 160, 375, 540), fill=(246, 246, 244))
        c.rect((150, 340, 580, 360), fill=(246, 246, 244))
        # wall clock at 7:50
        cx, cy, r = 800, 280, 110
        clock = c.circle(cx, cy, r, fill=(252, 252, 250), outline=(40, 40, 40), width=8)
        for k in range(12):
            a = math.radians(k * 30)
            c.line((cx + (r - 26) * math.sin(a), cy - (r - 26) * math.cos(a), cx + (r - 12) * math.sin(a),
                    cy - (r - 12) * math.cos(a)), (40, 40, 40), 4)
        for k, lab in ((0, "12"), (3, "3"), (6, "6"), (9, "9")):
            a = math.radians(k * 30)
            c.text((cx + (r - 44) * math.sin(a), cy - (r - 44) * math.cos(a)), lab, 22, (40, 40, 40), anchor="mm")
        for ang, length, wdt in (((7 + 50 / 60) * 30, 55, 9), (50 * 6, 85, 5)):
            a = math.radians(ang)
            c.line((cx, cy, cx + length * math.sin(a), cy - length * math.cos(a)), (20, 20, 20), wdt)
        c.circle(cx, cy, 8, fill=(20, 20, 20))
        # calendar
        cal = c.rect((990, 150, 1200, 430), fill=(255, 255, 255), outline=(120, 120, 120), width=2)
        c.rect((990, 150, 1200, 200), fill=(200, 40, 40))
        c.text((1095, 175), "OCTOBER", 24, (255, 255, 255), anchor="mm", bold=True)
        c.text((1095, 290), "14", 96, (30, 30, 30), anchor="mm", bold=True)
        c.text((1095, 390), "MONDAY", 28, (200, 40, 40), anchor="mm", bold=True)
        for x in (1030, 1160):
            c.circle(x, 150, 7, fill=(90, 90, 90))
        # counter and cabinets
        c.rect((0, 760, 1260, 800), fill=(120, 120, 126))
        c.rect((0, 800, 1260, H), fill=(170, 132, 92))
        for x in range(0, 1260, 315):
            c.rect((x + 10, 815, x + 305, 1090), outline=(130, 96, 62), width=4)
            c.rect((x + 140, 840, x + 175, 852), fill=(200, 200, 205))
        c.rect((820, 690, 900, 760), fill=(90, 150, 90), radius=8)
        c.rect((940, 660, 1010, 760), fill=(230, 230, 235), outline=(150, 150, 150), radius=8)
        # fridge with note
        c.rect((1270, 110, 1570, 1080), fill=(232, 236, 238), outline=(150, 156, 160), width=4, radius=14)
        c.line((1270, 430, 1570, 430), (150, 156, 160), 4)
        c.rect((1290, 180, 1304, 380), fill=(170, 176, 180), radius=6)
        c.rect((1290, 480, 1304, 700), fill=(170, 176, 180), radius=6)
        note = c.rect((1340, 500, 1540, 650), fill=(255, 244, 150), outline=(210, 190, 90), width=2)
        c.circle(1440, 504, 12, fill=(40, 120, 200))
        c.text((1440, 550), "BIN DAY:", 26, (30, 30, 90), anchor="mm", bold=True)
        c.text((1440, 592), "TUESDAY", 28, (30, 30, 90), anchor="mm", bold=True)
        c.text((1440, 628), "7 am", 24, (30, 30, 90), anchor="mm")
        self.add(
            "kitchen-bin-night", domain="Daily Commonsense", subtask="Home and Daily Life",
            question="This household puts the bins out on the evening before collection day. Should the bins go "
                     "out tonight?",
            answer_type="yes_no", answer="Yes",
            images=[self.save(c, "kitchen_evening.png")],
            clues=[
                ("The wall calendar shows Monday, 14 October", "Today is Monday.", [c.box(0, cal)]),
                ("Note on the fridge: 'BIN DAY: TUESDAY 7 am'", "Collection is tomorrow morning.", [c.box(0, note)]),
                ("The window is dark and the clock reads 7:50", "It is already evening (7:50 pm), the time the bins "
                 "are put out.", [c.box(0, window), c.box(0, clock)]),
            ],
            gt_reasoning="It is Monday evening and the bins are collected on Tuesday morning, so they go out tonight.",
            status="in_review", metadata={"source": "synthetic drawing"},
        )

    def scene_sms(self):
        """Phone screenshot: a parcel-fee text with tell-tale scam signs (information literacy)."""
        W, H = 900, 1600
        c = Canvas(W, H, (40, 40, 46))
        c.rect((20, 20, 880, 1580), fill=(14, 14, 18), radius=70)
        c.rect((45, 60, 855, 1540), fill=(250, 250, 252), radius=50)
        c.text((100, 84), "09:41", 26, (20, 20, 20), bold=True)
        c.rect((45, 130, 855, 270), fill=(240, 240, 245))
        c.text((75, 180), "<", 44, (0, 122, 255), anchor="lm")
        c.circle(450, 175, 34, fill=(170, 170, 180))
        c.circle(450, 163, 12, fill=(240, 240, 245))
        c.d.chord((424, 172, 476, 214), 180, 360, fill=(240, 240, 245))
        sender = c.text((450, 236), "+44 7700 900461", 28, (20, 20, 20), anchor="mt")
        c.text((450, 300), "Text Message · Today 09:12", 20, (140, 140, 146), anchor="mt")
        size, lh, x0, maxw = 30, 42, 110, 560
        f = font(size)

        def wrap(s):
            out, cur = [], ""
            for word in s.split():
                trial = (cur + " " + word).strip()
                if f.getlength(trial) <= maxw:
                    cur = trial
                else:
                    out.append(cur)
                    cur = word
            return out + [cur]

        paras = [(wrap("ParcelPost: your parcel could not be delivered because a customs fee of $1.99 is unpaid."), "text"),
                 (wrap("Pay within 24 hours or it will be returned to the sender:"), "urgent"),
                 (["http://parcelpost-redelivery.top/", "pay?id=88213"], "url")]
        # lay out first (to size the bubble), then draw bubble and text
        layout, y = [], 370
        for lines, kind in paras:
            for ln in lines:
                layout.append((ln, kind, y))
                y += lh
            y += 14
        bubble = (80, 350, 80 + maxw + 60, y + 8)
        c.rect(bubble, fill=(229, 229, 234), radius=28)
        spans = {"urgent": [], "url": []}
        for ln, kind, yy in layout:
            col = (0, 90, 220) if kind == "url" else (20, 20, 20)
            r = c.text((x0, yy), ln, size, col)
            if kind == "url":
                c.line((r[0], r[3] + 3, r[2], r[3] + 3), col, 2)
                r = (r[0], r[1], r[2], r[3] + 4)
            if kind in spans:
                spans[kind].append(r)
        c.rect((70, 1450, 830, 1505), outline=(200, 200, 206), width=2, radius=26)
        c.text((100, 1477), "Text Message", 24, (170, 170, 176), anchor="lm")
        self.add(
            "parcel-fee-sms", domain="Daily Commonsense", subtask="Information Literacy",
            question="Is this text message likely a genuine notice from the delivery company?",
            answer_type="yes_no", answer="No",
            images=[self.save(c, "parcel_sms.png")],
            clues=[
                ("Sender is a bare mobile number (+44 7700 ...), not the courier's registered name",
                 "Couriers send notices from named short codes; a private mobile number is a phishing sign.",
                 [c.box(0, sender)]),
                ("The link goes to 'parcelpost-redelivery.top', not the courier's official domain",
                 "Look-alike domains on cheap TLDs are typical of phishing pages.", [c.box(0, union(*spans["url"]))]),
                ("Pressure to pay within 24 hours or lose the parcel", "Artificial urgency pushes victims to pay "
                 "without checking.", [c.box(0, union(*spans["urgent"]))]),
            ],
            gt_reasoning="A private mobile number, a look-alike link and a 24-hour payment threat indicate a "
                         "smishing scam, not a genuine notice.",
            status="rejected",
            metadata={"source": "synthetic drawing",
                      "review_note": "Rejected: answerable from the OCR'd text alone; no visual clue beyond reading."},
        )

    def scene_park(self):
        """VER-Bench-style large scene (3000x2000): season from many small clues, several boxes per clue."""
        W, H = 3000, 2000
        c = Canvas(W, H)
        c.vgrad((0, 0, W, 1150), [(0, (172, 180, 190)), (1, (214, 218, 224))])
        rnd = random.Random(21)
        for x in range(-40, W, 70):
            r = rnd.randint(40, 90)
            c.ellipse((x, 1150 - r, x + 120, 1160), fill=(150, 146, 146))
        c.vgrad((0, 1150, W, H), [(0, (226, 230, 236)), (1, (246, 248, 250))])
        c.polygon([(1380, 1150), (1520, 1150), (2250, H), (850, H)], fill=(146, 140, 134))
        for k in range(26):
            t = k / 25
            for xe in (1380 + (850 - 1380) * t, 1520 + (2250 - 1520) * t):
                y = 1150 + (H - 1150) * t
                r = 8 + 50 * t * rnd.uniform(0.6, 1.2)
                c.ellipse((xe - r * 1.8, y - r * 0.5, xe + r * 1.8, y + r * 0.5), fill=(240, 242, 246))

        def tree(x, base, height, seed):
            tr = random.Random(seed)
            rects = []

            def branch(x0, y0, ang, length, width, depth):
                x1 = x0 + length * math.sin(math.radians(ang))
                y1 = y0 - length * math.cos(math.radians(ang))
                rects.append(c.line((x0, y0, x1, y1), (66, 56, 52), max(2, int(width))))
                if depth:
                    for da in (-tr.uniform(14, 30), tr.uniform(14, 30)):
                        branch(x1, y1, ang + da, length * tr.uniform(0.66, 0.8), width * 0.68, depth - 1)

            branch(x, base, 0, height * 0.32, height * 0.045, 7)
            return union(*rects)

        trees = [tree(330, 1420, 720, 1), tree(1010, 1300, 560, 2), tree(2600, 1380, 700, 3)]
        tree(2930, 1240, 420, 4)
        people = [person(c, 1250, 1640, 260, coat=(96, 40, 40), hat=(200, 30, 40), scarf=(230, 196, 60)),
                  person(c, 1580, 1720, 280, coat=(40, 60, 104), hat=(236, 236, 236), scarf=(200, 40, 40)),
                  person(c, 2160, 1580, 240, coat=(60, 84, 60), hat=(46, 46, 50), scarf=(80, 120, 200))]
        # snowman
        sx = 760
        parts = [c.circle(sx, 1830, 78, fill=(250, 250, 252), outline=(200, 206, 214), width=3),
                 c.circle(sx, 1712, 56, fill=(250, 250, 252), outline=(200, 206, 214), width=3),
                 c.circle(sx, 1622, 40, fill=(250, 250, 252), outline=(200, 206, 214), width=3),
                 c.rect((sx - 34, 1578, sx + 34, 1590), fill=(20, 20, 20)),
                 c.rect((sx - 24, 1528, sx + 24, 1580), fill=(20, 20, 20)),
                 c.line((sx - 50, 1700, sx - 130, 1650), (90, 60, 40), 6),
                 c.line((sx + 50, 1700, sx + 130, 1650), (90, 60, 40), 6)]
        c.polygon([(sx, 1622), (sx + 40, 1630), (sx, 1636)], fill=(240, 120, 30))
        for dx in (-14, 14):
            c.circle(sx + dx, 1610, 5, fill=(20, 20, 20))
        snowman = union(*parts)
        # bench with snow on it
        b = [c.rect((2330, 1700, 2660, 1730), fill=(120, 84, 56)), c.rect((2330, 1640, 2660, 1670), fill=(120, 84, 56)),
             c.rect((2350, 1730, 2366, 1790), fill=(50, 50, 54)), c.rect((2624, 1730, 2640, 1790), fill=(50, 50, 54)),
             c.ellipse((2325, 1686, 2665, 1708), fill=(248, 249, 252)), c.ellipse((2325, 1628, 2665, 1646), fill=(248, 249, 252))]
        bench = union(*b)
        # lamppost with a poster
        c.rect((1892, 700, 1908, 1560), fill=(40, 60, 50))
        c.rect((1860, 670, 1940, 710), fill=(40, 60, 50), radius=8)
        poster = c.rect((1822, 1120, 1978, 1320), fill=(186, 28, 34), outline=(250, 250, 250), width=4)
        c.text((1900, 1162), "CHRISTMAS", 24, (255, 255, 255), anchor="mm", bold=True)
        c.text((1900, 1200), "MARKET", 30, (255, 255, 255), anchor="mm", bold=True)
        c.text((1900, 1258), "1-23 DEC", 26, (255, 230, 120), anchor="mm", bold=True)
        c.text((1900, 1296), "Old Town Square", 16, (255, 255, 255), anchor="mm")
        self.add(
            "park-season", domain="Daily Commonsense", subtask="Logical Reasoning",
            question="In which season was this photo most likely taken?",
            answer_type="open", answer="Winter", aliases=["winter", "early winter", "December"],
            images=[self.save(c, "park_season.jpg", photo_seed=22)],
            clues=[
                ("Deciduous trees with completely bare branches", "Bare deciduous trees rule out spring and summer.",
                 [c.box(0, t) for t in trees]),
                ("People wear knitted hats, scarves and long coats", "Warm clothing indicates cold weather.",
                 [c.box(0, p) for p in people]),
                ("Snow on the ground and on the bench; a snowman", "Lying snow means freezing temperatures.",
                 [c.box(0, snowman), c.box(0, bench)]),
                ("Poster on the lamppost: 'CHRISTMAS MARKET 1-23 DEC'", "An announcement for the current month points "
                 "to December.", [c.box(0, poster)]),
            ],
            gt_reasoning="Bare trees, winter clothing, lying snow and a poster for a December Christmas market all "
                         "indicate winter.",
            status="verified", metadata={"source": "synthetic drawing", "style": "VER-Bench"},
        )

    def scene_nutrition(self):
        """Nutrition label: per-100 g value + serving size -> grams per serving."""
        W, H = 1000, 1300
        c = Canvas(W, H, (236, 136, 40))
        c.text((500, 90), "CRUNCHY OAT FLAKES", 56, (255, 255, 255), anchor="mm", bold=True)
        c.text((500, 170), "Net weight 480 g", 26, (255, 255, 255), anchor="mm")
        c.rect((120, 240, 880, 1180), fill=(255, 255, 255), outline=(20, 20, 20), width=4)
        c.text((150, 270), "Nutrition Information", 44, (20, 20, 20), bold=True)
        serving = c.text((150, 345), "Serving size: 40 g", 30, (20, 20, 20))
        c.text((150, 390), "Servings per pack: 12", 30, (20, 20, 20))
        c.rect((140, 440, 860, 448), fill=(20, 20, 20))
        c.text((150, 462), "Typical values", 28, (20, 20, 20), bold=True)
        c.text((850, 462), "per 100 g", 28, (20, 20, 20), anchor="ra", bold=True)
        c.rect((140, 505, 860, 509), fill=(20, 20, 20))
        rows = {}
        for i, (label, value, indent) in enumerate((("Energy", "1590 kJ / 376 kcal", 0), ("Fat", "3.2 g", 0),
                                                    ("of which saturates", "0.6 g", 1), ("Carbohydrate", "78 g", 0),
                                                    ("of which sugars", "32 g", 1), ("Fibre", "4.5 g", 0),
                                                    ("Protein", "7.8 g", 0), ("Salt", "0.9 g", 0))):
            y = 524 + 62 * i
            a = c.text((150 + 40 * indent, y), label, 28, (20, 20, 20))
            b = c.text((850, y), value, 28, (20, 20, 20), anchor="ra")
            c.line((140, y + 48, 860, y + 48), (150, 150, 150), 1)
            rows[label] = union(a, b)
        c.text((150, 1100), "Best before: see top of pack", 22, (80, 80, 80))
        self.add(
            "cereal-sugar-serving", domain="Daily Commonsense", subtask="Food and Health",
            question="How many grams of sugar does one serving of this cereal contain?",
            answer_type="numeric", answer="12.8", aliases=["12.8 g", "12.8 grams"],
            images=[self.save(c, "nutrition_label.png")],
            clues=[
                ("'of which sugars 32 g' in the per-100 g column", "Sugar content is 32 g per 100 g.",
                 [c.box(0, rows["of which sugars"])]),
                ("'Serving size: 40 g'", "One serving is 40 g, so sugar = 32 x 40 / 100 = 12.8 g.", [c.box(0, serving)]),
            ],
            gt_reasoning="32 g sugar per 100 g x 40 g serving / 100 = 12.8 g of sugar per serving.",
            status="draft", metadata={"source": "synthetic drawing"},
        )

    # ----------------------------------------------------------------- Scientific Commonsense
    def scene_thermometer(self):
        """Window with an outdoor thermometer at -6 °C and frost: is the puddle frozen? (physics)"""
        W, H = 1200, 1000
        c = Canvas(W, H, (226, 212, 186))
        c.rect((180, 80, 1020, 900), fill=(246, 246, 242))
        c.vgrad((210, 110, 990, 560), [(0, (188, 202, 218)), (1, (226, 230, 236))])
        rnd = random.Random(5)
        x = 210
        while x < 990:
            w, top = rnd.randint(90, 170), rnd.randint(420, 500)
            c.rect((x, top, min(990, x + w), 600), fill=(126, 128, 136))
            c.polygon([(x, top), (min(990, x + w), top), (min(990, x + w / 2), top - 40)], fill=(100, 90, 90))
            x += w + 10
        c.rect((210, 600, 990, 870), fill=(150, 150, 152))
        c.ellipse((280, 720, 540, 800), fill=(120, 132, 148))
        c.rect((590, 110, 610, 870), fill=(246, 246, 242))

        def frost(x0, y0, sx, sy, seed):
            fr = random.Random(seed)
            rects = []
            for _ in range(9):
                ang = fr.uniform(0.1, 1.45)
                length = fr.uniform(60, 150)
                x1, y1 = x0 + sx * length * math.cos(ang), y0 + sy * length * math.sin(ang)
                rects.append(c.line((x0, y0, x1, y1), (250, 252, 255), 3))
                for t in (0.35, 0.55, 0.75):
                    px, py = x0 + (x1 - x0) * t, y0 + (y1 - y0) * t
                    for da in (-0.7, 0.7):
                        a2 = math.atan2(y1 - y0, x1 - x0) + da
                        rects.append(c.line((px, py, px + 22 * math.cos(a2), py + 22 * math.sin(a2)), (250, 252, 255), 2))
            return union(*rects)

        frost_l = frost(212, 868, 1, -1, 1)
        frost_r = frost(988, 868, -1, -1, 2)
        # outdoor thermometer: +40 at y=200 ... -30 at y=650
        def level(t):
            return 200 + (40 - t) * 450 / 70

        c.rect((752, 160, 852, 730), fill=(255, 255, 255), outline=(120, 120, 126), width=3, radius=14)
        c.text((802, 182), "°C", 20, (40, 40, 40), anchor="mm", bold=True)
        c.line((822, 196, 822, 676), (200, 200, 206), 10)
        for t in range(-30, 41, 2):
            long = t % 10 == 0
            c.line((806 if long else 812, level(t), 818, level(t)), (40, 40, 40), 2)
            if long:
                c.text((800, level(t)), str(t), 18, (0, 60, 170) if t == 0 else (40, 40, 40), anchor="rm", bold=t == 0)
        c.line((822, level(-6), 822, 690), (210, 30, 30), 6)
        c.circle(822, 694, 14, fill=(210, 30, 30))
        reading = (754, level(0) - 14, 850, level(-10) + 14)
        self.add(
            "frozen-puddle", domain="Scientific Commonsense", subtask="Physics",
            question="There is a puddle on the pavement outside this window. Is it likely to be frozen right now?",
            answer_type="yes_no", answer="Yes",
            images=[self.save(c, "frosty_window.png")],
            clues=[
                ("The outdoor thermometer's red column ends at about -6 °C", "Water freezes at 0 °C; at -6 °C a "
                 "shallow puddle freezes.", [c.box(0, reading, pad=0)]),
                ("Frost crystals in the corners of the window panes", "Frost forms only when the glass is below "
                 "freezing, confirming sub-zero temperatures.", [c.box(0, frost_l), c.box(0, frost_r)]),
            ],
            gt_reasoning="The thermometer reads about -6 °C and there is frost on the glass: below freezing, so the "
                         "puddle is most likely frozen.",
            status="candidate", metadata={"source": "synthetic drawing"},
        )

    def scene_moon(self):
        """Evening crescent lit on the lower right, sunset glow: waxing (astronomy)."""
        W, H = 1600, 1000
        horizon = 790
        glow_c, gsx, gsy = (1300, horizon), 420.0, 170.0
        yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
        t = np.clip(yy / horizon, 0, 1)[..., None]
        top, mid, low = np.array([8, 14, 44]), np.array([44, 56, 116]), np.array([120, 96, 140])
        sky = np.where(t < 0.6, top + (mid - top) * (t / 0.6), mid + (low - mid) * ((t - 0.6) / 0.4))
        g = np.exp(-(((xx - glow_c[0]) / gsx) ** 2 + ((yy - glow_c[1]) / gsy) ** 2))[..., None]
        sky = sky * (1 - g) + np.array([250, 150, 70]) * g
        c = Canvas(W, H)
        c.im = Image.fromarray(sky.clip(0, 255).astype(np.uint8))
        c.d = ImageDraw.Draw(c.im)
        rnd = random.Random(3)
        for _ in range(90):
            x, y = rnd.randint(0, W - 1), rnd.randint(0, 520)
            if abs(x - 980) > 70 or abs(y - 330) > 70:
                c.circle(x, y, rnd.choice((1, 1, 1.6)), fill=(230, 230, 240))
        # crescent: full dim disk (earthshine), lit part = disk minus a disk shifted away from the Sun
        mx, my, r = 980, 330, 40
        c.circle(mx, my, r, fill=(34, 42, 78))
        mask = Image.new("L", (W, H), 0)
        md = ImageDraw.Draw(mask)
        md.ellipse((mx - r, my - r, mx + r, my + r), fill=255)
        ux, uy = glow_c[0] - mx, glow_c[1] - my
        n = math.hypot(ux, uy)
        ox, oy = -ux / n * 15, -uy / n * 15
        md.ellipse((mx + ox - r, my + oy - r, mx + ox + r, my + oy + r), fill=0)
        c.im.paste((252, 246, 222), (0, 0), mask)
        moon = (mx - r, my - r, mx + r, my + r)
        # silhouettes: hills, houses, a church spire, trees
        hills = [(0, H), (0, 800)] + [(x, horizon + 18 * math.sin(x / 160) - 4) for x in range(0, W + 1, 40)] + [(W, H)]
        c.polygon(hills, fill=(14, 14, 24))
        for x, w, h in ((150, 120, 80), (300, 90, 60), (520, 140, 90), (1420, 110, 70)):
            c.rect((x, horizon - h, x + w, horizon + 20), fill=(14, 14, 24))
            c.polygon([(x - 10, horizon - h), (x + w + 10, horizon - h), (x + w / 2, horizon - h - 50)], fill=(14, 14, 24))
        c.rect((820, horizon - 150, 870, horizon + 20), fill=(14, 14, 24))
        c.polygon([(815, horizon - 150), (875, horizon - 150), (845, horizon - 260)], fill=(14, 14, 24))
        for x in (700, 1040, 1120, 1560):
            c.ellipse((x - 40, horizon - 110, x + 40, horizon + 10), fill=(14, 14, 24))
        half = math.sqrt(math.log(2))
        glow = (glow_c[0] - gsx * half, glow_c[1] - gsy * half, glow_c[0] + gsx * half, horizon)
        self.add(
            "evening-crescent", domain="Scientific Commonsense", subtask="Astronomy and Geography",
            question="This photo was taken in the Northern Hemisphere shortly after sunset. Which phase is the Moon in?",
            answer_type="multiple_choice", answer="B",
            options=[{"label": "A", "text": "Waning crescent"}, {"label": "B", "text": "Waxing crescent"},
                     {"label": "C", "text": "Full Moon"}, {"label": "D", "text": "Last quarter"}],
            images=[self.save(c, "evening_crescent.png")],
            clues=[
                ("Thin crescent Moon, bright limb on the lower right", "The lit limb faces the Sun; seen from the "
                 "Northern Hemisphere a crescent lit on the right is waxing.", [c.box(0, moon)]),
                ("Orange afterglow on the horizon below and right of the Moon", "The Sun has just set: a crescent in "
                 "the evening sky is waxing (a waning crescent is seen before dawn).", [c.box(0, glow, pad=0)]),
            ],
            gt_reasoning="An evening crescent, lit on the side facing the set Sun (right), is a waxing crescent.",
            status="released", metadata={"source": "synthetic drawing"},
        )

    def scene_plant_sequence(self):
        """MMR-Life-style item: four frames of a growing plant + five image options A-E (temporal)."""
        def pot_scene(bg=(236, 232, 224)):
            c = Canvas(512, 512, bg)
            c.rect((0, 420, 512, 512), fill=(178, 136, 96))
            c.polygon([(176, 300), (336, 300), (316, 440), (196, 440)], fill=(190, 92, 60))
            c.rect((166, 284, 346, 310), fill=(206, 106, 72))
            c.ellipse((178, 280, 334, 300), fill=(84, 58, 40))
            return c

        green, leaf = (60, 130, 50), (84, 160, 70)

        def plant(c, stage, dx=0, scale=1.0, dry=False):
            """Draw the plant at a growth stage; return (plant box, bud/flower box or None)."""
            bx = 256 + dx
            stem_col, leaf_col = ((140, 110, 60), (160, 120, 60)) if dry else (green, leaf)
            if stage == "seed":
                return c.ellipse((bx - 9, 279, bx + 9, 291), fill=(200, 160, 100)), None
            if stage == "soil":
                return c.ellipse((bx - 40, 282, bx + 40, 296), fill=(96, 68, 46)), None
            tops = {"sprout": 250, "young": 190, "bud": 120, "flower": 110, "wilted": 150}
            top = 292 - (292 - tops[stage]) * scale
            rects = [c.line((bx, 292, bx, top), stem_col, 7)]
            if stage == "sprout":
                rects += [c.ellipse((bx - 36 * scale, top - 12, bx, top + 10), fill=leaf_col),
                          c.ellipse((bx, top - 12, bx + 36 * scale, top + 10), fill=leaf_col)]
                return union(*rects), None
            n = {"young": 2, "bud": 3, "flower": 3, "wilted": 3}[stage]
            for k in range(n):
                y = 262 - k * (292 - top - 40) / n
                if dry:
                    rects += [c.polygon([(bx, y), (bx - 60, y + 40), (bx - 50, y + 50)], fill=leaf_col),
                              c.polygon([(bx, y), (bx + 60, y + 40), (bx + 50, y + 50)], fill=leaf_col)]
                else:
                    ln = 66 * scale
                    rects += [c.ellipse((bx - ln, y - 14, bx, y + 12), fill=leaf_col),
                              c.ellipse((bx, y - 14, bx + ln, y + 12), fill=leaf_col)]
            extra = None
            if stage == "bud":
                extra = c.ellipse((bx - 13, top - 34, bx + 13, top + 4), fill=(96, 150, 60))
                c.ellipse((bx - 6, top - 34, bx + 6, top - 20), fill=(236, 210, 80))
            elif stage == "flower":
                for k in range(8):
                    a = math.radians(k * 45)
                    px, py = bx + 28 * math.cos(a), top - 20 + 28 * math.sin(a)
                    rects.append(c.circle(px, py, 18, fill=(250, 206, 40)))
                extra = c.circle(bx, top - 20, 14, fill=(130, 80, 30))
            elif stage == "wilted":
                rects.append(c.line((bx, top, bx + 30, top + 20, bx + 44, top + 56), stem_col, 6))
                extra = c.ellipse((bx + 30, top + 50, bx + 56, top + 78), fill=(120, 90, 50))
            if extra:
                rects.append(extra)
            return union(*rects), extra

        frames, boxes = [], []
        for i, stage in enumerate(("seed", "sprout", "young", "bud")):
            c = pot_scene()
            pbox, extra = plant(c, stage)
            frames.append(self.save(c, f"plant/frame_{i + 1}.png"))
            boxes.append((c, pbox, extra))
        options = []
        for label, stage, kw, bg in (("A", "young", {"dx": -6, "scale": 0.9}, (232, 234, 228)),
                                     ("B", "wilted", {"dry": True}, (238, 230, 222)),
                                     ("C", "flower", {}, (236, 232, 226)),
                                     ("D", "sprout", {"scale": 1.25}, (230, 232, 236)),
                                     ("E", "soil", {}, (234, 230, 230))):
            c = pot_scene(bg)
            plant(c, stage, **kw)
            options.append({"label": label, "image": self.save(c, f"plant/option_{label}.png")})
        c3, bud_plant, bud = boxes[3]
        self.add(
            "plant-growth-next", domain="Scientific Commonsense", subtask="Biology", reasoning_type="temporal",
            question="Question: The first four images show the same potted plant photographed several days apart, in "
                     "order. Which option shows the most likely next stage? \nOptions: ",
            answer_type="multiple_choice", answer="C", options=options,
            images=frames,
            clues=[
                ("The plant grows taller and adds leaf pairs from image 2 to image 4", "A healthy, growing plant: the "
                 "sequence moves forward in its life cycle.",
                 [boxes[k][0].box(k, boxes[k][1]) for k in (1, 2, 3)]),
                ("Image 4: a closed flower bud at the top of the stem", "A bud opens into a flower next, so the next "
                 "frame shows the plant in bloom (option C).", [c3.box(3, bud)]),
            ],
            gt_reasoning="Seed -> sprout -> leafy plant -> plant with a bud; the next stage is the open flower (C). "
                         "A, D and E are earlier stages and B (wilted) contradicts the healthy growth.",
            status="in_review", metadata={"source": "synthetic drawing", "style": "MMR-Life"},
        )

    # ------------------------------------------------------------------------------------------
    def build(self) -> None:
        for scene in (self.scene_munich, self.scene_montreal, self.scene_chess, self.scene_pantry,
                      self.scene_floorplan, self.scene_bus_stop, self.scene_bakery, self.scene_kitchen,
                      self.scene_sms, self.scene_park, self.scene_nutrition, self.scene_thermometer,
                      self.scene_moon, self.scene_plant_sequence):
            scene()

    def write_jsonl(self) -> Path:
        """Write demo.jsonl in ClueLab JSONL style (sorted keys, natural id order, one item a line)."""
        def natural(s):
            return [int(p) if p.isdigit() else p for p in re.split(r"(\d+)", s)]

        path = self.out / "demo.jsonl"
        with open(path, "w", encoding="utf-8", newline="\n") as fh:
            for it in sorted(self.items, key=lambda it: (it["dataset"], natural(it["id"]))):
                fh.write(json.dumps(it, ensure_ascii=False, sort_keys=True, separators=(", ", ": ")) + "\n")
        return path

    def remove_stale(self) -> None:
        """Delete images a previous run wrote that this run no longer produces (keeps the folder exact)."""
        for p in sorted((self.out / "images").rglob("*")):
            if p.is_file() and p.relative_to(self.out).as_posix() not in self.written:
                p.unlink()


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output folder (default: assets/demo)")
    args = ap.parse_args(argv)
    demo = Demo(args.out)
    demo.build()
    path = demo.write_jsonl()
    demo.remove_stale()
    total = sum(p.stat().st_size for p in args.out.rglob("*") if p.is_file())
    print(f"wrote {len(demo.items)} items, {len(demo.written)} images to {args.out} ({total / 1e6:.2f} MB)")
    for it in demo.items:
        nb = sum(len(cl["boxes"]) for cl in it["clues"])
        print(f"  {it['id']:28} {it['domain']:24} {it['answer_type']:16} imgs={len(it['images'])}"
              f"+{sum(1 for o in it['options'] if 'image' in o)} clues={len(it['clues'])} boxes={nb} {it['status']}")
    print(f"jsonl: {path}")


if __name__ == "__main__":
    main()
