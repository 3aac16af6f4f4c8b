"""Images for requests: downscale and re-encode, mask or crop clue boxes, data URLs.

Orientation: we deliberately do NOT apply the EXIF orientation tag. Clue boxes are stored in the
raw pixel coordinates of the image file (that is what the annotation tools and the datasets'
box files use), so rotating the pixels would move every box away from its clue. Re-encoding
drops the EXIF block, so the model sees the same raw pixel grid the boxes refer to (a server that
honoured the tag on the original file would otherwise show the model a rotated image).

Box convention: boxes are (x0, y0, x1, y1) in original-image pixels, given as a sequence of four
numbers or a dict with those keys. Each coordinate is rounded half up to an integer; x0/y0 are
inclusive and x1/y1 exclusive, i.e. the box covers exactly `array[y0:y1, x0:x1]`. Coordinates
are clipped to the image; a box with no area after rounding covers nothing.

Cache keys never need the encoded bytes: `content_key(original_sha256, params)` is the sha256 of
the original image's hash and the canonical preprocessing parameters, which determine the bytes.
"""
from __future__ import annotations

import base64
import hashlib
import io
import json
import math
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np
from PIL import Image

from domain.geometry import fit_within

FORMATS = {"png": ("PNG", "image/png"), "jpeg": ("JPEG", "image/jpeg"),
           "webp": ("WEBP", "image/webp")}


@dataclass
class PreparedImage:
    """An image ready to send: encoded bytes and what the model's pixel grid is."""
    data: bytes = field(repr=False)
    mime: str
    width: int           # of the encoded image
    height: int
    scale: float         # encoded width / original width (1.0 when not downscaled); the height
                         # ratio differs from it by less than one pixel's worth (sizes round down)
    key: str             # content_key(...) when the original's sha256 was given, else ""
    original_width: int = 0
    original_height: int = 0


def content_key(original_sha256: str, params: dict) -> str:
    """sha256 of the original image's hash plus canonical preprocessing params (for the cache).

    `params` is every setting that changes the bytes: max_pixels, format, quality, and for
    masked images the mode and the boxes.
    """
    canonical = json.dumps(params, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(f"{original_sha256}\n{canonical}".encode()).hexdigest()


def load_array(source: bytes | str | Path | Image.Image) -> np.ndarray:
    """Decode an image (bytes, a path or a PIL image) to an RGB uint8 array (height × width × 3)
    in raw orientation, for masking and cropping. Transparency is flattened onto white (as a
    viewer shows it), so that "black" masks stay black whatever the format sent later."""
    return np.asarray(_flatten(_normalise_mode(_open(source))))


def prepare_image(source: bytes | str | Path | Image.Image | np.ndarray, *,
                  max_pixels: int | None = None, image_format: str = "png", quality: int = 90,
                  original_sha256: str | None = None, extra: dict | None = None
                  ) -> PreparedImage:
    """Downscale so that width × height ≤ max_pixels (aspect kept), encode as png/jpeg/webp.

    `quality` applies to jpeg and webp. `extra` joins the cache key (e.g. {"mask": ...} for a
    masked array). The returned `scale` maps original pixel coordinates to encoded ones.
    """
    if image_format not in FORMATS:
        raise ValueError(f"image format must be one of {sorted(FORMATS)}, not {image_format!r}")
    image = Image.fromarray(source) if isinstance(source, np.ndarray) else _open(source)
    image = _normalise_mode(image)
    width, height = image.size
    new_width, new_height = fit_within(width, height, max_pixels)
    if (new_width, new_height) != (width, height):
        image = image.resize((new_width, new_height), Image.Resampling.LANCZOS,
                             reducing_gap=3.0)
    pil_format, mime = FORMATS[image_format]
    buffer = io.BytesIO()
    options = {} if image_format == "png" else {"quality": quality}
    (_flatten(image) if image_format == "jpeg" else image).save(buffer, pil_format, **options)
    params = {"max_pixels": max_pixels, "format": image_format,
              "quality": None if image_format == "png" else quality, **(extra or {})}
    key = content_key(original_sha256, params) if original_sha256 else ""
    return PreparedImage(buffer.getvalue(), mime, new_width, new_height, new_width / width, key,
                         width, height)


def to_data_url(data: bytes, mime: str) -> str:
    return f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}"


