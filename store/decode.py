"""Decoding images in full, once, at import, with bounded memory: the check and the preview.

Why: a file can have a valid structure (every chunk's CRC right) and still hold pixel data
that does not decode; stored, its item could never be shown. So `decode_checked` decodes every
image completely before it is stored, and makes the display preview of a large one from the
same decode (the editor never decodes an original again).

Memory: Pillow holds a decoded image in full (4 bytes per pixel for RGB), so the header's size,
mode and bit depth say what a decode and its preview will cost before it starts
(`decode_bytes`: an image with alpha costs twice, for the premultiplied copy `reduce` makes). One decode may use at most `DECODE_BUDGET_MB`
(an image that would need more is refused), and all decodes of the process together share that
budget: a 190-megapixel PNG decodes alone while small images decode side by side (at most
`MAX_CONCURRENT_DECODES`). A large JPEG is decoded at the reduced scale of its preview
(`draft`), which reads all its data and costs a fraction of the memory.

After a large decode the freed memory is handed back to the system (store/memory.py): the C
library kept it for the process, whose size stayed at its highest (a server went from 405 MB
to 1.8 GB after a few 196-megapixel images and stayed there).

A non-interlaced PNG's pixel data is checked without Pillow (Pillow decodes a PNG whose data
ends after a few rows without a word): the zlib stream is inflated in full, a piece at a time (its
Adler-32 checksum catches any changed byte, its end a truncation), its length must be exactly
the image's rows, and each row must start with a valid filter type. That is every way the data
can fail to decode (unfiltering itself cannot fail). A small one, the bulk of a benchmark import
(MMR-Life: 19,000 of them), needs no preview: the check is all, at a fraction of Pillow's
per-image cost; a large one is then decoded by Pillow for its preview.
"""
from __future__ import annotations

import io
import os
import struct
import threading
import zlib
from contextlib import contextmanager
from typing import Iterator

from PIL import Image

from .errors import MediaError
from .memory import give_back

PREVIEW_MAX_SIDE = 2048
"""Images whose longest side exceeds this get a cached, downscaled preview for display."""

DECODE_BUDGET_MB = int(os.environ.get("CLUELAB_DECODE_MB", "1024"))
"""Memory all concurrent decodes may use together, and so one decode at most (CLUELAB_DECODE_MB,
an admin's setting: messages say the limit and to ask the admin, not the variable)."""

MAX_CONCURRENT_DECODES = 4
"""Decodes running at once in this process, however small the images."""

MAX_IMAGE_PIXELS = 200_000_000
"""Refuse images above this many pixels (decompression-bomb guard), checked on the header
(store/media.py)."""

_BYTES_PER_PIXEL = {"1": 1, "L": 1, "P": 1, "I;16": 2, "I;16B": 2, "I;16L": 2}
_NOT_REDUCIBLE = ("1", "P", "I;16", "I;16B", "I;16L")
"""Modes `Image.reduce` refuses: the preview converts them at full size first, a 1-bit
image without a transparent colour to grey (L, 1 byte a pixel: what it is), any other to
RGB or RGBA (4 bytes a pixel). A 13700x13700 1-bit PNG converted to RGB took 1,054 MB
(refused) where the same image in 8-bit grey took 311 MB."""
_PREMULTIPLIED = ("LA", "RGBA")
"""Modes `Image.reduce` converts to a premultiplied full-size copy (La, RGBa) before it
shrinks: an image with alpha holds twice its pixels while its preview is made. A 16-bit grey
and alpha PNG is one of them: Pillow reads it as RGBA (8 bits a channel)."""


