"""How much one account may upload: each upload by what its role uploads, and in all within
the time uploads are kept (CLUELAB_UPLOAD_KEEP_S).

Why: every signed-in staff member had the importers' 4 GB per upload and no limit in all: an
annotator's 300 MB `big.png` was taken in 1.7 s, and at that rate one account filled hundreds
of GB of /tmp/gradio within the hour uploads are kept. Annotators upload images (for items,
for image options) and never import (the access table gives import_file to researchers and
admins), so:

- one upload by an account that may import is at most CLUELAB_MAX_UPLOAD (4gb: a dataset ZIP
  with its images); by any other, CLUELAB_MAX_IMAGE_UPLOAD (200mb: an image well past what
  the store takes, 200 megapixels, in any usual format);
- under a login, all of one account's uploads within the keep time are at most
  CLUELAB_UPLOAD_QUOTA (8gb) for importers, CLUELAB_IMAGE_UPLOAD_QUOTA (2gb) for others.

Under a login an account may also upload at most MAX_UPLOAD_FILES_PER_HOUR files in any hour
(domain/limits.py): the bytes let one annotator put 101,000 tiny files in the upload folder in
42 s. The files an upload held are counted from its answer (the paths Gradio lists), so an
upload is refused (a 429 naming the limit and when to try again) once the hour's count is
reached; the last one taken may pass it by at most what Gradio takes at once (1,000 files).

Both sizes are read from the request's Content-Length before a byte of the body is read (the server
reads no more than that), so a refused upload costs nothing; an upload without one is refused
(browsers and gradio_client always send it). A refusal is a 413 whose message names the limit
and its setting. Gradio's own limit (max_file_size: CLUELAB_MAX_UPLOAD per file) stays behind
it.
"""
from __future__ import annotations

import threading
import time
from collections import deque

from domain.limits import MAX_UPLOAD_FILES_PER_HOUR, UPLOAD_FILES_WINDOW_S, history_wait_s
from ui import access
from ui.file_limits import keep_seconds, shown_size, size_setting

MULTIPART_SLACK = 64 * 1024
"""An upload's body holds its file and a few hundred bytes of form headers."""


def limits_for(who: access.Caller) -> tuple[int, int, str, str]:
    """(one upload at most, all uploads within the keep time at most, their settings'
    names) for `who`: an importer's (the access table's import_file) or an image uploader's."""
    largest = size_setting("CLUELAB_MAX_UPLOAD", "4gb")      # Gradio's limit too
    if access.may(who, "import_file"):
        return (largest, size_setting("CLUELAB_UPLOAD_QUOTA", "8gb"),
                "CLUELAB_MAX_UPLOAD", "CLUELAB_UPLOAD_QUOTA")
    image = size_setting("CLUELAB_MAX_IMAGE_UPLOAD", "200mb")
    return (min(image, largest), size_setting("CLUELAB_IMAGE_UPLOAD_QUOTA", "2gb"),
            "CLUELAB_MAX_IMAGE_UPLOAD" if image <= largest else "CLUELAB_MAX_UPLOAD",
            "CLUELAB_IMAGE_UPLOAD_QUOTA")


class UploadLimits:
    """The limits, and each account's uploads within the keep time (in this process: a
    restart deletes every upload too)."""

    def __init__(self, keep_s: int | None = None):
        self.keep_s = keep_s or keep_seconds()
        self._uploads: dict[str, deque] = {}     # account -> (time, bytes) of its uploads
        self._files: dict[str, deque] = {}       # account -> (time, files) of its uploads
        self._lock = threading.Lock()

    def count_files(self, account: str, count: int) -> None:
        """An upload of `account`'s was taken, holding `count` files."""
        with self._lock:
            self._files.setdefault(account, deque()).append((time.monotonic(), count))

    def _files_refusal(self, account: str) -> str | None:
        """Why `account` may upload no more files now (lock held), or None."""
        now = time.monotonic()
        mine = self._files.setdefault(account, deque())
        while mine and mine[0][0] < now - UPLOAD_FILES_WINDOW_S:
            mine.popleft()
        wait = history_wait_s(list(mine), now, MAX_UPLOAD_FILES_PER_HOUR, UPLOAD_FILES_WINDOW_S)
        if wait is None:
            return None
        minutes = max(1, round(wait / 60))
        return (f"Upload refused: {account} has uploaded {sum(n for _, n in mine):,} files in "
                f"the last {_duration(UPLOAD_FILES_WINDOW_S)}, and an account may upload at "
                f"most {MAX_UPLOAD_FILES_PER_HOUR:,} files an hour (MAX_UPLOAD_FILES_PER_HOUR). Try "
                f"again in {minutes} minute{'s' if minutes != 1 else ''}.")

    def refusal(self, scope, who: access.Caller, require_login: bool) -> tuple[int, dict] | None:
        """(status, body) refusing this upload, or None (its bytes are then counted; its
        files, by `count_files`, once it is taken)."""
        length = dict(scope.get("headers", [])).get(b"content-length", b"")
        if not length.isdigit():
            return 411, {"detail": "An upload must state its size (a Content-Length header)."}
        size = int(length)
        per_upload, quota, per_upload_name, quota_name = limits_for(who)
        if size > per_upload + MULTIPART_SLACK:
            return 413, {"detail": self._too_large(who, size, per_upload, per_upload_name)}
        if not require_login:        # local mode: one user, whose machine it is
            return None
        with self._lock:
            if (too_many := self._files_refusal(who.name)) is not None:
                return 429, {"detail": too_many}
            mine = self._uploads.setdefault(who.name, deque())
            cutoff = time.monotonic() - self.keep_s
            while mine and mine[0][0] < cutoff:
                mine.popleft()
            used = sum(n for _, n in mine)
            if used + size > quota + MULTIPART_SLACK:
                return 413, {"detail": (
                    f"Upload refused: {who.name} has uploaded {shown_size(used)} in the last "
                    f"{_duration(self.keep_s)}, and an account may upload at most "
                    f"{shown_size(quota)} within the {_duration(self.keep_s)} uploads are kept "
                    f"({quota_name}); this one is {shown_size(size)}. Try again later.")}
            mine.append((time.monotonic(), size))
        return None

    @staticmethod
    def _too_large(who: access.Caller, size: int, limit: int, setting: str) -> str:
        text = (f"Upload refused: it is {shown_size(size)}, and one upload may be at most "
                f"{shown_size(limit)} ({setting})")
        if setting == "CLUELAB_MAX_IMAGE_UPLOAD":
            text += (f" for {who.name}, whose role adds images to items; importing datasets "
                     "(larger uploads) is for researchers and admins")
        return text + "."


def _duration(seconds: int) -> str:
    if seconds % 3600 == 0:
        hours = seconds // 3600
        return "hour" if hours == 1 else f"{hours} hours"
    if seconds % 60 == 0:
        return f"{seconds // 60} minutes"
    return f"{seconds} seconds"
