"""The save-conflict panel at 1400×900: it opens beside the image, at the top of the form
column, in the flow of the page (in the sticky save bar it floated over half of the image
and the Question, and a toast sat over its rows; at the end of the page, under the long
form, it was out of view); it scrolls within a bounded height; every part of its table is
listed; its question over the checkboxes is in plain words ("Changed by both: keep the saved
version of (unticked: yours)" was hard to read), above them, not over them."""
from playwright.sync_api import expect

from store import Store
from tests.browser.test_annotate_flow import open_item, type_into


def test_the_conflict_panel_opens_beside_the_image_hiding_nothing(ui_server, browser, tmp_path):
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    open_item(page, ui_server.url, "ui/beta")
    colleague = Store.open(ui_server.db)
    beta = colleague.get_item("ui/beta")
    colleague.save_item({**beta, "question": "Their question?", "answer": "their answer",
                         "gt_reasoning": "their reasoning", "domain": "their domain",
                         "subtask": "their subtask", "aliases": ["theirs"]},
                        beta["version"], "bob")
    colleague.close()
    type_into(page, "#item-question textarea", "My question?")
    type_into(page, "#item-gt-reasoning textarea", "My reasoning")
    page.click("#save-item")
    expect(page.locator("#conflict-message")).to_contain_text("changed by bob", timeout=15000)
    diff = page.locator("#conflict-diff")
    expect(diff).to_contain_text("their subtask", timeout=15000)
    page.wait_for_timeout(500)
    page.screenshot(path=str(tmp_path / "conflict.png"))   # kept for a look when it fails
    geometry = page.evaluate("""() => {
      const box = (e) => e.getBoundingClientRect();
      const table = document.querySelector('#conflict-diff .table-wrap') ||
                    document.querySelector('#conflict-diff');
      const rows = [...document.querySelectorAll('#conflict-diff .virtual-row')];
      const group = document.querySelector('#conflict-take-saved');
      const label = group.querySelector('[data-testid=block-info], .label, span');
      const ticks = [...group.querySelectorAll('label')];
      const panel = document.querySelector('#conflict-panel');
      const canvas = box(document.querySelector('#annotator canvas'));
      const toasts = [...document.querySelectorAll("[data-testid='toast-body']")]
        .filter((t) => t.checkVisibility()).map(box);
      const overlaps = (a, b) => a.left < b.right && b.left < a.right &&
                                 a.top < b.bottom && b.top < a.bottom;
      return {inFooter: !!document.querySelector('#item-footer #conflict-panel'),
              inForm: !!document.querySelector('#form-column #conflict-panel'),
              overImage: overlaps(box(panel), canvas),
              canvasOnTop: document.elementFromPoint(canvas.left + canvas.width / 2,
                canvas.top + canvas.height / 2)?.tagName,
              toastOverPanel: toasts.some((t) => overlaps(t, box(panel))),
              panel: [box(panel).top, box(panel).bottom, panel.scrollHeight, panel.clientHeight],
              row: box(document.querySelector('#item-footer')).top,
              buttons: [...panel.querySelectorAll('button')].filter((b) => b.offsetParent)
                .map((b) => [box(b).top, box(b).bottom, b.innerText]),
              table: [box(table).top, box(table).bottom],
              rows: rows.map((r) => [box(r).top, box(r).bottom]),
              label: [box(label).top, box(label).bottom, label.innerText],
              ticks: ticks.map((t) => [box(t).top, box(t).bottom, t.innerText])};
    }""")
    assert geometry["inForm"] and not geometry["inFooter"], geometry   # in the page's flow
    assert not geometry["overImage"] and geometry["canvasOnTop"] == "CANVAS", geometry
    assert not geometry["toastOverPanel"], geometry
    top, bottom, _, shown = geometry["panel"]
    assert 0 <= top and bottom <= geometry["row"] + 1, geometry      # in view, above the bar
    assert shown <= 0.73 * 900, geometry                             # bounded; it scrolls
    assert all(top <= b[0] and b[1] <= bottom for b in geometry["buttons"][:3]), geometry
    assert geometry["label"][2].strip() == ("Both of you changed these. Tick the ones to take "
                                            "from version 2 (bob's save); the others keep "
                                            "yours.")
    top, bottom = geometry["table"]
    assert len(geometry["rows"]) >= 6                    # each part changed, one row each
    assert all(top <= r[0] and r[1] <= bottom + 1 for r in geometry["rows"]), geometry
    assert geometry["ticks"] and all(geometry["label"][1] <= t[0] + 1
                                     for t in geometry["ticks"]), geometry
    # the Question is a scroll away and nothing lies over it
    question = page.locator("#item-question textarea")
    question.evaluate("(e) => e.scrollIntoView({block: 'center'})")
    assert question.evaluate("""(e) => { const r = e.getBoundingClientRect();
        return document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2) === e; }""")
    type_into(page, "#item-question textarea", "My question, merged?")
    expect(page.locator("#conflict-panel")).to_be_visible()


def test_save_merged_closes_the_stale_not_saved_warning(ui_server, browser):
    """'Not saved: ... changed by bob' stayed on screen beside 'Saved ... version 3' after Save
    merged succeeded. It is said once, in the panel (a toast said it again over the panel's
    table), the save bar saying the save waits for the choice."""
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    open_item(page, ui_server.url, "ui/beta")
    colleague = Store.open(ui_server.db)
    beta = colleague.get_item("ui/beta")
    colleague.save_item({**beta, "gt_reasoning": "their reasoning"}, beta["version"], "bob")
    colleague.close()
    type_into(page, "#item-question textarea", "My question?")
    page.click("#save-item")
    expect(page.locator("#conflict-message")).to_contain_text("changed by bob", timeout=15000)
    waiting = page.locator("#save-message", has_text="waiting for your choice")
    expect(waiting).to_be_visible(timeout=5000)
    page.wait_for_timeout(1000)              # a toast would be shown by now
    expect(page.locator("[data-testid='toast-body']")).to_have_count(0)
    page.click("#conflict-overwrite")
    expect(page.locator("[data-testid='toast-body']", has_text="version 3")).to_be_visible(
        timeout=15000)
    expect(page.locator("#save-message")).to_contain_text("version 3", timeout=5000)
    expect(waiting).to_have_count(0)
    page.close()
