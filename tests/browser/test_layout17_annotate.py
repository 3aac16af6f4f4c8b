"""The Annotate page at 1400x900 after an annotator review (layout17):
- the conflict panel scrolled within its bounded height with nothing saying that rows were
  below its bottom (the rows that matter, "clues they added", were often there);
- "Restored your unsaved draft…" came after the image had shown and moved it ~26 px down
  (and so did the item menu's line), under a box being drawn straight away;
- the status dropdown showed a bare "draft" beside Next ▶, read as a filter;
- with ☰ Items open the filters took ~430 px above the list: ~8 rows showed."""
from playwright.sync_api import expect

from store import Store
from tests.browser.test_annotate_dialog_words import edited_with_draft
from tests.browser.test_annotate_flow import open_item, show_list, type_into


def _panel_rows(page):
    return page.evaluate("""() => {
      const panel = document.querySelector('#conflict-panel');
      const cue = panel.querySelector('.cl-more-rows');
      const cueTop = cue && cue.checkVisibility() ? cue.getBoundingClientRect().top
                                                  : panel.getBoundingClientRect().bottom;
      const rows = [...panel.querySelectorAll('#conflict-diff .virtual-row')]
        .filter((r) => r.getBoundingClientRect().height > 0);
      return {below: rows.filter((r) => r.getBoundingClientRect().bottom > cueTop + 1).length,
              rows: rows.length, cue: cue && cue.checkVisibility() ? cue.innerText : null,
              scroller: panel.scrollHeight > panel.clientHeight + 1};
    }""")


def test_the_conflict_panel_says_how_many_rows_are_below_its_bottom(ui_server, browser,
                                                                     tmp_path):
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    open_item(page, ui_server.url, "ui/alpha")
    colleague = Store.open(ui_server.db)
    alpha = colleague.get_item("ui/alpha")
    colleague.save_item({**alpha, "question": "Their question?", "answer": "their answer",
                         "gt_reasoning": "their reasoning " * 8, "domain": "their domain",
                         "subtask": "their subtask", "aliases": ["theirs"],
                         "clues": alpha["clues"] + [{"text": f"their clue {n}", "reasoning": "",
                                                     "boxes": []} for n in range(3)]},
                        alpha["version"], "bob")
    colleague.close()
    type_into(page, "#item-question textarea", "My question?")
    type_into(page, "#item-gt-reasoning textarea", "My reasoning " * 8)
    page.click("#save-item")
    expect(page.locator("#conflict-diff")).to_contain_text("clues they added", timeout=15000)
    page.wait_for_timeout(800)
    page.screenshot(path=str(tmp_path / "conflict.png"))          # for a look
    seen = _panel_rows(page)
    assert seen["scroller"] and seen["below"] > 0, seen          # the case of the review
    # the cue says how many rows are out of view, in view itself
    assert seen["cue"] == f"{seen['below']} more rows below ▾", seen
    cue = page.locator("#conflict-panel .cl-more-rows")
    box = cue.bounding_box()
    assert box and box["y"] + box["height"] <= 900, box
    for _ in range(10):                      # its clicks bring every row into view
        if not cue.is_visible():
            break
        cue.click()
        page.wait_for_timeout(600)
    seen = _panel_rows(page)
    assert seen["below"] == 0 and seen["cue"] is None, seen
    # the table's last row is in view in the panel
    last = page.evaluate("""() => { const p = document.querySelector('#conflict-panel');
      const rows = [...p.querySelectorAll('#conflict-diff .virtual-row')];
      const r = rows[rows.length - 1].getBoundingClientRect();
      return [r.bottom, p.getBoundingClientRect().bottom, innerHeight]; }""")
    assert last[0] <= last[1] + 1 and last[0] <= last[2], last


def test_the_image_does_not_move_once_shown_when_a_draft_is_restored(ui_server, page):
    page.set_viewport_size({"width": 1400, "height": 900})
    open_item(page, ui_server.url, "ui/beta")
    edited_with_draft(page, "a draft to restore")
    # every frame from the page's start: where the image's canvas is once it shows
    page.add_init_script("""window.__tops = []; const look = () => {
      const c = document.querySelector('#annotator canvas');
      const r = c && c.getBoundingClientRect();
      if (r && r.height > 0) window.__tops.push(Math.round(r.top));
      requestAnimationFrame(look); }; requestAnimationFrame(look);""")
    page.goto(f"{ui_server.url}/?item=ui/beta")
    page.wait_for_selector("#annotator canvas")
    expect(page.locator("#item-notice")).to_contain_text("Restored your unsaved draft",
                                                         timeout=15000)
    page.wait_for_timeout(2000)
    tops = page.evaluate("() => window.__tops")
    assert tops and max(tops) - min(tops) <= 1, sorted(set(tops))


def test_the_status_dropdown_says_it_is_the_status(ui_server, page):
    page.set_viewport_size({"width": 1400, "height": 900})
    open_item(page, ui_server.url, "ui/alpha")
    label = page.locator("#item-status [data-testid=block-info]")
    expect(label).to_be_visible(timeout=15000)
    expect(label).to_have_text("Status")
    boxes = page.evaluate("""() => ['#item-status [data-testid=block-info]',
        '#item-status input', '#next-item'].map((q) => {
          const r = document.querySelector(q).getBoundingClientRect();
          return [r.left, r.top, r.right, r.bottom]; })""")
    label_box, field, nav = boxes
    # on the nav's line (no row of its own), before the value
    assert nav[1] - 2 <= label_box[1] and label_box[3] <= nav[3] + 2, boxes
    assert label_box[2] <= field[0] + 1, boxes
    assert label_box[2] - label_box[0] > 20, boxes                 # not clipped to a pixel


def test_the_filters_leave_the_item_list_room(tmp_path, browser):
    from tests.live_server import LiveServer, build_ui_db
    db = tmp_path / "many.db"
    build_ui_db(db)
    store = Store.open(db)
    base = store.get_item("ui/alpha")
    for n in range(30):
        store.create_item({**base, "id": f"ui/many-{n:02d}"}, "fixture")
    store.close()
    server = LiveServer(db, "--no-auth")
    try:
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        open_item(page, server.url, "ui/alpha")
        show_list(page)
        page.wait_for_timeout(1500)
        page.screenshot(path=str(tmp_path / "list.png"))          # for a look
        seen = page.evaluate("""() => {
          const top = (q) => document.querySelector(q).getBoundingClientRect().top;
          const rows = [...document.querySelectorAll('#item-list .virtual-row')]
            .map((r) => r.getBoundingClientRect())
            .filter((r) => r.height > 0 && r.top >= 0 && r.bottom <= innerHeight);
          const view = document.querySelector('#item-list .virtual-table-viewport')
            .getBoundingClientRect();
          return {filters: top('#item-list') - top('#browser-search'),
                  rows: rows.filter((r) => r.top >= view.top - 1 &&
                                           r.bottom <= view.bottom + 1).length};
        }""")
        assert seen["filters"] <= 300, seen
        assert seen["rows"] >= 12, seen
    finally:
        server.stop()
