"""The drawing kit of the demo generator: a canvas whose every primitive returns the rectangle it
painted, plus a few figures the scenes share (dimension lines, a standing person, photo finish).

Why rectangles: a clue box must frame the evidence it names, so scenes build boxes as unions of
what they actually drew (``Canvas.box``), never from coordinates typed in by hand. Only Pillow's
embedded font is used (``ImageFont.load_default(size=...)``, scalable since Pillow 10.1), so the
same Pillow version draws byte-identical images on every machine.
"""
from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont


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
