"""Boxes drawn onto display copies of an item's images, and zoomed crops, cached on disk.

Opening a response must take well under 150 ms, so nothing here is drawn twice: every file
is named by a hash of everything that goes into it (image, boxes, colours, style, size), so a
cached file is never stale and needs no invalidation. Files live in `<media>/inspect-cache/`,
which is inside the media folder that the server already serves as static files (Gradio does
not copy or hash them on each response). The folder is kept within a size and a file count,
least recently used files first (ui/inspect_cache.py).

GT boxes are drawn solid; model boxes dashed, over a white under-stroke so that they read on
any background (the GT boxes as thin outlines under them, for reference). Box coordinates are
original-image pixels; the display copy is the store's preview scaled to at most
DISPLAY_SIDE, and boxes are scaled onto it. A zoom is a crop of the
ORIGINAL image around the box (with a margin), at full resolution.
"""
from __future__ import annotations

import hashlib
import json
import os
import tempfile
import threading
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from ui.inspect_cache import CacheBound

DISPLAY_SIDE = 1024    # the view is half a screen wide; a zoom shows full resolution
ZOOM_MARGIN = 0.35      # of the box's size, on each side
ZOOM_MIN_SIDE = 96      # a tiny box still gets some context around it
ZOOM_MAX_SIDE = 3000    # a crop larger than this is scaled down (still sharper than the view)
STYLE_VERSION = 1       # bump when the drawing changes: new names, old files unused
_WRITER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="inspect-base")
GREY = "#7f7f7f"


def _key(*parts) -> str:
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()[:32]


def _font(size: int):
    try:
        return ImageFont.load_default(size=size)
    except TypeError:  # Pillow without FreeType
        return ImageFont.load_default()


