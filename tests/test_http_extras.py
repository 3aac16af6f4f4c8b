"""HTTP in front of Gradio, against a real server process: front-end files from memory
(ui/asset_cache.py), media cache headers (ui/media_http.py), and the editor's thumbnail
rows (ui/thumbnails.py)."""
import gzip
import json
import re
import urllib.error
import urllib.request

import brotli
import pytest

from store import Store
from tests.live_server import start_ui_server
from ui.thumbnails import file_url, option_images_html, strip_html


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = start_ui_server(tmp_path_factory.mktemp("http"))
    yield srv
    srv.stop()


def get(url, headers=None, method="GET"):
    """(status, headers, body) without raising on 4xx/5xx."""
    request = urllib.request.Request(url, headers=headers or {}, method=method)
    try:
        with urllib.request.urlopen(request, timeout=15) as r:
            return r.status, r.headers, r.read()
    except urllib.error.HTTPError as err:
        return err.code, err.headers, err.read()


def a_script_of_the_page(url) -> str:
    _, _, body = get(url + "/")
    return re.search(r'(/assets/[^"\']+\.js)', body.decode()).group(1)


def test_front_end_files_come_compressed_with_lasting_cache_headers(server):
    path = a_script_of_the_page(server.url)
    status, headers, plain = get(server.url + path)
    assert status == 200 and headers.get("Content-Encoding") is None
    assert "immutable" in headers["Cache-Control"]    # the name carries a content hash
    status, headers, packed = get(server.url + path, {"Accept-Encoding": "gzip, br"})
    assert status == 200 and headers["Content-Encoding"] == "br"
    assert brotli.decompress(packed) == plain and len(packed) < len(plain)
    assert int(headers["Content-Length"]) == len(packed)
    assert headers["Vary"] == "Accept-Encoding"
    status, headers, zipped = get(server.url + path, {"Accept-Encoding": "gzip, br;q=0"})
    assert headers["Content-Encoding"] == "gzip" and gzip.decompress(zipped) == plain
    etag = headers["ETag"]
    assert get(server.url + path, {"If-None-Match": etag})[0] == 304
    status, headers, body = get(server.url + path, method="HEAD")
    assert status == 200 and body == b"" and int(headers["Content-Length"]) == len(plain)


def test_errors_and_ranges_go_to_gradio_untouched(server):
    for _ in range(2):        # a miss is not remembered as anything
        status, _, _ = get(server.url + "/assets/no-such-file-abcdefgh.js")
        assert status == 404
    path = a_script_of_the_page(server.url)
    status, headers, body = get(server.url + path, {"Range": "bytes=0-9"})
    assert status == 206 and len(body) == 10
    status, _, body = get(server.url + "/assets/../../../../etc/passwd")
    assert status in (403, 404) and b"root:" not in body


def test_media_files_are_cached_for_good_and_other_files_are_not(server):
    store = Store.open(server.db)
    try:
        image = file_url(store.image_path(store.get_item("ui/alpha")["images"][0]))
    finally:
        store.close()
    status, headers, body = get(f"{server.url}/{image}")
    assert status == 200 and body.startswith(b"\x89PNG")
    assert headers["Cache-Control"] == "private, max-age=31536000, immutable"
    status, headers, _ = get(f"{server.url}/{image}x")          # no such file
    assert status >= 400 and "immutable" not in (headers.get("Cache-Control") or "")


def test_thumbnail_rows_escape_labels_and_mark_the_current_image():
    strip = strip_html(["/media/a b.png", "/media/c#d.png"], selected=1)
    assert strip.count("<button") == 2 and strip.count('aria-current="true"') == 1
    assert 'data-index="1" data-label="2"' in strip.split("cl-current")[1][:60]
    assert "gradio_api/file=/media/a%20b.png" in strip and "c%23d.png" in strip
    assert "No images yet" in strip_html([], None)
    hostile = '<img src=x onerror="alert(1)">'
    options = option_images_html([("/m/p.png", "/m/o.png", hostile)])
    assert "<img src=x" not in options and "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;" in options
    assert 'href="gradio_api/file=/m/o.png"' in options and "/m/p.png" in options
    assert option_images_html([]) == ""
