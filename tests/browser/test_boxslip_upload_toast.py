"""An upload the server refuses as too large says the server's sentence, not Gradio's
'HTTP 413: {"detail": …}' (assets/toasts.js, plain; ui/workarounds.py, UPLOAD_ERROR_RAW)."""
import os

import pytest
from playwright.sync_api import expect

from tests.browser.test_annotate_flow import login, open_item
from tests.live_server import start_ui_server


@pytest.fixture(scope="module")
def small_uploads(tmp_path_factory):
    # an annotator's images are limited below the page's own limit (which Gradio's page
    # checks itself, in its own words): the server's 413 is what the page shows
    server = start_ui_server(tmp_path_factory.mktemp("upload-toast"), {"ann": "annotator"},
                             "ann-secret-pw", env={"CLUELAB_MAX_IMAGE_UPLOAD": "1mb"})
    yield server
    server.stop()


def test_a_refused_upload_reads_as_the_servers_sentence(small_uploads, page, tmp_path):
    big = tmp_path / "big.png"
    big.write_bytes(os.urandom(2 * 1024 * 1024))
    login(page, small_uploads.url, "ann")
    open_item(page, small_uploads.url, "ui/gamma")
    with page.expect_file_chooser() as chooser:
        page.locator("button", has_text="Set option image").click()
    chooser.value.set_files(str(big))
    toast = page.locator("[data-testid='toast-body']")
    expect(toast).to_contain_text("Upload refused: it is 2", timeout=15000)
    expect(toast).to_contain_text("one upload may be at most 1 MB")
    expect(toast).not_to_contain_text("HTTP 413")
    expect(toast).not_to_contain_text('"detail"')
