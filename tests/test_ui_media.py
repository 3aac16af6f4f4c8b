"""The editor and images that do not decode: refused when added, shown with a message when an
older database already holds one. Real store, real files, the handlers called directly."""
import hashlib

import store.media as media
from store import Store
from tests.conftest import png_with_bad_pixels
from tests.live_server import build_ui_db
from ui.annotate_render import Renderer
from ui.editor_handlers import EditorHandlers
from ui.history_handlers import HistoryHandlers


def _plant_undecodable_image(store: Store, width=3000, height=2000) -> str:
    """Store a corrupt image the way a version before decode-at-import could have."""
    data = png_with_bad_pixels(width, height)
    sha = hashlib.sha256(data).hexdigest()
    media._write_atomically(media.original_path(store.media_dir, sha, "PNG"), data)
    store.register_images([media.ImageInfo(sha, width, height, "PNG", len(data))])
    return sha


def test_item_with_an_undecodable_stored_image_opens_with_a_message(tmp_path):
    build_ui_db(tmp_path / "ui.db")
    store = Store.open(tmp_path / "ui.db")
    bad = _plant_undecodable_image(store)
    item = store.get_item("ui/alpha")
    store.save_item({**item, "images": [*item["images"], bad]}, item["version"], "old-version")
    work = EditorHandlers(store).load("ui/alpha", "alice")
    shown = Renderer(store, None, HistoryHandlers(store)).render(work)
    notice, strip = shown[3], shown[4]
    assert f"Image 3 cannot be shown: image {bad[:12]}: the pixel data does not decode" in notice
    assert strip.count("<button") == 3
    store.close()
