"""Long browser-cache lifetimes for the media folder's files.

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

from urllib.parse import unquote

FILE_PREFIX = "/gradio_api/file="
IMMUTABLE = (b"cache-control", b"private, max-age=31536000, immutable")


class MediaCacheHeaders:
    """ASGI middleware: successful responses for files in the media folder get IMMUTABLE."""

    def __init__(self, app, media_dir):
        self.app = app
        self.media_prefix = str(media_dir.resolve()).rstrip("/") + "/"

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http" and self._is_media(scope["path"]):
            return await self.app(scope, receive, self._with_cache_header(send))
        return await self.app(scope, receive, send)

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
