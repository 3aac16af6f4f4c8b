"""Every file the app makes for a user to download: dataset exports, result tables, tagged
responses. One folder, one way in, bounded.

Why: each export made folders of its own in /tmp (`tempfile.mkdtemp`) that nothing removed,
and Gradio copied the file once more into its cache: 40 exports of the 1.3 MB demo by one
annotator left 80 folders and ~109 MB behind, for good.

Where: `<temp>/cluelab-downloads/<database>/<random token>/<file>`, one folder per database
served. It is one of Gradio's static folders (`start`), so Gradio serves the file from there
instead of copying it into its cache, and the token, which nobody can guess, is the only way
to name it (the route wants a signed-in staff member, ui/access.py).

When it goes: CLUELAB_UPLOAD_KEEP_S (3600) seconds after it was made, as uploads do (the page
offers it at once; a script has that long to fetch it); all of them at server start; and the
oldest first while the folder holds more than CLUELAB_DOWNLOADS_MAX (default 4gb). One
download larger than that is refused (the CLI's `export` has no such limit). The folder is
swept at every new download and every min(keep, 15 min).

One account may have MAX_PREPARING downloads being made at once (ui/account_slots.py).

Whose: a download is served (ui/route_access.py) only to the account it was made for, and
only while that account's role may still call the event that made it (`for_event`, by the
access table): a link that reached anyone else (a researcher's export seen by an annotator,
a shared screen, a log) fetched it, whatever their role. Under no login there is one user.
"""
from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator

from ui import access
from ui.account_slots import AccountSlots, SlotsTaken
from ui.file_limits import keep_seconds, shown_size, size_setting

MAX_PREPARING = 2
"""Downloads one account may have in the making at once."""
ROOT = Path(tempfile.gettempdir()) / "cluelab-downloads"


class DownloadRefused(Exception):
    """No download made: the account has MAX_PREPARING in the making, or it is too large."""


