"""Reviewer round 28: for a run started from the command line (only an admin steers it), a
researcher saw Pause, Cancel and Resume greyed, but "Delete run…" and "Save name and note"
looked live and refused only after the click, with a toast. Every control of the run is off
for them now, each with a tooltip saying why; for the run's creator and for an admin they
are on. Real Chromium against a server with a login, real SQLite."""
import pytest
from playwright.sync_api import expect

from store import Store
from tests.browser.test_refusals_flow import PASSWORD, logged_in
from tests.live_server import LiveServer, add_user, build_ui_db
from tests.scoring_helpers import make_run

WHY = ("run cli-run was started from the command line: only an admin may pause, cancel, "
       "resume, rename or delete it here.")
CONTROLS = ("#run-pause", "#run-cancel", "#run-resume", "#run-retry-errors input",
            "#run-resume-budget textarea, #run-resume-budget input",
            "#run-name textarea, #run-name input", "#run-note textarea",
            "#run-save-labels", "#run-delete")


@pytest.fixture(scope="module")
def auth_server(tmp_path_factory):
    db = tmp_path_factory.mktemp("cli-run") / "cli.db"
    build_ui_db(db)
    add_user(db, "rita", "researcher", PASSWORD)
    add_user(db, "ada", "admin", PASSWORD)
    with Store.open(db) as store:
        item = store.item_ids()[0]
        make_run(store, "cli-run", {item: "Yes."})
        store.db.conn.execute("UPDATE model_runs SET created_by = 'cli', status = 'stopped' "
                              "WHERE id = 'cli-run'")
        store.db.conn.commit()
    server = LiveServer(db, "--auth")
    yield server
    server.stop()


def watch(page, run_id):
    page.locator("#run-id textarea").fill(run_id)
    page.locator("#run-id textarea").press("Enter")
    expect(page.locator("#run-status")).to_have_text("stopped", timeout=20000)


def test_a_researcher_gets_every_control_of_a_cli_run_off_saying_why(auth_server, browser):
    page = logged_in(browser, auth_server.url, "rita", "/experiments")
    watch(page, "cli-run")
    for selector in CONTROLS:
        expect(page.locator(selector).first).to_be_disabled(timeout=10000)
    for selector in ("#run-save-labels", "#run-delete", "#run-pause", "#run-resume"):
        expect(page.locator(selector)).to_have_attribute("title", WHY, timeout=10000)
    expect(page.locator("#run-name textarea, #run-name input").first).to_have_attribute(
        "title", WHY)
    expect(page.locator("#run-control-message")).to_contain_text(WHY)


def test_an_admin_gets_them_on_with_no_tooltip(auth_server, browser):
    page = logged_in(browser, auth_server.url, "ada", "/experiments")
    watch(page, "cli-run")
    for selector in ("#run-save-labels", "#run-delete", "#run-resume",
                     "#run-name textarea, #run-name input"):
        expect(page.locator(selector).first).to_be_enabled(timeout=10000)
        assert not page.locator(selector).first.get_attribute("title")
