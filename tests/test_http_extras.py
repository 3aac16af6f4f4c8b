"""HTTP in front of Gradio, against a real server process: front-end files from memory
(ui/asset_cache.py), the media route and its cache headers (ui/media_http.py), and the
editor's thumbnail rows (ui/thumbnails.py)."""
import gzip
import re
import urllib.error
import urllib.request

import brotli
import pytest

from store import Store
from tests.live_server import start_ui_server
from ui import annotator_assets
from ui.thumbnails import option_images_html, strip_html


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
        image = f"gradio_api/file={store.image_path(store.get_item('ui/alpha')['images'][0])}"
    finally:
        store.close()
    status, headers, body = get(f"{server.url}/{image}")
    assert status == 200 and body.startswith(b"\x89PNG")
    assert headers["Cache-Control"] == "private, max-age=31536000, immutable"
    status, headers, _ = get(f"{server.url}/{image}x")          # no such file
    assert status >= 400 and "immutable" not in (headers.get("Cache-Control") or "")


def test_thumbnail_rows_escape_labels_and_mark_the_current_image():
    strip = strip_html(["media/ab/ab1.png", 'media/x"y.png'], selected=1)
    assert strip.count("<button") == 2 and strip.count('aria-current="true"') == 1
    assert 'data-index="1" data-label="2"' in strip.split("cl-current")[1][:60]
    assert 'src="media/ab/ab1.png"' in strip and 'x&quot;y.png' in strip
    assert "<button" not in strip_html([], None)
    hostile = '<img src=x onerror="alert(1)">'
    options = option_images_html([("media/p.png", "media/o.png", hostile)])
    assert "<img src=x" not in options and "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;" in options
    assert 'href="media/o.png"' in options and 'src="media/p.png"' in options
    assert option_images_html([]) == ""


def test_annotator_stylesheet_loads_its_katex_fonts_from_gradios_files(server):
    """The installed stylesheet inlines ~1.4 MB of fonts; the one served links them."""
    installed = (annotator_assets.component_dir() / "style.css").read_bytes()
    status, headers, served = get(server.url + annotator_assets.stylesheet_path())
    assert status == 200 and served.startswith(b".block")
    assert len(served) < len(installed) / 10
    assert get(server.url + annotator_assets.stylesheet_path(),
               {"If-None-Match": headers["ETag"]})[0] == 304
    fonts = re.findall(rb"src:url\(\.\./\.\./\.\./\.\./\.\./(assets/KaTeX_[^)]+\.woff2)\)", served)
    assert len(fonts) >= 15
    for font in fonts[:3]:
        status, headers, body = get(f"{server.url}/{font.decode()}")
        assert status == 200 and body[:4] == b"wOF2"
    rules = lambda css: re.sub(rb"@font-face\{[^}]*\}", b"", css)   # noqa: E731
    assert rules(served) == rules(installed)          # every other rule as installed


def test_page_head_preloads_the_annotators_scripts(server):
    """In the Annotate page's HTML itself (Gradio's `head=` is added by script, too late)."""
    status, headers, page = get(server.url + "/?item=ui/alpha")
    assert status == 200 and int(headers["Content-Length"]) == len(page)
    head = page.decode().split("</head>")[0]
    links = re.findall(r'<link rel="(preload|modulepreload)"[^>]*href="([^"]+)"', head)
    hrefs = [href for _, href in links]
    assert any(h.endswith("/style.css") for h in hrefs)
    assert any(h.endswith("/index.js") for h in hrefs) and len(hrefs) >= 4
    for href in hrefs:
        status, headers, _ = get(f"{server.url}/{href}")
        assert status == 200, href
    _, _, other = get(server.url + "/io")
    assert b"modulepreload" not in other.split(b"</head>")[0]


def test_slim_stylesheet_only_rewrites_inlined_fonts_it_can_replace():
    css = ('.a{color:red}'
           '@font-face{font-family:KaTeX_Main;font-style:italic;font-weight:700;'
           'src:url(data:font/woff2;base64,AAAA) format("woff2"),url(data:font/woff;base64,BB)}'
           '@font-face{font-family:Nowhere;src:url(data:font/woff2;base64,CC)}'
           '@font-face{font-family:KaTeX_Main;src:url(fonts/main.woff2)}.b{margin:0}')
    slim = annotator_assets.slim_stylesheet(css)
    assert slim.startswith(".a{color:red}@font-face{font-family:KaTeX_Main;font-style:italic;")
    assert re.search(r"src:url\(\.\./\.\./\.\./\.\./\.\./assets/KaTeX_Main-BoldItalic-[^)]+"
                     r'\.woff2\) format\("woff2"\)\}', slim)
    assert "AAAA" not in slim and "BB" not in slim
    assert "@font-face{font-family:Nowhere;src:url(data:font/woff2;base64,CC)}" in slim
    assert slim.endswith("@font-face{font-family:KaTeX_Main;src:url(fonts/main.woff2)}.b{margin:0}")
    assert annotator_assets.module_closure(annotator_assets.component_dir(), ["nope.js"]) == []


