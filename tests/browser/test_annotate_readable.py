"""At 1400x900 on the demo (its real long ids, e.g. demo/bakery-breakfast-deal), the item
list shows whole ids and statuses and the form's dropdowns show whole values.

Gradio 6's Dataframe is a virtual table whose cells cannot wrap (each span.text is nowrap +
ellipsis): ids and statuses were cut ("demo/alcove-fur…", "st…"), and Domain / Subtask /
Answer type showed "Planning and Consu". The test measures each text against its box.
The question column had 13% of the list, two characters: it now has the width the id and
status leave, and the list does not scroll sideways."""
from playwright.sync_api import expect

from tests.browser.test_annotate_flow import show_list
from tests.live_server import LiveServer

# the form's dropdowns whose value does not fit their box
NARROW = """() => ['#item-domain', '#item-subtask', '#item-answer-type', '#item-status']
  .map((id) => document.querySelector(id + ' input'))
  .filter((i) => i.scrollWidth > i.clientWidth + 1).map((i) => i.value)"""


def test_item_list_and_form_values_are_whole_at_1400x900(tmp_path, browser):
    server = LiveServer(tmp_path / "demo.db", "--no-auth")      # seeded with the demo
    try:
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        page.goto(server.url + "/?item=demo/bakery-breakfast-deal")
        show_list(page)
        expect(page.locator("#item-list")).to_contain_text("demo/bakery-breakfast-deal",
                                                           timeout=30000)
        page.wait_for_timeout(500)
        cut = page.evaluate("""() => [...document.querySelectorAll('#item-list .virtual-row')]
          .flatMap((row) => [...row.querySelectorAll('span.text')].slice(0, 2))
          .concat([...document.querySelectorAll('#item-list .header-cell span.text')]
                  .slice(0, 2))
          .filter((s) => s.scrollWidth > s.clientWidth + 1).map((s) => s.textContent)""")
        assert cut == []
        shown = page.evaluate("""() => [...document.querySelectorAll('#item-list .virtual-row')]
          .map((row) => row.querySelector('span.text').textContent)""")
        assert "demo/bakery-breakfast-deal" in shown and len(shown) == 14
        widths = page.evaluate("""() => {
          const cells = [...document.querySelector('#item-list .virtual-row')
                         .querySelectorAll('.body-cell')].map((c) => c.getBoundingClientRect());
          const view = document.querySelector('#item-list .virtual-table-viewport');
          return {cells: cells.map((c) => c.width), right: cells[2].right,
                  viewRight: view.getBoundingClientRect().right,
                  scroll: view.scrollWidth - view.clientWidth}; }""")
        id_width, status_width, question_width = widths["cells"]
        assert question_width >= 120, widths                 # ~20 characters, not 2
        assert abs(widths["right"] - widths["viewRight"]) <= 20 and widths["scroll"] <= 1, widths
        assert page.evaluate(NARROW) == []
        assert page.locator("#item-subtask input").input_value() == "Planning and Consumption"
        # the arrow sits over the input's right end: the text stops before it (a value ran
        # under it, "Planning and Consumptio▾", where the field was narrower)
        room = page.evaluate("""() => ['#item-domain', '#item-subtask', '#item-answer-type']
          .map((id) => parseFloat(getComputedStyle(document.querySelector(id + ' input'))
                                  .paddingRight))""")
        assert min(room) >= 20, room
        page.screenshot(path=str(tmp_path / "readable.png"))
        # with the list hidden (the default below 1,700 px) the form column is narrower and
        # Answer type sits beside the Gold answer: it read "multiple_choi…"
        page.click("#list-toggle")
        expect(page.locator("#item-list")).to_be_hidden(timeout=20000)
        page.wait_for_timeout(300)
        assert page.evaluate(NARROW) == []
    finally:
        server.stop()
