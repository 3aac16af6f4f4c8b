"""The failure browser: filter widgets -> a filter dict -> one page of responses, and the
next / previous response across page boundaries. Plain functions over the store.

The store finds the matching ids once per filter and sort (narrow indexed reads, sets
intersected; store/inspect_browse.py) and remembers them until the data change, so a page,
or next / previous across pages, reads only the 50 rows shown.
"""
from __future__ import annotations

from judges.gold_check import readable_gold
from runner.totals import LABELS
from scoring.no_boxes import NA_CELL, NA_WHY, NA_WHY_CLUES, list_cell, rigorous_cell
from scoring.compared import labels
from scoring.results import run_judges
from store import ValidationError
from store.inspect_browse import PROTOCOLS, SORTS, STATUSES, TAGGED, UNTAGGED, VERDICT_VALUES

from ui.flip_pairs import no_flip_why
from ui.inspect_na import unscored_by_judge, without_no_cot
from ui.run_choices import run_choices as all_run_choices
from ui.run_choices import cached_state, run_names, runs_with_responses
from ui.text import draw_cell, short

ALL = "(all)"
ANY = "(any)"
PAGE_SIZE = 50
HEADERS = ["response", "run", "item", "draw", "status", "answer", "gold", "general",
           "rigorous", "grounded", "tags"]
WIDTHS = ["8%", "14%", "13%", "5%", "8%", "9%", "9%", "8%", "8%", "8%", "10%"]
STATUS_CHOICES = [ALL, "not ok (unparsed, error, refused, truncated)",
                  *(LABELS.get(s, s) for s in STATUSES)]
"""The response statuses as every counter names them: an error row never asked is "no
source clue" (`runner.totals.counter`), apart from "error"."""
_STATUS_KEYS = {LABELS.get(s, s): s for s in STATUSES}
VERDICT_CHOICES = [ANY, "not correct", *VERDICT_VALUES]
FLIP_CHOICES = ["(no flip filter)", "fixed (wrong there, correct here)",
                "broken (correct there, wrong here)", "any flip"]
DISAGREE_CHOICES = ["(off)", *PROTOCOLS]
SORT_CHOICES = list(SORTS)
NO_RUN = "(none)"


class BrowseError(ValueError):
    """Shown to the user as a message."""


def _pick(value, empty=(None, "", ALL, ANY, NO_RUN, "(off)")):
    return None if value in empty else value


def run_choices(store) -> list[tuple[str, str]]:
    return [("(all runs)", ALL)] + all_run_choices(store)


def opening_run(store, current: str | None, first: bool) -> str:
    """The run the page lists when it opens: on the first opening (or when `current` is no
    longer a run) the newest run that has responses, never an empty failed one; (all runs)
    when no run has any."""
    if not first and current in [v for _, v in run_choices(store)]:
        return current
    return next(iter(runs_with_responses(store)), ALL)


def flip_run_choices(store, run=None) -> list[tuple[str, str]]:
    """The runs a flip compares `run` against: every run but `run` itself (it was offered,
    and choosing it could only be refused)."""
    return [(NO_RUN, NO_RUN)] + [(label, rid) for label, rid in run_choices(store)[1:]
                                 if rid != _pick(run)]


def judge_choices(store, run_id=None) -> list[str]:
    return store.scoring_judges(_pick(run_id)) or ["offline"]


def default_judge(store, run_id, judges: list[str]) -> str:
    """The judge the list reads first: the one Results, `report` and the tables read the run
    with (`scoring.results.common_judge`: the judge that scored the most of its responses,
    the order of preference among equals; all runs: the one they share), under the general
    protocol, else the first protocol the runs were scored under (a run scored rigorous
    only opened with an LLM judge whose every reply was unreadable, picked by name), so the
    pages show one verdict for a response. Offline, else the first, when it has none the
    list offers."""
    from scoring.results import common_judge
    run_id = _pick(run_id)
    runs = [run_id] if run_id else runs_with_responses(store)
    chosen = next((judge for judge in (common_judge(store, runs, p) for p in PROTOCOLS)
                   if judge in judges), None)
    if chosen:
        return chosen
    return "offline" if "offline" in judges else judges[0]


def run_chosen(store, sort: str, values: list) -> tuple[list[str], str, dict]:
    """A run chosen in the list's Run box: (its judges, the judge chosen: `default_judge`,
    the browse result of the filters with that run and judge). The list
    follows at once; it waited for Filter, and a researcher read the old run's responses as
    the new one's. `values`: the filter widgets' values, in `filters_from`'s order."""
    values = list(values)
    judges = judge_choices(store, values[0])
    judge = default_judge(store, values[0], judges)
    values[6] = judge
    if _pick(values[12]) and values[12] == values[0]:    # the flip run is now this run
        values[12], values[13] = NO_RUN, FLIP_CHOICES[0]
    return judges, judge, browse(store, filters_from(*values), sort, 1)


