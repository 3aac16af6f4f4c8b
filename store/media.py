"""Image files: stored once by sha256 in the media folder beside the database.

Layout for `cluelab.db`: originals at `cluelab-media/<sha[:2]>/<sha>.<ext>`, previews at
`cluelab-media/previews/<sha>.jpg|png`. Identical bytes are stored once however many items
use them (MMR-Life alone has ~19,000 images), and the hash is a stable id for boxes.

`add_image` checks what it stores: it reads the header with Pillow (cheap) and refuses anything
that is not an image or too large (decompression bombs) before decoding a pixel; `verify()`
checks every PNG chunk's CRC through IEND; then store/decode.py decodes the image in full,
once, with bounded memory, refusing pixel data that does not decode and making the preview of
a large image from that decode. A JPEG with data after its end-of-image marker (some phones
append a video) is fine: the decode reads the image and ignores the rest.
"""
from __future__ import annotations

import hashlib
import io
import os
import threading
from dataclasses import asdict, dataclass
from pathlib import Path

from PIL import Image, UnidentifiedImageError

import sqlite_utils

from .db import atomic, now, one
from . import decode
from .decode import ASK_ADMIN, PREVIEW_MAX_SIDE, decode_checked
from .errors import MediaError, NotFoundError

MAX_IMAGE_PIXELS = decode.MAX_IMAGE_PIXELS
"""Refuse images above this many pixels (decompression-bomb guard), checked on the header."""

LINK_FILES = os.environ.get("CLUELAB_COPY_MEDIA", "") not in ("1", "true", "yes")
"""Imported files are hard-linked into the media folder (see `_link_or_write`), unless
CLUELAB_COPY_MEDIA=1 asks for independent copies."""

# Pillow's own guard warns above Image.MAX_IMAGE_PIXELS and raises above twice that. Align it
# with the store's limit so that the constant above is the rule that actually applies (its
# default, ~89 MP, would refuse legitimate high-resolution photos the store accepts).
Image.MAX_IMAGE_PIXELS = MAX_IMAGE_PIXELS

_EXTENSIONS = {"JPEG": "jpg", "MPO": "jpg", "TIFF": "tif"}


@dataclass(frozen=True)
class ImageInfo:
    """What `add_image` returns: the id (sha256) and the header facts of a stored image."""
    sha256: str
    width: int
    height: int
    format: str
    bytes: int = 0

    def as_dict(self) -> dict:
        return asdict(self)


def media_dir_for(db_path: Path) -> Path:
    """`cluelab.db` -> `cluelab-media/` in the same folder."""
    db_path = Path(db_path)
    return db_path.with_name(f"{db_path.stem}-media")


def extension_for(image_format: str) -> str:
    return _EXTENSIONS.get(image_format.upper(), image_format.lower())


def original_path(media_dir: Path, sha: str, image_format: str) -> Path:
    return Path(media_dir) / sha[:2] / f"{sha}.{extension_for(image_format)}"


