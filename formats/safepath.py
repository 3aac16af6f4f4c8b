"""Resolve image paths named inside imported files without ever leaving the image folder.

Every importer goes through `resolve_inside`, so a hostile file (`../../etc/passwd`, an
absolute path, a symlink pointing elsewhere) can name only files under the folder the user
gave. The check is done on fully resolved paths, so symlinks cannot smuggle a path out.
"""
from __future__ import annotations

import os
from pathlib import Path

from .records import ImageRef


class UnsafePathError(ValueError):
    """A path that would leave the image folder. The message does not quote the path (it is
    the imported file's text): the caller names the image or folder by its place."""


def resolve_inside(base: Path, name: str) -> Path:
    """`base/name` resolved, refusing anything that is not inside `base`.

    Backslashes are read as separators (datasets authored on Windows use them). Absolute
    paths are accepted only if they already lie inside `base`. The file need not exist.
    """
    text = str(name).replace("\\", "/")
    if not text or "\x00" in text:
        raise UnsafePathError("an empty or invalid path")
    # os.path rather than pathlib: this runs once per image folder of big imports
    root = os.path.realpath(base)
    resolved = os.path.realpath(text if os.path.isabs(text) or text.startswith("/")
                                else os.path.join(root, text))
    if resolved != root and not resolved.startswith(root.rstrip(os.sep) + os.sep):
        # the folder is not named: a problem sentence is stored with the item and must not
        # carry the server's layout (or an upload's temporary folder)
        raise UnsafePathError("the path leaves the image folder; refused")
    return Path(resolved)


def image_ref(base: Path, name: str) -> ImageRef:
    """An ImageRef for `name` under `base`: a path, or an error if unsafe or missing."""
    try:
        path = resolve_inside(base, name)
    except UnsafePathError as exc:
        return ImageRef(name=str(name), error="unsafe image path", expected=str(exc),
                        unsafe=True)
    if not path.is_file():
        return ImageRef(name=str(name), error="image file not found",
                        expected="a file at that path inside the image folder")
    return ImageRef(name=str(name), path=path)


class BasenameIndex:
    """Find files by base name anywhere under a folder (for files that carry foreign paths).

    The folder is walked once, on first use; symlinks resolving outside it are ignored.
    """

    def __init__(self, base: Path):
        self.base = Path(base)
        self._files: dict[str, list[Path]] | None = None

    def _build(self) -> dict[str, list[Path]]:
        root = self.base.resolve()
        files: dict[str, list[Path]] = {}
        for folder, _dirs, names in os.walk(root):
            for name in names:
                path = Path(folder, name).resolve()
                if path.is_file() and str(path).startswith(str(root).rstrip(os.sep) + os.sep):
                    files.setdefault(name, []).append(path)
        return files

    def lookup(self, foreign_path: str) -> ImageRef:
        """The single file under the folder named like `foreign_path`'s last component."""
        if self._files is None:
            self._files = self._build()
        basename = str(foreign_path).replace("\\", "/").rstrip("/").rsplit("/", 1)[-1]
        matches = self._files.get(basename, []) if basename not in ("", ".", "..") else []
        if not matches:
            return ImageRef(name=str(foreign_path), error="image file not found",
                            expected="a file of that name in the image folder")
        if len(matches) > 1:
            return ImageRef(name=str(foreign_path), error="ambiguous image name",
                            expected=f"one file of that name, found {len(matches)} in the "
                                     f"image folder")
        return ImageRef(name=str(foreign_path), path=matches[0])
