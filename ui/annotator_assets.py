"""Get the bbox annotator's front-end files to a new browser sooner.

Why: in a browser that has never opened ClueLab, the annotator is the last thing on the
Annotate page to appear, and it holds the first paint of the image (docs/PERFORMANCE.md):

- Its stylesheet is 1.49 MB, of which 1.44 MB are the twenty KaTeX fonts inlined as base64
  (the component bundles Gradio's Markdown code). Gradio's loader waits for that stylesheet
  before it mounts the component, and the browser parses all of it on the main thread. Gradio
  ships the same fonts as files under /assets/, so `slim_stylesheet` points each @font-face at
  those files: the fonts still load, lazily, if a label ever renders math.
- Gradio only asks for the component's scripts (0.5 MB) once its own component scripts have
  arrived and run, ~1.3 s into a cold load. `PreloadLinks` names them in each page's HTML
  head (Gradio's own `head=` setting is inserted by its scripts, too late to help), so the
  browser fetches and compiles them from the start.

Both follow the files actually installed (gradio_image_annotation is pinned); if the
layout ever differs, the stylesheet is served as it is and no links are added.

And one change of what the component does: it scales an image down to its canvas's width,
never up, so a 40x30 image was drawn 40x30 in a canvas 30 px tall, where no box could be
drawn. `upscale_small_images` lets its scaling branch take such an image too (ui/workarounds.py,
ANNOTATOR_NO_UPSCALE): the image fills the canvas's width (assets/annotator.js fits that
width to the screen's height), and since the component keeps every box in canvas pixels with
that scale (its `scaleFactor`), which its Python side divides out, boxes are still saved in
the image's own pixels.

And one fix of how it draws a scaled image: it rounds the drawn height to whole canvas pixels
(an 8000x6000 photo in a 742 px canvas is drawn 557 px tall, not 556.5) while a box's y, like
its x, is saved divided by the width's scale, so a box drawn exactly on a feature was saved up
to half a canvas pixel off (3 image px at y 3000 of that photo) and shown on it again when
loaded. `exact_image_height` draws the image at its exact scaled height (ui/workarounds.py,
ANNOTATOR_HEIGHT_ROUNDED); the canvas keeps its rounded height, so the layout is unchanged.
"""
from __future__ import annotations

import re
import sys
from ui.text import escape_html
from pathlib import Path

import gradio
from gradio_image_annotation import image_annotator

from ui.asset_cache import collect, replay, whole_response

GRADIO_ASSETS = Path(gradio.__file__).parent / "templates" / "frontend" / "assets"
FONT_FACE = re.compile(r"@font-face\s*\{([^{}]*)\}")
STATIC_IMPORT = re.compile(r'(?:\bfrom|\bimport)\s*"\./([A-Za-z0-9_.-]+\.js)"')
# from the stylesheet's folder (gradio_api/custom_component/<id>/client/component/) to /
TO_ROOT = "../../../../../"
ANNOTATE_PAGES = ("/", "")
# what an @font-face keeps besides its src (the inlined data is replaced by a file)
DESCRIPTORS = ("font-display", "font-family", "font-style", "font-weight", "unicode-range")


SMALL_IMAGE = 320
"""An image whose longer side is shorter than this (px) is scaled up to the canvas's width."""
SCALE_DOWN_BRANCH = re.compile(r"if \((\w+\(\w+\))\.imageRotatedWidth > (\w+)\)")
"""The component's choice to scale the image (down only): `if (view.imageRotatedWidth > w)`."""
ROUNDED_HEIGHT = re.compile(
    r"([\w$]+) = Math\.round\((\w+\(\w+\)\.imageRotatedHeight \* [\w$]+)\)"
    r"((?:, [\w$]+ = [\w$]+)*), ([\w$]+) = \1;")
"""The scaled image's height, rounded, and the canvas's height taken from it, in one statement:
`fe = Math.round(view.imageRotatedHeight * W), Z = 0, me = 0, G = ue, $ = fe, V = fe;`."""


def component_dir() -> Path:
    """The annotator's built front-end folder, as Gradio's custom_component route finds it."""
    module_file = Path(sys.modules[image_annotator.__module__].__file__)
    return module_file.parent / image_annotator.TEMPLATE_DIR / "component"


def component_ids() -> tuple:
    """The installed components whose front-end files the page asks for (ui/asset_cache)."""
    return (image_annotator.get_component_class_id(),)


def component_dirs() -> dict:
    """{component id: the folder its front-end file paths (`component/Index-….js`) are in}."""
    return {image_annotator.get_component_class_id(): component_dir().parent}


def url_folder() -> str:
    """Where the page asks for those files, relative to the app's root."""
    return (f"gradio_api/custom_component/{image_annotator.get_component_class_id()}"
            "/client/component/")


def stylesheet_path() -> str:
    return "/" + url_folder() + "style.css"


