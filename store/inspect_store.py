"""The Store's methods for the Inspect tab (issue 5), kept out of core.py to keep it small.

`Store` inherits them; the SQL is in inspect_queries (one response, its verdicts, the
responses to an item), inspect_browse (the failure browser) and inspect_tags (failure tags
and notes).
"""
from __future__ import annotations

from . import inspect_browse, inspect_queries, inspect_tags


class InspectMixin:
    """Mixed into `Store`; `self.db` is the thread's connection."""

    # One response, its verdicts, and the responses to the same item
    def response_detail(self, work_id: int) -> dict:
        return inspect_queries.response_detail(self.db, work_id)

    def response_verdicts(self, run_id: str, work_id: int) -> list[dict]:
        return inspect_queries.response_verdicts(self.db, run_id, work_id)

    def item_responses(self, item_id: str, limit: int = 500) -> list[dict]:
        return inspect_queries.item_responses(self.db, item_id, limit)

    def scoring_judges(self, run_id: str | None = None) -> list[str]:
        return inspect_queries.judges(self.db, run_id)

    # The failure browser
    def count_responses(self, filters: dict) -> int:
        return len(inspect_browse.matching(self.db, filters))

    def list_responses(self, filters: dict, sort: str = "run order", limit: int = 50,
                       offset: int = 0) -> list[dict]:
        return inspect_browse.browse(self.db, filters, sort, limit, offset)["rows"]

    def browse_responses(self, filters: dict, sort: str = "run order", limit: int = 50,
                         offset: int = 0) -> dict:
        """{"total", "rows", "ids"}: the failure browser's page (see store/inspect_browse)."""
        return inspect_browse.browse(self.db, filters, sort, limit, offset)

    def matching_responses(self, filters: dict, sort: str = "run order") -> list[int]:
        """Every matching work id, in order (remembered until the data change)."""
        return inspect_browse.matching(self.db, filters, sort)

    # Failure tags and notes
    def list_failure_tags(self) -> list[dict]:
        return inspect_tags.list_tags(self.db)

    def add_failure_tag(self, name: str, author: str | None, description: str = "") -> dict:
        return inspect_tags.add_tag(self.db, name, author, description)

    def delete_failure_tag(self, name: str, author: str | None = None) -> None:
        inspect_tags.delete_tag(self.db, name, author)

    def rename_failure_tag(self, name: str, new_name: str, author: str | None) -> dict:
        return inspect_tags.rename_tag(self.db, name, new_name, author)

    def response_tags(self, work_id: int) -> list[dict]:
        return inspect_tags.response_tags(self.db, work_id)

    def set_response_tags(self, work_id: int, tags, author: str | None) -> dict:
        return inspect_tags.set_response_tags(self.db, work_id, tags, author)

    def remove_response_tag(self, work_id: int, tag: str, author: str | None) -> dict:
        return inspect_tags.remove_response_tag(self.db, work_id, tag, author)

    def response_tag_history(self, work_id: int) -> list[dict]:
        return inspect_tags.tag_history(self.db, work_id)

    def removed_response_tags(self, work_id: int) -> list[dict]:
        return inspect_tags.removed_tags(self.db, work_id)

    def add_response_note(self, work_id: int, note: str, author: str | None) -> int:
        return inspect_tags.add_note(self.db, work_id, note, author)

    def response_notes(self, work_id: int) -> list[dict]:
        return inspect_tags.response_notes(self.db, work_id)

    def tag_counts(self, run_id: str) -> dict[str, int]:
        return inspect_tags.tag_counts(self.db, run_id)

    def tagged_responses(self, run_id: str | None = None, tag: str | None = None
                         ) -> list[dict]:
        return inspect_tags.tagged_responses(self.db, run_id, tag)
