"""A refused option image leaves Discard draft disabled (assets/read_only.js): the file
chosen counted as an edit typed, so the button came on with nothing to discard, and its
question asked to discard unsaved edits of an item that had none."""
from playwright.sync_api import expect

from tests.browser.test_annotate_flow import open_item


def test_a_refused_option_image_is_no_edit(module_ui_server, page, tmp_path):
    broken = tmp_path / "broken.png"
    broken.write_bytes(b"\x89PNG\r\n\x1a\n not an image at all")
    open_item(page, module_ui_server.url, "ui/gamma")
    discard = page.locator("#discard-draft")
    expect(discard).to_be_disabled(timeout=10000)
    with page.expect_file_chooser() as chooser:
        page.locator("button", has_text="Set option image").click()
    chooser.value.set_files(str(broken))
    expect(page.locator("#save-message")).to_contain_text("Option image not set", timeout=15000)
    page.wait_for_timeout(500)
    expect(discard).to_be_disabled()