def _write(image: Image.Image, path: Path, quality: int = 85) -> None:
    """Write atomically (two threads drawing the same overlay both succeed)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=".jpg", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            image.save(f, "JPEG", quality=quality)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _rgb(image: Image.Image) -> Image.Image:
    if image.mode in ("RGBA", "LA", "PA") or "transparency" in image.info:
        image = image.convert("RGBA")
        white = Image.new("RGB", image.size, "white")
        white.paste(image, mask=image.getchannel("A"))
        return white
    return image.convert("RGB")


def dashed_rectangle(draw: ImageDraw.ImageDraw, box, color, width: int = 3, dash: int = 10
                     ) -> None:
    x0, y0, x1, y1 = box
    for (ax, ay, bx, by) in ((x0, y0, x1, y0), (x1, y0, x1, y1), (x1, y1, x0, y1),
                             (x0, y1, x0, y0)):
        length = max(abs(bx - ax), abs(by - ay))
        steps = max(1, int(length // dash))
        for k in range(0, steps, 2):
            t0, t1 = k / steps, min(1.0, (k + 1) / steps)
            draw.line([(ax + (bx - ax) * t0, ay + (by - ay) * t0),
                       (ax + (bx - ax) * t1, ay + (by - ay) * t1)], fill=color, width=width)


def _label(draw, xy, text: str, color, font) -> None:
    """The clue's label in a filled tag above the box's top-left corner (inside at the top)."""
    x, y = xy
    left, top, right, bottom = draw.textbbox((0, 0), text, font=font)
    pad = 2
    tag_top = y - (bottom - top) - 2 * pad
    if tag_top < 0:
        tag_top = y
    draw.rectangle([x, tag_top, x + (right - left) + 2 * pad, tag_top + (bottom - top) + 2 * pad],
                   fill=color)
    draw.text((x + pad - left, tag_top + pad - top), text, fill="white", font=font)


def draw_boxes(image: Image.Image, boxes: list[dict], scale: float = 1.0,
               offset=(0.0, 0.0)) -> Image.Image:
    """boxes: {"box": [x0, y0, x1, y1] (original pixels), "color", "label", "dashed", "thin"}."""
    draw = ImageDraw.Draw(image)
    width = max(2, round(max(image.size) / 400))
    font = _font(max(12, round(max(image.size) / 60)))
    ox, oy = offset
    for spec in boxes:
        x0, y0, x1, y1 = spec["box"]
        box = [(min(x0, x1) - ox) * scale, (min(y0, y1) - oy) * scale,
               (max(x0, x1) - ox) * scale, (max(y0, y1) - oy) * scale]
        if spec.get("dashed"):
            draw.rectangle(box, outline="white", width=width + 2)
            dashed_rectangle(draw, box, spec["color"], width, dash=4 * width)
        else:
            draw.rectangle(box, outline=spec["color"],
                           width=max(1, width // 2) if spec.get("thin") else width)
        if spec.get("label"):
            _label(draw, (box[0], box[1]), spec["label"], spec["color"], font)
    return image


class Overlays:
    """Cached display images with boxes, and zoomed crops, for one store.

    The display copy of an image is kept in memory too (the last BASES_IN_MEMORY images):
    the responses to one item share its images, so walking through an item's samples, or
    comparing two responses, decodes it once."""

    BASES_IN_MEMORY = 6

    def __init__(self, store, side: int = DISPLAY_SIDE, max_bytes: int | None = None,
                 max_files: int | None = None, grace_s: float | None = None):
        self.store = store
        self.side = side
        self.folder = Path(store.media_dir) / "inspect-cache"
        self.cache = CacheBound(self.folder, max_bytes, max_files, grace_s)
        self._bases: OrderedDict[str, tuple[Image.Image, float]] = OrderedDict()
        self._lock = threading.Lock()

    def _save(self, image: Image.Image, path: Path, quality: int = 85) -> None:
        _write(image, path, quality)
        self.cache.added(path)

    def _base_path(self, sha: str) -> Path:
        return self.folder / f"base-{sha}-{self.side}.jpg"

    def _base(self, sha: str) -> tuple[Image.Image, float]:
        """(display copy of the image, decoded; its scale from original pixels)."""
        with self._lock:
            if sha in self._bases:
                self._bases.move_to_end(sha)
                return self._bases[sha]
        info = self.store.image_info(sha)
        scale = min(1.0, self.side / max(info["width"], info["height"]))
        path = self._base_path(sha)
        try:
            with Image.open(path) as im:
                image = im.convert("RGB")
            self.cache.used(path)
        except FileNotFoundError:
            with Image.open(self.store.preview_path(sha)) as im:
                size = (max(1, round(info["width"] * scale)),
                        max(1, round(info["height"] * scale)))
                im.draft("RGB", size)  # JPEG: decode at a reduced scale when that suffices
                image = _rgb(im)
                if image.size != size:
                    image = image.resize(size, Image.Resampling.BILINEAR, reducing_gap=2.0)
            _WRITER.submit(self._save, image, path, 90)  # for the next process; not waited
        with self._lock:
            self._bases[sha] = (image, scale)
            while len(self._bases) > self.BASES_IN_MEMORY:
                self._bases.popitem(last=False)
        return image, scale

    def warm(self, sha: str) -> None:
        """Decode (or make) the display copy of `sha` now, e.g. before drawing twice on it."""
        self._base(sha)

    def path_of(self, sha: str, boxes: list[dict]) -> Path:
        """Where the overlay of `boxes` on `sha` is (or will be) cached."""
        if not boxes:
            return self._base_path(sha)
        return self.folder / f"ov-{_key(STYLE_VERSION, sha, self.side, boxes)}.jpg"

    def overlay(self, sha: str, boxes: list[dict]) -> str:
        """Path of the display image of `sha` with `boxes` drawn (the bare image if none)."""
        path = self.path_of(sha, boxes)
        if not self.cache.used(path):
            image, scale = self._base(sha)
            if boxes:
                self._save(draw_boxes(image.copy(), boxes, scale), path)
            else:  # the bare display copy is shown: it must exist now
                self._save(image, path, quality=90)
        return str(path)

    def zoom(self, sha: str, spec: dict) -> str:
        """Path of a crop of the original around spec["box"], the box drawn on it."""
        info = self.store.image_info(sha)
        w, h = info["width"], info["height"]
        x0, y0, x1, y1 = spec["box"]
        x0, x1 = sorted((max(0.0, min(w, x0)), max(0.0, min(w, x1))))
        y0, y1 = sorted((max(0.0, min(h, y0)), max(0.0, min(h, y1))))
        mx = max((x1 - x0) * ZOOM_MARGIN, (ZOOM_MIN_SIDE - (x1 - x0)) / 2, 0)
        my = max((y1 - y0) * ZOOM_MARGIN, (ZOOM_MIN_SIDE - (y1 - y0)) / 2, 0)
        crop = (int(max(0, x0 - mx)), int(max(0, y0 - my)), int(min(w, x1 + mx + 1)),
                int(min(h, y1 + my + 1)))
        path = self.folder / f"zoom-{_key(STYLE_VERSION, sha, crop, spec)}.jpg"
        if not self.cache.used(path):
            with Image.open(self.store.image_path(sha)) as im:
                part = _rgb(im.crop(crop))
            scale = min(1.0, ZOOM_MAX_SIDE / max(part.size))
            if scale < 1.0:
                part = part.resize((max(1, round(part.width * scale)),
                                    max(1, round(part.height * scale))), Image.Resampling.LANCZOS)
            self._save(draw_boxes(part, [spec], scale, offset=crop[:2]), path, quality=92)
        return str(path)