def box_slices(box, width: int, height: int) -> tuple[slice, slice]:
    """(rows, columns) slices covered by a box: rounded half up, x0/y0 inclusive, x1/y1
    exclusive, clipped to the image."""
    x0, y0, x1, y1 = _coords(box)
    x0, x1 = (min(max(_round(v), 0), width) for v in (x0, x1))
    y0, y1 = (min(max(_round(v), 0), height) for v in (y0, y1))
    return slice(y0, max(y0, y1)), slice(x0, max(x0, x1))


def mask_boxes(image: np.ndarray, boxes, mode: str = "black") -> np.ndarray:
    """A copy of `image` with every box blacked out ("black") or made unreadable ("blur").

    Only the box pixels change. "blur" pixelates each box to at most 6 cells along its longer
    side (cells of at least 8 px) and smooths them, which leaves the colours but no strokes:
    text and small signs in the box cannot be read, whatever its size.
    """
    if mode not in ("black", "blur"):
        raise ValueError(f"mask mode must be 'black' or 'blur', not {mode!r}")
    out = image.copy()
    height, width = image.shape[:2]
    for box in boxes:
        rows, cols = box_slices(box, width, height)
        region = out[rows, cols]
        if region.size == 0:
            continue
        if mode == "black":
            region[...] = 0
        else:
            out[rows, cols] = _pixelate(region)
    return out


def crop_boxes(image: np.ndarray, boxes, pad: int = 0) -> list[np.ndarray]:
    """One copy of `image[y0-pad:y1+pad, x0-pad:x1+pad]` per box (clipped to the image)."""
    height, width = image.shape[:2]
    crops = []
    for box in boxes:
        x0, y0, x1, y1 = _coords(box)
        rows, cols = box_slices((x0 - pad, y0 - pad, x1 + pad, y1 + pad), width, height)
        crops.append(image[rows, cols].copy())
    return crops


def _pixelate(region: np.ndarray) -> np.ndarray:
    h, w = region.shape[:2]
    cell = max(8, max(h, w) / 6)
    small = cv2.resize(region, (max(1, round(w / cell)), max(1, round(h / cell))),
                       interpolation=cv2.INTER_AREA)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)


def _round(value: float) -> int:
    return math.floor(value + 0.5)


def _coords(box) -> tuple[float, float, float, float]:
    if isinstance(box, dict):
        return float(box["x0"]), float(box["y0"]), float(box["x1"]), float(box["y1"])
    x0, y0, x1, y1 = box
    return float(x0), float(y0), float(x1), float(y1)


def _open(source) -> Image.Image:
    if isinstance(source, Image.Image):
        return source
    if isinstance(source, (bytes, bytearray, memoryview)):
        image = Image.open(io.BytesIO(source))
    else:
        image = Image.open(Path(source))
    image.load()
    return image


def _normalise_mode(image: Image.Image) -> Image.Image:
    """RGB, or RGBA when the image has transparency: what every encoder and resampler takes
    (palette and 16-bit images would otherwise be resized with nearest neighbour or refused)."""
    if image.mode in ("RGB", "RGBA"):
        return image
    has_alpha = "A" in image.mode or "transparency" in image.info
    return image.convert("RGBA" if has_alpha else "RGB")


def _flatten(image: Image.Image) -> Image.Image:
    """RGBA onto a white background (JPEG has no alpha; masks must not turn transparent)."""
    if image.mode != "RGBA":
        return image
    flat = Image.new("RGB", image.size, (255, 255, 255))
    flat.paste(image, mask=image.getchannel("A"))
    return flat
