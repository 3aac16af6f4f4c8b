"""What a user sees when the access table refuses them (ui/gradio_hooks.py): the event
fails, as it does for any client, with one red message that says what they may not do, and
the page keeps what was typed. Real Chromium against a server with a login."""
import os
import re

import pytest
from playwright.sync_api import expect

from tests.live_server import LiveServer, add_user, build_ui_db

PASSWORD = "refusal-flow-pw"
USERS = {"ann": "annotator", "rita": "researcher", "pat": "participant", "ada": "admin",
         "rob": "annotator"}       # rob: an annotator with no draft left by another test
SHOTS = os.environ.get("CLUELAB_SCREENSHOTS")      # a folder: keep screenshots to look at


@pytest.fixture(scope="module")
def auth_server(tmp_path_factory):
    db = tmp_path_factory.mktemp("refusals") / "refusals.db"
    build_ui_db(db)
    for name, role in USERS.items():
        add_user(db, name, role, PASSWORD)
    server = LiveServer(db, "--auth")
    server.db = db
    yield server
    server.stop()


def logged_in(browser, url: str, name: str, path: str):
    page = browser.new_context(viewport={"width": 1400, "height": 900}).new_page()
    page.goto(url + "/")
    page.fill("input[type=text], input[name=username]", name)
    page.fill("input[type=password]", PASSWORD)
    page.keyboard.press("Enter")
    page.wait_for_url(url + "/", timeout=20000)
    page.wait_for_function("() => !document.querySelector('input[type=password]')",
                           timeout=20000)
    page.goto(url + path)
    return page


def shoot(page, name: str) -> None:
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, f"{name}.png"))


def error_badges(page) -> int:
    """Gradio's status trackers that show "Error" on an output, as far as the user sees them
    (a hidden tracker keeps its last text under the class `hide`)."""
    return page.evaluate("""() => [...document.querySelectorAll('[data-testid="status-tracker"]')]
        .filter(t => t.checkVisibility() && /(^|\\s)Error(\\s|$)/.test(t.innerText)).length""")


def test_an_admin_only_button_is_offered_disabled_with_the_reason(auth_server, browser):
    """A researcher on Save endpoint (admins set endpoints up): the click was refused with a
    toast; the form is now offered disabled, the line under it saying who may (a script's
    call is still refused: tests/test_access.py)."""
    page = logged_in(browser, auth_server.url, "rita", "/experiments")
    page.wait_for_selector("#endpoint-save")
    expect(page.locator("#endpoint-save")).to_be_disabled(timeout=20000)
    expect(page.locator("#endpoint-test")).to_be_disabled()
    expect(page.locator("#endpoint-name textarea, #endpoint-name input")).to_be_disabled()
    expect(page.locator("#endpoint-result")).to_contain_text(
        "rita may not set up or test endpoints: not allowed for your role (researcher; "
        "admin may).")
    shoot(page, "refused-researcher")
    assert error_badges(page) == 0


ADMIN_ONLY = ("#reopen-item", "#deleted-items", "#restore-deleted", "#dataset-to-delete",
              "#dataset-delete-preview", "#delete-dataset")


@pytest.mark.parametrize("name, admin", [("ann", False), ("ada", True)])
def test_the_item_menu_offers_what_the_role_may_do(auth_server, browser, name, admin):
    """Item ▾ showed "Reopen released (admin)" and "Delete dataset" to an annotator, whose
    click was then refused: the access table decides what the menu offers."""
    page = logged_in(browser, auth_server.url, name, "/?item=ui/alpha")
    page.wait_for_selector("#item-editor")
    page.locator("#item-menu button.label-wrap").click()
    expect(page.locator("#delete-item")).to_be_visible(timeout=20000)
    expect(page.locator("#duplicate-item")).to_be_visible()
    page.wait_for_timeout(500)
    shoot(page, f"item-menu-{name}")
    for control in ADMIN_ONLY:
        expect(page.locator(control)).to_be_visible() if admin else \
            expect(page.locator(control)).to_have_count(0)
    assert error_badges(page) == 0


