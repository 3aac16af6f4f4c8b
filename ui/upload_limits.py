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
42 s. An upload is refused at the door (a 429 naming the limit and when to try again) once the
hour's count is reached. Its files are counted as Gradio's parser meets them, each taken from
what the account has left under the lock before a byte of it is written (CountingParser): the
file past the limit stops the parse, Gradio deletes the upload's files, and the answer is that
429. Counted from Gradio's answer after the upload instead, sequential uploads of 900, 1 and
999 files were all taken, and so were 5 parallel uploads of 1,000 files each.

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
from contextvars import ContextVar

from gradio import route_utils

from domain.limits import MAX_UPLOAD_FILES_PER_HOUR, UPLOAD_FILES_WINDOW_S, history_wait_s
from ui import access, route_answers
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
        count_files_as_parsed()
        self.keep_s = keep_s or keep_seconds()
        self._uploads: dict[str, deque] = {}     # account -> (time, bytes) of its uploads
        self._files: dict[str, deque] = {}       # account -> (time, files) of its uploads
        self._lock = threading.Lock()

    def files_of(self, account: str) -> "FilesTaken":
        """What counts the files of one upload of `account`'s as they are parsed."""
        return FilesTaken(self, account)

    def _files_refusal(self, account: str, refused_now: bool = False) -> str | None:
        """Why `account` may upload no more files now (lock held), or None. `refused_now`:
        an upload's file was refused, whose files are not kept (the account may have some
        left, fewer than that upload held)."""
        now = time.monotonic()
        mine = self._files.setdefault(account, deque())
        while mine and mine[0][0] < now - UPLOAD_FILES_WINDOW_S:
            mine.popleft()
        wait = history_wait_s(list(mine), now, MAX_UPLOAD_FILES_PER_HOUR, UPLOAD_FILES_WINDOW_S)
        if wait is None and not refused_now:
            return None
        used = sum(n for _, n in mine)
        said = (f"Upload refused: {account} has uploaded {used:,} files in the last "
                f"{_duration(UPLOAD_FILES_WINDOW_S)}, and an account may upload at most "
                f"{MAX_UPLOAD_FILES_PER_HOUR:,} files an hour (MAX_UPLOAD_FILES_PER_HOUR)")
        if wait is None:
            return (f"{said}; this upload holds more than the "
                    f"{MAX_UPLOAD_FILES_PER_HOUR - used:,} left. Upload fewer files at once, "
                    "or try again later.")
        minutes = max(1, round(wait / 60))
        return f"{said}. Try again in {minutes} minute{'s' if minutes != 1 else ''}."

    def refusal(self, scope, who: access.Caller, require_login: bool) -> tuple[int, dict] | None:
        """(status, body) refusing this upload, or None (its bytes are then counted; its
        files, by a FilesTaken, as they are parsed)."""
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
        its, most = shown_size(size), shown_size(limit)
        if _reads_same(its, most):   # "it is 200 MB, … at most 200 MB" read as no reason
            its, most = f"{its} ({size:,} bytes)", f"{most} ({limit:,} bytes)"
        text = (f"Upload refused: it is {its}, and one upload may be at most {most} "
                f"({setting})")
        if setting == "CLUELAB_MAX_IMAGE_UPLOAD":
            text += (f" for {who.name}, whose role adds images to items; importing datasets "
                     "(larger uploads) is for researchers and admins")
        return text + "."


class FilesTaken:
    """The files of one upload, each taken from what its account has left as Gradio's parser
    meets it (CountingParser): with the account's lock held, so parallel uploads never take
    more than the limit between them. An upload refused is refused whole: Gradio deletes its
    files, and they are given back. One that fails otherwise (a file over the size limit, a
    client gone) keeps its count: its files may have been written."""

    def __init__(self, limits: UploadLimits, account: str):
        self.limits, self.account = limits, account
        self.entry: list | None = None       # [time, files] among the account's uploads
        self.refused: str | None = None      # the 429's message, once a file was refused

    def take_one(self) -> None:
        """Count one more file; MultiPartException (Gradio's parse stops) past the limit."""
        limits = self.limits
        with limits._lock:
            if limits._files_refusal(self.account) is None:
                if self.entry is None:
                    self.entry = [time.monotonic(), 0]
                    limits._files[self.account].append(self.entry)
                self.entry[1] += 1
                return
            if self.entry is not None:
                self.entry[1] = 0
            self.refused = limits._files_refusal(self.account, refused_now=True)
        raise route_utils.MultiPartException(self.refused)

    def answered(self, send):
        """`send` for Gradio's upload route: once a file was refused, its answer (a 400
        quoting the parser's exception) goes out as the 429 with the refusal."""
        async def sending(message):
            if self.refused is None:
                return await send(message)
            if message["type"] == "http.response.start":
                await route_answers.send_json(send, 429, {"detail": self.refused})
        return sending


COUNTED: ContextVar[FilesTaken | None] = ContextVar("cluelab_upload_files", default=None)
"""The FilesTaken of the upload this request is (set by ui/route_access.RouteAccess)."""


class CountingParser(route_utils.GradioMultiPartParser):
    """Gradio's parser of an upload's body, which also hands each file, as its part begins,
    to the request's FilesTaken. Gradio's own count of files is per request only (max_files,
    1,000) and has no hook for what an account has left (ui/workarounds.py,
    GRADIO_UPLOAD_FILES_PER_REQUEST)."""

    def on_headers_finished(self) -> None:
        super().on_headers_finished()
        files = COUNTED.get()
        if files is not None and self._current_part.file is not None:
            files.take_one()     # the file just opened is deleted with the others if refused


def count_files_as_parsed() -> None:
    """Gradio's upload route (route_utils.upload_fn) parses with CountingParser."""
    route_utils.GradioMultiPartParser = CountingParser


def _duration(seconds: int) -> str:
    if seconds % 3600 == 0:
        hours = seconds // 3600
        return "hour" if hours == 1 else f"{hours} hours"
    if seconds % 60 == 0:
        return f"{seconds // 60} minutes"
    return f"{seconds} seconds"


def _reads_same(a: str, b: str) -> bool:
    """Do two shown sizes read as one ("200 MB" and "200 MB", "2.0 MB" and "2 MB")?"""
    (x, unit_x), (y, unit_y) = a.split(" ", 1), b.split(" ", 1)
    return unit_x == unit_y and float(x) == float(y)