def relisted(store, nav: dict | None) -> dict | None:
    """The page of the list on screen read again (after a tag was saved or taken off, its
    tags column), or None when no list was shown."""
    if not nav or "filters" not in nav:
        return None
    return browse(store, nav["filters"], nav["sort"], nav["page"], nav.get("size", PAGE_SIZE))


def tag_filter_choices(store) -> list[str]:
    return [ANY, TAGGED, UNTAGGED] + [t["name"] for t in store.list_failure_tags()]


def filters_from(run, dataset, domain, subtask, item, status, judge, general, rigorous,
                 grounded, verbench, wrong_reason, flip_run, flip, flip_protocol, disagree,
                 tag) -> dict:
    """The widgets' values as the store's filter dict (a flip compares the verdicts of
    `flip_protocol`, general when none is chosen)."""
    verdicts = {}
    for protocol, value in zip(PROTOCOLS, (general, rigorous, grounded, verbench)):
        value = _pick(value)
        if value:
            verdicts[protocol] = "not_correct" if value == "not correct" else value
    status = _pick(status)
    status = "not_ok" if status and status.startswith("not ok") else \
        _STATUS_KEYS.get(status, status)
    flip = {FLIP_CHOICES[1]: "fixed", FLIP_CHOICES[2]: "broken",
            FLIP_CHOICES[3]: "any"}.get(flip)
    filters = {"run_id": _pick(run), "dataset": _pick(dataset), "domain": _pick(domain),
               "subtask": _pick(subtask), "item": (item or "").strip() or None,
               "status": status, "judge": _pick(judge) or "offline", "verdicts": verdicts,
               "right_wrong_reason": bool(wrong_reason), "disagree": _pick(disagree),
               "tag": _pick(tag)}
    if flip:
        if not filters["run_id"] or not _pick(flip_run):
            raise BrowseError("a flip filter needs a run above and a run to compare it with")
        if _pick(flip_run) == filters["run_id"]:
            raise BrowseError("choose a different run to compare with")
        protocol = _pick(flip_protocol) or "general"
        if protocol not in PROTOCOLS:
            raise BrowseError(f"a flip is of one of the protocols {', '.join(PROTOCOLS)}")
        filters.update(flip=flip, flip_run=_pick(flip_run), flip_protocol=protocol)
    elif _pick(flip_run):       # a run to compare with, no kind of flip: said, not silent
        filters["flip_unchosen"] = True
    return filters


def run_filters(run, judge) -> dict:
    """The filter dict listing every response of `run` (ALL: of every run)."""
    return filters_from(run, *[None] * 5, judge, *[None] * 10)


def page_of(store, filters: dict, sort: str, work_id: int, size: int = PAGE_SIZE) -> int:
    """The page of the filtered list that holds `work_id` (1 when it is not in it)."""
    try:
        found = store.matching_responses(filters, sort)
    except ValidationError as error:
        raise BrowseError(str(error)) from None
    return found.index(work_id) // size + 1 if work_id in found else 1


GOLD_CHANGED = "gold changed since this run"


def gold_cell(gold, run_gold) -> str:
    """The gold the response was asked against: the item version the run used (the current
    gold when that revision is not kept); when it was changed since, the cell says so and
    gives the gold now, so that a verdict is never read against an answer it was not asked
    for. (Scores are computed against the gold at scoring time: a run scored after the
    change is judged against the gold now, which the cell shows too.) A location reads as
    people read it (`readable_gold`)."""
    asked = run_gold if run_gold is not None else gold
    shown = short(readable_gold(asked), 30) if asked is not None else ""
    if run_gold is not None and gold is not None and str(run_gold) != str(gold):
        return f"{shown} · {GOLD_CHANGED} (now {short(readable_gold(gold), 20)})"
    return shown


def _row(store, r: dict, names: dict[str, str], configs: dict[str, dict],
         sources: dict) -> list:
    """A list row; grounded reads "–" for a run that asked for no boxes, rigorous for a
    No-CoT run, as the tables do (`scoring.no_boxes`; the count line says why, once); a location answer in
    words, as its gold cell; a cached reply's status as Experiments' list says it ('ok,
    cached · from the cache, made by <its run's label>', `ui.run_choices.cached_state`)."""
    status = LABELS.get(r["status"], r["status"])
    if r.get("cached"):
        status = " · ".join(cached_state(store, status, "", r.get("cached_from"), sources))
    return [r["work_id"], names.get(r["run_id"], r["run_id"]), r["item_id"],
            draw_cell(r["repeat"], r["sample"]), status,
            short(readable_gold(r["answer"]), 40) if r["answer"] is not None else "",
            gold_cell(r["gold"], r.get("run_gold")), r["general"] or "",
            rigorous_cell(r["rigorous"], configs[r["run_id"]]),
            list_cell(r["grounded"], configs[r["run_id"]]), r["tags"] or ""]


