"""The Import page in Chromium: a VER-Bench ZIP upload imports as the CLI does, and says so.

Before issue #12's fix the same upload gave 4 flagged items with no images under a green
"imported" toast, and the report named a temporary path.
"""
from __future__ import annotations

import shutil
from pathlib import Path

from PIL import Image

from store import Store

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "formats" / "verbench"


def verbench_zip(folder: Path) -> Path:
    root = folder / "VER-Bench"
    shutil.copytree(FIXTURES, root)
    for n, name in enumerate(["sa_1.jpg", "sa_2.png", "sa_3.jpg", "sa_4.jpg"]):
        (root / "Image").mkdir(exist_ok=True)
        Image.new("RGB", (200, 100), (n * 40, 10, 10)).save(root / "Image" / name)
    return Path(shutil.make_archive(str(folder / "VER-Bench"), "zip", folder, "VER-Bench"))


def test_a_verbench_zip_upload_keeps_images_and_warns_about_flagged_items(ui_server, page,
                                                                          tmp_path):
    upload = verbench_zip(tmp_path)
    page.set_viewport_size({"width": 1400, "height": 900})
    page.goto(ui_server.url + "/io")
    page.locator("#import-format input").click()
    page.get_by_role("option", name="verbench", exact=True).click()
    page.locator("#import-file input[type=file]").set_input_files(str(upload))
    page.locator("#import-file").get_by_text("VER-Bench.zip").wait_for(timeout=60000)  # an upload under load
    page.locator("#import-start").click()
    report = page.locator("#import-report")
    report.get_by_text("Imported VER-Bench.zip/VER-Bench as verbench").wait_for(timeout=30000)
    toast = page.locator(".toast-body.warning")
    toast.wait_for()
    assert "flagged with problems" in toast.inner_text()
    assert page.locator(".toast-body.info").count() == 0
    assert "cluelab-import-" not in report.inner_text()
    page.screenshot(path=str(tmp_path / "import-page.png"))
    store = Store.open(ui_server.db)
    item = store.get_item("verbench/sa_1")
    store.close()
    assert len(item["images"]) == 1 and [len(c["boxes"]) for c in item["clues"]] == [2, 1]
    assert "unplaced_boxes" not in item["metadata"]


def test_long_problem_lines_of_the_report_wrap(ui_server, page):
    """The report's long problem lines ran off to the right, behind a sideways scroll bar."""
    import json
    data = Path(ui_server.db).parent / "long.jsonl"
    data.write_text("".join(json.dumps({
        "id": f"longds/{'a-very-long-item-identifier-' * 5}{n}", "question": "q?",
        "answer_type": "numeric", "answer": "twelve and a half"}) + "\n" for n in range(3)))
    page.set_viewport_size({"width": 1400, "height": 900})
    page.goto(ui_server.url + "/io")
    page.locator("#import-path textarea, #import-path input").first.fill(str(data))
    page.locator("#import-start").click()
    report = page.locator("#import-report pre")
    report.wait_for(timeout=30000)
    widths = report.evaluate("e => [e.scrollWidth, e.clientWidth]")
    assert widths[0] <= widths[1] + 1, widths
    assert "a-very-long-item-identifier-" in report.inner_text()
