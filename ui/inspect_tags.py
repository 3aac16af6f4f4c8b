"""Failure tags and notes on a response, the tag vocabulary (add, rename, delete), tag counts
per run, and the tagged cases as a file.

Plain functions over the store. The Results tab can show tag counts with one line:
`tag_counts_markdown(store, run_ids)` (escaped Markdown), or `tag_counts_frame(store,
run_ids)` as a table.
"""
from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import pandas as pd

from judges.tables import spreadsheet_cell
from store import StoreError
from ui.downloads import DownloadRefused, downloads_for
from ui.run_choices import run_names
from ui.session import LOCAL_USER
from ui import times
from ui.text import escape_md

TAG_LOG_HEADERS = ["tag", "change", "by", "at"]
CHANGES = {"tag": "added", "untag": "removed"}
VOCABULARY_HEADERS = ["tag", "responses", "added by", "at", "last renamed"]
NOTE_HEADERS = ["at", "author", "note"]
COUNT_HEADERS = ["run", "tag", "responses"]
EXPORT_FORMATS = ("csv", "json")


class TagError(ValueError):
    """Shown to the user as a message."""


def vocabulary(store) -> list[str]:
    return [t["name"] for t in store.list_failure_tags()]


def vocabulary_rows(store) -> list[list]:
    """The vocabulary as table rows: name, uses, who added it and when, its last rename."""
    out = []
    for t in store.list_failure_tags():
        renamed = t["renamed"]
        out.append([t["name"], t["uses"], "(seed)" if t["seeded"] else t["created_by"] or "",
                    times.shown(t["created_at"]),
                    f"from '{renamed['old_name']}' by {renamed['author'] or ''}"
                    f" at {times.shown(renamed['created_at'])}" if renamed else ""])
    return out


def tag_state(store, work_id: int) -> dict:
    """{"choices", "value", "log", "notes"} for one response; the log has every tag put on
    it and taken off it (by whom, when), oldest first: a removal never hides the addition."""
    tags = store.response_tags(work_id)
    log = [[t["tag"], CHANGES[t["action"]], t["author"] or "", times.shown(t["created_at"])]
           for t in store.response_tag_history(work_id)]
    return {"choices": vocabulary(store), "value": [t["tag"] for t in tags], "log": log,
            "notes": [[times.shown(n["created_at"]), n["author"] or "", n["note"]]
                      for n in store.response_notes(work_id)]}


def _store_call(call, *args):
    try:
        return call(*args)
    except StoreError as error:
        raise TagError(str(error)) from None


def save_tags(store, work_id: int, tags, user: str) -> tuple[str, dict]:
    result = _store_call(store.set_response_tags, work_id, list(tags or []), user)
    said = []
    if result["added"]:
        said.append("added " + ", ".join(result["added"]))
    if result["removed"]:
        said.append("removed " + ", ".join(result["removed"]))
    message = (f"Response {work_id}: " + "; ".join(said)) if said else \
        f"Response {work_id}: tags unchanged"
    return escape_md(message), tag_state(store, work_id)


def remove_tag(store, work_id: int, tag, user: str) -> tuple[str, dict]:
    """Take one tag off the response (logged with `user` and the time)."""
    if not tag:
        raise TagError("choose a tag of this response to remove")
    result = _store_call(store.remove_response_tag, work_id, tag, user)
    return (escape_md(f"Response {work_id}: removed {result['removed']}"),
            tag_state(store, work_id))


def add_vocabulary_tag(store, name: str, user: str) -> tuple[str, list[str]]:
    tag = _store_call(store.add_failure_tag, name, user)
    return escape_md(f"Tag '{tag['name']}' is in the vocabulary"), vocabulary(store)


def rename_vocabulary_tag(store, name, new_name, user: str) -> tuple[str, tuple[str, str]]:
    """Rename a tag of the vocabulary; the responses carrying it carry the new name.
    Returns (message, (old name, new name) as stored)."""
    if not name:
        raise TagError("choose the tag to rename")
    result = _store_call(store.rename_failure_tag, name, new_name, user)
    uses = f"{result['uses']} response" + ("" if result["uses"] == 1 else "s")
    return (escape_md(f"Renamed '{result['old_name']}' to '{result['name']}' ({uses})"),
            (result["old_name"], result["name"]))


def delete_vocabulary_tag(store, name, user: str) -> tuple[str, list[str]]:
    """Delete an unused tag from the vocabulary."""
    if not name:
        raise TagError("choose the tag to delete")
    _store_call(store.delete_failure_tag, name, user)
    return escape_md(f"Deleted tag '{name}' from the vocabulary"), vocabulary(store)


