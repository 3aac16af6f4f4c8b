"""Item browser: filters, the list of matching items, next and previous.

The list shows at most PAGE_ROWS rows (the count says how many match) so that a
2,700-item dataset stays quick to filter; next/previous walk the full filtered list.
"""
from __future__ import annotations

from ui.text import short

ALL = "(all)"
FLAGGED_CHOICES = ["all", "flagged", "not flagged"]
PAGE_ROWS = 500
LIST_HEADERS = ["id", "status", "question"]


class BrowserHandlers:
    def __init__(self, store):
        self.store = store

    def facet_choices(self) -> dict:
        facets = self.store.facets()
        return {key: [ALL] + [v for v in facets.get(key, []) if v] for key in
                ("dataset", "domain", "subtask", "status")}

    @staticmethod
    def filters(dataset, domain, subtask, status, flagged, text) -> dict:
        def pick(value):
            return None if value in (None, "", ALL) else value

        return {
            "dataset": pick(dataset), "domain": pick(domain), "subtask": pick(subtask),
            "status": pick(status),
            "flagged": {"flagged": True, "not flagged": False}.get(flagged),
            "text": (text or "").strip() or None,
        }

    def search(self, dataset, domain, subtask, status, flagged, text) -> tuple[list, str, list]:
        """(rows for the list, a count line, the ids for next/previous)."""
        filters = self.filters(dataset, domain, subtask, status, flagged, text)
        ids = self.store.item_ids(**filters)
        rows = [
            [("⚑ " if r["flagged"] else "") + r["id"], r["status"], short(r.get("question"), 80)]
            for r in self.store.list_items(**filters, limit=PAGE_ROWS)
        ]
        total = self.store.count_items()
        count = f"{len(ids)} of {total} items match"
        if len(ids) > PAGE_ROWS:
            count += f" (list shows the first {PAGE_ROWS}; next/previous walk all of them)"
        return rows, count, ids

    @staticmethod
    def neighbour(ids: list[str], current: str | None, step: int) -> str | None:
        """The id `step` places from `current` in the filtered list (clamped at the ends)."""
        if not ids:
            return None
        if current not in ids:
            return ids[0] if step > 0 else ids[-1]
        index = min(max(ids.index(current) + step, 0), len(ids) - 1)
        return ids[index]
