"""Import and export from the browser: the same formats and code paths as the CLI.

An upload may be a single file (JSON, JSONL, TSV) or a ZIP holding the file(s) and the
image tree (ui/import_sources.py unpacks it). "Replace items already in the store" is the
CLI's `import --replace`, asked first with the counts of what it would replace.
"""
from __future__ import annotations

import tempfile
import re
import zipfile
from pathlib import Path

from formats import FormatError, export_path, import_paths, record_ids
from domain.item_ids import visible, without_direction_marks
from store import StoreError
from ui.downloads import DownloadRefused, downloads_for
from ui.import_roots import ImportRootError, ImportRoots
from ui.import_sources import IoError, shown_path, upload_targets
from ui.session import LOCAL_USER

def import_summary(result: dict) -> tuple[bool, str]:
    """(is a warning, the toast's text) of an import report: never a plain success when an
    item was flagged or skipped."""
    imported, flagged, skipped = result["imported"], result["flagged"], result["skipped"]
    if not (imported or result.get("replaced") or result.get("unchanged")):
        return True, (f"nothing imported: {skipped} of {result.get('items_read', skipped)} "
                      "items skipped; see the report")
    text = f"imported {imported} item{'s' * (imported != 1)}"
    if result.get("datasets"):      # which datasets, as the report's "datasets:" line
        text += " into " + ", ".join(f"{visible(name)} ({n})"
                                     for name, n in result["datasets"].items())
    if result.get("replaced") or result.get("unchanged"):      # --replace / Replace
        text += f", replaced {result.get('replaced', 0)}, {result.get('unchanged', 0)} unchanged"
        if result.get("back_to_review"):        # an import never verifies a changed item
            text += f" ({result['back_to_review']} verified, changed: back in review)"
    if not (flagged or skipped or result["problems"]):
        return False, text
    parts = [f"{flagged} flagged with problems"] if flagged else []
    if skipped:
        parts.append(f"{skipped} not imported")
    return True, f"{text}: {', '.join(parts) or 'with problems'}; see the report"


def combined(reports: list[dict]) -> dict:
    """One report of the import of several files: the counts summed, the problems and the
    per-file reports kept (`files`). The report of one file is that report."""
    if len(reports) == 1:
        return reports[0]
    total = {key: sum(r[key] for r in reports) for key, value in reports[0].items()
             if isinstance(value, (int, float)) and not isinstance(value, bool)}
    datasets: dict[str, int] = {}
    for report in reports:
        for name, n in report.get("datasets", {}).items():
            datasets[name] = datasets.get(name, 0) + n
    return {**total, "format": reports[0]["format"], "files": reports, "datasets": datasets,
            "new_datasets": list(dict.fromkeys(d for r in reports
                                               for d in r.get("new_datasets", []))),
            "path": ", ".join(r["path"] for r in reports),
            "problems": [p for r in reports for p in r["problems"]],
            "text": "\n\n".join(r["text"] for r in reports)}


def server_paths_hint(roots: ImportRoots) -> str:
    """The line under the server-path box: where paths may lie (or that none may)."""
    if not roots.roots:
        return ("This server reads no paths from its disk: its operator names the folders it "
                "may read when starting it (`--import-root DIR`). Upload a file or a ZIP.")
    return f"Only inside: {roots.describe()}"