@pytest.mark.parametrize("name, path", [("pat", "/experiments"), ("pat", "/"),
                                        ("ann", "/experiments"), ("ann", "/inspect")])
def test_a_page_the_account_does_not_use_says_so(auth_server, browser, name, path):
    page = logged_in(browser, auth_server.url, name, path)
    shoot(page, f"no-page-{name}-{path.strip('/') or 'root'}")
    body = page.inner_text("body")
    assert "Nothing to open here" in body and name in body and "Log out" in body
    assert error_badges(page) == 0
    if name == "ann":          # the participant's text named no role and no page
        title = {"/experiments": "Experiments", "/inspect": "Inspect"}[path]
        assert f"{title} is for admins and researchers; your account is an annotator." in body
        assert "take part in a study" not in body
        # the page has no top bar: it links the pages the account may open
        assert "Pages of yours: Annotate, Import / Export, Statistics." in body
        page.get_by_role("link", name="Annotate").click()
        expect(page.locator("#item-id textarea, #item-id input").first).not_to_have_value(
            "", timeout=30000)


def test_a_locked_name_is_told_why_on_the_login_page(auth_server, browser):
    """Five wrong passwords lock the name from this address; the right one then gets the
    reason and the wait on the page (Gradio's page showed nothing for it: assets/login_lock.js)."""
    name = "lou"
    add_user(auth_server.db, name, "annotator", PASSWORD)
    page = browser.new_context(viewport={"width": 1400, "height": 900}).new_page()
    page.goto(auth_server.url + "/")
    for password in ["wrong-1", "wrong-2", "wrong-3", "wrong-4", "wrong-5", PASSWORD]:
        page.fill("input[type=text], input[name=username]", name)
        page.fill("input[type=password]", password)
        with page.expect_response(lambda r: r.url.endswith("/login")) as answer:
            page.keyboard.press("Enter")
        if password != PASSWORD:
            assert answer.value.status == 400
    assert answer.value.status == 429
    expect(page.locator("#cluelab-login-lock")).to_contain_text(
        re.compile(r"Too many failed logins .* try again in \d+ s"))
    shoot(page, "login-locked")
    page.context.close()


def test_others_wrong_passwords_do_not_lock_out_a_browser_that_logged_in_before(auth_server,
                                                                                browser):
    """Anyone on the same address (here: every client) locked the admin out with five wrong
    passwords; the admin's browser, which logged in before, now holds a device cookie for
    the name (ui/device_cookie.py) and is let in, while a new browser is told to wait."""
    import httpx
    name = "liv"
    add_user(auth_server.db, name, "admin", PASSWORD)
    page = logged_in(browser, auth_server.url, name, "/logout")     # logged in, then out
    page.wait_for_selector("input[type=password]", timeout=20000)
    for _ in range(5):
        assert httpx.post(auth_server.url + "/login", timeout=60, data={
            "username": name, "password": "guess"}).status_code == 400
    page.fill("input[type=text], input[name=username]", name)
    page.fill("input[type=password]", PASSWORD)
    with page.expect_response(lambda r: r.url.endswith("/login")) as answer:
        page.keyboard.press("Enter")
    assert answer.value.status == 200
    page.wait_for_function("() => !document.querySelector('input[type=password]')",
                           timeout=20000)
    shoot(page, "login-device-cookie")
    other = browser.new_context(viewport={"width": 1400, "height": 900}).new_page()
    other.goto(auth_server.url + "/")
    other.fill("input[type=text], input[name=username]", name)
    other.fill("input[type=password]", PASSWORD)
    with other.expect_response(lambda r: r.url.endswith("/login")) as refused:
        other.keyboard.press("Enter")
    assert refused.value.status == 429
    expect(other.locator("#cluelab-login-lock")).to_contain_text("try again in")
    page.context.close()
    other.context.close()


