"""Import and export from the browser: the same formats and code paths as the CLI.

An upload may be a single file (JSON, JSONL, TSV) or a ZIP holding the file and its
image tree; a ZIP is unpacked into a private temporary folder with every member path
checked, so a hostile archive cannot write outside it.
"""
from __future__ import annotations

import shutil
import tempfile
import zipfile
from pathlib import Path, PurePosixPath

from formats import FormatError, export_path, import_path
from store import StoreError

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


class IoHandlers:
    def __init__(self, store):
        self.store = store

    def run_import(self, fmt: str, upload: str | None, server_path: str, images_dir: str,
                   dataset: str, progress=None) -> dict:
        """Import and return the report dict; raises IoError with a readable message."""
        if not fmt:
            raise IoError("choose a format")
        workdir = None
        try:
            if upload:
                src = Path(upload)
                if src.suffix.lower() == ".zip":
                    workdir = Path(tempfile.mkdtemp(prefix="cluelab-import-"))
                    unpack_zip(src, workdir)
                    path = find_data_file(workdir, fmt)
                    images = images_dir.strip() or str(path.parent if path.is_file() else path)
                else:
                    path, images = src, images_dir.strip() or None
            elif server_path and server_path.strip():
                path, images = Path(server_path.strip()), images_dir.strip() or None
            else:
                raise IoError("upload a file or give a path on the server")
            report = import_path(self.store, fmt, str(path), images_dir=images,
                                 dataset=(dataset or "").strip() or None, author="ui",
                                 progress=progress)
            return report.to_dict() | {"text": report.render_text()}
        except (FormatError, StoreError, zipfile.BadZipFile, OSError) as err:
            raise IoError(f"{err} — nothing was imported") from None
        finally:
            if workdir:
                shutil.rmtree(workdir, ignore_errors=True)

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
