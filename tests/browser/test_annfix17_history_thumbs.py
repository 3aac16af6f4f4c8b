"""History's diff showed an option's image as "an image (1a2b3c4d)" (annfix17): now a small
thumbnail, its hash as its alt and title; a text with markup shows as text."""
from playwright.sync_api import expect

from store import Store
from tests.browser.test_annotate_flow import open_item


def test_history_shows_an_options_image_small(ui_server, browser, tmp_path):
    store = Store.open(ui_server.db)
    item = store.get_item("ui/gamma")
    sha = store.get_item("ui/alpha")["images"][0]
    item["options"][-1]["image"] = sha
    item["question"] = "<b>Which</b> sign?\nSecond line & more"
    store.save_item(item, item["version"], "fx", "")
    store.close()
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    open_item(page, ui_server.url, "ui/gamma")
    page.locator("#history button.label-wrap").click()
    diff = page.locator("#history-diff-table")
    expect(diff).to_contain_text("<b>Which</b> sign?", timeout=20000)
    thumb = diff.locator("img.cl-history-thumb")
    expect(thumb).to_have_count(1, timeout=15000)
    expect(thumb).to_have_attribute("title", sha)
    expect(thumb).to_have_attribute("alt", f"an image ({sha[:8]})")
    page.wait_for_function("() => { const i = document.querySelector("
                           "'#history-diff-table img.cl-history-thumb');"
                           " return i && i.complete && i.naturalWidth > 0; }", timeout=15000)
    size = thumb.bounding_box()
    assert 0 < size["height"] <= 72 and size["width"] <= 300, size
    assert not diff.locator("b").count()                    # the markup shown, not applied
    assert sha not in diff.inner_text()
    diff.screenshot(path=str(tmp_path / "history.png"))