class IoHandlers:
    """Import and export for the page. A server path (and an image folder) is read only
    inside `import_roots` (ui/import_roots.py); an upload is unpacked into a private folder
    and then imported exactly as the CLI imports a file or folder: `import_path` with the
    format's own default image folder, so both give the same database (the files of a ZIP
    together: `import_paths`, one transaction)."""

    def __init__(self, store, import_roots: ImportRoots | None = None):
        self.store = store
        self.roots = import_roots or ImportRoots()

    def run_import(self, fmt: str, upload: str | None, server_path: str, images_dir: str,
                   dataset: str, progress=None, replace: bool = False,
                   confirmed: str | None = None, *, author: str,
                   may_release: bool = False) -> dict:
        """Import and return the report dict (one report per file of a ZIP, summed);
        raises IoError with a readable message. `author`: the user the revisions are
        recorded for (the session's, ui/session.user_of); `may_release`: may they bring
        items in as `released` (else such an item is not imported, the report says why).

        With `replace` the import first returns {"confirm": question}, the question naming
        how many items it would replace, and imports only when called again with that same
        question as `confirmed` (counts that changed meanwhile are asked again)."""
        if not fmt:
            raise IoError("choose a format")
        if not upload and not (server_path or "").strip():
            raise IoError("upload a file or give a path on the server")
        dataset = (dataset or "").strip() or None
        reports: list[dict] = []
        try:
            images = self.roots.check(images_dir, "image folder") \
                if (images_dir or "").strip() else None
            with tempfile.TemporaryDirectory(prefix="cluelab-import-") as workdir:
                if upload:
                    targets = upload_targets(Path(upload), Path(workdir), fmt, images, dataset)
                    local = Path(workdir)
                    prefix = without_direction_marks(Path(upload).name) \
                        if Path(upload).suffix.lower() == ".zip" else ""
                else:
                    path = local = self.roots.check(server_path, "path")
                    targets = [(path, server_path.strip())]
                    prefix = server_path.strip()
                try:
                    if replace:
                        question = self.replace_question(fmt, targets, images, dataset)
                        if confirmed != question:
                            return {"confirm": question}
                    # the files of a ZIP are one import: one failing imports none of them
                    reports = [report.to_dict() | {"text": report.render_text()}
                               for report in import_paths(
                                   self.store, fmt, targets, images_dir=images,
                                   dataset=dataset, author=author, progress=progress,
                                   replace=replace, may_release=may_release)]
                except FormatError as err:
                    raise IoError(f"{shown_path(err.path, local, prefix)}: {err.reason} "
                                  "— nothing was imported") from None
        except ImportRootError as err:
            raise IoError(f"{err} — nothing was imported") from None
        except zipfile.BadZipFile:
            raise IoError("the upload is not a readable ZIP — nothing was imported") from None
        except OSError as err:        # its text would name the server's temporary folder
            raise IoError(f"cannot read the file: {err.strerror or type(err).__name__} "
                          f"— nothing was imported") from None
        except StoreError as err:
            raise IoError(f"{err} — nothing was imported") from None
        return combined(reports)

    def replace_question(self, fmt: str, targets, images, dataset) -> str:
        """What an import with replace would do, in counts, as the question to confirm."""
        ids = [i for path, _ in targets for i in record_ids(fmt, path, images, dataset)]
        stored = sum(1 for i in ids if self.store.item_exists(i))
        names = ", ".join(without_direction_marks(shown) for _, shown in targets)
        return (f"Import {len(ids)} item{'s' * (len(ids) != 1)} from {names} with replace: "
                f"{stored} {'is' if stored == 1 else 'are'} already in the store and each "
                f"that differs will be replaced (a new revision; history kept), "
                f"{len(ids) - stored} new. Replace them?")

    def run_export(self, fmt: str, dataset: str | None,
                   account: str = LOCAL_USER) -> tuple[str, dict]:
        """Export as a download of `account` (ui/downloads.py); returns (file to download,
        summary). A format that writes image files gets a ZIP of the data file and the
        images, written straight from the media folder into the ZIP (no copy of the dataset
        on the way); one without is its data file. The summary names the download and the
        files in it, never a server path (download_summary)."""
        if not fmt:
            raise IoError("choose a format")
        stem = export_stem(dataset)
        suffix = {"vlmevalkit": ".tsv", "jsonl": ".jsonl"}.get(fmt, ".json")
        try:
            with downloads_for(self.store).preparing(account, "export_file") as place:
                data = place / f"{stem}-{fmt}{suffix}"
                archive = place / f"{stem}-{fmt}.zip"
                with zipfile.ZipFile(archive, "w") as bundle:   # images: stored as they are
                    summary = export_path(self.store, fmt, str(data), dataset=dataset or None,
                                          images=lambda name, source: bundle.write(source, name))
                    zipped = bool(bundle.namelist())
                    if zipped:
                        bundle.write(data, data.name, zipfile.ZIP_DEFLATED)
                (data if zipped else archive).unlink()
                download = archive if zipped else data
        except FormatError as err:     # its path is the server's download folder
            raise IoError(f"not exported: {err.reason}") from None
        except StoreError as err:
            raise IoError(f"not exported: {err}") from None
        except OSError as err:
            raise IoError(f"not exported: {err.strerror or type(err).__name__}") from None
        except DownloadRefused as err:
            raise IoError(f"not exported: {err}") from None
        return str(download), download_summary(summary, download, place)


def download_summary(summary: dict, download: Path, outdir: Path) -> dict:
    """An export's summary as the page shows it: `download` (the file's name) and `files`
    (the names written, as inside the ZIP) instead of the writer's `paths`, which are in the
    server's temporary folder and would tell every user where it is."""
    shown = {key: value for key, value in summary.items() if key != "paths"}
    shown["download"] = download.name
    shown["files"] = [shown_path(p, outdir, "") for p in summary.get("paths", [])]
    return shown


def export_stem(dataset: str | None) -> str:
    """The download's file name stem for `dataset`: a file name whatever the dataset's name
    (one made before names had rules could be ".." or hold a slash)."""
    return re.sub(r"[^\w.-]+", "_", dataset or "cluelab").lstrip(".") or "dataset"
