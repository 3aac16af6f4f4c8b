"""The conflict table's saved column is headed by who saved it, "saved (bob)", as the
tick-box question over it names the same save, "version 2 (bob's save)" (annotator review:
it was headed "saved"; annfix25: the question names the version the column does)."""
from playwright.sync_api import expect

from store import Store
from tests.browser.test_annotate_flow import open_item, type_into


def test_the_saved_column_names_who_saved_it(ui_server, browser):
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    open_item(page, ui_server.url, "ui/beta")
    colleague = Store.open(ui_server.db)
    beta = colleague.get_item("ui/beta")
    colleague.save_item({**beta, "question": "Their question?"}, beta["version"], "bob")
    colleague.close()
    type_into(page, "#item-question textarea", "My question?")
    page.click("#save-item")
    expect(page.locator("#conflict-take-saved")).to_contain_text(
        "take from version 2 (bob's save)", timeout=15000)
    expect(page.locator("#conflict-diff")).to_contain_text("Their question?", timeout=15000)
    heads = page.locator("#conflict-diff thead th").all_inner_texts()
    assert any("bob's save (version" in h for h in heads), heads   # (annfix23b)
