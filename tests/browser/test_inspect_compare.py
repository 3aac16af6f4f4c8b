"""Inspect's Compare view in real Chromium: every image of the item is shown whole, scaled to
its panel, never cropped to the gallery's square cells (ui/galleries.py)."""
import pytest
from playwright.sync_api import expect

from tests.browser.test_inspect_flow import inspect_server  # noqa: F401  (the fixture)

# Each shown image: its natural size, the part of it the page draws (object-fit: contain
# letterboxes, any other fit crops unless the box has the image's shape) and whether every
# ancestor that hides its overflow shows all of that part.
MEASURE = """(root) => [...root.querySelectorAll('.thumbnail-item img')].map(i => {
  const r = i.getBoundingClientRect(), fit = getComputedStyle(i).objectFit;
  const scale = Math.min(r.width / i.naturalWidth, r.height / i.naturalHeight);
  const w = fit === 'contain' ? i.naturalWidth * scale : r.width;
  const h = fit === 'contain' ? i.naturalHeight * scale : r.height;
  const drawn = {left: r.left + (r.width - w) / 2, top: r.top + (r.height - h) / 2};
  drawn.right = drawn.left + w; drawn.bottom = drawn.top + h;
  let clipped = false;
  for (let e = i.parentElement; e; e = e.parentElement) {
    const c = getComputedStyle(e);
    if (c.overflowX === 'visible' && c.overflowY === 'visible') continue;
    const b = e.getBoundingClientRect();
    if (drawn.left < b.left - 1 || drawn.top < b.top - 1 || drawn.right > b.right + 1
        || drawn.bottom > b.bottom + 1) clipped = true; }
  return {natural: i.naturalWidth / i.naturalHeight, shown: w / h, width: w,
          panel: root.getBoundingClientRect().width, clipped, loaded: i.complete}; })"""


@pytest.mark.parametrize("item, images", [("ui/gamma", 1), ("ui/alpha", 2)])
def test_compare_shows_every_image_whole(inspect_server, page, item, images):  # noqa: F811
    work_id = inspect_server.ids["a"][item]
    page.set_viewport_size({"width": 1400, "height": 900})
    page.goto(f"{inspect_server.url}/inspect?response={work_id}")
    expect(page.locator("#inspect-header")).to_contain_text(item, timeout=15000)
    page.locator("#inspect-compare-panel").get_by_text("Compare with another").click()
    page.click("#inspect-compare")
    for side in "ab":
        gallery = page.locator(f"#inspect-{side}-images")
        expect(gallery.locator(".thumbnail-item img")).to_have_count(images, timeout=15000)
        gallery.scroll_into_view_if_needed()
        page.wait_for_function("(g) => [...g.querySelectorAll('img')].every(i => i.complete && "
                               "i.naturalWidth > 0)", arg=gallery.element_handle(),
                               timeout=15000)
        for shown in gallery.evaluate(MEASURE):
            assert shown["natural"] > 1.2                      # the fixture's wide pictures
            assert abs(shown["shown"] - shown["natural"]) < 0.02, shown
            assert not shown["clipped"], shown
            assert shown["width"] <= shown["panel"] + 1, shown
