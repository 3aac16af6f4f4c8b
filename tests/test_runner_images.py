"""runner.images: pixel-exact masking and cropping, downscaling, formats, raw orientation."""
import base64
import io

import cv2
import numpy as np
import pytest
from PIL import Image

from domain.geometry import fit_within
from runner.images import (box_slices, content_key, crop_boxes, load_array, mask_boxes,
                           prepare_image, to_data_url)


@pytest.fixture
def scene() -> np.ndarray:
    """12 x 16 RGB, every pixel distinct and non-zero, so any change shows."""
    values = np.arange(1, 12 * 16 * 3 + 1, dtype=np.uint16).reshape(12, 16, 3)
    return (values % 250 + 5).astype(np.uint8)


def changed(before: np.ndarray, after: np.ndarray) -> np.ndarray:
    return np.any(before != after, axis=-1)


def test_black_mask_changes_exactly_the_box_pixels(scene):
    masked = mask_boxes(scene, [(3, 2, 7, 5)])
    expected = np.zeros(scene.shape[:2], bool)
    expected[2:5, 3:7] = True  # x0, y0 inclusive; x1, y1 exclusive
    assert np.array_equal(changed(scene, masked), expected)
    assert not masked[2:5, 3:7].any()
    assert np.array_equal(masked[~expected], scene[~expected])
    assert scene[2:5, 3:7].all(), "the input is not modified"


def test_fractional_boxes_round_half_up_and_clip_to_the_image(scene):
    assert box_slices((2.5, 1.4, 5.5, 4.6), 16, 12) == (slice(1, 5), slice(3, 6))
    assert box_slices({"x0": -3, "y0": 10, "x1": 40, "y1": 30}, 16, 12) == (slice(10, 12),
                                                                           slice(0, 16))
    masked = mask_boxes(scene, [(2.5, 1.4, 5.5, 4.6), (14, 10, 99, 99)])
    expected = np.zeros(scene.shape[:2], bool)
    expected[1:5, 3:6] = True
    expected[10:12, 14:16] = True
    assert np.array_equal(changed(scene, masked), expected)


def test_an_empty_box_masks_nothing(scene):
    assert np.array_equal(mask_boxes(scene, [(5, 5, 5, 9), (4.2, 3, 4.4, 8)]), scene)


def test_blur_changes_only_the_box_and_makes_text_unreadable():
    page = np.full((120, 200, 3), 255, np.uint8)
    cv2.putText(page, "EXIT 12", (20, 70), cv2.FONT_HERSHEY_SIMPLEX, 1.2, (0, 0, 0), 3)
    box = (10, 30, 190, 90)
    blurred = mask_boxes(page, [box], mode="blur")
    inside = np.zeros(page.shape[:2], bool)
    inside[30:90, 10:190] = True
    assert not changed(page, blurred)[~inside].any()
    before = cv2.Laplacian(cv2.cvtColor(page[30:90, 10:190], cv2.COLOR_RGB2GRAY), cv2.CV_64F)
    after = cv2.Laplacian(cv2.cvtColor(blurred[30:90, 10:190], cv2.COLOR_RGB2GRAY), cv2.CV_64F)
    assert after.var() < 0.02 * before.var(), "no strokes (edges) left"
    assert (blurred[30:90, 10:190] < 60).sum() == 0, "no dark ink pixels left"


def test_unknown_mask_mode_is_refused(scene):
    with pytest.raises(ValueError):
        mask_boxes(scene, [(0, 0, 1, 1)], mode="pink")


def test_crops_equal_the_numpy_slices(scene):
    crops = crop_boxes(scene, [(3, 2, 7, 5), {"x0": 0.4, "y0": 0, "x1": 16, "y1": 1.5}])
    assert np.array_equal(crops[0], scene[2:5, 3:7])
    assert np.array_equal(crops[1], scene[0:2, 0:16])
    padded = crop_boxes(scene, [(3, 2, 7, 5), (0, 0, 2, 2)], pad=2)
    assert np.array_equal(padded[0], scene[0:7, 1:9])
    assert np.array_equal(padded[1], scene[0:4, 0:4]), "padding is clipped at the edges"


