"""The conflict panel at 1400x900 (annfix17): its table scrolled inside the scrolling panel
(a 500 px viewport: the GT reasoning row cut at its foot), and "changed by" was a 76 px
column where "them (theirs kept)" took three lines."""
from playwright.sync_api import expect

from store import Store
from tests.browser.test_annotate_flow import open_item, type_into


def test_the_conflict_panel_is_readable_at_1400x900(ui_server, browser, tmp_path):
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    open_item(page, ui_server.url, "ui/beta")
    colleague = Store.open(ui_server.db)
    beta = colleague.get_item("ui/beta")
    colleague.save_item({**beta, "question": "Their question about the signpost by the bakery?",
                         "answer": "their answer", "gt_reasoning": "their reasoning " * 12,
                         "domain": "their domain", "subtask": "their subtask",
                         "aliases": ["theirs"]}, beta["version"], "bob")
    colleague.close()
    type_into(page, "#item-question textarea", "My question about the sign?")
    type_into(page, "#item-gt-reasoning textarea", "My reasoning " * 12)
    page.click("#save-item")
    expect(page.locator("#conflict-diff")).to_contain_text("their subtask", timeout=15000)
    page.wait_for_timeout(800)
    page.evaluate("() => { const p = document.querySelector('#conflict-panel');"
                  " p.scrollTop = p.scrollHeight; }")
    page.wait_for_timeout(300)
    page.locator("#conflict-panel").screenshot(path=str(tmp_path / "panel.png"))  # for a look
    seen = page.evaluate("""() => {
      const box = (e) => e.getBoundingClientRect();
      const panel = document.querySelector('#conflict-panel');
      const viewport = document.querySelector('#conflict-diff .virtual-table-viewport');
      const rows = [...document.querySelectorAll('#conflict-diff .virtual-row')]
        .filter((r) => box(r).height > 0);
      const who = rows.map((r) => r.children[1]).filter(Boolean)
        .map((td) => { const s = td.querySelector('span.text, span') || td;
                       return [s.innerText, box(s).height,
                               parseFloat(getComputedStyle(s).lineHeight) || 16]; });
      const heads = [...document.querySelectorAll('#conflict-diff thead th')]
        .filter((h) => box(h).height > 0).map((h) => Math.round(box(h).width));
      const ticks = [...document.querySelectorAll('#conflict-take-saved label')].map(box);
      return {viewport: [viewport.scrollHeight, viewport.clientHeight],
              panel: [box(panel).top, box(panel).bottom, box(panel).left, box(panel).right,
                      panel.scrollWidth, panel.clientWidth],
              last: rows.length ? [box(rows[rows.length - 1]).top,
                                   box(rows[rows.length - 1]).bottom,
                                   rows[rows.length - 1].innerText] : null,
              who, heads, ticks: ticks.map((t) => [t.left, t.right])};
    }""")
    top, bottom, left, right, wide, shown = seen["panel"]
    # one scroller, the panel: the table shows all its rows, the last one in view
    assert seen["viewport"][0] <= seen["viewport"][1] + 1, seen
    assert "GT reasoning" in seen["last"][2] and top <= seen["last"][0] and \
        seen["last"][1] <= bottom + 1, seen
    # "changed by" wide enough for "them (theirs kept)" on two lines at most
    assert seen["heads"][1] >= 90, seen
    assert all(h <= 2.5 * line for text, h, line in seen["who"] if "theirs kept" in text), seen
    # nothing runs out sideways: the choices in the panel
    assert wide <= shown + 1, seen
    assert seen["ticks"] and all(left <= a and b <= right for a, b in seen["ticks"]), seen
