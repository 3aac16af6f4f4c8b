"""The Results tab's figures: their data as long-form DataFrames, drawn as grouped bar charts
(`scoring.bar_chart`, SVG) and heatmaps (`scoring.heatmaps`, small HTML tables; imported
here); neither matplotlib nor Plotly is a dependency.

- grouped bars: accuracy per domain, subtask or reasoning type, one bar per run;
- rigorous drop: general, rigorous and grounded-rigorous accuracy per run (DailyClue Fig. 7);
- accuracy per output-length quartile bin, one bar per run and bin (MMR-Life's
  thinking-length figure);
- clue-injection heatmap (DailyClue Table 3) and the correlation between reasoning types
  across runs (MMR-Life: Pearson's r of per-type accuracies over models; needs 3 runs):
  `scoring.heatmaps`.
Every label that comes from data is HTML-escaped.
"""
from __future__ import annotations

import html

import numpy as np
import pandas as pd

from domain.vocabulary import counted
from judges.tables import Table

from scoring import biased
from scoring.bar_chart import PALETTE, grouped_bars_svg, look
from scoring.compared import limit_reason
from scoring.heatmaps import correlation_heatmap, heatmap_html, injection_heatmap, \
    injection_notes, text_colour, type_correlation  # noqa: F401 (the figures' API)

BAR_COLUMNS = ["run", "group", "accuracy"]


def group_bars(summaries: dict[str, dict], group: str = "by_domain") -> pd.DataFrame:
    """{label: summarise output} -> rows (run, group value, accuracy %)."""
    rows = [(label, name, acc.accuracy * 100)
            for label, summary in summaries.items()
            for name, acc in summary.get(group, {}).items() if acc.accuracy is not None]
    return pd.DataFrame(rows, columns=BAR_COLUMNS)


DROP_SERIES = (("general", "general"), ("rigorous", "rigorous"),
               ("grounded", "grounded-rigorous"))
# the protocols' bars in greys, light to dark as they grow stricter: in the palette's blue,
# orange and green they looked like the runs of the charts beside them (blue = a run there)
PROTOCOL_COLOURS = {"general": "#cfcfcf", "rigorous": "#8a8a8a", "grounded-rigorous": "#3f3f3f"}


def drop_bars(table: Table) -> pd.DataFrame:
    """From the drop table: (run, protocol, accuracy %, n): a row's accuracies share its n,
    the items all its protocols scored (`scoring.tables.drop_table`)."""
    rows = [(row["model"], title, row[key], row["n"]) for row in table.rows
            for key, title in DROP_SERIES if row.get(key) is not None]
    return pd.DataFrame(rows, columns=["run", "protocol", "accuracy", "n"])


LENGTH_COLUMNS = ["run", "quartile", "bin", "output_tokens", "accuracy", "n"]


def length_bins(results: dict[str, dict], bins: int = 4) -> pd.DataFrame:
    """{label: run_summary} -> accuracy per output-length bin, per run (MMR-Life's
    thinking-length figure): rows (run, quartile, bin label, mean output tokens in the bin,
    accuracy %, n items). It counts items as the table beside it does: an item is one point,
    its output tokens the mean over its repeats (each already the mean over its samples) and
    its accuracy the share of its repeats correct (unscored records and those without a
    token count left out), so n counts items however many repeats a run has. A run's items
    are cut at the quantiles of their output tokens into `bins` bins of about equal size,
    named Q1..Q4 (shortest first; "bin k of n" for other counts). An item falls in the first
    bin whose upper edge is at or above it, so equal quantiles leave bins empty (not drawn):
    a run whose outputs all have one length fills Q1 only. Items scored without a token count
    (a failed call has no reply) are left out and counted in `frame.attrs["left_out"]`."""
    rows, left_out = [], {}
    bins = max(1, bins)
    for label, result in results.items():
        kept = _per_item(result["records"])
        items = len({r["item_id"] for r in result["records"] if r["value"] != "unscored"})
        if items > len(kept):       # said under the chart: its bars' n then add up
            left_out[label] = items - len(kept)
        if not kept:
            continue
        tokens = np.array([t for t, _ in kept], dtype=float)
        correct = np.array([c for _, c in kept], dtype=float)
        edges = np.quantile(tokens, np.linspace(0, 1, bins + 1))
        index = np.searchsorted(edges[1:-1], tokens, side="left")
        for k in range(bins):
            inside = index == k
            if not inside.any():
                continue
            low, high = tokens[inside].min(), tokens[inside].max()
            rows.append((label, quartile_name(k, bins), f"{low:.0f}–{high:.0f} tokens",
                         float(tokens[inside].mean()), float(correct[inside].mean() * 100),
                         int(inside.sum())))
    frame = pd.DataFrame(rows, columns=LENGTH_COLUMNS)
    frame.attrs["left_out"] = left_out    # {run: items scored with no output length}
    return frame