class Downloads:
    def __init__(self, folder: Path, keep_s: int, max_bytes: int):
        self.folder = Path(folder)
        self.keep_s = keep_s
        self.max_bytes = max_bytes
        self.slots = AccountSlots(MAX_PREPARING, "a download being prepared",
                                  f"{MAX_PREPARING} downloads being prepared")
        self._making: set[Path] = set()
        self.owners: dict[str, tuple[str, frozenset]] = {}   # folder name: (account, roles)
        self._lock = threading.Lock()
        self._sweeper: threading.Thread | None = None

    def start(self) -> None:
        """At server start: remove what an earlier run left, have Gradio serve the folder as
        it is (no copy in its cache), and sweep it every min(keep, 15 min)."""
        import gradio as gr

        shutil.rmtree(self.folder, ignore_errors=True)
        # this server's account only: an export holds every gold answer, and the files in
        # it are as readable as the umask makes them (0644 for other users of the machine)
        self.folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        os.chmod(self.folder, 0o700)
        gr.set_static_paths([str(self.folder)])
        if self._sweeper is None:
            self._sweeper = threading.Thread(target=self._sweep_every, daemon=True,
                                             name="cluelab-downloads")
            self._sweeper.start()

    @contextmanager
    def preparing(self, account: str, for_event: str) -> Iterator[Path]:
        """A new, empty folder to write one download of `account` into, made by the event
        `for_event` (its api_name); once the block ends the file in it is the download (kept
        within the bounds), and on any failure the folder goes. DownloadRefused if the
        account has MAX_PREPARING in the making already."""
        roles = access.GROUP_OF_EVENT[for_event].roles
        try:
            with self.slots.held(account):
                place = self.folder / os.urandom(16).hex()
                place.mkdir(parents=True, mode=0o700)
                with self._lock:
                    self._making.add(place)
                    self.owners[place.name] = (account, roles)
                try:
                    yield place
                    self._keep(place)
                except BaseException:
                    shutil.rmtree(place, ignore_errors=True)
                    raise
                finally:
                    with self._lock:
                        self._making.discard(place)
        except SlotsTaken as err:
            raise DownloadRefused(str(err)) from None

    def make(self, account: str, for_event: str, name: str,
             write: Callable[[Path], None]) -> str:
        """The path of a new download `name` of `account` made by the event `for_event`, its
        content written by `write(path)`."""
        with self.preparing(account, for_event) as place:
            path = place / name
            write(path)
        return str(path)

    def may_fetch(self, path: str, who: access.Caller) -> bool:
        """May `who` fetch the file `path` names (as Gradio's file route reads it)? Anything
        outside the downloads folder is not this module's to refuse; a download is its
        account's only, while that account's role may call the event that made it."""
        place = self._place_of(path)
        if place is None:
            return True
        with self._lock:
            account, roles = self.owners.get(place, ("", access.NOBODY))
        return who.name == account and bool(who.roles & roles)

    def _place_of(self, path: str) -> str | None:
        """The download folder's name that `path` lies in (spelt as given, or with its links
        resolved); None when it is outside the downloads folder."""
        for named in (Path(os.path.abspath(path)), Path(os.path.abspath(path)).resolve()):
            for folder in (Path(os.path.abspath(self.folder)), self.folder.resolve()):
                try:
                    parts = named.relative_to(folder).parts
                except ValueError:
                    continue
                return parts[0] if parts else ""
        return None

    def _keep(self, place: Path) -> None:
        """Sweep, then make room for the new download, oldest first; refuse one larger than
        the whole bound."""
        size = _size(place)
        if size > self.max_bytes:
            raise DownloadRefused(
                f"the file would be {shown_size(size)}, more than the "
                f"{shown_size(self.max_bytes)} the server keeps for downloads "
                "(CLUELAB_DOWNLOADS_MAX); export a part (one dataset), or use the command "
                "line's `export`")
        self.sweep()
        others = sorted(self._finished(exclude=place), key=_made_at)
        total = size + sum(_size(p) for p in others)
        for old in others:
            if total <= self.max_bytes:
                break
            total -= _size(old)
            shutil.rmtree(old, ignore_errors=True)

    def sweep(self) -> None:
        """Remove every finished download older than the keep time."""
        cutoff = time.time() - self.keep_s
        for place in self._finished():
            if _made_at(place) < cutoff:
                shutil.rmtree(place, ignore_errors=True)
        with self._lock:
            for name in [n for n in self.owners if not (self.folder / n).exists()]:
                del self.owners[name]

    def _finished(self, exclude: Path | None = None) -> list[Path]:
        if not self.folder.is_dir():
            return []
        with self._lock:
            making = set(self._making)
        return [p for p in self.folder.iterdir() if p not in making and p != exclude]

    def _sweep_every(self) -> None:
        while True:
            time.sleep(min(self.keep_s, 900))
            self.sweep()


def _made_at(place: Path) -> float:
    """When the download in `place` was written (its folder's time; gone: long ago)."""
    try:
        return place.stat().st_mtime
    except FileNotFoundError:
        return 0.0


def _size(place: Path) -> int:
    try:
        return sum(f.stat().st_size for f in place.rglob("*") if f.is_file())
    except FileNotFoundError:
        return 0


_BY_DATABASE: dict[Path, Downloads] = {}
_BY_DATABASE_LOCK = threading.Lock()


def downloads_for(store) -> Downloads:
    """The downloads of the database `store` serves (one folder per database file)."""
    database = Path(store.path).resolve()
    with _BY_DATABASE_LOCK:
        if database not in _BY_DATABASE:
            name = hashlib.sha256(str(database).encode()).hexdigest()[:16]
            _BY_DATABASE[database] = Downloads(
                ROOT / name, keep_s=keep_seconds(),
                max_bytes=size_setting("CLUELAB_DOWNLOADS_MAX", "4gb"))
        return _BY_DATABASE[database]
