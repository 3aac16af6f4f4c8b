"""Images of an import: each file read, checked and stored once, before the import's
transaction; a failure remembered as an `Unread` (the problem's kind and detail), which the
importer reports naming the image by its place, never by the file's own path for it."""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from .records import ImageRef

IMAGE_THREADS = 4


class ImageAdder:
    """Adds images to the store once per source, remembering failures for shared files."""

    def __init__(self, store, media_error):
        self.store = store
        self.media_error = media_error
        self.cache: dict = {}
        self.shas: set[str] = set()

    @property
    def stored_count(self) -> int:
        return len(self.shas)

    def prepare_all(self, refs: list[ImageRef], progress=None) -> int:
        """Read, check and write every image file in a thread pool, before the transaction.

        File reads, hashing, Pillow's header checks and file writes release the GIL, so a
        few threads keep the disk busy; the rows are inserted later, in one statement.
        """
        unique = {}
        for ref in refs:
            if not ref.error:
                unique.setdefault(ref.cache_key(), ref)
        self.prepared = []

        def prepare(ref):
            source = ref.path if ref.path is not None else ref.data
            try:
                return self.store.prepare_image(source, ref.name)
            except self.media_error as exc:
                return unreadable(exc)

        with ThreadPoolExecutor(max_workers=IMAGE_THREADS) as pool:
            for done, (key, result) in enumerate(
                    zip(unique, pool.map(prepare, unique.values())), start=1):
                if isinstance(result, Unread):
                    self.cache[key] = result
                else:
                    self.cache[key] = (result.sha256, result.width, result.height)
                    self.prepared.append(result)
                if progress is not None and (done % 100 == 0 or done == len(unique)):
                    progress(done, len(unique))
        return len(unique)

    def register(self) -> None:
        """Insert the image rows (inside the import's transaction)."""
        self.store.register_images(self.prepared)
        self.shas.update(info.sha256 for info in self.prepared)

    def add(self, ref: ImageRef):
        """(sha256, width, height), or an Unread saying why not."""
        if ref.error:
            return Unread(ref.error, ref.expected)
        key = ref.cache_key()
        if key not in self.cache:  # an image not seen by prepare_all: store it now
            source = ref.path if ref.path is not None else ref.data
            try:
                info = self.store.add_image(source, ref.name)
            except self.media_error as exc:
                self.cache[key] = unreadable(exc)
            else:
                self.cache[key] = (info.sha256, info.width, info.height)
                self.shas.add(info.sha256)
        return self.cache[key]


@dataclass(frozen=True)
class Unread:
    """Why an image was not stored: a problem's kind and what was expected."""
    kind: str
    expected: str = ""


def unreadable(exc) -> Unread:
    """The store's MediaError without its `name`, the file's own text for the image."""
    return Unread("unreadable image", exc.reason)