def module_closure(folder: Path, entries: list[str]) -> list[str]:
    """The entry scripts and everything they import statically, in discovery order.
    Dynamic imports (`import("./x.js")`: mermaid, KaTeX's auto-render) stay lazy."""
    seen: list[str] = []
    pending = list(entries)
    while pending:
        name = pending.pop(0)
        path = folder / name
        if name in seen or not path.is_file():
            continue
        seen.append(name)
        pending.extend(STATIC_IMPORT.findall(path.read_text(encoding="utf-8")))
    return seen


def preload_links() -> str:
    """<link> tags for the page head: the stylesheet and the component's scripts."""
    folder = component_dir()
    if not (folder / "style.css").is_file():
        return ""
    base = escape_html(url_folder())
    links = [f'<link rel="preload" as="style" href="{base}style.css">']
    for name in module_closure(folder, ["index.js", "svelte_runtime_entry.js"]):
        links.append(f'<link rel="modulepreload" href="{base}{escape_html(name)}">')
    return "\n".join(links)


def font_file(family: str, weight: str, style: str) -> str | None:
    """Gradio's own copy of a KaTeX font face, e.g. KaTeX_Main-BoldItalic-<hash>.woff2."""
    bold = weight.strip() in ("bold", "700")
    italic = style.strip() == "italic"
    variant = {(False, False): "Regular", (True, False): "Bold",
               (False, True): "Italic", (True, True): "BoldItalic"}[(bold, italic)]
    found = sorted(GRADIO_ASSETS.glob(f"{family}-{variant}-*.woff2"))
    return found[0].name if found else None


def slim_stylesheet(css: str) -> str:
    """Every @font-face with inlined font data whose font Gradio ships as a file is
    rewritten to load that file instead; everything else is left exactly as it was."""

    def rewrite(match: re.Match) -> str:
        body = match.group(1)
        if "url(data:" not in body:
            return match.group(0)
        props = {name: found.group(1).strip() for name in DESCRIPTORS
                 if (found := re.search(rf"(?:^|;)\s*{name}\s*:\s*([^;]+)", body))}
        family = props.get("font-family", "").strip("'\"")
        name = font_file(family, props.get("font-weight", "400"),
                         props.get("font-style", "normal")) if family else None
        if name is None:
            return match.group(0)
        kept = ";".join(f"{key}:{value}" for key, value in props.items())
        return f'@font-face{{{kept};src:url({TO_ROOT}assets/{name}) format("woff2")}}'

    return FONT_FACE.sub(rewrite, css)


def upscale_small_images(js: str) -> str:
    """The component's script with its scaling branch also taken by a small image (longer
    side under SMALL_IMAGE); a script without that branch is returned as it is."""
    def widen(match: re.Match) -> str:
        view, width = match.group(1), match.group(2)
        return (f"if ({view}.imageRotatedWidth > {width} || Math.max({view}.imageRotatedWidth, "
                f"{view}.imageRotatedHeight) < {SMALL_IMAGE})")
    return SCALE_DOWN_BRANCH.sub(widen, js, count=1)


def exact_image_height(js: str) -> str:
    """The component's script drawing a scaled image at its exact height (the image's height
    times the width's scale, the scale boxes are saved with), its canvas as tall as before
    (that height rounded); a script without that statement is returned as it is."""
    def unrounded(match: re.Match) -> str:
        height, scaled, between, canvas = match.groups()
        return f"{height} = {scaled}{between}, {canvas} = Math.round({height});"
    return ROUNDED_HEIGHT.sub(unrounded, js, count=1)


def component_script(js: str) -> str:
    """The component's script as ClueLab serves it."""
    return exact_image_height(upscale_small_images(js))


def stylesheet_rewrites() -> dict:
    """For ui/asset_cache.AssetCache: request path -> how its body is changed once (the
    stylesheet slimmed, the component's scripts made to scale small images up and to draw
    them at their exact height)."""
    rewrites = {stylesheet_path(): lambda body: slim_stylesheet(body.decode("utf-8")).encode()}
    for script in sorted(component_dir().glob("Index-*.js")):
        rewrites["/" + url_folder() + script.name] = \
            lambda body: component_script(body.decode("utf-8")).encode()
    return rewrites


class PreloadLinks:
    """ASGI middleware: `preload_links()` into the <head> of the Annotate page's HTML (the
    only page with an annotator)."""

    def __init__(self, app):
        self.app = app
        self.links = preload_links().encode()

    async def __call__(self, scope, receive, send):
        if (not self.links or scope["type"] != "http" or scope["method"] != "GET"
                or scope["path"] not in ANNOTATE_PAGES):
            return await self.app(scope, receive, send)
        messages = await collect(self.app, scope, receive)
        start, body = whole_response(messages)
        headers = dict(start["headers"]) if start else {}
        if (start is None or start["status"] != 200 or body is None
                or b"content-encoding" in headers
                or not headers.get(b"content-type", b"").startswith(b"text/html")):
            return await replay(messages, scope, send)
        body = body.replace(b"<head>", b"<head>\n" + self.links, 1)
        headers = [(k, v) for k, v in start["headers"] if k != b"content-length"]
        headers.append((b"content-length", str(len(body)).encode()))
        await send(dict(start, headers=headers))
        await send({"type": "http.response.body", "body": body})
