"""Media: content-addressed storage, refusal of bad files, previews."""
import hashlib
import io
import struct
import zlib

import pytest
from PIL import Image

import store.media as media
from store import MediaError, NotFoundError


def _chunk(kind: bytes, data: bytes) -> bytes:
    return (struct.pack(">I", len(data)) + kind + data
            + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))


def png_claiming(width: int, height: int) -> bytes:
    """A well-formed PNG header that claims `width` x `height` (a decompression bomb)."""
    return (b"\x89PNG\r\n\x1a\n"
            + _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + _chunk(b"IDAT", zlib.compress(b"\0" * 16)) + _chunk(b"IEND", b""))


def test_add_image_records_header_and_stores_file(store, make_png):
    data = make_png(w=30, h=20)
    info = store.add_image(data, "frame_1.png")
    sha = hashlib.sha256(data).hexdigest()
    assert (info.sha256, info.width, info.height, info.format, info.bytes) == (
        sha, 30, 20, "PNG", len(data))
    path = store.image_path(sha)
    assert path == store.media_dir / sha[:2] / f"{sha}.png"
    assert path.read_bytes() == data
    assert store.image_info(sha)["width"] == 30
    assert not list(store.media_dir.rglob(".tmp-*"))


def test_add_image_from_path_and_dedup(store, make_png, tmp_path):
    path = make_png(tmp_path / "in", w=10, h=10, name="a.png")
    first = store.add_image(path, "a.png")
    second = store.add_image(path.read_bytes(), "copy-of-a.png")
    third = store.add_image(str(path), "a.png")
    assert first == second == third
    assert store.db.execute("SELECT count(*) FROM images").fetchone()[0] == 1
    assert len([p for p in store.media_dir.rglob("*") if p.is_file()]) == 1


def test_missing_file_is_rewritten_on_next_add(store, make_png):
    data = make_png()
    info = store.add_image(data, "a.png")
    store.image_path(info.sha256).unlink()
    store.add_image(data, "a.png")
    assert store.image_path(info.sha256).read_bytes() == data


def test_jpeg_extension(store, make_png):
    info = store.add_image(make_png(w=40, h=30, image_format="JPEG"), "photo.jpeg")
    assert info.format == "JPEG" and store.image_path(info.sha256).suffix == ".jpg"


@pytest.mark.parametrize("make_bad, reason", [
    (lambda png: b"just some text\n" * 10, "not an image"),
    (lambda png: b"", "empty"),
    (lambda png: png[: len(png) // 2], "corrupt or truncated"),
    (lambda png: png[:-20] + bytes([png[-20] ^ 0xFF]) + png[-19:], "corrupt or truncated"),
])
def test_refuses_bad_files_naming_them(store, make_png, make_bad, reason):
    png = make_png(w=64, h=64, color=(1, 2, 3))
    with pytest.raises(MediaError, match=reason) as info:
        store.add_image(make_bad(png), "broken/frame_7.png")
    assert info.value.name == "broken/frame_7.png" and "broken/frame_7.png" in str(info.value)
    assert store.db.execute("SELECT count(*) FROM images").fetchone()[0] == 0
    assert not [p for p in store.media_dir.rglob("*") if p.is_file()]


def test_refuses_corrupt_idat_crc(store):
    im = Image.effect_noise((64, 64), 50)
    buffer = io.BytesIO()
    im.save(buffer, "PNG")
    data = bytearray(buffer.getvalue())
    data[60] ^= 0xFF  # inside the IDAT data: its CRC no longer matches
    with pytest.raises(MediaError, match="corrupt"):
        store.add_image(bytes(data), "noise.png")


def test_refuses_truncated_jpeg(store, make_png):
    jpeg = make_png(w=300, h=200, image_format="JPEG")
    with pytest.raises(MediaError, match="truncated"):
        store.add_image(jpeg[: len(jpeg) * 2 // 3], "cut.jpg")


def test_accepts_jpeg_with_trailing_data(store, make_png):
    jpeg = make_png(w=300, h=200, image_format="JPEG")
    assert store.add_image(jpeg + b"appended motion-photo bytes" * 50, "pixel.jpg").width == 300


def test_refuses_unreadable_path(store, tmp_path):
    with pytest.raises(MediaError, match="missing.png"):
        store.add_image(tmp_path / "missing.png", "missing.png")


def test_refuses_decompression_bomb_header(store):
    with pytest.raises(MediaError, match="decompression bomb") as info:
        store.add_image(png_claiming(100_000, 100_000), "bomb.png")
    assert info.value.name == "bomb.png"


@pytest.mark.filterwarnings("ignore::PIL.Image.DecompressionBombWarning")
def test_refuses_images_just_above_the_limit(store):
    with pytest.raises(MediaError, match="above the limit"):
        store.add_image(png_claiming(20_000, 15_000), "300mp.png")  # 300 MP > 200 MP


def test_limit_is_a_module_constant(store, make_png, monkeypatch):
    monkeypatch.setattr(media, "MAX_IMAGE_PIXELS", 100)
    with pytest.raises(MediaError, match="20x20 pixels, above the limit of 100"):
        store.add_image(make_png(w=20, h=20), "big.png")
    store.add_image(make_png(w=10, h=10), "ok.png")


def test_small_image_preview_is_the_original(store, make_png):
    sha = store.add_image(make_png(w=2048, h=100), "wide.png").sha256
    assert store.preview_path(sha) == store.image_path(sha)


def test_large_image_preview_is_downscaled_and_cached(store, make_png):
    sha = store.add_image(make_png(w=4000, h=1000, image_format="JPEG"), "big.jpg").sha256
    preview = store.preview_path(sha)
    assert preview.parent == store.media_dir / "previews" and preview.suffix == ".jpg"
    with Image.open(preview) as im:
        assert im.size == (2048, 512)
    mtime = preview.stat().st_mtime_ns
    assert store.preview_path(sha) == preview and preview.stat().st_mtime_ns == mtime


def test_transparent_image_preview_is_png(store, make_png):
    sha = store.add_image(make_png(w=3000, h=3000, mode="RGBA", color=(1, 2, 3, 100)),
                          "alpha.png").sha256
    preview = store.preview_path(sha)
    with Image.open(preview) as im:
        assert preview.suffix == ".png" and im.mode == "RGBA" and im.size == (2048, 2048)


def test_unknown_sha(store):
    for call in (store.image_path, store.preview_path, store.image_info):
        with pytest.raises(NotFoundError):
            call("0" * 64)


def test_files_are_linked_not_copied_and_bytes_are_written(store, make_png, tmp_path):
    src = make_png(tmp_path / "src", w=20, h=10)
    info = store.add_image(src, "src.png")
    stored = store.image_path(info.sha256)
    assert stored.read_bytes() == src.read_bytes()
    assert stored.stat().st_ino == src.stat().st_ino  # same filesystem: a hard link
    data = make_png(w=21, h=10)
    stored = store.image_path(store.add_image(data, "upload.png").sha256)
    assert stored.read_bytes() == data and stored.stat().st_nlink == 1


def test_prepared_images_in_threads_then_registered(store, make_png, tmp_path):
    from concurrent.futures import ThreadPoolExecutor

    paths = [make_png(tmp_path / "many", w=8 + i, h=8) for i in range(40)]
    with ThreadPoolExecutor(4) as pool:
        infos = list(pool.map(lambda p: store.prepare_image(p, p.name), paths))
    with pytest.raises(NotFoundError):
        store.image_info(infos[0].sha256)  # files written, rows not yet
    store.register_images(infos + infos[:3])  # registering twice is harmless
    assert store.image_info(infos[-1].sha256)["width"] == 47
