"""Media: content-addressed storage, refusal of bad files, previews."""
import hashlib
import io
import struct
import zlib

import pytest
from PIL import Image

import store.decode as decode
import store.media as media
from store import MediaError, NotFoundError
from tests.conftest import png_with_bad_pixels


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
    """The refusal named CLUELAB_DECODE_MB, which means nothing to an annotator: it says
    the limit in pixels and to ask the admin (the variable is in the README)."""
    with pytest.raises(MediaError) as info:
        store.add_image(png_claiming(20_000, 15_000), "300mp.png")  # 300 MP > 200 MP
    assert str(info.value).endswith(
        "image is 20000x15000 pixels, above the limit of 200,000,000 pixels (possible "
        "decompression bomb); scale it down, or ask the admin to raise the limit")


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


@pytest.mark.parametrize("how", ["flip", "truncate", "short"])
@pytest.mark.parametrize("size", [(64, 48), (3000, 2000)])
def test_pixel_data_that_does_not_decode_is_refused(store, how, size):
    """Valid chunks and CRCs (`verify()` passes) but pixels that do not decode: refused,
    naming the file and never quoting it, and nothing is stored (no row, no file)."""
    data = png_with_bad_pixels(*size, how=how)
    with pytest.raises(MediaError) as info:
        store.add_image(data, "street_7.png")
    message = str(info.value)
    assert info.value.name == "street_7.png" and message.startswith("street_7.png: ")
    assert "pixel data does not decode" in message and "IDAT" not in message
    assert store.db.execute("SELECT count(*) FROM images").fetchone()[0] == 0
    assert not [p for p in store.media_dir.rglob("*") if p.is_file()]


def test_large_image_preview_is_made_at_import(store, make_png):
    sha = store.add_image(make_png(w=5000, h=1000), "wide.png").sha256
    previews = list((store.media_dir / "previews").iterdir())
    assert [p.name for p in previews] == [f"{sha}.jpg"]
    assert store.preview_path(sha) == previews[0]
    with Image.open(previews[0]) as im:
        assert im.size == (2048, 410)


def test_palette_image_preview(store):
    buffer = io.BytesIO()
    Image.new("P", (4100, 300), 3).save(buffer, "PNG")
    sha = store.add_image(buffer.getvalue(), "palette.png").sha256
    with Image.open(store.preview_path(sha)) as im:
        assert im.size == (2048, 150)


def test_stored_corrupt_image_from_an_older_version_raises_media_error(store):
    """A database made before images were decoded at import may hold a large image that
    does not decode: asking for its preview is a MediaError naming the image."""
    data = png_with_bad_pixels(3000, 2000)
    sha = hashlib.sha256(data).hexdigest()
    media._write_atomically(media.original_path(store.media_dir, sha, "PNG"), data)
    store.register_images([media.ImageInfo(sha, 3000, 2000, "PNG", len(data))])
    with pytest.raises(MediaError, match=f"image {sha[:12]}: the pixel data does not decode"):
        store.preview_path(sha)


def test_decode_memory_limit_is_said_and_applies(store, make_png, monkeypatch):
    """One decode may use at most DECODE_BUDGET_MB; the message names the rule."""
    monkeypatch.setattr(decode, "DECODE_BUDGET_MB", 1)
    with pytest.raises(MediaError) as info:
        store.add_image(make_png(w=600, h=600), "big.png")  # 600*600*4 bytes > 1 MB
    assert str(info.value).endswith(
        "image is 600x600 pixels (RGB): reading it needs 2 MB of memory, above the limit: one "
        "image may take at most 1 MB of memory to read (about 0.3 megapixels in colour); scale "
        "it down, or ask the admin to raise the limit")
    assert "CLUELAB_DECODE_MB" not in str(info.value)     # an admin's setting (README)
    store.add_image(make_png(w=400, h=400), "fits.png")


def test_concurrent_decodes_share_the_budget(monkeypatch):
    """Two decodes that together exceed the budget run one after the other; small ones
    run side by side, never more than MAX_CONCURRENT_DECODES."""
    import threading
    import time
    monkeypatch.setattr(decode, "DECODE_BUDGET_MB", 10)
    budget, running, peak, lock = decode._DecodeBudget(), [0], [0], threading.Lock()

    def work(needed):
        with budget.reserve(needed):
            with lock:
                running[0] += 1
                peak[0] = max(peak[0], running[0])
            time.sleep(0.05)
            with lock:
                running[0] -= 1

    def run(sizes):
        peak[0] = 0
        threads = [threading.Thread(target=work, args=(n,)) for n in sizes]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        return peak[0]

    assert run([6 * 2**20] * 3) == 1
    assert run([1000] * 10) == decode.MAX_CONCURRENT_DECODES


def test_fast_png_check_accepts_what_pillow_decodes(store):
    """Small PNGs are checked without Pillow's decoder: interlaced ones (not handled there),
    several IDAT chunks, palettes, 16-bit and grey+alpha all still import."""
    import numpy as np
    rng = np.random.default_rng(3)
    cases = {"interlaced.png": (Image.fromarray(rng.integers(0, 255, (40, 30, 3), np.uint8)),
                                {"interlace": 1}),
             "palette.png": (Image.new("P", (33, 17), 5), {}),
             "grey16.png": (Image.fromarray(rng.integers(0, 65535, (20, 21), np.uint16)), {}),
             "la.png": (Image.new("LA", (9, 9), (3, 200)), {}),
             "one-bit.png": (Image.new("1", (13, 5), 1), {})}
    for name, (im, options) in cases.items():
        buffer = io.BytesIO()
        im.save(buffer, "PNG", **options)
        store.add_image(buffer.getvalue(), name)
    big_rows = io.BytesIO()  # Pillow splits IDAT into 64 KiB chunks
    Image.fromarray(rng.integers(0, 255, (300, 400, 3), np.uint8)).save(big_rows, "PNG")
    assert big_rows.getvalue().count(b"IDAT") > 1
    store.add_image(big_rows.getvalue(), "many-idat.png")
    assert store.db.execute("SELECT count(*) FROM images").fetchone()[0] == 6


