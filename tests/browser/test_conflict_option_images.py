"""The conflict panel shows the two images two people set on one option, small, on each
side of its row (Gradio's HTML cells keep the <img>): both sides read "B: red (image)"
before, a blind choice."""
from playwright.sync_api import expect

from store import Store
from tests.browser.test_annotate_flow import open_item, type_into
from tests.live_server import make_scene


def test_the_two_option_images_show_in_the_conflict_row(ui_server, browser, tmp_path):
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    open_item(page, ui_server.url, "ui/gamma")
    colleague = Store.open(ui_server.db)
    green = colleague.add_image(make_scene(tmp_path / "g.png", color="#20a040"), "g.png").sha256
    gamma = colleague.get_item("ui/gamma")
    colleague.save_item({**gamma, "options": [gamma["options"][0],
                                              {**gamma["options"][1], "image": green}]},
                        gamma["version"], "bob")
    colleague.close()
    page.locator("#option-edit-row input").fill("B")
    with page.expect_file_chooser() as chooser:
        page.get_by_text("Set option image").click()
    chooser.value.set_files(str(make_scene(tmp_path / "b.png", color="#2040c0")))
    expect(page.locator("#option-images img")).to_have_count(1, timeout=15000)
    type_into(page, "#item-question textarea", "My question?")
    page.click("#save-item")
    expect(page.locator("#conflict-message")).to_contain_text("changed by bob", timeout=15000)
    images = page.locator("#conflict-diff img.cl-conflict-thumb:visible")
    expect(images).to_have_count(2, timeout=15000)
    page.wait_for_function("""() => [...document.querySelectorAll(
        '#conflict-diff img.cl-conflict-thumb')].filter((x) => x.checkVisibility())
        .every((x) => x.complete && x.naturalWidth > 0)""", timeout=15000)
    sizes = images.evaluate_all("(xs) => xs.map((x) => [x.naturalWidth, x.clientHeight])")
    assert all(w > 0 and 0 < h <= 72 for w, h in sizes), sizes
    page.screenshot(path=str(tmp_path / "conflict-images.png"))
    page.click("#conflict-compare")                  # Hide comparison
    expect(page.locator("#conflict-diff")).to_be_hidden()
    expect(page.locator("#conflict-compare")).to_have_text("Show comparison")
    page.click("#conflict-compare")
    expect(images).to_have_count(2, timeout=15000)
    expect(page.locator("#conflict-compare")).to_have_text("Hide comparison")
