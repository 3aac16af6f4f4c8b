"""The Import page of a server that reads no paths from its disk (a login, no --import-root,
layout17): it showed "…or a path on the server" and the image-folder field all the same,
fields that could only be refused, and the Import button was below the fold at 1400x900.
Now one line says uploads are the way, and Import is in view without scrolling."""
from playwright.sync_api import expect

from tests.browser.test_refusals_flow import PASSWORD, logged_in
from tests.live_server import LiveServer, add_user, build_ui_db


def test_no_server_path_fields_when_the_server_reads_no_paths(tmp_path, browser):
    db = tmp_path / "io.db"
    build_ui_db(db)
    add_user(db, "rita", "researcher", PASSWORD)
    server = LiveServer(db, "--auth")           # a login, no --import-root: no paths read
    try:
        page = logged_in(browser, server.url, "rita", "/io")
        start = page.locator("#import-start")
        expect(start).to_be_visible(timeout=20000)
        page.wait_for_timeout(1000)
        page.screenshot(path=str(tmp_path / "import.png"))          # for a look
        assert page.locator("#import-path").count() == 0 or \
            not page.locator("#import-path").is_visible()
        assert page.locator("#import-images").count() == 0 or \
            not page.locator("#import-images").is_visible()
        assert page.evaluate("() => window.scrollY") == 0
        bottom = start.evaluate("e => e.getBoundingClientRect().bottom")
        assert bottom <= 900, bottom                  # Import in view, no scrolling
        expect(page.locator("#import-intro")).to_contain_text(
            "this server reads no paths from its disk")
        page.context.close()
    finally:
        server.stop()
