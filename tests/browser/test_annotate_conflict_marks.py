"""The save-conflict table with long texts at 1400×900, in real Chromium (found by a
context-free review): a long reasoning both people changed read as two nearly equal
paragraphs; now the words that differ are marked on each side, each in its own colour,
every cell wraps whole inside its column, and no cell menu sits over a header."""
from playwright.sync_api import expect

from store import Store
from tests.browser.test_annotate_flow import open_item, type_into

THEIRS = ("Snow covers the roofs and the benches, the trees are bare, and people wear heavy "
          "coats and hats; the pond is frozen and a child skates on it, so the season must "
          "be winter and not early spring.")
MINE = ("Snow covers the roofs and the benches, the trees are bare, and people wear heavy "
        "coats and scarves; the pond is frozen and children skate on it, so the season must "
        "be winter rather than late autumn.")


def test_long_texts_wrap_and_their_differences_are_marked(ui_server, browser):
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    open_item(page, ui_server.url, "ui/beta")
    colleague = Store.open(ui_server.db)
    beta = colleague.get_item("ui/beta")
    colleague.save_item({**beta, "gt_reasoning": THEIRS, "question": "Is it a station, bob?"},
                        beta["version"], "bob")
    colleague.close()
    type_into(page, "#item-gt-reasoning textarea", MINE)
    page.click("#save-item")
    expect(page.locator("#conflict-message")).to_contain_text("changed by bob", timeout=15000)
    diff = page.locator("#conflict-diff")
    expect(diff.locator(".virtual-row mark.cl-saved", has_text="a child skates")).to_be_visible(
        timeout=15000)
    expect(diff.locator(".virtual-row mark.cl-yours", has_text="children skate")).to_be_visible()
    expect(diff).to_contain_text(THEIRS)                 # whole, as one text
    page.wait_for_timeout(500)
    found = page.evaluate("""() => {
      const colour = (s) => getComputedStyle(document.querySelector(s)).backgroundColor;
      const cells = [...document.querySelectorAll('#conflict-diff .body-cell')];
      return {
        saved: colour('#conflict-diff .virtual-row mark.cl-saved'),
        yours: colour('#conflict-diff .virtual-row mark.cl-yours'),
        wide: cells.filter((c) => c.scrollWidth > c.clientWidth + 1).map((c) => c.innerText),
        cut: cells.filter((c) => c.scrollHeight > c.clientHeight + 1).map((c) => c.innerText),
        menus: [...document.querySelectorAll('#conflict-diff .cell-menu-button')]
          .filter((b) => b.checkVisibility()).length,
        part: (() => {      // "GT reasoning" breaks between its words, not inside one
          const cell = cells.find((c) => c.innerText.trim() === 'GT reasoning');
          const range = document.createRange();
          range.selectNodeContents(cell.querySelector('span'));
          return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
        })(),
      };
    }""")
    transparent = "rgba(0, 0, 0, 0)"
    assert found["saved"] not in (transparent, found["yours"]), found
    assert found["yours"] != transparent, found
    assert found["wide"] == [] and found["cut"] == [], found
    assert found["menus"] == 0, found
    assert found["part"] <= 2, found
    page.close()
