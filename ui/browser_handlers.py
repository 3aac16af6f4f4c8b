"""Item browser: filters, the list of matching items, next and previous.

The list shows one page of PAGE_ROWS rows (the count says how many match and which page
this is); next/previous walk the full filtered list. The page shown is the one holding the
item the editor shows (`current`), unless the user turns the pages: after Next onto the
101st item the list stayed on page 1, the open row nowhere to be seen. Pages are short on purpose: Gradio's
front end re-reads the value of every component that has shown a loading status after each
event, so a 500-row list made every Next in the editor pay for copying 500 rows ten times.
"""
from __future__ import annotations

import json

from domain.limits import MAX_SEARCH
from domain.vocabulary import counted
from ui.text import short

ALL = "(all)"
FLAGGED_CHOICES = ["all", "flagged", "not flagged"]
PAGE_ROWS = 100
LIST_HEADERS = ["id", "status", "question"]
FILTER_DEFAULTS = (ALL, ALL, ALL, ALL, "all", "")   # dataset, domain, subtask, status, ...
KEPT_CHARS = 4000          # a kept search is one line; nothing a page keeps is longer


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

    def search(self, dataset, domain, subtask, status, flagged, text, page=1, current=None
               ) -> tuple[list, str, list, int]:
        """(rows of the page, a count line, the ids for next/previous, the page shown): the
        page holding `current` when that item matches, else `page`."""
        filters = self.filters(dataset, domain, subtask, status, flagged, text)
        ids = self.store.item_ids(**filters)
        pages = max(1, -(-len(ids) // PAGE_ROWS))
        page = page_holding(ids, current) or min(max(_page_number(page), 1), pages)
        rows = [list_row(r) for r in self.store.list_items(**filters, limit=PAGE_ROWS,
                                                           offset=(page - 1) * PAGE_ROWS)]
        total = self.store.count_items()
        # "1 of 1 item matches", not "1 of 1 items match"
        count = f"{len(ids)} of {counted(total, 'item')} match{'es' * (len(ids) == 1)}"
        if pages > 1:
            first = (page - 1) * PAGE_ROWS + 1
            count += f" · rows {first}–{first + len(rows) - 1} (page {page} of {pages})"
        return rows, count, ids, page

    @staticmethod
    def neighbour(ids: list[str], current: str | None, step: int) -> str | None:
        """The id `step` places from `current` in the filtered list (clamped at the ends)."""
        if not ids:
            return None
        if current not in ids:
            return ids[0] if step > 0 else ids[-1]
        index = min(max(ids.index(current) + step, 0), len(ids) - 1)
        return ids[index]


    def parse_kept(self, kept) -> list:
        """The filters a browser kept (assets/list_filters.js sends them as a JSON list,
        in a hidden field: the filters' own dropdowns refused a kept choice before the list
        had offered it, and the page came up without its list and form), as far as they
        apply now (kept_filters); no filters for anything else."""
        try:
            values = json.loads(kept) if isinstance(kept, str) and len(kept) <= KEPT_CHARS \
                else None
        except ValueError:
            values = None
        if not (isinstance(values, list) and len(values) == len(FILTER_DEFAULTS)
                and all(v is None or isinstance(v, str) for v in values)):
            values = list(FILTER_DEFAULTS)
        return self.kept_filters(*values)

    def kept_filters(self, dataset, domain, subtask, status, flagged, text) -> list:
        """Filters kept by the browser (assets/list_filters.js) as they can be applied now:
        a value no longer offered (a dataset deleted since, a status renamed) is "(all)", a
        search the list refuses (past MAX_SEARCH) none."""
        offered = self.facet_choices()
        kept = [value if value in offered[key] else ALL for key, value in
                zip(("dataset", "domain", "subtask", "status"),
                    (dataset, domain, subtask, status))]
        return [*kept, flagged if flagged in FLAGGED_CHOICES else "all",
                text if isinstance(text, str) and len(text) <= MAX_SEARCH else ""]

    @classmethod
    def same_filters(cls, criteria, shown: dict | None) -> bool:
        """Do `criteria` (the filters' values) select what the list shows (`shown`, the
        filters it was drawn with)? A search box left as it was applies nothing again."""
        return shown is not None and \
            cls.filters(*criteria) == cls.filters(*shown["filters"])


def page_holding(ids: list[str], item_id: str | None) -> int | None:
    """The list's page (from 1) that holds `item_id`, or None when no row is that item."""
    if item_id is None or item_id not in ids:
        return None
    return ids.index(item_id) // PAGE_ROWS + 1


def open_row(ids: list[str], page: int, item_id: str | None) -> str:
    """The place of the open item's row on the page shown, for assets/list_current.js to
    scroll it into the list's view (of a hundred rows, the list shows about ten): empty when
    the page does not hold it."""
    if page_holding(ids, item_id) != page:
        return ""
    return f'<span data-row="{ids.index(item_id) - (page - 1) * PAGE_ROWS}"></span>'


def list_row(item: dict) -> list:
    """The item list's row of an item: id (⚑ when flagged), status, question."""
    return [("⚑ " if item.get("flagged") else "") + item["id"], item.get("status"),
            short(item.get("question"), 80)]


def refreshed_rows(rows, saved: dict) -> list | None:
    """The list's rows with the row of `saved` (the item just opened, as stored) as it is
    now, or None when the list shows it so already (or does not show it). Opening an item
    whose status a colleague changed left its row as it was."""
    rows = [list(r) for r in (rows or [])]
    fresh = list_row(saved)
    for index, row in enumerate(rows):
        if row and str(row[0]).removeprefix("⚑ ") == saved["id"]:
            if [str(v) if v is not None else None for v in row] == fresh:
                return None
            rows[index] = fresh
            return rows
    return None


def _page_number(page) -> int:
    try:
        return int(page or 1)
    except (TypeError, ValueError):
        return 1
