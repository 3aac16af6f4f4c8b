"""The top bar and links by role, under --auth (ui/navbar.py): each user's top bar names only
the pages their role may open (an annotator's offered Results, Experiments and Inspect, each
a page saying it was not for them), and a link to a model's response opens the item for an
annotator (it opened that page) and the response in Inspect for a researcher. Real Chromium."""
import os
from urllib.parse import parse_qs, urlparse

import pytest

from tests.browser.test_refusals_flow import logged_in
from tests.browser.test_refusals_flow import PASSWORD
from tests.live_server import LiveServer, add_user, build_ui_db

SHOTS = os.environ.get("CLUELAB_SCREENSHOTS")
EVERY_PAGE = ["Annotate", "Import / Export", "Statistics", "Results", "Experiments", "Inspect"]


@pytest.fixture(scope="module")
def auth_server(tmp_path_factory):
    db = tmp_path_factory.mktemp("navbar") / "navbar.db"
    build_ui_db(db)
    for name, role in {"ann": "annotator", "rita": "researcher"}.items():
        add_user(db, name, role, PASSWORD)
    server = LiveServer(db, "--auth")
    yield server
    server.stop()


def top_bar(page) -> list[str]:
    """The names of the top bar's links to pages, as shown (not the account's Log out)."""
    page.wait_for_selector(".nav-holder a, nav a", timeout=20000)
    return page.evaluate("""() => [...document.querySelectorAll('.nav-holder a, nav a')]
        .filter(a => a.checkVisibility() && !a.closest('#account-line'))
        .map(a => a.innerText.trim()).filter(Boolean)""")


@pytest.mark.parametrize("name, pages", [
    ("ann", ["Annotate", "Import / Export", "Statistics"]), ("rita", EVERY_PAGE)])
def test_the_top_bar_names_the_pages_the_role_may_open(auth_server, browser, name, pages):
    for path in ("/", "/stats"):
        page = logged_in(browser, auth_server.url, name, path)
        page.wait_for_selector("#annotate-page, #stats-refresh, .gradio-container",
                               timeout=20000)
        if SHOTS:
            page.screenshot(path=os.path.join(SHOTS, f"navbar-{name}{path.strip('/')}.png"))
        assert top_bar(page) == pages, path
        page.context.close()


@pytest.mark.parametrize("name", ["ann", "rita"])
def test_a_response_link_opens_what_the_role_may_see(auth_server, browser, name):
    page = logged_in(browser, auth_server.url, name, "/?item=ui/beta&response=1")
    if name == "ann":        # the item itself, the response part left out
        page.wait_for_function("() => document.querySelector('#item-id input, #item-id "
                               "textarea')?.value === 'ui/beta'", timeout=30000)
        query = parse_qs(urlparse(page.url).query)     # the page may re-encode "/" as %2F
        assert query == {"item": ["ui/beta"]}, page.url
        assert "is for admins and researchers" not in page.content()
    else:                    # the response view (Inspect), as before
        page.wait_for_url("**/inspect?item=ui/beta&response=1", timeout=30000)
        page.wait_for_selector("#inspect-page, .gradio-container", timeout=20000)
        assert "is for admins and researchers" not in page.content()
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, f"response-link-{name}.png"))
    page.context.close()


@pytest.mark.parametrize("name, paths", [("ann", ["/", "/io", "/stats"]),
                                         ("rita", ["/", "/io", "/results", "/inspect"])])
def test_every_page_names_who_is_signed_in_and_offers_log_out(auth_server, browser, name,
                                                              paths):
    """The Annotate and Import / Export pages said nothing of the account in use and had no
    Log out (assets/account.js puts both on every page's top bar)."""
    page = logged_in(browser, auth_server.url, name, paths[0])
    for path in paths:
        page.goto(auth_server.url + path)
        line = page.locator("#account-line")
        line.wait_for(timeout=20000)
        assert line.inner_text().strip() == f"Signed in as {name} · Log out", path
        assert line.is_visible() and page.locator("#log-out").is_visible(), path
        if SHOTS:
            page.screenshot(path=os.path.join(SHOTS, f"account-{name}{path.strip('/')}.png"))
    page.click("#log-out")
    page.wait_for_selector("input[type=password]", timeout=20000)   # the login page again
    page.goto(auth_server.url + "/stats")
    page.wait_for_selector("input[type=password]", timeout=20000)
    page.context.close()