def check_flip_judge(store, filters: dict) -> None:
    """A flip filter against a run the chosen judge did not score under the flip's protocol
    finds nothing whatever the verdicts: BrowseError naming the judges that run has (it said
    "No response matches these filters", as if the runs agreed everywhere)."""
    if not filters.get("flip"):
        return
    protocol, judge = filters["flip_protocol"], filters["judge"]
    for run_id in (filters["run_id"], filters["flip_run"]):
        judges = run_judges(store, run_id, protocol)
        if judge not in judges:
            has = ", ".join(judges) if judges else "none"
            raise BrowseError(f"run {run_names(store, {run_id}).get(run_id, run_id)} has no "
                              f"{protocol} verdicts by {judge} (its judges: {has}): no flip can "
                              f"be found; choose a judge both runs have")


NO_RUNS = ("**No run yet**: the responses of model runs are inspected here. Start one on "
           "Experiments (or with `python app.py run`), then come back.")
"""With no run at all, "No response matches these filters" sent people to the filters."""


def browse(store, filters: dict, sort: str, page: int = 1, size: int = PAGE_SIZE) -> dict:
    """{"rows", "count", "ids", "page", "pages", "total", "filters", "sort", "size"}."""
    if sort not in SORTS:
        sort = "run order"
    page = max(1, int(page or 1))
    check_flip_judge(store, filters)
    filters, skipped = without_no_cot(store, filters)
    try:
        found = store.browse_responses(filters, sort, size, (page - 1) * size)
    except ValidationError as error:
        raise BrowseError(str(error)) from None
    total = found["total"]
    pages = max(1, -(-total // size))
    if page > pages and total:
        return browse(store, filters, sort, pages, size)
    rows = found["rows"]
    first = (page - 1) * size + 1 if rows else 0
    noun = "response matches" if total == 1 else "responses match"
    count = (f"**{total:,}** {noun} · showing {first:,}–{first + len(rows) - 1:,} · "
             f"page {page} of {pages}" if total else NO_RUNS if not store.list_runs(limit=1)
             else "**No response matches** these filters.")
    names = labels(store, sorted({r["run_id"] for r in rows}))   # as the tables name them
    configs = {rid: store.get_run(rid)["config"] for rid in {r["run_id"] for r in rows}}
    sources: dict[str, str] = {}
    listed = [_row(store, r, names, configs, sources) for r in rows]
    for column, why in (("rigorous", NA_WHY_CLUES), ("grounded", NA_WHY)):
        if any(row[HEADERS.index(column)] == NA_CELL for row in listed):
            count += f" · {column} {NA_CELL}: {why}"
    count += skipped
    if filters.get("flip_unchosen"):
        count += (" · *Flips against run* lists nothing by itself: choose which flips "
                  "(Flip: fixed, broken or any) to list those")
    if not total and filters.get("flip"):       # why the pairing finds nothing
        count += no_flip_why(store, filters["run_id"], filters["flip_run"])
    if total and filters.get("run_id"):
        count += unscored_by_judge(store, filters["run_id"], filters.get("judge") or "offline")
    return {"rows": listed, "count": count,
            "ids": [r["work_id"] for r in rows], "page": page, "pages": pages,
            "total": total, "filters": filters, "sort": sort, "size": size}


def nav_state(result: dict) -> dict:
    """What next / previous need to remember about the list on screen."""
    return {k: result[k] for k in ("filters", "sort", "page", "pages", "ids", "total", "size")}


def step(store, nav: dict | None, current, delta: int) -> tuple[int, dict | None]:
    """(work id `delta` places from `current` in the filtered list, the browse result when
    the page changed, else None). Crosses page boundaries; stops at the ends."""
    if not nav or not nav.get("ids"):
        raise BrowseError("filter the responses first (the list is empty)")
    ids = nav["ids"]
    try:
        position = ids.index(int(current))
    except (TypeError, ValueError):
        return (ids[0] if delta > 0 else ids[-1]), None
    target = position + delta
    if 0 <= target < len(ids):
        return ids[target], None
    page = nav["page"] + (1 if target >= len(ids) else -1)
    if page < 1 or page > nav["pages"]:
        raise BrowseError("this is the " + ("last" if delta > 0 else "first")
                          + " response of the list")
    result = browse(store, nav["filters"], nav["sort"], page, nav.get("size", PAGE_SIZE))
    if not result["ids"]:
        raise BrowseError("the list changed; filter again")
    return (result["ids"][0] if delta > 0 else result["ids"][-1]), result