def add_note(store, work_id: int, note: str, user: str) -> tuple[str, dict]:
    _store_call(store.add_response_note, work_id, note, user)
    return f"Note added to response {work_id}", tag_state(store, work_id)


def tag_counts_frame(store, run_ids) -> pd.DataFrame:
    """Failure tag counts per run, each run named as the Inspect list names it."""
    names = run_names(store, run_ids or [])
    rows = [[names.get(run_id, run_id), tag, n] for run_id in run_ids or []
            for tag, n in store.tag_counts(run_id).items()]
    return pd.DataFrame(rows, columns=COUNT_HEADERS)


def tag_counts_markdown(store, run_ids) -> str:
    """Failure tag counts per run as Markdown (empty when nothing is tagged), each run named
    as the Inspect list names it."""
    lines, names = [], run_names(store, run_ids or [])
    for run_id in run_ids or []:
        counts = store.tag_counts(run_id)
        if counts:
            lines.append(f"- {escape_md(names.get(run_id, run_id))}: " + ", ".join(
                f"{escape_md(tag)} {n}" for tag, n in counts.items()))
    return ("\n\n**Failure tags** (Inspect tab)\n" + "\n".join(lines)) if lines else ""


def export_rows(store, run_id: str | None = None, tag: str | None = None) -> list[dict]:
    return store.tagged_responses(run_id or None, tag or None)


def export_scope(run_id: str | None, tag: str | None, count: int,
                 run_name: str | None = None) -> tuple[str, str]:
    """(file name stem, the line shown with the download) of an export of `count` tagged
    cases of `run_id` (None: all runs) with `tag` (None: every tag, noted cases too):
    ('cluelab-tagged-all-runs-format-error', "2 tagged cases, tag 'format error', all
    runs"). The file is named by what it covers, so two exports never share a name; the line
    names the run as the lists do (`run_name`: its name, else its id)."""
    stem = "cluelab-tagged-" + _slug(run_id or "all-runs") + (f"-{_slug(tag)}" if tag else "")
    cases = "tagged case" if tag else "tagged or noted case"
    line = (f"{count} {cases}{'' if count == 1 else 's'}, "
            + (f"tag '{tag}'" if tag else "every tag") + ", "
            + (f"run {run_name or run_id}" if run_id else "all runs"))
    return stem, line


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9._]+", "-", text.lower()).strip("-.") or "x"


def export_tagged(store, run_id: str | None, fmt: str, tag: str | None = None,
                  account: str = LOCAL_USER) -> tuple[str, str]:
    """Write the tagged (or noted) responses of a run (None: all runs) carrying `tag` (None:
    any) to a CSV or JSON file named by what it covers, a download of `account`
    (ui/downloads.py), each row with its run's table label (`run_label`) beside its id; returns (its path, the line that says what it covers:
    `export_scope`)."""
    if fmt not in EXPORT_FORMATS:
        raise TagError(f"format must be one of {', '.join(EXPORT_FORMATS)}")
    found = _store_call(export_rows, store, run_id, tag)
    name = run_names(store, [run_id]).get(run_id) if run_id else None
    stem, line = export_scope(run_id, tag, len(found), name)
    if not found:
        raise TagError(f"nothing to export: 0 {line.split(' ', 1)[1]}")
    labels = run_names(store, {r["run_id"] for r in found})   # the file named runs by id only
    found = [{**r, "run_label": labels.get(r["run_id"], r["run_id"])} for r in found]
    try:
        path = downloads_for(store).make(account, "inspect_export", f"{stem}.{fmt}",
                                         lambda path: write_tagged(found, fmt, path))
    except DownloadRefused as err:
        raise TagError(f"not exported: {err}") from None
    return path, f"{line} ({fmt.upper()})"


def write_tagged(found: list[dict], fmt: str, path: Path) -> None:
    if fmt == "json":
        path.write_text(json.dumps(found, ensure_ascii=False, indent=1), encoding="utf-8")
        return
    columns = ["work_id", "run_id", "run_label", "item_id", "repeat", "sample", "item_version", "status",
               "answer", "gold", "dataset", "domain", "subtask"]
    # a BOM, as the Results CSVs have: spreadsheets read a note's "é" or "·" right with it
    with open(path, "w", newline="", encoding="utf-8-sig") as f:
        writer = csv.writer(f)
        writer.writerow(columns + ["tags", "tagged_by", "notes"])
        for r in found:
            writer.writerow([spreadsheet_cell(r[c]) for c in columns] + [spreadsheet_cell(v) for v in (
                "; ".join(t["tag"] for t in r["tags"]),
                "; ".join(f"{t['tag']}: {t['author'] or ''} {t['created_at']}"
                          for t in r["tags"]),
                " | ".join(f"{n['author'] or ''} {n['created_at']}: {n['note']}"
                           for n in r["notes"]))])
