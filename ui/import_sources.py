"""What an upload on the Import page holds: the file(s) to import, by the names the user
knows them by.

A single file is imported alone; a ZIP is unpacked into a private temporary folder with every
member path checked, so a hostile archive cannot write outside it. A ZIP with several data
files used to import the first one found and ignore the rest without a word: now every data
file is read with the chosen format first, and the upload is refused naming the files that
are not in that format; then all of them are imported in one transaction
(formats.import_paths), so a file refused while importing leaves the database as it was.
"""
from __future__ import annotations

import os
import shutil
import zipfile
from pathlib import Path, PurePosixPath

from domain.item_ids import without_direction_marks
from formats import FormatError, record_ids

DATA_SUFFIXES = (".jsonl", ".json", ".tsv")
MAX_UNPACKED_BYTES = 20 * 1024**3
# A ZIP bomb: a member that unpacks to far more than it holds. Images and real data files
# compress a few times at most (photos not at all, JSON Lines ~5-10x); 2 GB of spaces in a
# 2 MB archive, read by the importer, took the server to 4.6 GB of memory.
BOMB_RATIO = 100                  # unpacked / packed, for a member above BOMB_MIN_BYTES
BOMB_MIN_BYTES = 64 * 1024**2
MAX_DATA_FILE_BYTES = 512 * 1024**2   # one data file: the largest benchmark's is a few MB
DISK_RESERVE_BYTES = 1024**3          # unpacking leaves this much of the disk free


class IoError(ValueError):
    """A problem with what the user gave the import/export form; shown as a message."""


def _mb(size: int) -> str:
    """A size for a message: MB, or KB below 1 MB (a bomb 'unpacked to 200 MB from 0 MB')."""
    if size < 1024**2:
        return f"{max(size / 1024, 0.1):,.1f} KB" if size < 10 * 1024 else f"{size / 1024:,.0f} KB"
    return f"{size / 1024**2:,.0f} MB"


def check_member(archive: str, member: zipfile.ZipInfo, number: int = 1) -> None:
    """IoError for a member with an unsafe path, a bomb's ratio or an oversized data file.
    The sizes are the archive's own; zipfile never unpacks more than a member declares.
    The member is named by its place in the archive ("member 3 of the archive"), never by
    its path: the path is the archive's content, written by whoever made it."""
    name = PurePosixPath(member.filename)
    which = f"{archive}: member {number:,} of the archive"
    if name.is_absolute() or ".." in name.parts or member.filename.startswith("\\"):
        raise IoError(f"{which} has an unsafe path (absolute, or going up with '..'): "
                      "refused — nothing was imported")
    size, packed = member.file_size, max(member.compress_size, 1)
    if size > BOMB_MIN_BYTES and size > BOMB_RATIO * packed:
        raise IoError(f"{which} unpacks to {_mb(size)} from {_mb(packed)} "
                      f"(more than {BOMB_RATIO} times): refused as a possible ZIP bomb — "
                      "nothing was imported")
    if name.suffix.lower() in DATA_SUFFIXES and size > MAX_DATA_FILE_BYTES:
        raise IoError(f"{which} is a data file of {_mb(size)}, more than "
                      f"{_mb(MAX_DATA_FILE_BYTES)} — nothing was imported")


def unpack_zip(archive: Path, into: Path) -> None:
    with zipfile.ZipFile(archive) as zf:
        total = 0
        for number, member in enumerate(zf.infolist(), start=1):
            check_member(archive.name, member, number)
            total += member.file_size
            if total > MAX_UNPACKED_BYTES:
                raise IoError(f"{archive.name}: unpacks to more than 20 GB; import it from a folder")
        free = shutil.disk_usage(into).free
        if total > free - DISK_RESERVE_BYTES:
            raise IoError(f"{archive.name}: unpacks to {_mb(total)}, and the server has "
                          f"{_mb(max(free, 0))} of disk free — nothing was imported")
        zf.extractall(into)


def upload_targets(upload: Path, workdir: Path, fmt: str, images_dir: Path | None = None,
                   dataset: str | None = None) -> list[tuple[Path, str]]:
    """[(what to import, the name the user knows it by)] of an uploaded file or ZIP.

    A single file is linked (or copied) alone into `workdir`, so its default image folder
    holds nothing else; a ZIP is unpacked there. Either way the format then reads it with
    its own defaults, as the CLI reads the same file or the unpacked folder.
    """
    name = without_direction_marks(upload.name)     # as shown, and the copy's name
    if upload.suffix.lower() != ".zip":
        local = workdir / name
        try:
            os.link(upload, local)
        except OSError:
            shutil.copyfile(upload, local)
        return [(local, name)]
    unpack_zip(upload, workdir)
    try:
        paths = find_data_files(workdir, fmt)
    except IoError as err:
        raise IoError(f"{name}: {err} — nothing was imported") from None
    named = [(path, shown_path(str(path), workdir, name)) for path in paths]
    if len(named) > 1:
        refuse_mixed(named, fmt, images_dir, dataset, name)
    return named


def refuse_mixed(named: list[tuple[Path, str]], fmt: str, images_dir, dataset,
                 archive: str) -> None:
    """IoError naming the files of the archive the format cannot read, if any."""
    unreadable = []
    for path, shown in named:
        try:
            record_ids(fmt, path, images_dir, dataset)
        except FormatError as err:
            unreadable.append(f"{shown}: {err.reason}")
    if unreadable:      # the reason says what is wrong: broken JSON, or another format
        raise IoError(
            f"{archive} holds {len(named)} data files ({', '.join(s for _, s in named)}); "
            f"{len(unreadable)} of them cannot be imported as {fmt}: {'; '.join(unreadable)}. "
            "Fix it or leave it out of the ZIP, or import one file by itself "
            "— nothing was imported")


def shown_path(path: str, local: Path, prefix: str) -> str:
    """`path` as the user knows it: `prefix` instead of the server's `local` folder (an
    upload's private folder, a resolved server path); other paths as they are. Without
    text-direction controls (a ZIP's member "evil<U+202E>txt.jsonl" read reversed)."""
    try:
        inside = Path(path).relative_to(local).as_posix()
    except ValueError:
        return without_direction_marks(str(path))
    if inside == ".":
        return without_direction_marks(prefix)
    return without_direction_marks(f"{prefix}/{inside}" if prefix else inside)


def find_data_files(root: Path, fmt: str) -> list[Path]:
    """The files to import inside an unpacked archive (a folder, for VER-Bench), shallowest
    first."""
    if fmt == "verbench":
        for candidate in [root, *sorted(p for p in root.rglob("*") if p.is_dir())]:
            if (candidate / "Annotation").is_dir():
                return [candidate]
        raise IoError("the archive has no Annotation/ folder (VER-Bench layout)")
    files = sorted(p for p in root.rglob("*") if p.suffix.lower() in DATA_SUFFIXES
                   and not any(part.startswith(("__MACOSX", "."))
                               for part in p.relative_to(root).parts))
    if not files:
        raise IoError("the archive holds no .json, .jsonl or .tsv file")
    return sorted(files, key=lambda p: (len(p.relative_to(root).parts), str(p)))