def decode_bytes(width: int, height: int, mode: str, transparent: bool = False) -> int:
    """Memory the decode and the preview of an image need at their peak, from its header.

    `mode` is what Pillow reads the file as (a 16-bit RGB or RGBA PNG is RGB or RGBA, its
    channels cut to 8 bits; 16-bit grey is I;16, 2 bytes a pixel). The decoded pixels take 1,
    2 or 4 bytes each. A large image (a side above PREVIEW_MAX_SIDE) then makes its preview
    (encode_preview) while the decoded image is held: a mode `reduce` refuses is converted
    at full size first (RGBA when `transparent`, else RGB: 4 bytes a pixel); then, at the
    peak of `reduce`, an image with alpha is copied premultiplied at full size (La, RGBa),
    and at the peak of the thumbnail the reduced image, its RGB(A) copy, that copy
    premultiplied (alpha again) and the thumbnail's passes are held. Measured peaks
    (ru_maxrss) are at or below this figure: counting the decoded pixels alone said 549 MB
    for a 144-megapixel 16-bit RGBA PNG whose preview took 1,236 MB.
    """
    pixels = width * height
    decoded = pixels * _BYTES_PER_PIXEL.get(mode, 4)
    longest = max(width, height)
    if longest <= PREVIEW_MAX_SIDE:
        return decoded
    if mode in _NOT_REDUCIBLE:
        mode = _reducible_mode(mode, transparent)
        decoded += pixels * _BYTES_PER_PIXEL.get(mode, 4)
    alpha = mode in _PREMULTIPLIED
    factor = longest // (2 * PREVIEW_MAX_SIDE)
    if factor > 1:
        small_w, small_h = -(-width // factor), -(-height // factor)
        small = small_w * small_h * 4
        reducing = (pixels * 4 + 2 * small) if alpha else small
    else:
        small_w, small_h, small, reducing = width, height, 0, 0
    copy = small_w * small_h * 4                          # convert's copy of the reduced
    passes = PREVIEW_MAX_SIDE * max(small_w, small_h) * 4 + PREVIEW_MAX_SIDE ** 2 * 4
    thumbnail = small + copy + (copy if alpha else 0) + passes
    return decoded + max(reducing, thumbnail)


def _reducible_mode(mode: str, transparent: bool) -> str:
    """The mode encode_preview converts an image of `mode` (one `reduce` refuses) to."""
    if transparent:
        return "RGBA"
    return "L" if mode == "1" else "RGB"


def _largest_side(mode: str) -> int:
    """The side of the largest square image of `mode` one decode takes (every smaller one
    too), by the very estimate that refuses (decode_bytes, preview included), and within
    the header's limit: "about 268 megapixels in colour" (the budget over 4 bytes a pixel)
    promised more than either."""
    budget, side = DECODE_BUDGET_MB * 2**20, 1
    while (side + 1) ** 2 <= MAX_IMAGE_PIXELS and \
            decode_bytes(side + 1, side + 1, mode) <= budget:
        side += 1
    return side


def _megapixels(side: int) -> str:
    value = side * side / 1e6
    return f"{value:,.0f}" if value >= 10 else f"{value:.1f}"


def limits_sentence() -> str:
    """The rule in words, for every message that refuses an image on size: the limits in
    pixels and megabytes and who can change them (an annotator cannot: the setting,
    CLUELAB_DECODE_MB, is named in the README, not to them)."""
    colour, alpha = _largest_side("RGB"), _largest_side("RGBA")
    said = (f"in colour up to {MAX_IMAGE_PIXELS / 1e6:,.0f} megapixels, the most any image "
            "may have" if (colour + 1) ** 2 > MAX_IMAGE_PIXELS else
            f"about {_megapixels(colour)} megapixels in colour")
    if alpha < colour:
        said += f"; with alpha about {_megapixels(alpha)}"
    return (f"one image may take at most {DECODE_BUDGET_MB:,} MB of memory to read "
            f"({said}); {ASK_ADMIN}")


ASK_ADMIN = "scale it down, or ask the admin to raise the limit"


class _DecodeBudget:
    """A counting semaphore measured in bytes: a decode waits until its memory is free."""

    def __init__(self) -> None:
        self._free = threading.Condition()
        self._used = 0
        self._running = 0

    @contextmanager
    def reserve(self, needed: int) -> Iterator[None]:
        budget = DECODE_BUDGET_MB * 2**20
        with self._free:
            self._free.wait_for(lambda: self._running < MAX_CONCURRENT_DECODES
                                and (self._used == 0 or self._used + needed <= budget))
            self._used += needed
            self._running += 1
        try:
            yield
        finally:
            with self._free:
                self._used -= needed
                self._running -= 1
                self._free.notify_all()


_BUDGET = _DecodeBudget()


def decode_checked(data: bytes, name: str,
                   header: tuple[int, int, str, str] | None = None) -> tuple[bytes, str] | None:
    """Decode `data` completely; return the encoded preview of a large image (else None).

    `header` is (width, height, format, mode) when the caller has read it already. Raises
    MediaError naming `name` when the pixels do not decode or would need more memory than
    one decode may use. Never quotes the file's content.
    """
    if header is None:
        try:
            with Image.open(io.BytesIO(data)) as im:
                header = (im.width, im.height, im.format, im.mode)
        except Exception as e:  # noqa: BLE001 - none of its words: a message may quote the file
            raise MediaError(name, _BAD_PIXELS.format("unreadable")) from e
    width, height, image_format, mode = header
    large = max(width, height) > PREVIEW_MAX_SIDE
    transparent = large and mode in _NOT_REDUCIBLE and _transparent(data)
    needed = decode_bytes(width, height, mode, transparent)
    if needed > DECODE_BUDGET_MB * 2**20:
        raise MediaError(name, f"image is {width}x{height} pixels ({_kind(data, mode)}): "
                               f"reading it needs {-(-needed // 2**20):,} MB of memory, above "
                               f"the limit: {limits_sentence()}")
    if image_format == "PNG" and _png_data_checked(data, name) and not large:
        return None
    try:
        return _decoded(data, name, large, needed)
    finally:
        give_back(needed)      # the decoded pixels went with _decoded's return


def _decoded(data: bytes, name: str, large: bool, needed: int) -> tuple[bytes, str] | None:
    with Image.open(io.BytesIO(data)) as im, _BUDGET.reserve(needed):
        try:
            if large:
                im.draft("RGB", (PREVIEW_MAX_SIDE, PREVIEW_MAX_SIDE))  # JPEG: scaled decode
            im.load()
        except Exception as e:  # Pillow raises OSError, SyntaxError, ValueError… on bad data
            raise MediaError(name, _BAD_PIXELS.format("unreadable")) from e
        return encode_preview(im) if large else None


def _transparent(data: bytes) -> bool:
    """Does the image declare a transparent colour (its preview is then RGBA)?"""
    with Image.open(io.BytesIO(data)) as im:
        return "transparency" in im.info


_COLOURS = {0: "grey", 2: "RGB", 3: "palette", 4: "grey and alpha", 6: "RGBA"}


def _kind(data: bytes, mode: str) -> str:
    """What a message calls the image's pixels: Pillow's mode, and for a PNG of another
    depth than 8 bits what the file holds ("16-bit grey and alpha, read as RGBA")."""
    if data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR" or len(data) < 29:
        return mode
    depth, colour = data[24], data[25]
    if depth == 8 or colour not in _COLOURS:
        return mode
    return f"{depth}-bit {_COLOURS[colour]}, read as {mode}"


_CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}  # PNG colour type -> samples per pixel
_BAD_PIXELS = "the pixel data does not decode ({}); the file is corrupt or truncated"