def _per_item(records: list[dict]) -> list[tuple[float, float]]:
    """(mean output tokens, share correct) per item, over its scored records with tokens."""
    by_item: dict[str, list[dict]] = {}
    for r in records:
        if r["tokens"] is not None and r["value"] != "unscored":
            by_item.setdefault(r["item_id"], []).append(r)
    return [(sum(r["tokens"] for r in found) / len(found),
             sum(r["value"] == "correct" for r in found) / len(found))
            for found in by_item.values()]


def quartile_name(k: int, bins: int = 4) -> str:
    return f"Q{k + 1}" if bins == 4 else f"bin {k + 1} of {bins}"


# -- charts ---------------------------------------------------------------------------------

def run_colours(labels: dict[str, str], every: list[str] | None = None) -> dict:
    """{label: look (colour, and a hatch past the palette's ten: `scoring.chart_looks`)} of
    the runs ({run_id: label}), assigned once and given to every chart of the page: a run
    keeps its look from one chart to the next, whichever runs a chart leaves out (no output
    token counts, say) and whatever the order the runs were chosen in. A run's colour is
    its place among `every` run id of the store (sorted: the order they were made in), so
    it stays when other runs are chosen or left out (from the chosen runs alone, choosing
    one run more turned every later run's bars another colour); when two chosen runs would
    share it, the later takes the next free colour, then a hatch."""
    place = {rid: i for i, rid in enumerate(sorted(set(every or []) | set(labels)))}
    taken, out = set(), {}
    for rid in sorted(labels):
        start = place[rid] % len(PALETTE)
        step = next(k for k in range(len(PALETTE) * (len(labels) + 1))
                    if ((start + k) % len(PALETTE), k // len(PALETTE)) not in taken)
        colour, hatch = (start + step) % len(PALETTE), step // len(PALETTE)
        taken.add((colour, hatch))
        out[labels[rid]] = look(colour + len(PALETTE) * hatch)
    return out


GROUP_TITLES = {"by_domain": "domain", "by_subtask": "subtask",
                "by_reasoning_type": "reasoning type"}


N_ZERO = "n=0"


def no_scored_item(run: str, group: str, acc=None) -> str:
    """The tooltip of a slot with no item scored: 'run · group: n=0, no item scored (3
    unscored)'."""
    unscored = f" ({acc.unscored:g} unscored)" if acc is not None and acc.unscored else ""
    return f"{run} · {group}: {N_ZERO}, no item scored{unscored}"


def group_chart(summaries: dict[str, dict], group: str = "by_domain", shared=None,
                colours: dict | None = None, unread: dict | None = None,
                footnotes: list[str] = ()) -> str:
    """Accuracy per domain, subtask or reasoning type, one bar per run, side by side.
    `shared`: the items the runs were compared on (`judges.pairing.Shared`), said in the
    caption with the run that limits them; `colours`: each run's (`run_colours`). A run
    with no item scored in a group (n 0: its items there all unscored) has no bar but its
    slot says "n=0", and a group no run scored is still drawn so: an absent bar was silent,
    and a group every run left unscored vanished from the chart. `unread`: {run: items} an
    unreadable clue judge left out (`scoring.biased`): those runs are marked, `footnotes`
    (the table's) under the chart say why."""
    if unread and any(unread.values()):
        named = {run: biased.label(run, unread.get(run, 0)) for run in summaries}
        summaries = {named[run]: summary for run, summary in summaries.items()}
        colours = {named.get(run, run): c for run, c in (colours or {}).items()}
    frame = group_bars(summaries, group)
    runs = list(summaries)
    counts = {(label, name): acc for label, summary in summaries.items()
              for name, acc in summary.get(group, {}).items()}
    names = sorted({name for _, name in counts})
    # each bar says its n: the caption's "on the 14 items the runs share" read as the n of
    # bars that rest on the 4 or 5 of those in their group
    values = {(g, run): (acc, f"{run} · {g}: {acc:.1f}% of {counts[(run, g)].n}",
                         f"n {counts[(run, g)].n:g}")
              for run, g, acc in frame.itertuples(index=False)}
    for run in runs:                      # no item scored there: "n=0", not an empty slot
        for name in names:
            if (name, run) not in values:
                values[(name, run)] = (None, no_scored_item(run, name, counts.get((run, name))),
                                       N_ZERO)
    on = ""
    if shared is not None and len(runs) > 1:
        why = limit_reason(shared)
        on = f", on the {counted(shared.n, 'item')} the runs share" + (f" ({why})" if why else "")
    return grouped_bars_svg(names, runs, values,
                            caption=f"Accuracy (%) per {GROUP_TITLES[group]}{on}",
                            empty="No scored runs to plot.", colours=colours) + \
        chart_footnotes(list(footnotes) if unread and any(unread.values()) else [])


def drop_chart(table: Table) -> str:
    """General, rigorous and grounded-rigorous accuracy per run (bars side by side), each
    run's on the items all its protocols scored: the caption says the n (when runs differ in
    it, each run's label does), each bar's tooltip its n and the protocols' unscored items.
    A run with no item all its protocols scored (n 0) is drawn with "n=0" in each slot (it
    vanished from the chart), a protocol a run was not scored under with "not scored", and
    one scored but withheld from the table (right answers without a clue verdict: "–" there,
    `biased.drop_unpaired_note`) with "withheld"."""
    frame = drop_bars(table)
    sizes = {row["model"]: row["n"] for row in table.rows}
    per_run = len(set(sizes.values())) > 1
    label = {run: biased.label(f"{run} (n {n})" if per_run else run,
                               row.get(biased.UNREAD_KEY, 0))
             for run, n, row in ((r["model"], r["n"], r) for r in table.rows)}
    unscored = {row["model"]: ", ".join(f"{title} {row[f'unscored_{key}']}"
                                        for key, title in DROP_SERIES
                                        if row.get(f"unscored_{key}") is not None)
                for row in table.rows}
    runs = [label[run] for run in sizes]
    # n/a: a run asked for no boxes (grounded), a No-CoT run for no clues (rigorous)
    na = {(row["model"], p): f"n/a: no {what} asked" for row in table.rows for p, what in
          (("grounded-rigorous", "boxes"), ("rigorous", "clues"))
          if row.get(f"{_key(p)}_not_applicable")}
    # scored but not shown: right answers lack a clue verdict (the table's "–", its footnote)
    withheld = {row["model"]: set(row.get("_protocol", "").split(", "))
                if row.get("_unpaired") else set() for row in table.rows}
    columns = {c.key for c in table.columns}
    protocols = [p for key, p in DROP_SERIES if key in columns]
    values = {(label[run], protocol): (acc, f"{run} · {protocol}: {acc:.1f}% of {n}"
                                       + (f" (unscored: {unscored[run]})"
                                          if unscored[run] else ""))
              for run, protocol, acc, n in frame.itertuples(index=False)}
    for run, n in sizes.items():          # no bar: said, never an empty slot
        for protocol in protocols:
            if (label[run], protocol) not in values:
                words = N_ZERO if not n else "not scored"
                if _key(protocol) in withheld[run]:
                    words = "withheld"
                words = na.get((run, protocol), words)
                values[(label[run], protocol)] = (
                    None, f"{run} · {protocol}: {words}" + (f" (unscored: {unscored[run]})"
                                                           if unscored[run] else ""), words)
    return grouped_bars_svg(runs, protocols, values, caption=table.caption,
                            empty="No general scores yet.", colours=PROTOCOL_COLOURS) + \
        chart_footnotes(table.footnotes)


def _key(title: str) -> str:
    """A drop series' protocol from its title ("grounded-rigorous" -> "grounded")."""
    return next(key for key, t in DROP_SERIES if t == title)


def chart_footnotes(footnotes: list[str]) -> str:
    """The footnotes a chart's marks refer to, under it (escaped), '' when none."""
    return "".join(f'<p class="cluelab-chart-note">{html.escape(text)}</p>'
                   for text in footnotes)


def length_chart(frame: pd.DataFrame, colours: dict | None = None) -> str:
    """Accuracy per output-length quartile bin (each run's own quartiles), one bar per run
    (`colours`: each run's, `run_colours`), each bar with its bin's n above its value (a 0
    of one item is not a 0 of many), and a run's empty bin marked "no items" (not a bar of
    0%: equal lengths leave bins empty)."""
    runs = list(dict.fromkeys(frame["run"]))
    bins = _all_bins(frame["quartile"])
    values = {(row.quartile, row.run): (row.accuracy, f"{row.run} · {row.quartile} "
                                        f"({row.bin}, mean {row.output_tokens:.0f}): "
                                        f"{row.accuracy:.1f}% of {counted(row.n, 'item')}",
                                        f"n {row.n}")
              for row in frame.itertuples(index=False)}
    for run in runs:
        for name in bins:
            values.setdefault((name, run), (None, f"{run} · {name}: no items (outputs of "
                                                  f"equal length fall in one bin)"))
    caption = "Accuracy (%) per output-length quartile of each run (Q1 shortest outputs, Q4 " \
              "longest), counted per item as the table is: an item's length is its mean " \
              "output tokens over its repeats and samples; each bar's n (items) is written with " \
              "its value"
    fewer = [run for run in runs if (frame["run"] == run).sum() < len(bins)]
    if fewer:
        caption += (f"; {len(fewer)} of {len(runs)} runs leave bins empty (marked "
                    f"\"no items\"): outputs of equal length fall in one bin")
    left_out = frame.attrs.get("left_out") or {}
    if left_out:        # the table's n counts them, the bars cannot (a failed call, say)
        caption += "; left out for want of an output length (no reply or no token count): " + \
            ", ".join(f"{run} {n} item{'s' * (n != 1)}" for run, n in left_out.items())
    return grouped_bars_svg(bins, runs, values, caption=caption,
                            empty="No output token counts to plot.", colours=colours)


def _all_bins(names) -> list[str]:
    """Every bin of the chart, Q1..Q4 (or bin 1..k of k), those no run fills too."""
    found = sorted(set(names), key=_bin_order)
    if not found:
        return []
    total = 4 if found[0].startswith("Q") else int(found[0].rsplit(" of ", 1)[1])
    return [quartile_name(k, total) for k in range(total)]


def _bin_order(name: str) -> int:
    return int(name.split()[1] if name.startswith("bin") else name[1:])


def padded_range(values, pad: float = 0.05) -> list[float] | None:
    """[low, high] around `values` with a margin, so that points on the extremes are drawn
    whole (a plot's axis otherwise ends exactly at them); None without values."""
    found = [float(v) for v in values if v is not None and not np.isnan(v)]
    if not found:
        return None
    low, high = min(found), max(found)
    margin = pad * max(high - low, abs(high) * 0.2, 1.0)
    return [low - margin, high + margin]