@pytest.mark.parametrize("name, allowed", [("ann", False), ("rita", True)])
def test_the_import_form_is_disabled_for_a_role_that_may_not_import(auth_server, browser,
                                                                     name, allowed):
    page = logged_in(browser, auth_server.url, name, "/io")
    page.wait_for_selector("#import-start")
    line = page.locator("#import-refused")
    if allowed:
        page.wait_for_timeout(1500)
        expect(line).to_be_hidden()
        expect(page.locator("#import-start")).to_be_enabled()
    else:
        expect(line).to_contain_text("ann may not import datasets: not allowed for your role "
                                     "(annotator; admin, researcher may).", timeout=15000)
        expect(page.locator("#import-start")).to_be_disabled()
        expect(page.locator("#import-dataset textarea, #import-dataset input").first).to_be_disabled()
    shoot(page, f"import-{name}")
    page.context.close()


def _status_options(page) -> list[str]:
    page.click("#item-status input")
    page.wait_for_timeout(500)
    return [o.strip().lstrip("✓ ") for o in page.get_by_role("option").all_inner_texts()]


@pytest.mark.parametrize("name, offered", [("ann", False), ("ada", True)])
def test_only_a_role_that_may_release_is_offered_released(auth_server, browser, name, offered):
    """An annotator could set status `released`, which then only an admin could undo."""
    page = logged_in(browser, auth_server.url, name, "/?item=ui/beta")
    page.wait_for_selector("#item-editor")
    expect(page.locator("#item-status input")).to_have_value("draft", timeout=20000)
    options = _status_options(page)
    shoot(page, f"status-options-{name}")
    # verified comes from another person's approving review, never from a save
    assert "verified" not in options and ("released" in options) is offered, options


def _save_with_typed_status(auth_server, browser, name: str, status: str, refusal: str):
    """`name` types `status` past the dropdown on ui/gamma (a draft) and saves: the save
    bar's line says `refusal` (once: no toast repeats it), no error badge, nothing saved.
    Returns the line's text."""
    page = logged_in(browser, auth_server.url, name, "/?item=ui/gamma")
    page.wait_for_selector("#item-editor")
    expect(page.locator("#item-status input")).to_have_value("draft", timeout=20000)
    page.fill("#item-status input", status)
    page.keyboard.press("Enter")
    page.click("#save-item")
    said = page.locator("#save-message", has_text=refusal)
    said.wait_for(timeout=20000)
    expect(page.locator(".toast-body")).to_have_count(0)
    shoot(page, f"{status}-refused-{name}")
    assert error_badges(page) == 0
    import sqlite3
    con = sqlite3.connect(auth_server.db)
    assert con.execute("SELECT status FROM items WHERE id='ui/gamma'").fetchone()[0] == "draft"
    con.close()
    return said.inner_text()


def test_an_annotators_save_as_released_is_refused(auth_server, browser):
    """Typed past the dropdown, `released` is refused by the save: one warning says so,
    nothing saved (a script's call fails with it: tests/test_handler_errors.py)."""
    said = _save_with_typed_status(auth_server, browser, "ann", "released",
                                   "may not release items")
    assert "ann may not release items" in said


def test_a_save_never_makes_an_item_verified(auth_server, browser):
    """An annotator chose `verified` and saved, over a reviewer's "revise": only an approving
    review by another person makes an item verified; and only a rejecting review rejected
    (an annotator marked anyone's item rejected with no review recorded)."""
    _save_with_typed_status(auth_server, browser, "ada", "verified",
                            "becomes verified when another")
    _save_with_typed_status(auth_server, browser, "rob", "rejected",
                            "becomes rejected when another person rejects it")


def test_log_out_on_the_nothing_to_open_page_ends_this_browser_only(auth_server, browser):
    """Its link was /logout, which ends the account's every login (the top bar's Log out
    ends this browser's only, as the README says): pat's other browser was signed out."""
    here = logged_in(browser, auth_server.url, "pat", "/experiments")
    other = logged_in(browser, auth_server.url, "pat", "/experiments")
    here.get_by_text("Log out").click()
    here.wait_for_selector("input[type=password]", timeout=20000)
    assert here.request.get(auth_server.url + "/gradio_api/user").status == 401
    assert other.request.get(auth_server.url + "/gradio_api/user").status == 200