PIECE = 4 * 2**20
"""Bytes of pixel data inflated at a time by `_png_data_checked`: a 196-megapixel PNG's rows
are checked without holding them."""


def _idat(data: bytes) -> Iterator[bytes]:
    """The PNG's IDAT chunks' data, in order, up to its IEND."""
    pos = 8
    while pos + 8 <= len(data):
        length, kind = struct.unpack_from(">I4s", data, pos)
        if kind == b"IDAT":
            yield data[pos + 8:pos + 8 + length]
        elif kind == b"IEND":
            return
        pos += 12 + length


def _inflated(data: bytes) -> Iterator[bytes]:
    """The PNG's pixel data inflated, PIECE bytes at most at a time; the decompressor's
    `eof` last (did the zlib stream end?)."""
    inflate = zlib.decompressobj()
    for chunk in _idat(data):
        while chunk:
            piece = inflate.decompress(chunk, PIECE)
            chunk = inflate.unconsumed_tail
            yield piece
    while piece := inflate.decompress(b"", PIECE):     # what the last piece left held
        yield piece
    yield inflate.eof


def _png_data_checked(data: bytes, name: str) -> bool:
    """True when the PNG's pixel data is whole (see the module docstring); MediaError when it
    is not; False for what this does not handle (interlaced, odd headers): Pillow decodes.
    Large PNGs too: Pillow decoded a 3000x3000 PNG holding 100 rows without a word (a
    review), so its stored image was mostly black."""
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", data[16:29])
    if interlace or colour not in _CHANNELS or data[12:16] != b"IHDR":
        return False
    row = (width * _CHANNELS[colour] * depth + 7) // 8 + 1  # + the filter-type byte
    done, whole = 0, False
    try:
        for piece in _inflated(data):
            if isinstance(piece, bool):
                whole = piece
                break
            first = (-done) % row                    # where the next row starts in it
            done += len(piece)
            if done > row * height or max(piece[first::row], default=0) > 4:
                raise MediaError(name, _BAD_PIXELS.format("rows"))
    except zlib.error:
        raise MediaError(name, _BAD_PIXELS.format("zlib")) from None
    if not whole or done != row * height:
        raise MediaError(name, _BAD_PIXELS.format("incomplete" if not whole else "rows"))
    return True


def encode_preview(im: Image.Image) -> tuple[bytes, str]:
    """(bytes, "jpg"|"png") of the display preview of a loaded image.

    `reduce` (box averaging by an integer factor) shrinks first, so the colour conversion and
    the Lanczos pass work on a small image, not a second full-size copy. The preview keeps the
    original's orientation (no EXIF transpose): boxes, in original pixels, scale onto it.
    """
    if im.mode in _NOT_REDUCIBLE:
        im = im.convert(_reducible_mode(im.mode, "transparency" in im.info))
    factor = max(im.width, im.height) // (2 * PREVIEW_MAX_SIDE)
    small = im.reduce(factor) if factor > 1 else im
    has_alpha = small.mode in ("RGBA", "LA", "PA") or "transparency" in small.info
    small = small.convert("RGBA" if has_alpha else "RGB")
    small.thumbnail((PREVIEW_MAX_SIDE, PREVIEW_MAX_SIDE), Image.Resampling.LANCZOS,
                    reducing_gap=3.0)
    buffer = io.BytesIO()
    small.save(buffer, "PNG" if has_alpha else "JPEG", **({} if has_alpha else {"quality": 85}))
    return buffer.getvalue(), "png" if has_alpha else "jpg"
