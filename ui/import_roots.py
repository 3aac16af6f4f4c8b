"""Which folders on the server the Import page may read (`serve --import-root DIR`).

Why: the Import page takes a path on the server, and the server can read far more than any
user of the app should (`/etc/passwd`, `/proc/self/environ` with the API keys). So a server
path, and an image folder, is accepted only when it lies inside one of the configured
roots, after `..` and symlinks are resolved (a link inside a root pointing out of it is
refused). The filesystem's root `/` is never an import root nor an image folder.

Defaults: with a login (`--auth`, or any non-loopback address) there are none: server paths
are refused and uploads remain, until an admin names the folders with `--import-root`.
In local single-user mode (loopback, no login) the one user already owns the machine's files
through their shell, but a page of the app should still not hand out system files to
anything that can reach the port: the defaults are the server's working directory, the
database's folder and the user's home folder, where datasets live, and nothing else.
"""
from __future__ import annotations

import os
from pathlib import Path


class ImportRootError(ValueError):
    """A path outside the import roots, or a root that cannot be one; the message names it."""


def _resolved(path) -> Path:
    return Path(os.path.realpath(os.path.expanduser(str(path))))


def _is_filesystem_root(path: Path) -> bool:
    return path == Path(path.anchor)


class ImportRoots:
    """The resolved folders server paths must lie in (empty: no server paths at all)."""

    def __init__(self, roots=()):
        self.roots: list[Path] = []
        for root in roots:
            resolved = _resolved(root)
            if _is_filesystem_root(resolved):
                raise ImportRootError(f"import root {root} is the whole filesystem; "
                                      f"name the folders that hold datasets")
            if not resolved.is_dir():
                raise ImportRootError(f"import root {root} is not a folder")
            if resolved not in self.roots:
                self.roots.append(resolved)

    @classmethod
    def defaults(cls, local_mode: bool, db_path=None, cwd=None, home=None) -> "ImportRoots":
        """No roots under a login; the working directory, the database's folder and the
        home folder in local mode (those that exist and are not `/`)."""
        if not local_mode:
            return cls()
        candidates = [cwd or os.getcwd(), Path(db_path).resolve().parent if db_path else None,
                      home or Path.home()]
        usable = [c for c in candidates if c is not None and _resolved(c).is_dir()
                  and not _is_filesystem_root(_resolved(c))]
        return cls(usable)

    def check(self, path_text: str, what: str = "path") -> Path:
        """The resolved path if it lies inside a root; else ImportRootError naming it."""
        text = str(path_text).strip()
        if not text or "\x00" in text:
            raise ImportRootError(f"the {what} is empty or invalid")
        if not self.roots:
            raise ImportRootError(f"this server imports no {what}s from its disk (no "
                                  f"--import-root configured); upload the file or a ZIP instead")
        resolved = _resolved(text)
        if _is_filesystem_root(resolved):
            raise ImportRootError(f"the {what} {text} is the whole filesystem; refused")
        if not any(resolved.is_relative_to(root) for root in self.roots):
            raise ImportRootError(f"the {what} {text} is outside the folders this server "
                                  f"imports from ({self.describe()}); refused")
        return resolved

    def describe(self) -> str:
        return ", ".join(str(root) for root in self.roots) if self.roots else "none"