def _write_atomically(path: Path, data: bytes) -> None:
    """Write via a temp file + os.replace, so readers never see a half-written image.

    The temp name is unique per process and thread (cheaper than mkstemp, which matters
    when an import writes thousands of small files).
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".tmp-{os.getpid()}-{threading.get_ident()}-{path.name}")
    try:
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def inspect_image(data: bytes, name: str) -> tuple[int, int, str, str]:
    """Return (width, height, format, mode) of `data`, or raise MediaError naming `name`."""
    try:
        with Image.open(io.BytesIO(data)) as im:
            width, height, image_format, mode = im.width, im.height, im.format, im.mode
            if width * height > MAX_IMAGE_PIXELS:
                raise MediaError(name, f"image is {width}x{height} pixels, above the limit of "
                                       f"{MAX_IMAGE_PIXELS:,} pixels (possible decompression "
                                       f"bomb); {ASK_ADMIN}")
            im.verify()
    except MediaError:
        raise
    except Image.DecompressionBombError as e:
        # Pillow's own words name its doubled limit (400,000,000), not ours: not quoted
        raise MediaError(name, f"image is above the limit of {MAX_IMAGE_PIXELS:,} pixels "
                               f"(possible decompression bomb); {ASK_ADMIN}") from e
    except UnidentifiedImageError as e:
        raise MediaError(name, "not an image (or an unsupported format)") from e
    except Exception as e:  # Pillow raises OSError, SyntaxError, struct.error… on bad data
        # nothing of Pillow's: its message quotes the file's bytes (a PPM's "invalid literal
        # for int() with base 10: b'<its text>'", a PNG's chunk name), and the exception's
        # type ("(OSError)") told the annotator nothing (the log keeps it: `from e`)
        raise MediaError(name, "corrupt or truncated image (it does not decode)") from e
    if not image_format or width < 1 or height < 1:
        raise MediaError(name, "image has no format or no pixels")
    return width, height, image_format, mode


def add_image(db: sqlite_utils.Database, media_dir: Path, source: Path | str | bytes,
              name: str) -> ImageInfo:
    """Store an image (path or bytes) once; return its ImageInfo. Raises MediaError."""
    info = prepare_image(media_dir, source, name, db=db)
    register_images(db, [info])
    return info


def prepare_image(media_dir: Path, source: Path | str | bytes, name: str,
                  db: sqlite_utils.Database | None = None) -> ImageInfo:
    """Read, hash, check and write the file of an image, without touching the database
    (unless `db` is given, to skip images already stored).

    Safe to call from many threads at once: bulk imports run it in a pool and then
    register all rows with `register_images` inside their transaction.
    """
    if isinstance(source, (bytes, bytearray, memoryview)):
        data = bytes(source)
    else:
        try:
            data = Path(source).read_bytes()
        except OSError as e:
            raise MediaError(name, f"cannot read file ({e.strerror or e})") from e
    if not data:
        raise MediaError(name, "empty file")
    sha = hashlib.sha256(data).hexdigest()
    if db is not None:
        known = one(db, "SELECT * FROM images WHERE sha256 = ?", [sha])
        if known and original_path(media_dir, sha, known["format"]).exists():
            return _info(known)
    width, height, image_format, mode = inspect_image(data, name)
    preview = decode_checked(data, name, (width, height, image_format, mode))
    if preview is not None:
        _write_atomically(Path(media_dir) / "previews" / f"{sha}.{preview[1]}", preview[0])
    path = original_path(media_dir, sha, image_format)
    if not path.exists():  # file first: a row must never point to a missing file
        if not isinstance(source, (bytes, bytearray, memoryview)) and LINK_FILES:
            _link_or_write(Path(source), path, data)
        else:
            _write_atomically(path, data)
    return ImageInfo(sha, width, height, image_format, len(data))


def _link_or_write(source: Path, path: Path, data: bytes) -> None:
    """Hard-link the source file into the media folder when both share a filesystem.

    Creating a file with data costs this machine ~1–2 ms, a link ~0.04 ms: for an
    import of 19,000 images that is the difference between 40 s and 1 s. A link is
    atomic (the name appears complete or not at all). The bytes were hashed just
    before, so the link holds exactly what was checked. Falls back to a copy across
    filesystems or where links are not allowed.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.link(source, path)
    except FileExistsError:
        pass
    except OSError:
        _write_atomically(path, data)


def register_images(db: sqlite_utils.Database, infos: list[ImageInfo]) -> None:
    """Insert the rows of images whose files `prepare_image` wrote (existing rows stay)."""
    stamp = now()
    with atomic(db):
        db.conn.executemany(
            "INSERT OR IGNORE INTO images (sha256, width, height, format, bytes, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            [(i.sha256, i.width, i.height, i.format, i.bytes, stamp) for i in infos])


def _info(row: dict) -> ImageInfo:
    return ImageInfo(row["sha256"], row["width"], row["height"], row["format"], row["bytes"])


def image_info(db: sqlite_utils.Database, sha: str) -> dict:
    """{sha256, width, height, format, bytes, created_at} or NotFoundError."""
    row = one(db, "SELECT * FROM images WHERE sha256 = ?", [sha])
    if row is None:
        raise NotFoundError(f"image {sha} not found")
    return row


def image_path(db: sqlite_utils.Database, media_dir: Path, sha: str) -> Path:
    return original_path(media_dir, sha, image_info(db, sha)["format"])


def preview_path(db: sqlite_utils.Database, media_dir: Path, sha: str) -> Path:
    """Path of an image for display: the original when small, else its downscale.

    Imports make the preview (store/decode.py); an image stored before that got its preview
    made here once, by the same decode, so a corrupt one raises MediaError (naming the image)
    rather than a traceback. The preview keeps the original's orientation (no EXIF
    transpose) so that box coordinates, in original pixels, scale onto it by size alone.
    """
    info = image_info(db, sha)
    original = original_path(media_dir, sha, info["format"])
    if max(info["width"], info["height"]) <= PREVIEW_MAX_SIDE:
        return original
    previews = Path(media_dir) / "previews"
    for ext in ("jpg", "png"):
        cached = previews / f"{sha}.{ext}"
        if cached.exists():
            return cached
    try:
        data = original.read_bytes()
    except OSError as e:
        raise MediaError(f"image {sha[:12]}", f"cannot read its file ({e.strerror or e})") from e
    encoded, ext = decode_checked(data, f"image {sha[:12]}")
    cached = previews / f"{sha}.{ext}"
    _write_atomically(cached, encoded)
    return cached
