"""An uploaded file is its uploader's: an event takes a file path from a client only if this
account uploaded that file, or the server itself handed it to this session.

Why: Gradio takes any path in its upload folder, or among its static files (the media
folder), as an upload of whoever names it. An annotator who learnt another account's upload
path (`/tmp/gradio/<hash>/x.png`) or a path in the media folder made an item from it (a
security review). Now, under a login:

- each path POST /gradio_api/upload answers is recorded as the uploading account's
  (`record_upload`, by ui/route_access.RouteAccess: `uploads_recorded`);
- each file path an event's outputs hand a session is recorded as that session's
  (`record_handed`, by ui/gradio_hooks.GuardedBlocks after an event);
- an event's upload controls (gr.File, gr.UploadButton: New item from images, Add image, an
  option's image, an import, a human baseline) take only such paths (`refusal`, checked by
  GuardedBlocks before the inputs are read); any other is refused with FOREIGN_FILE.

The limitation and the hooks this relies on are checked by ui/workarounds.py
(GRADIO_UPLOADS_OF_ANYONE): an upgrade that renames them fails that test.
Local mode (no login) has one user and nothing to check. Each table keeps at most MAX_PATHS
entries, the oldest forgotten first (an upload is deleted after CLUELAB_UPLOAD_KEEP_S anyway).
"""
from __future__ import annotations

import json
import os
import threading
from collections import OrderedDict

MAX_PATHS = 100_000
FOREIGN_FILE = ("That file was not uploaded from this account (nor shown to this page by the "
                "server); upload it again from this page.")
MAX_UPLOAD_ANSWER = 1_000_000
"""Bytes of an upload's answer read for its paths (a list of paths: far smaller)."""


def _key(path) -> str | None:
    if not isinstance(path, (str, os.PathLike)) or not str(path):
        return None
    return os.path.normpath(os.path.abspath(str(path)))


class UploadOwners:
    """Who uploaded each path, and which paths each session was handed."""

    def __init__(self, limit: int = MAX_PATHS):
        self.limit = limit
        self._uploaders: OrderedDict[str, set[str]] = OrderedDict()
        self._handed: OrderedDict[tuple[str, str], None] = OrderedDict()
        self._lock = threading.Lock()

    def record_upload(self, user: str, paths) -> None:
        with self._lock:
            for key in filter(None, map(_key, paths)):
                self._uploaders.setdefault(key, set()).add(user)
                self._uploaders.move_to_end(key)
            while len(self._uploaders) > self.limit:
                self._uploaders.popitem(last=False)

    def record_handed(self, session: str | None, paths) -> None:
        if not session:
            return
        with self._lock:
            for key in filter(None, map(_key, paths)):
                self._handed[(session, key)] = None
                self._handed.move_to_end((session, key))
            while len(self._handed) > self.limit:
                self._handed.popitem(last=False)

    def allows(self, user: str, session: str | None, path) -> bool:
        key = _key(path)
        if key is None:
            return False
        with self._lock:
            return user in self._uploaders.get(key, ()) or (session, key) in self._handed


def owners_of(blocks) -> UploadOwners:
    """The app's table (made once per Blocks)."""
    owners = blocks.__dict__.get("upload_owners")
    if owners is None:
        owners = blocks.__dict__.setdefault("upload_owners", UploadOwners())
    return owners


def of_request(scope) -> UploadOwners | None:
    """The table of the app a request reaches; None before Gradio's app is there."""
    try:
        return owners_of(scope["app"].get_blocks())
    except Exception:  # noqa: BLE001 - no Gradio app behind yet: nothing to record
        return None


def file_paths(value) -> list:
    """The file paths an input or output value names: Gradio's FileData ({"path": …}), a
    list of them, a plain path string (gradio_client's `type="filepath"`), or an update
    carrying one."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        if value.get("__type__") == "update":
            return file_paths(value.get("value"))
        return [value["path"]] if isinstance(value.get("path"), str) else []
    if isinstance(value, (list, tuple)):
        return [path for item in value for path in file_paths(item)]
    return []


def handed_paths(value, depth: int = 0) -> list[str]:
    """Every FileData path in an output value, however nested (an annotator's image, a
    gallery's), to a bounded depth."""
    if depth > 6:
        return []
    if isinstance(value, dict):
        found = [value["path"]] if isinstance(value.get("path"), str) and \
            isinstance(value.get("meta"), dict) else []
        return found + [p for v in value.values() if isinstance(v, (dict, list))
                        for p in handed_paths(v, depth + 1)]
    if isinstance(value, (list, tuple)):
        return [p for v in value if isinstance(v, (dict, list, tuple))
                for p in handed_paths(v, depth + 1)]
    return []


def uploads_recorded(send, owners: UploadOwners, user: str):
    """`send` that records the paths a successful upload's answer lists as `user`'s."""
    state = {"status": 0, "body": b""}

    async def recording(message):
        if message["type"] == "http.response.start":
            state["status"] = message.get("status", 0)
        elif message["type"] == "http.response.body" and state["status"] == 200:
            if len(state["body"]) < MAX_UPLOAD_ANSWER:
                state["body"] += message.get("body", b"")
            if not message.get("more_body"):
                try:
                    paths = json.loads(state["body"])
                except ValueError:
                    paths = []
                if isinstance(paths, list):
                    owners.record_upload(user, [p for p in paths if isinstance(p, str)])
        await send(message)
    return recording
