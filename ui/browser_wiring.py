"""The Annotate page's item list: its filters, search and pages, and the list following the
item the editor shows.

What the list shows is one State, `shown` (the filters it was drawn with and its page):
an event that opens an item turns the list to the page holding it (the list stayed on page
1 after Next onto the 101st item), a search box left unchanged applies nothing again, and
the filters are kept per browser across a reload (assets/list_filters.js). Handlers are in
ui/browser_handlers.py; annotate_wiring opens the items.
"""
from __future__ import annotations

import gradio as gr

from store.errors import TooLargeError
from ui.browser_handlers import BrowserHandlers, open_row, page_holding, refreshed_rows
from ui import editor_model as em
from ui import messages

# In the page, before an event that applies the filters: the browser keeps them
# (assets/list_filters.js); the values go on to the server unchanged.
KEEP_FILTERS = "(...v) => window.cluelabListFilters ? window.cluelabListFilters.keep(v) : v"
NO_FILTERS = [None, None, None, None, "all", ""]
CHOICE_KEYS = ("dataset", "domain", "subtask", "status")    # the first filters, in order


def open_id(work) -> str | None:
    return work["item"]["id"] if work else None


class ItemList:
    def __init__(self, store, browser, work):
        self.items = BrowserHandlers(store)
        self.browser = browser
        self.filters = [browser.dataset, browser.domain, browser.subtask, browser.status_filter,
                        browser.flagged, browser.search]
        self.outputs = [browser.items, browser.count, browser.nav_ids, browser.page,
                        browser.shown, browser.open_row]
        self.choice_filters = self.filters[:len(CHOICE_KEYS)]
        self.work = work

    def choices(self, criteria) -> list:
        """The filters' choice lists as the store is now, each keeping its value."""
        facets = self.items.facet_choices()
        return [gr.update(choices=facets[key] + ([value] if value and value not in facets[key]
                                                 else []))
                for key, value in zip(CHOICE_KEYS, criteria)]

    def one_choice(self, key):
        """A filter's choices filled again as it opens: a dataset another user imported
        since the page was drawn is there to pick."""
        def fill(value):
            return self.choices([value if k == key else None for k in CHOICE_KEYS])[
                CHOICE_KEYS.index(key)]
        return fill

    def listing(self, criteria, page=1, current=None, follow=False) -> list:
        """The list's outputs for the filters `criteria` at `page` (with `follow`, the page
        holding the item `current` if it matches), its open row marked."""
        try:
            rows, count, ids, page = self.items.search(*criteria, page,
                                                       current if follow else None)
        except TooLargeError as err:          # a search text past domain/limits.MAX_SEARCH
            raise messages.error(f"{err.reason}: the list is as it was.") from None
        return [rows, count, ids, page, {"filters": list(criteria), "page": page},
                open_row(ids, page, current)]

    def following(self, shown, work) -> list:
        """The list as it is filtered, at the page holding the open item: after a save, or
        an item created, duplicated or deleted."""
        criteria = shown["filters"] if shown else NO_FILTERS
        return self.listing(criteria, shown["page"] if shown else 1, open_id(work), True)

    def after_open(self, saved: dict, rows, ids, shown) -> list:
        """The list's outputs of an event that opened `saved` (the item as stored): the page
        holding it when the list shows another page; else its row as stored now (a
        colleague may have changed its status since the list was drawn; the list is not
        resent otherwise) and its place on the page."""
        item_id = saved["id"]
        page = page_holding(ids or [], item_id)
        if shown and page is not None and page != shown["page"]:
            return self.listing(shown["filters"], page, item_id, follow=True)
        table = em.plain_table(rows)
        fresh = refreshed_rows(table.get("data") if isinstance(table, dict) else table, saved)
        return [gr.skip() if fresh is None else fresh, gr.skip(), gr.skip(), gr.skip(),
                gr.skip(), open_row(ids or [], shown["page"] if shown else 1, item_id)]

    def refreshed(self, *values) -> list:
        """The list again as filtered, at its page, and the filters' choices: what others
        imported, saved or deleted since the list was drawn (only a reload showed it)."""
        *criteria, shown, work = values
        page = shown["page"] if shown else 1
        return [*self.listing(criteria, page, open_id(work)), *self.choices(criteria)]

    def wire(self) -> None:
        """The filters, the search box and the page controls."""
        browser, listing = self.browser, self.listing

        def filter_items(*values):
            *criteria, work = values
            return listing(criteria, 1, open_id(work), follow=True)

        def search_on_leave(*values):
            """Leaving the search box applies it, when it no longer says what the list
            shows (a box cleared and left kept its filter: the list said otherwise)."""
            *criteria, shown, work = values
            if self.items.same_filters(criteria, shown):
                return [gr.skip()] * len(self.outputs)
            return filter_items(*criteria, work)

        def search_items(*values):
            *criteria, page, work = values
            return listing(criteria, page, open_id(work))

        def turn_page(delta):
            def turn(*values):
                *criteria, page, work = values
                return listing(criteria, (page or 1) + delta, open_id(work))
            return turn

        browser.refresh.click(self.refreshed, [*self.filters, browser.shown, self.work],
                              [*self.outputs, *self.choice_filters], js=KEEP_FILTERS,
                              api_name="refresh_list", show_progress_on=browser.items)
        for field, key in zip(self.choice_filters, CHOICE_KEYS):
            field.focus(self.one_choice(key), field, field, api_name=f"{key}_filter_choices",
                        api_visibility="private", show_progress="hidden")

        gr.on([browser.search.submit, browser.dataset.input, browser.domain.input,
               browser.subtask.input, browser.status_filter.input, browser.flagged.input],
              filter_items, [*self.filters, self.work], self.outputs, js=KEEP_FILTERS,
              api_name="filter_items")
        browser.search.blur(search_on_leave, [*self.filters, browser.shown, self.work],
                            self.outputs, js=KEEP_FILTERS, api_name="search_on_leave",
                            api_visibility="private", show_progress="hidden")
        paged = [*self.filters, browser.page, self.work]
        browser.page.submit(search_items, paged, self.outputs, api_name="search_items")
        browser.page_prev.click(turn_page(-1), paged, self.outputs, api_name="list_prev_page")
        browser.page_next.click(turn_page(1), paged, self.outputs, api_name="list_next_page")
