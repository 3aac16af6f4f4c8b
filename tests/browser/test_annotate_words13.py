"""An annotator reviewer's confusions on the Annotate page (Chromium, 1400×900): Gradio's
progress timers ("0.1s") inside the save's message, a refused review said twice (a toast over
the key line and under Submit review), and a "Use via API" link at the page's foot. (The
messages' words: tests/test_annotate_words13.py.)"""
import re

from playwright.sync_api import expect

from tests.browser.test_annotate_flow import open_item, type_into

TOASTS = "[data-testid='toast-body']"
TIMER = re.compile(r"^\s*\d+(\.\d+)?\s*s\b")

# the timers shown (in a status tracker Gradio does not hide) over the save's message lines
WATCH = """() => { window.__seen = []; const note = () => {
  for (const id of ['save-message', 'draft-state']) {
    for (const t of document.querySelectorAll(`#${id} [data-testid=status-tracker]`)) {
      if (!t.classList.contains('hide') && t.innerText.trim())
        window.__seen.push([id, t.innerText.trim()]); } } };
  new MutationObserver(note).observe(document.body,
    {subtree: true, childList: true, characterData: true}); }"""


def at_1400(page):
    page.set_viewport_size({"width": 1400, "height": 900})


def test_a_save_shows_no_timer_in_its_message_and_a_refused_review_no_toast(ui_server, page):
    at_1400(page)
    open_item(page, ui_server.url, "ui/gamma")
    type_into(page, "#item-question textarea", "Which exit is signposted here?")
    expect(page.locator("#draft-state")).to_contain_text("draft kept", timeout=15000)
    page.evaluate(WATCH)
    page.click("#save-item")
    expect(page.locator("#save-message")).to_contain_text("version 2", timeout=15000)
    seen = page.evaluate("window.__seen")
    assert not [s for s in seen if TIMER.match(s[1])], seen
    page.screenshot(path="/tmp/words13-saved.png")
    # version 2 is this user's own: the review is refused, said under Submit review only
    page.locator("#history button.label-wrap").click()
    page.locator("#review-verdict label", has_text="approve").click()
    page.click("#review-submit")
    expect(page.locator("#review-list")).to_contain_text(
        "ask someone who did not write it", timeout=15000)
    page.wait_for_timeout(1500)
    toasts = page.locator(TOASTS).all_inner_texts()
    assert not [t for t in toasts if "review" in t.lower()], toasts


def test_the_page_has_no_use_via_api_link(ui_server, page):
    at_1400(page)
    open_item(page, ui_server.url, "ui/alpha")
    page.wait_for_timeout(1000)
    assert page.get_by_text("Use via API").count() == 0
    assert page.locator("footer").get_by_text("API").count() == 0