def png_header(width: int, height: int, depth: int, colour: int) -> bytes:
    """A well-formed PNG that claims `width` x `height` at `depth` bits of `colour` type."""
    return (b"\x89PNG\r\n\x1a\n"
            + _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, depth, colour, 0, 0, 0))
            + _chunk(b"IDAT", zlib.compress(b"\0" * 16)) + _chunk(b"IEND", b""))


@pytest.mark.filterwarnings("ignore::PIL.Image.DecompressionBombWarning")
@pytest.mark.parametrize("colour, kind", [(4, "16-bit grey and alpha, read as RGBA"),
                                          (6, "16-bit RGBA, read as RGBA")])
def test_16_bit_alpha_pngs_are_refused_before_decoding(store, monkeypatch, colour, kind):
    """A 144-megapixel 16-bit RGBA (or grey and alpha) PNG took 1,236 MB to decode and
    preview (Pillow reads it as RGBA, and its preview copies it premultiplied at full size),
    over the 1,024 MB limit; its estimate counted 549 MB. Now it is refused from its header,
    naming the image and the limit, before any pixel is decoded."""
    def no_decode(*args, **kwargs):
        raise AssertionError("decoded")
    monkeypatch.setattr(Image.Image, "load", no_decode)
    monkeypatch.setattr(decode, "_png_data_checked", no_decode)
    with pytest.raises(MediaError) as refused:
        store.add_image(png_header(12_000, 12_000, 16, colour), "deep.png")
    message = str(refused.value)
    assert message.startswith(f"deep.png: image is 12000x12000 pixels ({kind}): reading it "
                              "needs 1,374 MB of memory, above the limit: one image may take "
                              "at most 1,024 MB of memory to read")
    assert not list(store.media_dir.rglob("*.png"))


def test_the_decode_estimate_counts_what_the_preview_holds():
    """decode_bytes follows encode_preview: pixels of the mode Pillow reads, the full-size
    conversion of a mode `reduce` refuses, the premultiplied copy of an image with alpha;
    a small image costs its pixels alone. (Figures measured with ru_maxrss: 6000x6000 RGBA
    475 MB, RGB 338 MB, I;16 407 MB; 12000x12000 RGBA 1,236 MB, RGB 824 MB.)"""
    mb = lambda *args: decode.decode_bytes(*args) // 2**20   # noqa: E731
    assert mb(2048, 2048, "RGBA") == 16 and mb(2048, 2048, "I;16") == 8
    assert (mb(6000, 6000, "RGB"), mb(6000, 6000, "RGBA"), mb(6000, 6000, "I;16")) == (
        337, 474, 406)
    assert (mb(12000, 12000, "RGB"), mb(12000, 12000, "RGBA"), mb(12000, 12000, "LA")) == (
        886, 1373, 1373)
    assert mb(12000, 12000, "P", True) > mb(12000, 12000, "P") > mb(12000, 12000, "RGB")
    assert mb(13784, 13784, "RGB") < 1024          # ~190 MP in colour still fits (README)


def test_a_1_bit_image_costs_what_its_grey_preview_holds(store, monkeypatch):
    """A 13700x13700 1-bit grey PNG was refused ("needs 1,106 MB"), converted to RGB at full
    size for its preview, while the same image in 8-bit grey or RGB was taken: its preview
    now goes through grey (L). Measured peaks (ru_maxrss) at 13700x13700: 1-bit 490 MB
    (1,054 before), L 311 MB, P 1,054 MB (a palette is converted to RGB, as before)."""
    mb = lambda *args: decode.decode_bytes(*args) // 2**20   # noqa: E731
    assert (mb(13700, 13700, "1"), mb(13700, 13700, "L"), mb(13700, 13700, "P")) == (
        568, 389, 1105)
    assert mb(13700, 13700, "1", True) == mb(13700, 13700, "P", True) > 1024
    monkeypatch.setattr(decode, "DECODE_BUDGET_MB", 230)  # 5000x5000: 1-bit fits, P does not
    one_bit = Image.new("1", (5000, 5000))
    one_bit.paste(1, (0, 0, 2500, 5000))
    data = {}
    for mode, image in (("1", one_bit), ("P", one_bit.convert("P"))):
        buffer = io.BytesIO()
        image.save(buffer, "PNG")
        data[mode] = buffer.getvalue()
    sha = store.add_image(data["1"], "one-bit.png").sha256
    with Image.open(store.preview_path(sha)) as preview:
        assert preview.size == (2048, 2048)
        assert preview.getpixel((10, 10))[0] > 240 and preview.getpixel((2040, 10))[0] < 15
    with pytest.raises(MediaError, match=r"\(P\): reading it needs 270 MB"):
        store.add_image(data["P"], "palette.png")


def test_the_limit_in_megapixels_is_what_the_estimate_takes_never_above_the_header_limit():
    """The message said "about 268 megapixels in colour" (the budget over 4 bytes a pixel)
    where no image above 200 megapixels is taken at all."""
    said = decode.limits_sentence()
    assert "268" not in said
    assert ("(in colour up to 200 megapixels, the most any image may have; with alpha about "
            "107)") in said
