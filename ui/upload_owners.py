"""An uploaded file is its uploader's: an event takes a file path from a client only if this
account uploaded that file, or the server itself handed it to this session.

Why: Gradio takes any path in its upload folder, or among its static files (the media
folder), as an upload of whoever names it. An annotator who learnt another account's upload
path (`/tmp/gradio/<hash>/x.png`) or a path in the media folder made an item from it (a
security review). Now, under a login:

- each path POST /gradio_api/upload answers is recorded as the uploading account's
  (`record_upload`, by ui/route_access.RouteAccess: `uploads_recorded`);
- each file path an event's outputs hand a session is recorded as that session's, and its
  account's (`record_handed`, by ui/gradio_hooks.GuardedBlocks after an event);
- an event's upload controls (gr.File, gr.UploadButton: New item from images, Add image, an
  option's image, an import, a human baseline) take only such paths (`refusal`, checked by
  GuardedBlocks before the inputs are read); any other is refused with FOREIGN_FILE.

Under a login a file in Gradio's upload folder (its uploads, and the files it keeps of what
events hand out) is served only to an account that uploaded it or was handed it
(`may_fetch`, by RouteAccess): any signed-in account fetched another's upload by its path
(`GET /gradio_api/file=/tmp/gradio/<hash>/x.png`, a security review).

The limitation and the hooks this relies on are checked by ui/workarounds.py
(GRADIO_UPLOADS_OF_ANYONE, GRADIO_FILES_OF_ANYONE): an upgrade that renames them fails that
test. Local mode (no login) has one user and nothing to check.

Each table is bounded per account (MAX_PATHS_PER_ACCOUNT, its oldest forgotten first) and in
all (MAX_PATHS: then the oldest of the account holding the most goes): one account's 101
uploads of 1,000 files pushed every other account's uploads out of a table shared oldest
first, and their own fresh uploads were refused (a security review). Uploads a file count an
hour bounds too (ui/upload_limits.py); an upload is deleted after CLUELAB_UPLOAD_KEEP_S.
"""
from __future__ import annotations

import json
import os
import threading
from collections import OrderedDict

from gradio.utils import get_upload_folder

MAX_PATHS = 100_000
"""Entries of a table, all accounts together."""
MAX_PATHS_PER_ACCOUNT = 10_000
"""Entries of one account: past what it may upload within the hour (domain/limits.py
MAX_UPLOAD_FILES_PER_HOUR), with room for the files its pages are handed."""
FOREIGN_FILE = ("That file was not uploaded from this account (nor shown to this page by the "
                "server); upload it again from this page.")
MAX_UPLOAD_ANSWER = 1_000_000
"""Bytes of an upload's answer read for its paths (a list of paths: far smaller)."""


def _key(path) -> str | None:
    if not isinstance(path, (str, os.PathLike)) or not str(path):
        return None
    return os.path.normpath(os.path.abspath(str(path)))


class PerAccount:
    """Each account's entries, oldest first: at most `each` per account and `total` in all.
    Past `each` an account's own oldest goes; past `total`, the oldest of the account that
    holds the most, so no account's entries push out another's smaller share."""

    def __init__(self, each: int, total: int):
        self.each, self.total = each, total
        self._of: dict[str, OrderedDict] = {}
        self._count = 0

    def add(self, account: str, entries) -> None:
        mine = self._of.setdefault(account, OrderedDict())
        for entry in entries:
            self._count += entry not in mine
            mine[entry] = None
            mine.move_to_end(entry)
        while len(mine) > self.each:
            self._forget_oldest(mine)
        while self._count > self.total:
            self._forget_oldest(max(self._of.values(), key=len))
        for name in [name for name, held in self._of.items() if not held]:
            del self._of[name]

    def has(self, account: str, entry) -> bool:
        return entry in self._of.get(account, ())

    def _forget_oldest(self, held: OrderedDict) -> None:
        held.popitem(last=False)
        self._count -= 1


class UploadOwners:
    """Which paths each account uploaded, and which paths each account's sessions were
    handed (held as (session, path) for an event's check, and as the path for a fetch)."""

    def __init__(self, limit: int = MAX_PATHS, each: int = MAX_PATHS_PER_ACCOUNT):
        self._uploaded = PerAccount(each, limit)
        self._handed = PerAccount(each, limit)
        self._lock = threading.Lock()

    def record_upload(self, user: str, paths) -> None:
        with self._lock:
            self._uploaded.add(user, list(filter(None, map(_key, paths))))

    def record_handed(self, user: str, session: str | None, paths) -> None:
        keys = list(filter(None, map(_key, paths)))
        with self._lock:
            self._handed.add(user, keys + [(session, key) for key in keys if session])

    def allows(self, user: str, session: str | None, path) -> bool:
        """May an event of `user`'s `session` take `path` as an upload?"""
        key = _key(path)
        if key is None:
            return False
        with self._lock:
            return self._uploaded.has(user, key) or (
                bool(session) and self._handed.has(user, (session, key)))

    def may_fetch(self, user: str, path) -> bool:
        """May `user` fetch `path` (a file in the upload folder): uploaded by this account, or
        handed to a page of it? `path` spelt as given and with its links resolved."""
        keys = {_key(path), _key(os.path.realpath(str(path)))} - {None}
        with self._lock:
            return any(self._uploaded.has(user, key) or self._handed.has(user, key)
                       for key in keys)


def in_upload_folder(scope, path: str) -> bool:
    """Does `path` (as Gradio's file route reads it) name a file in Gradio's upload folder,
    spelt as given or with its links resolved?"""
    app = scope.get("app")
    folder = getattr(app, "uploaded_file_dir", None) or get_upload_folder()
    named = {os.path.abspath(path), os.path.realpath(path)}
    return any(os.path.commonpath([name, root]) == root
               for root in {os.path.abspath(folder), os.path.realpath(folder)}
               for name in named)


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


def uploads_recorded(send, recorded):
    """`send` that hands `recorded` the paths a successful upload's answer lists (its
    account's uploads: their owner, and their count, ui/upload_limits.py)."""
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
                    recorded([p for p in paths if isinstance(p, str)])
        await send(message)
    return recording
