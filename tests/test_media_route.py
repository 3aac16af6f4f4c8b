"""The HTML ClueLab builds names images by content hash on its own route (ui/media_http.py),
never by a server path: the image strip showed
`gradio_api/file=/tmp/rev-atk/atk-media/94/94c7….png` to every user. A real server under
--auth; the route is for staff, and names nothing but media files."""
from __future__ import annotations

import re

import httpx
import pytest
from gradio_client import Client

from store import Store
from tests.live_server import LiveServer, add_user, open_ui_store, make_scene

PASSWORD = "media-route-pw"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("mediaroute")
    db = folder / "media.db"
    store = open_ui_store(db)
    big = store.add_image(make_scene(folder / "big.png", size=(2600, 1800)), "big.png").sha256
    small = store.add_image(make_scene(folder / "opt.png", color="#f3e8d2"), "opt.png").sha256
    store.create_item({"id": "ui/options", "question": "Which?", "answer_type": "multiple_choice",
                       "answer": "A", "images": [big],
                       "options": [{"label": "A", "text": "", "image": small},
                                   {"label": "B", "text": "no", "image": None}]}, "fixture")
    store.close()
    for name, role in (("ann", "annotator"), ("pat", "participant")):
        add_user(db, name, role, PASSWORD)
    srv = LiveServer(db, "--auth")
    srv.db, srv.folder = db, folder
    yield srv
    srv.stop()


def logged_in(server, name):
    http = httpx.Client(base_url=server.url, timeout=30)
    assert http.post("/login", data={"username": name, "password": PASSWORD}).status_code == 200
    return http


def test_the_strip_and_option_images_name_no_server_path(server):
    ann = Client(server.url, auth=("ann", PASSWORD), verbose=False, download_files=False,
                 ssl_verify=False)
    loaded = ann.predict("ui/options", api_name="/load_item")
    html = " ".join(x for x in loaded if isinstance(x, str) and "cl-thumb" in x)
    assert "cl-thumbs" in html and "Image options" in html
    assert str(server.folder) not in html and "gradio_api/file=" not in html, html
    urls = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert len(urls) == 3 and all(u.startswith("media/") for u in urls), urls
    assert any(u.startswith("media/previews/") for u in urls)    # the large image's preview
    staff = logged_in(server, "ann")
    for url in urls:
        got = staff.get("/" + url)
        assert got.status_code == 200 and got.content[:4] in (b"\x89PNG", b"\xff\xd8\xff\xe0",
                                                              b"\xff\xd8\xff\xdb"), url
        assert got.headers["cache-control"] == "private, max-age=31536000, immutable"
        assert staff.head("/" + url).status_code == 200


def test_the_media_route_is_for_staff_and_names_only_media_files(server):
    store = Store.open(server.db)
    try:
        sha = store.get_item("ui/alpha")["images"][0]
    finally:
        store.close()
    url = f"/media/{sha[:2]}/{sha}.png"
    assert httpx.get(server.url + url).status_code == 401
    assert logged_in(server, "pat").get(url).status_code == 403
    staff = logged_in(server, "ann")
    assert staff.get(url).status_code == 200
    for wrong in (f"/media/{sha[:2]}/../../media.db", "/media/media.db",
                  f"/media/{sha[2:4]}/{sha}.png", f"/media/previews/{sha[:10]}.jpg",
                  f"/media/{sha[:2]}/{sha}.png.bak", "/media/%2e%2e/media.db"):
        answer = staff.get(wrong)
        assert answer.status_code == 404 and answer.json() == {"detail": "Not found"}, wrong
    assert staff.post(url).status_code == 404
