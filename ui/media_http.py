"""The media folder over HTTP: ClueLab's own route for the images its HTML shows, and long
browser-cache lifetimes for every media file.

`/media/<sha[:2]>/<sha>.<ext>` (an original) and `/media/previews/<sha>.<ext>` (its display
copy) are answered here, from the media folder, for the HTML ClueLab builds itself (the
editor's image strip and option images, ui/thumbnails.py): names of content hashes, so no
server path appears in a page (Gradio's file route takes the file's full path, and the
strip's HTML showed `gradio_api/file=/srv/…/cluelab-media/94/94c7….png`). Only names of that
shape are served, so nothing outside the folder can be named. Who may reach the route is in
the access table (ui/access.py, `/media/*`: staff), checked before this runs. Gradio's own
components (the box annotator, Inspect's images) still get Gradio's file URLs.

Files in the media folder are named by the sha256 of their content (previews by their
original's), so a URL never changes meaning. Gradio serves them without any Cache-Control,
which leaves a browser to guess and revalidate; `immutable` lets a browser that has shown an
image once (going back to the previous item, the strip's thumbnails) show it again without
asking. `private`: with a login required these are one team's images, not for shared caches.

Tried and dropped: downloading the first item's image from a script in the page head while
Gradio's front end starts. On this 2-core machine the download and decode competed with the
front end's own start-up and delayed the first event by ~0.5 s, more than the ~0.4 s it
saved (docs/PERFORMANCE.md).
"""
from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote

from starlette.responses import FileResponse

from store import MediaError, StoreError

FILE_PREFIX = "/gradio_api/file="
MEDIA_ROUTE = "/media/"
IMMUTABLE = (b"cache-control", b"private, max-age=31536000, immutable")
MEDIA_NAME = re.compile(r"(?:([0-9a-f]{2})/\1[0-9a-f]{62}|previews/[0-9a-f]{64})\.[a-z0-9]{1,5}")
"""What /media/ serves: an original (`ab/ab….png`) or a preview, by content hash."""


def media_url(path: str | Path, media_dir: str | Path) -> str:
    """The URL of a file of the media folder on ClueLab's own route, relative to the page
    (so it also works under a root path; every page of the app sits at the top level)."""
    name = Path(path).relative_to(media_dir).as_posix()     # the store's own paths
    if not MEDIA_NAME.fullmatch(name):
        raise ValueError("not a media file's name")
    return MEDIA_ROUTE.lstrip("/") + name


def preview_url(store, sha: str) -> str | None:
    """The URL of an image's display copy (its original when no preview can be made: an
    old, undecodable image the browser shows as broken), as the editor's option images name
    it; None when the store has no such image."""
    try:
        try:
            path = store.preview_path(sha)
        except MediaError:
            path = store.image_path(sha)
        return media_url(path, store.media_dir)
    except (StoreError, ValueError):
        return None


def is_media_request(path: str, media_dir) -> bool:
    """Does a request's path name a content-addressed media file (by ClueLab's route or
    Gradio's file route)? Those keep IMMUTABLE: one team's images, whose address never
    changes meaning; every other answer to a signed-in user is kept by no cache."""
    if path.startswith(MEDIA_ROUTE):
        return True
    prefix = str(Path(media_dir).resolve()).rstrip("/") + "/"
    target = unquote(path[len(FILE_PREFIX):]) if path.startswith(FILE_PREFIX) else ""
    return target.startswith(prefix) and "/../" not in target


class MediaFiles:
    """ASGI middleware: answers GET/HEAD /media/<name> from the media folder; successful
    answers for files in the media folder, by either route, get IMMUTABLE."""

    def __init__(self, app, media_dir):
        self.app = app
        self.media_dir = Path(media_dir).resolve()
        self.media_prefix = str(self.media_dir).rstrip("/") + "/"

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http" and scope["path"].startswith(MEDIA_ROUTE):
            return await self._serve(scope, receive, send)
        if scope["type"] == "http" and self._is_media(scope["path"]):
            return await self.app(scope, receive, self._with_cache_header(send))
        return await self.app(scope, receive, send)

    async def _serve(self, scope, receive, send) -> None:
        name = scope["path"][len(MEDIA_ROUTE):]
        path = self.media_dir / name
        if scope.get("method") not in ("GET", "HEAD") or not MEDIA_NAME.fullmatch(name) \
                or not path.is_file():
            body = b'{"detail": "Not found"}'
            await send({"type": "http.response.start", "status": 404,
                        "headers": [(b"content-type", b"application/json"),
                                    (b"content-length", str(len(body)).encode())]})
            await send({"type": "http.response.body", "body": body})
            return
        response = FileResponse(path, headers={IMMUTABLE[0].decode(): IMMUTABLE[1].decode()})
        await response(scope, receive, send)

    def _is_media(self, path: str) -> bool:
        if not path.startswith(FILE_PREFIX):
            return False
        target = unquote(path[len(FILE_PREFIX):])
        return target.startswith(self.media_prefix) and "/../" not in target

    @staticmethod
    def _with_cache_header(send):
        async def send_with_header(message):
            if message["type"] == "http.response.start" and message["status"] == 200:
                headers = [h for h in message["headers"] if h[0] != b"cache-control"]
                message = dict(message, headers=[*headers, IMMUTABLE])
            await send(message)
        return send_with_header
