"""Import and export from the browser: the same formats and code paths as the CLI.

An upload may be a single file (JSON, JSONL, TSV) or a ZIP holding the file and its
image tree; a ZIP is unpacked into a private temporary folder with every member path
checked, so a hostile archive cannot write outside it.
"""
from __future__ import annotations

import os
import shutil
import tempfile
import zipfile
from pathlib import Path, PurePosixPath

from formats import FormatError, export_path, import_path
from store import StoreError
from ui.import_roots import ImportRootError, ImportRoots

DATA_SUFFIXES = (".jsonl", ".json", ".tsv")
MAX_UNPACKED_BYTES = 20 * 1024**3


class IoError(ValueError):
    """A problem with what the user gave the import/export form; shown as a message."""


def unpack_zip(archive: Path, into: Path) -> None:
    with zipfile.ZipFile(archive) as zf:
        total = 0
        for member in zf.infolist():
            name = PurePosixPath(member.filename)
            if name.is_absolute() or ".." in name.parts or member.filename.startswith("\\"):
                raise IoError(f"{archive.name}: refusing member with unsafe path {member.filename!r}")
            total += member.file_size
            if total > MAX_UNPACKED_BYTES:
                raise IoError(f"{archive.name}: unpacks to more than 20 GB; import it from a folder")
        zf.extractall(into)


def unpack_upload(upload: Path, workdir: Path, fmt: str) -> tuple[Path, str]:
    """(what to import, the name the user knows it by) of an uploaded file or ZIP.

    A single file is linked (or copied) alone into `workdir`, so its default image folder
    holds nothing else; a ZIP is unpacked there. Either way the format then reads it with
    its own defaults, as the CLI reads the same file or the unpacked folder.
    """
    if upload.suffix.lower() == ".zip":
        unpack_zip(upload, workdir)
        path = find_data_file(workdir, fmt)
        inside = path.relative_to(workdir).as_posix()
        return path, upload.name if inside == "." else f"{upload.name}/{inside}"
    local = workdir / upload.name
    try:
        os.link(upload, local)
    except OSError:
        shutil.copyfile(upload, local)
    return local, upload.name


def shown_path(path: str, local: Path, prefix: str) -> str:
    """`path` as the user knows it: `prefix` instead of the server's `local` folder (an
    upload's private folder, a resolved server path); other paths as they are."""
    try:
        inside = Path(path).relative_to(local).as_posix()
    except ValueError:
        return str(path)
    if inside == ".":
        return prefix
    return f"{prefix}/{inside}" if prefix else inside


def find_data_file(root: Path, fmt: str) -> Path:
    """The file to import inside an unpacked archive (a folder, for VER-Bench)."""
    if fmt == "verbench":
        for candidate in [root, *sorted(p for p in root.rglob("*") if p.is_dir())]:
            if (candidate / "Annotation").is_dir():
                return candidate
        raise IoError("the archive has no Annotation/ folder (VER-Bench layout)")
    files = sorted(p for p in root.rglob("*") if p.suffix.lower() in DATA_SUFFIXES
                   and not any(part.startswith(("__MACOSX", ".")) for part in p.parts))
    if not files:
        raise IoError("the archive holds no .json, .jsonl or .tsv file")
    files.sort(key=lambda p: (len(p.relative_to(root).parts), str(p)))
    return files[0]


def import_summary(result: dict) -> tuple[bool, str]:
    """(is a warning, the toast's text) of an import report: never a plain success when an
    item was flagged or skipped."""
    imported, flagged, skipped = result["imported"], result["flagged"], result["skipped"]
    text = f"imported {imported} item{'s' * (imported != 1)}"
    if not (flagged or skipped or result["problems"]):
        return False, text
    parts = [f"{flagged} flagged with problems"] if flagged else []
    if skipped:
        parts.append(f"{skipped} not imported")
    return True, f"{text}: {', '.join(parts) or 'with problems'}; see the report"


def server_paths_hint(roots: ImportRoots) -> str:
    """The line under the server-path box: where paths may lie (or that none may)."""
    if not roots.roots:
        return "This server reads no paths from its disk (start it with --import-root DIR)."
    return f"Only inside: {roots.describe()}"


class IoHandlers:
    """Import and export for the page. A server path (and an image folder) is read only
    inside `import_roots` (ui/import_roots.py); an upload is unpacked into a private folder
    and then imported exactly as the CLI imports a file or folder: `import_path` with the
    format's own default image folder, so both give the same database."""

    def __init__(self, store, import_roots: ImportRoots | None = None):
        self.store = store
        self.roots = import_roots or ImportRoots()

    def run_import(self, fmt: str, upload: str | None, server_path: str, images_dir: str,
                   dataset: str, progress=None) -> dict:
        """Import and return the report dict; raises IoError with a readable message."""
        if not fmt:
            raise IoError("choose a format")
        if not upload and not (server_path or "").strip():
            raise IoError("upload a file or give a path on the server")
        try:
            images = self.roots.check(images_dir, "image folder") \
                if (images_dir or "").strip() else None
            with tempfile.TemporaryDirectory(prefix="cluelab-import-") as workdir:
                if upload:
                    path, shown = unpack_upload(Path(upload), Path(workdir), fmt)
                    local = Path(workdir)
                    prefix = Path(upload).name if Path(upload).suffix.lower() == ".zip" else ""
                else:
                    path = local = self.roots.check(server_path, "path")
                    shown = prefix = server_path.strip()
                try:
                    report = import_path(self.store, fmt, path, images_dir=images,
                                         dataset=(dataset or "").strip() or None, author="ui",
                                         progress=progress, source_name=shown)
                except FormatError as err:
                    raise IoError(f"{shown_path(err.path, local, prefix)}: {err.reason} "
                                  f"— nothing was imported") from None
        except ImportRootError as err:
            raise IoError(f"{err} — nothing was imported") from None
        except zipfile.BadZipFile:
            raise IoError("the upload is not a readable ZIP — nothing was imported") from None
        except OSError as err:        # its text would name the server's temporary folder
            raise IoError(f"cannot read the file: {err.strerror or type(err).__name__} "
                          f"— nothing was imported") from None
        except StoreError as err:
            raise IoError(f"{err} — nothing was imported") from None
        return report.to_dict() | {"text": report.render_text()}

    def run_export(self, fmt: str, dataset: str | None) -> tuple[str, dict]:
        """Export into a temporary folder; returns (file to download, summary)."""
        if not fmt:
            raise IoError("choose a format")
        outdir = Path(tempfile.mkdtemp(prefix="cluelab-export-"))
        stem = (dataset or "cluelab").replace("/", "_")
        suffix = {"vlmevalkit": ".tsv", "jsonl": ".jsonl"}.get(fmt, ".json")
        out = outdir / f"{stem}-{fmt}{suffix}"
        try:
            summary = export_path(self.store, fmt, str(out), dataset=dataset or None)
        except (FormatError, StoreError, OSError) as err:
            raise IoError(str(err)) from None
        written = [p for p in outdir.iterdir()]
        if len(written) == 1 and written[0].is_file():
            return str(written[0]), summary
        archive_dir = Path(tempfile.mkdtemp(prefix="cluelab-export-zip-"))
        archive = shutil.make_archive(str(archive_dir / f"{stem}-{fmt}"), "zip", root_dir=outdir)
        return archive, summary
