"""Inspect's image labels sit above their images: 'Model boxes (dashed; …)' lay over the
image's top-left corner and hid a model box there (a review, round 28); the image, pushed
down, is still whole in its block."""
import pytest

from tests.inspect_helpers import build_inspect_db
from tests.live_server import LiveServer


@pytest.fixture(scope="module")
def inspect_server(tmp_path_factory):
    db = tmp_path_factory.mktemp("inspect-label") / "ui.db"
    ids = build_inspect_db(db)
    server = LiveServer(db, "--no-auth")
    server.ids = ids
    yield server
    server.stop()


def test_the_labels_are_above_the_whole_images(inspect_server, browser):
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    page.goto(f"{inspect_server.url}/inspect?response={inspect_server.ids['a']['ui/alpha']}")
    for block in ("#inspect-gt-image", "#inspect-model-image"):
        page.wait_for_function("(s) => { const i = document.querySelector(s + ' img');"
                               " return i && i.complete && i.naturalWidth > 0; }",
                               arg=block, timeout=30000)
        label = page.locator(f"{block} label[data-testid='block-label']").bounding_box()
        image = page.locator(f"{block} img").bounding_box()
        whole = page.locator(block).bounding_box()
        assert label["y"] + label["height"] <= image["y"] + 1, block
        assert image["y"] + image["height"] <= whole["y"] + whole["height"] + 1, block
    page.close()