def test_a_rewrite_that_fails_serves_the_file_as_installed():
    """AssetCache in front of a tiny ASGI app: a broken rewrite never breaks the page."""
    import asyncio

    from ui.asset_cache import AssetCache

    async def app(scope, receive, send):
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"content-type", b"text/css"), (b"etag", b'"v1"')]})
        await send({"type": "http.response.body", "body": b".a{color:red}"})

    def broken(body):
        raise ValueError("not CSS I know")

    async def fetch(cache, path):
        sent = []

        async def send(message):
            sent.append(message)

        scope = {"type": "http", "method": "GET", "path": path, "query_string": b"",
                 "headers": [(b"accept-encoding", b"identity")]}
        await cache(scope, None, send)
        return sent[0]["status"], sent[-1]["body"]

    cache = AssetCache(app, rewrites={"/static/a.css": broken,
                                      "/static/b.css": lambda body: body.upper()})
    assert asyncio.run(fetch(cache, "/static/a.css")) == (200, b".a{color:red}")
    assert asyncio.run(fetch(cache, "/static/b.css")) == (200, b".A{COLOR:RED}")


def test_component_files_of_no_installed_component_never_reach_gradio():
    """Gradio's component-file route prints what it is asked for (ui/workarounds.py,
    COMPONENT_ROUTE_PRINTS): a path naming no installed component, or an odd file name, is
    a 404 before it, so nobody writes their text into the server's log."""
    import asyncio

    from ui.asset_cache import AssetCache

    asked = []

    async def app(scope, receive, send):
        asked.append(scope["path"])
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"content-type", b"text/javascript")]})
        await send({"type": "http.response.body", "body": b"export {}"})

    async def status(path):
        sent = []

        async def send(message):
            sent.append(message)

        await AssetCache(app, component_ids=("abc123",))(
            {"type": "http", "method": "GET", "path": path, "query_string": b"",
             "headers": []}, None, send)
        return sent[0]["status"]

    good = "/gradio_api/custom_component/abc123/client/component/index.js"
    assert asyncio.run(status(good)) == 200 and asked == [good]
    for hostile in ("/gradio_api/custom_component/abc123/client/component/" + "Z" * 7000,"/gradio_api/custom_component/forged\nERROR admin/client/a/b.js",
                    "/gradio_api/custom_component/other/client/component/index.js",
                    "/gradio_api/custom_component/abc123/client/component/a b.js",
                    "/gradio_api/custom_component/abc123/client/../../../etc/passwd",
                    "/gradio_api/custom_component/abc123/server/component/index.js"):
        assert asyncio.run(status(hostile)) == 404, hostile
    assert asked == [good]


def test_the_images_the_editor_shows_get_the_lasting_cache_header(server):
    """As the page asks for them: the server runs on a relative --db path (LiveServer)."""
    from gradio_client import Client

    loaded = Client(server.url, verbose=False, download_files=False).predict(
        "ui/alpha", api_name="/load_item")
    strip = next(x for x in loaded if isinstance(x, str) and "cl-thumbs" in x)
    thumb = re.search(r'src="([^"]+)"', strip).group(1)
    annotator = next(x for x in loaded if isinstance(x, dict) and "label_list" in x)["value"]
    assert annotator["image"]["path"].startswith("/")
    for url in (f"{server.url}/{thumb}", annotator["image"]["url"]):
        status, headers, _ = get(url)
        assert status == 200 and "immutable" in headers["Cache-Control"], url


def test_a_component_file_the_component_does_not_have_never_reaches_gradios_print(tmp_path):
    """A participant's requests for made-up names of up to 7,000 characters each reached
    Gradio's route, which prints every name: 1.9 MB of log a second from four connections.
    Given the component's folder, the cache refuses a name no file there has."""
    import asyncio

    from ui.asset_cache import AssetCache

    (tmp_path / "component").mkdir()
    (tmp_path / "component" / "Index-abc.js").write_text("export {}")
    asked = []

    async def app(scope, receive, send):
        asked.append(scope["path"])
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"export {}"})

    async def status(path):
        sent = []

        async def send(message):
            sent.append(message)

        await AssetCache(app, component_ids=("abc123",), component_dirs={"abc123": tmp_path})(
            {"type": "http", "method": "GET", "path": path, "query_string": b"",
             "headers": []}, None, send)
        return sent[0]["status"]

    folder = "/gradio_api/custom_component/abc123/client/component/"
    assert asyncio.run(status(folder + "Index-abc.js")) == 200
    for made_up in ("Index-abd.js", "Z" * 120, "Z" * 60000):
        assert asyncio.run(status(folder + made_up)) == 404
    assert asked == [folder + "Index-abc.js"]
