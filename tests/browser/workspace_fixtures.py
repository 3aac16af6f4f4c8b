"""Items with images of the sizes the annotator must show without distortion."""
from __future__ import annotations

from pathlib import Path

from tests.live_server import LiveServer, build_ui_db, make_scene

# (item id, image size): a landscape photo, an 8000x6000 camera photo, a portrait scan, an
# icon-sized crop (the annotator drew it 40x30, too small to draw on)
SIZED_ITEMS = [("ui/wide", (1300, 900)), ("ui/huge", (8000, 6000)), ("ui/tall", (900, 1400)),
               ("ui/tiny", (40, 30))]


def build_workspace_db(db: Path) -> list[str]:
    """build_ui_db's three items plus one per SIZED_ITEMS entry (one clue each)."""
    from store import Store

    ids = build_ui_db(db)
    store = Store.open(db)
    src = db.parent / "src"
    base = store.get_item("ui/alpha")
    for item_id, size in SIZED_ITEMS:
        w, h = size
        sign = (w // 4, h // 4, w // 4 + w // 10, h // 4 + h // 15)
        name = f"{item_id.split('/')[1]}.jpg"
        sha = store.add_image(make_scene(src / name, size=size, sign=sign), name).sha256
        store.create_item({**base, "id": item_id, "images": [sha], "problems": [],
                           "clues": [{"text": "the sign", "reasoning": "", "boxes": []},
                                     {"text": "the wall", "reasoning": "", "boxes": []}]},
                          "fixture")
        ids.append(item_id)
    store.close()
    return ids


def start_workspace_server(directory: Path) -> LiveServer:
    db = directory / "ws.db"
    ids = build_workspace_db(db)
    server = LiveServer(db, "--no-auth")
    server.db, server.ids = db, ids
    return server


def serve_workspace(db: Path, ids: list[str], **extra) -> LiveServer:
    """A server on a workspace database built and added to: `extra` become its attributes."""
    server = LiveServer(db, "--no-auth")
    server.db, server.ids = db, ids
    vars(server).update(extra)
    return server
