"""Shared fixtures: a fresh Store on a real SQLite file, small real images, valid items.

No mocks: every test runs against a real database file and real image files in tmp_path.
"""
from __future__ import annotations

import io
import itertools
import struct
import zlib
from pathlib import Path

import pytest
from PIL import Image

from store import Store


def png_bytes(w: int = 16, h: int = 12, color=(200, 30, 30), mode: str = "RGB",
              image_format: str = "PNG") -> bytes:
    """Encode a solid-colour image (PNG by default) in memory."""
    buffer = io.BytesIO()
    Image.new(mode, (w, h), color).save(buffer, image_format)
    return buffer.getvalue()


def png_with_bad_pixels(w: int = 64, h: int = 48, how: str = "flip") -> bytes:
    """A PNG whose structure is valid (every chunk's CRC right, IEND present) but whose pixel
    data does not decode: bytes flipped inside the IDAT's zlib stream ("flip"), the stream
    cut in half ("truncate"), or a whole stream holding only the first tenth of the rows
    ("short": Pillow decodes it without a word). Pillow's `verify()` accepts all three."""
    data = png_bytes(w, h, (10, 200, 90))
    start = data.index(b"IDAT") - 4
    length = struct.unpack(">I", data[start:start + 4])[0]
    pixels = bytearray(data[start + 8:start + 8 + length])
    if how == "flip":
        for i in range(2, len(pixels) - 4):
            pixels[i] ^= 0x5A
    elif how == "short":
        rows = zlib.decompress(bytes(pixels))
        pixels = bytearray(zlib.compress(rows[:len(rows) // h * max(1, h // 10)]))
    else:
        pixels = pixels[:len(pixels) // 2]
    chunk = (struct.pack(">I", len(pixels)) + b"IDAT" + bytes(pixels)
             + struct.pack(">I", zlib.crc32(b"IDAT" + bytes(pixels)) & 0xFFFFFFFF))
    return data[:start] + chunk + data[start + 12 + length:]


@pytest.fixture
def make_png():
    """make_png(dest=None, w=16, h=12, color=(200, 30, 30), name=None, mode="RGB",
    image_format="PNG"): the image's bytes when `dest` is None, else the Path of a file
    written into the folder `dest` (or to `dest` itself if it has a suffix)."""
    counter = itertools.count(1)

    def make(dest: Path | None = None, w: int = 16, h: int = 12, color=(200, 30, 30),
             name: str | None = None, mode: str = "RGB", image_format: str = "PNG"):
        data = png_bytes(w, h, color, mode, image_format)
        if dest is None:
            return data
        dest = Path(dest)
        path = dest if dest.suffix else dest / (name or f"image_{next(counter)}.png")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        return path

    return make


@pytest.fixture
def store(tmp_path):
    """A fresh Store in tmp_path (migrations applied), closed after the test."""
    s = Store.open(tmp_path / "cluelab.db")
    yield s
    s.close()


@pytest.fixture
def add_png(store):
    """add_png(w=16, h=12, color=None) -> sha256 of a new distinct image stored in `store`."""
    colors = itertools.count(1)

    def add(w: int = 16, h: int = 12, color=None) -> str:
        if color is None:
            n = next(colors)
            color = (n % 256, (n // 256) % 256, 100)
        return store.add_image(png_bytes(w, h, color), f"test_{w}x{h}_{color}.png").sha256

    return add


@pytest.fixture
def make_item(add_png):
    """make_item(item_id="demo/Q_1", n_images=1, n_clues=1, **overrides) -> a valid item
    dict (not yet created) whose images are stored in `store`; boxes lie inside the images."""

    def make(item_id: str = "demo/Q_1", n_images: int = 1, n_clues: int = 1, **overrides):
        images = [add_png(100, 80) for _ in range(n_images)]
        item = {
            "id": item_id,
            "dataset": item_id.split("/", 1)[0] if "/" in item_id else "demo",
            "domain": "Daily Commonsense",
            "subtask": "Food and Health",
            "reasoning_type": "abductive",
            "question": f"What is shown in {item_id}?",
            "answer_type": "multiple_choice",
            "options": [{"label": "A", "text": "a cat", "image": None},
                        {"label": "B", "text": "a dog", "image": None}],
            "answer": "A",
            "aliases": [],
            "gt_reasoning": "The ears are pointed.",
            "status": "candidate",
            "problems": [],
            "metadata": {"source": "test"},
            "images": images,
            "clues": [{"text": f"clue {c}", "reasoning": f"because {c}",
                       "boxes": [{"image": images[0], "x0": 10.0, "y0": 20.0,
                                  "x1": 30.0, "y1": 40.0}] if images else []}
                      for c in range(n_clues)],
        }
        item.update(overrides)
        return item

    return make
