"""File formats: import benchmark files into the store and export the store to files.

The CLI and the UI call exactly this API:

    report = import_path(store, fmt, path, images_dir=None, dataset=None, author="import",
                         progress=None, source_name=None)
    reports = import_paths(store, fmt, [(path, source_name), ...], ...)   # all or nothing
    summary = export_path(store, fmt, out, dataset=None)

Each format is one module; import parsers turn a file into records (`records.py`), and
`importer.py` stores them in one transaction. See docs/FORMATS.md for what each format
accepts and how malformed input is reported.
"""
from __future__ import annotations

from pathlib import Path

from . import coco, dailyclue, jsonl, labelstudio, mmr_life, seekworld, verbench
from . import vlmevalkit_export, vlmevalkit_import
from .importer import run_import
from .report import FormatError, ImportReport

_READERS = {
    "jsonl": jsonl.read,
    "mmr-life": mmr_life.read,
    "verbench": verbench.read,
    "seekworld": seekworld.read,
    "dailyclue": dailyclue.read,
    "vlmevalkit": vlmevalkit_import.read,
}
_WRITERS = {
    "jsonl": jsonl.export,
    "vlmevalkit": vlmevalkit_export.export,
    "coco": coco.export,
    "labelstudio": labelstudio.export,
}
IMPORT_FORMATS = tuple(_READERS)
EXPORT_FORMATS = tuple(_WRITERS)

__all__ = ["import_path", "import_paths", "export_path", "dataset_refusal", "record_ids",
           "IMPORT_FORMATS", "EXPORT_FORMATS", "ImportReport", "FormatError"]


def import_path(store, fmt: str, path, images_dir=None, dataset=None, author: str = "import",
                progress=None, source_name: str | None = None,
                replace: bool = False, may_release: bool = False) -> ImportReport:
    """Import the file (or folder, for verbench) at `path` in format `fmt`.

    `source_name` is what the report and the revisions call the source (an upload's own
    file name rather than the server's temporary copy); default: `path`. `may_release`: may
    the importer bring items in as `released` (store/items.check_status)? Without it such an
    item is not imported, and the report says why.

    Raises FormatError (database unchanged) when the file cannot be imported at all;
    otherwise returns an ImportReport listing every per-item problem.
    """
    if fmt not in _READERS:
        raise FormatError(path, f"unknown import format {fmt!r}; "
                                f"expected one of {', '.join(IMPORT_FORMATS)}")
    if images_dir is not None and not Path(images_dir).is_dir():
        raise FormatError(images_dir, "image folder not found")
    return run_import(store, fmt, _READERS[fmt], path, images_dir=images_dir, dataset=dataset,
                      author=author, progress=progress, source_name=source_name,
                      replace=replace, may_release=may_release)


def import_paths(store, fmt: str, sources, **options) -> list[ImportReport]:
    """Import several files as one: `sources` are (path, source_name) pairs, each imported
    as `import_path` does with `options`, all in one transaction. A FormatError raised by any
    file (it names that file) rolls back every file: the database is as it was, the files
    before it included (they used to stay imported)."""
    with store.atomic():
        return [import_path(store, fmt, path, source_name=shown, **options)
                for path, shown in sources]


def record_ids(fmt: str, path, images_dir=None, dataset=None) -> list[str]:
    """The item ids `import_path` would read from `path`, without storing anything (raises
    FormatError as it would): what an import with `replace` is about to replace."""
    if fmt not in _READERS:
        raise FormatError(path, f"unknown import format {fmt!r}")
    return [record["id"] for record in _READERS[fmt](Path(path), Path(images_dir) if images_dir
                                                      else None, dataset)]


def dataset_refusal(store, dataset: str | None) -> str | None:
    """Why `dataset` cannot be exported (no dataset of that name has items), None when it
    can or is None (all of them). The name given is not quoted back (a call can send any
    text where the page offers a list; an attacker's review)."""
    if dataset is None:
        return None
    sizes = store.dataset_sizes()
    if dataset in sizes:
        return None
    return f"no dataset of that name (the datasets: {', '.join(sizes) or 'none'})"


def export_path(store, fmt: str, out, dataset=None, images=None) -> dict:
    """Export the store (or one dataset) to `out`; returns counts and the paths written.
    `images` (formats/media_export.ImageSink): where the image files go instead of the
    folder beside `out` (a ZIP being written); `paths` names that folder all the same.
    A `dataset` that has no items is refused (FormatError), never read as all of them."""
    if fmt not in _WRITERS:
        raise FormatError(out, f"unknown export format {fmt!r}; "
                               f"expected one of {', '.join(EXPORT_FORMATS)}")
    out = Path(out)
    if out.is_dir():
        raise FormatError(out, "is a folder; give a file name to export to")
    refused = dataset_refusal(store, dataset)
    if refused:                        # never "all" for a name that is not a dataset
        raise FormatError(out, f"{refused}; nothing exported")
    try:
        summary = _WRITERS[fmt](store, out, dataset=dataset, images=images)
    except OSError as exc:
        raise FormatError(out, f"cannot write: {exc.strerror or exc}") from None
    summary.setdefault("dataset", dataset)
    return summary
