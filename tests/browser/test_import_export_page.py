"""The Import / Export page as a user meets it, in real Chromium against a real server and
SQLite: the export's dataset list (with counts) for the roles that may export, a name that is
no dataset refused (it was read as "all": a ZIP of every dataset), a summary line saying what
the export holds; a failed import kept in the report area (it was only in a fading toast);
refused ids shown escaped, with their reason."""
from __future__ import annotations

import json
import re
import zipfile

import pytest
from playwright.sync_api import expect

from tests.browser.test_refusals_flow import PASSWORD, logged_in
from tests.live_server import LiveServer, add_user, open_ui_store, make_scene


@pytest.fixture(scope="module")
def io_server(tmp_path_factory):
    """Two datasets (ui: 3 items, other: 1) under --auth, with an annotator and an admin."""
    db = tmp_path_factory.mktemp("io") / "io.db"
    store = open_ui_store(db)
    item = store.get_item("ui/beta")
    store.create_item({**item, "id": "other/one", "dataset": "other"}, "fixture")
    store.close()
    for name, role in {"ann": "annotator", "ada": "admin"}.items():
        add_user(db, name, role, PASSWORD)
    server = LiveServer(db, "--auth")
    server.db = db
    yield server
    server.stop()


def pick_format(page, selector: str, name: str) -> None:
    page.locator(f"{selector} input").click()
    page.get_by_role("option", name=name, exact=True).click()


def test_the_export_lists_the_datasets_and_refuses_a_name_that_is_none(io_server, browser):
    page = logged_in(browser, io_server.url, "ann", "/io")
    field = page.locator("#export-dataset input")
    field.click()
    options = page.get_by_role("option")
    expect(options).to_have_text([re.compile(r"other \(1 item\)$"),
                                  re.compile(r"ui \(3 items\)$")], timeout=15000)
    page.keyboard.press("Escape")
    # a name typed that is no dataset: refused, said on the page, nothing downloaded
    field.fill("demo")
    field.press("Enter")
    page.click("#export-start")
    line = page.locator("#export-summary")
    expect(line).to_contain_text("Not exported: no dataset of that name (the datasets: other, "
                                 "ui)", timeout=15000)
    expect(page.locator("#export-file a")).to_have_count(0)
    # a dataset chosen: the download holds it alone, and the line says so
    field.click()
    page.get_by_role("option", name="ui (3 items)").click()
    with page.expect_download(timeout=30000) as download:
        page.click("#export-start")
        expect(line).to_have_text("ui: 3 items", timeout=15000)
        page.locator("#export-file a").first.click()
    with zipfile.ZipFile(download.value.path()) as archive:     # the file and its images
        data = next(n for n in archive.namelist() if n.endswith(".jsonl"))
        lines = archive.read(data).decode().splitlines()
    assert sorted(json.loads(x)["id"] for x in lines) == ["ui/alpha", "ui/beta", "ui/gamma"]
    page.context.close()


def test_a_failed_import_stays_in_the_report_and_refused_ids_are_shown_escaped(
        io_server, browser, tmp_path):
    page = logged_in(browser, io_server.url, "ada", "/io")
    pick_format(page, "#import-format", "dailyclue")
    report = page.locator("#import-report")
    # a ZIP with a good file and one of broken JSON: which file, what is wrong, where
    make_scene(tmp_path / "yellow.png", color="#ffd700")
    good = [{"id": "rtl\u202eevil", "question": "rtl id", "answer": "No", "image": "yellow.png"},
            {"id": "zero\u200bwidth", "question": "zw id", "answer": "No",
             "image": "yellow.png"},
            {"id": "fine", "question": "Is it yellow?", "answer": "Yes", "image": "yellow.png"}]
    mixed = tmp_path / "bad_mix.zip"
    with zipfile.ZipFile(mixed, "w") as archive:
        archive.writestr("good.json", json.dumps(good))
        archive.writestr("broken.json", '[{"id": "a", "question": "x"')
        archive.write(tmp_path / "yellow.png", "yellow.png")
    page.locator("#import-file input[type=file]").set_input_files(str(mixed))
    page.locator("#import-file").get_by_text("bad_mix.zip").wait_for(timeout=60000)
    page.click("#import-start")
    expect(report).to_contain_text("Import failed: nothing was imported.", timeout=30000)
    expect(report).to_contain_text("bad_mix.zip/broken.json: invalid JSON: Expecting ',' "
                                   "delimiter at line 1 column 29")
    expect(report).not_to_contain_text("not dailyclue")
    page.wait_for_timeout(6000)                 # longer than a toast stays
    expect(report).to_contain_text("Import failed: nothing was imported.")
    # the good file alone: the ids that cannot be stored are written out, with the reason
    clean = tmp_path / "dailyclue.zip"
    with zipfile.ZipFile(clean, "w") as archive:
        archive.writestr("good.json", json.dumps(good))
        archive.write(tmp_path / "yellow.png", "yellow.png")
    page.goto(io_server.url + "/io")
    pick_format(page, "#import-format", "dailyclue")
    page.locator("#import-file input[type=file]").set_input_files(str(clean))
    page.locator("#import-file").get_by_text("dailyclue.zip").wait_for(timeout=60000)
    page.click("#import-start")
    expect(report).to_contain_text("skipped:    2 (id has a control or invisible character: "
                                   "2)", timeout=30000)
    text = report.inner_text()
    assert "dailyclue/rtl\\u202eevil: not imported: id has a control or invisible character" \
        in text
    assert "dailyclue/zero\\u200bwidth: not imported: id has a control or invisible " \
        "character" in text
    assert "\u202e" not in text and "\u200b" not in text
    assert "id already in the store" not in text
    page.context.close()