def test_fit_within_keeps_aspect_and_the_pixel_budget():
    assert fit_within(4000, 3000, None) == (4000, 3000)
    assert fit_within(400, 300, 1_000_000) == (400, 300)
    width, height = fit_within(4000, 3000, 1_000_000)
    assert width * height <= 1_000_000 and abs(width / height - 4 / 3) < 0.01
    assert width > 1150


@pytest.mark.parametrize("image_format,mime", [("png", "image/png"), ("jpeg", "image/jpeg"),
                                               ("webp", "image/webp")])
def test_prepare_downscales_and_encodes(image_format, mime):
    buffer = io.BytesIO()
    Image.new("RGB", (400, 300), (10, 120, 200)).save(buffer, "PNG")
    prepared = prepare_image(buffer.getvalue(), max_pixels=30_000, image_format=image_format,
                             quality=80, original_sha256="ab" * 32)
    decoded = Image.open(io.BytesIO(prepared.data))
    assert prepared.mime == mime and decoded.format == image_format.upper()
    assert decoded.size == (prepared.width, prepared.height)
    assert prepared.width * prepared.height <= 30_000
    assert prepared.scale == pytest.approx(prepared.width / 400)
    assert (prepared.original_width, prepared.original_height) == (400, 300)


def test_cache_key_is_the_original_hash_plus_the_parameters(make_png):
    data = make_png(w=40, h=30)
    key = prepare_image(data, max_pixels=600, original_sha256="ab" * 32).key
    assert key == content_key("ab" * 32, {"max_pixels": 600, "format": "png", "quality": None})
    assert key != prepare_image(data, max_pixels=601, original_sha256="ab" * 32).key
    assert key != prepare_image(data, max_pixels=600, original_sha256="cd" * 32).key
    assert prepare_image(data).key == "", "no original hash given, no key"


def test_exif_orientation_is_not_applied():
    buffer = io.BytesIO()
    exif = Image.Exif()
    exif[0x0112] = 6  # "rotate 90° clockwise to display"
    Image.new("RGB", (40, 20), (200, 0, 0)).save(buffer, "JPEG", exif=exif)
    prepared = prepare_image(buffer.getvalue(), image_format="jpeg")
    decoded = Image.open(io.BytesIO(prepared.data))
    assert decoded.size == (40, 20), "boxes are in raw pixels: keep the raw orientation"
    assert decoded.getexif().get(0x0112) is None, "no tag left for a server to apply"
    assert load_array(buffer.getvalue()).shape == (20, 40, 3)


def test_transparency_is_flattened_onto_white_for_jpeg_and_arrays():
    buffer = io.BytesIO()
    Image.new("RGBA", (8, 8), (0, 0, 0, 0)).save(buffer, "PNG")
    assert load_array(buffer.getvalue())[0, 0].tolist() == [255, 255, 255]
    prepared = prepare_image(buffer.getvalue(), image_format="jpeg")
    assert Image.open(io.BytesIO(prepared.data)).convert("RGB").getpixel((4, 4)) >= (250,) * 3


def test_masked_array_round_trips_through_prepare(scene):
    masked = mask_boxes(scene, [(3, 2, 7, 5)])
    prepared = prepare_image(masked, image_format="png", original_sha256="ab" * 32,
                             extra={"mask": "black", "boxes": [[3, 2, 7, 5]]})
    assert np.array_equal(np.asarray(Image.open(io.BytesIO(prepared.data))), masked)
    assert prepared.key != prepare_image(scene, original_sha256="ab" * 32).key


def test_data_url():
    url = to_data_url(b"\x89PNG\r\n\x1a\n", "image/png")
    assert url.startswith("data:image/png;base64,")
    assert base64.b64decode(url.split(",", 1)[1]) == b"\x89PNG\r\n\x1a\n"


def test_unknown_format_is_refused(make_png):
    with pytest.raises(ValueError):
        prepare_image(make_png(), image_format="bmp")
