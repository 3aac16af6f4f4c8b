"""The Results tab's heatmaps, as small HTML tables coloured by value: the clue-injection
accuracies (DailyClue Table 3) and the correlation between reasoning types across runs
(MMR-Life: Pearson's r of per-type accuracies over models; needs 3 runs).

Colours are read on a scale drawn as a legend under the map (`scoring.heatmap_colours`).
Each map sits in a box like the charts' (assets/cluelab.css), its cells sized to be read at
1400x900 whatever the page's table styles; its row names at least 16em wide. Every label that comes from data is HTML-escaped.
"""
from __future__ import annotations

import html

import numpy as np
import pandas as pd

from domain.vocabulary import counted
from judges.cells import delta_text, delta_where
from judges.tables import Table, fixed

from scoring.heatmap_colours import ACCURACY_SCALE, CORRELATION_SCALE, _rgb, accuracy_scale, \
    colour_legend, text_colour
from scoring.matrix_tables import ITEMS_WHERE

__all__ = ["heatmap_html", "injection_heatmap", "correlation_heatmap", "type_correlation",
           "text_colour", "_rgb"]



def type_correlation(summaries: dict[str, dict]) -> tuple[list[str], np.ndarray | None, str]:
    """Pearson's r between reasoning types (or domains when items have no reasoning type)
    over the runs' per-type accuracies; (names, matrix or None, note): `correlation`."""
    found = correlation(summaries)
    return found["names"], found["matrix"], found["note"]


def correlation(summaries: dict[str, dict]) -> dict:
    """{"names", "matrix" (None: no map), "note", "points"}: Pearson's r between groups over
    the runs ({run label: summary}), and the caption naming the runs left out and why, the
    groups all "–" (no variance, no r), and runs alike in every group: one point, so r and its
    threshold rest on fewer `points` than runs (±1.00 was strong over 3 runs, two alike)."""
    group = "by_reasoning_type"
    names = sorted({n for s in summaries.values() for n in s.get(group, {})} - {"(none)"})
    if len(names) < 2:
        group = "by_domain"
        names = sorted({n for s in summaries.values() for n in s.get(group, {})} - {"(none)"})
    what = "reasoning types" if group == "by_reasoning_type" else "domains"
    missing = {label: [n for n in names if not (s.get(group, {}).get(n) and
                                                s[group][n].accuracy is not None)]
               for label, s in summaries.items()}
    runs = {label: s for label, s in summaries.items() if not missing[label]}
    left = left_out_words(missing, what)
    if len(names) < 2 or len(runs) < 3:
        return {"names": names, "matrix": None, "points": len(runs), "note": (
            f"needs at least 3 scored runs covering 2 or more {what}" + left)}
    data = np.array([[s[group][n].accuracy for n in names] for s in runs.values()])
    # a group with the same accuracy in every run has no r: shown "–". Computed, 2/3 in
    # every run varied by rounding alone (1e-16) and read r 1.00 with itself, 0.00 with others
    constant = np.ptp(data, axis=0) <= 1e-9 * np.maximum(1.0, np.abs(data).max(axis=0))
    varying = int((~constant).sum())
    if varying < 2:   # a map of "–" and one 1.00 (a group with itself) said nothing
        return {"names": names, "matrix": None, "points": len(runs), "note": (
            f"needs 2 or more {what} whose accuracy differs between the runs ({varying} of "
            f"{len(names)} {'does' if varying == 1 else 'do'} over these {len(runs)} runs)"
            + left)}
    same, points = same_points(list(runs), data[:, ~constant])
    matrix = pearson(data, constant)
    if points < 3:
        return {"names": names, "matrix": None, "points": points, "note": (
            f"needs 3 or more runs whose accuracies differ: over these {len(runs)} runs "
            f"there are only {points} distinct points ({same}), and r over 2 points is "
            "always ±1" + left)}
    flat = [n for n, c in zip(names, constant) if c]
    # the count r rests on in the first words, beside the runs: "over 8 runs" opened a
    # caption whose r rested on 4 points, the twins named after a long list
    note = (f"Pearson's r between {what} over {len(runs)} runs"
            + (f" ({points} distinct points: runs with the same accuracies count once), so "
               f"each r rests on {points}, not {len(runs)}: {same}" if same else "")
            + few_runs(points) + left)
    if flat:
        note += (f"; – for {', '.join(flat)}: the same accuracy in every run (no variance), "
                 "so no r")
    return {"names": names, "matrix": matrix, "points": points, "note": note}


def pearson(data: np.ndarray, constant: np.ndarray) -> np.ndarray:
    """Pearson's r between `data`'s columns (groups) over its distinct rows, the points the
    caption and threshold count (r over 10 runs with twins counted again read -0.46 for -0.10),
    each pair once and mirrored (np.corrcoef's -0.875 read -0.87 and its mirror -0.88);
    a `constant` group's row and column NaN ("–")."""
    _, first = np.unique(np.round(data[:, ~constant], 9), axis=0, return_index=True)
    points = data[np.sort(first)]
    matrix = pd.DataFrame(points).corr(method="pearson").to_numpy(dtype=float, copy=True)
    np.fill_diagonal(matrix, 1.0)
    matrix[constant, :] = matrix[:, constant] = np.nan
    return matrix


def left_out_words(missing: dict[str, list[str]], what: str) -> str:
    """'; left out: m · CoT (no accuracy for Spatial: no scored item there)', or ''."""
    out = [f"{label} (no accuracy for {', '.join(gaps)}: no scored item there)"
           for label, gaps in missing.items() if gaps]
    return f"; left out: {'; '.join(out)}, each run needs an accuracy in every one of the {what}" \
        if out else ""


def same_points(labels: list[str], data: np.ndarray) -> tuple[str, int]:
    """(which runs have the same accuracies in every group, in words, or ''; the number of
    distinct points)."""
    groups: dict[tuple, list[str]] = {}
    for label, line in zip(labels, data):
        groups.setdefault(tuple(np.round(line, 9)), []).append(label)
    same = [" and ".join(g) for g in groups.values() if len(g) > 1]
    said = "; ".join(f"{g} have the same accuracy in every one" for g in same)
    return said, len(groups)


# |r| a correlation over n points must reach to differ from none at p < 0.05 (two-sided):
# r = t / sqrt(n - 2 + t^2) with t the t distribution's 97.5th percentile at n - 2 degrees
# of freedom (standard tables)
CRITICAL_R = {3: 0.997, 4: 0.950, 5: 0.878, 6: 0.811, 7: 0.754, 8: 0.707, 9: 0.666}


def few_runs(n: int) -> str:
    """The caution a map over few runs needs: over 3 runs r 1.00 and -0.50 were shown in
    strong colours with nothing saying that 3 points can give both by chance."""
    if n not in CRITICAL_R:
        return ""
    return (f" (few runs: each r is computed from only {n} runs' accuracies, a rough guide; "
            f"only |r| ≥ {CRITICAL_R[n]:.3f} differs from no correlation at p < 0.05, "
            "the cells below it are pale)")


FIT_WIDTH, ROW_HEAD = 520, 130   # px: the narrowest column a heatmap is shown in, its row names


def fitted_heads(names: list[str]) -> tuple[list[str], list[str]]:
    """(column titles, row names) of a square heatmap that must fit FIT_WIDTH: the names
    when each fits its column (about 7 px a character, on two lines), else the columns
    numbered 1..k and each row's name led by its number (full names in the tooltips)."""
    room = int((FIT_WIDTH - ROW_HEAD) / max(1, len(names)) / 7 * 2)
    if all(len(name) <= room for name in names):
        return list(names), list(names)
    return [str(k) for k in range(1, len(names) + 1)], \
        [f"{k}. {name}" for k, name in enumerate(names, 1)]


def heatmap_html(rows: list[str], columns: list[str], values, *, caption: str = "",
                 digits: int = 2, diverging: bool = False, deltas=None, ns=None,
                 fit: bool = False, pale=None, scale: tuple | None = None,
                 hovers=None) -> str:
    """An HTML table coloured by value on its scale (accuracy %, or Pearson's r when
    `diverging`), in a box with its legend; None cells print a dash. Values have `digits`
    decimals (2, as the tables print accuracies and r) and never read -0.00; `deltas` (same
    shape) are printed beside the value as (+x.xx), or as written when text (a change with its
    n, as its table prints it); `ns` (same shape): the n each cell rests on, written under its
    value ("n 14"; a cell with no value but an n says "– n 0").
    `fit`: the table is as wide as its box whatever the number of columns (fixed layout,
    equal columns, titles wrapped; a square map whose names do not fit numbers its columns
    and leads each row's name with its number: `fitted_heads`; full names in the tooltips;
    smaller text for many columns). `pale` (same shape, or None): cells drawn faded (an r
    that does not differ from none: a strong colour said it did). `scale`: (low, high) of
    an accuracy map's colours (`accuracy_scale`), else 0-100. `hovers` (same shape, or
    None): a cell's longer words, on hover (its tile holds value, change and n alone)."""
    low, high = CORRELATION_SCALE if diverging else scale or ACCURACY_SCALE
    esc = html.escape
    shown, row_names = fitted_heads([str(c) for c in columns]) if fit and rows == columns \
        else ([str(c) for c in columns], [str(r) for r in rows])
    def th(full: str, text: str) -> str:      # the full name on hover when shortened
        return f'<th title="{esc(full)}">{esc(text)}</th>' if text != full else \
            f"<th>{esc(text)}</th>"

    head = "".join(th(str(c), t) for c, t in zip(columns, shown))
    style = (f' style="font-size:{max(9, 13 - len(columns) // 3)}px"' if fit else "")
    layout = (f'<colgroup><col style="width:{ROW_HEAD}px">'
              + "<col>" * len(columns) + "</colgroup>") if fit else ""
    body = []
    for i, name in enumerate(rows):
        cells = []
        for j, _ in enumerate(columns):
            v = values[i][j]
            n = ns[i][j] if ns is not None else None
            shown_n = f"{n:g}" if isinstance(n, (int, float)) else n     # or with its mark
            under = f'<br><span class="cell-n">n {esc(str(shown_n))}</span>' \
                if n is not None else ""
            hover = hovers[i][j] if hovers is not None else ""
            hover = f' title="{esc(hover)}"' if hover else ""
            if v is None or (isinstance(v, float) and np.isnan(v)):
                cells.append(f"<td{hover}>–{under}</td>")
                continue
            text = fixed(v, digits)
            d = deltas[i][j] if deltas is not None else None
            if d is not None:        # a number, or a change as its table prints it
                text += f" ({d})" if isinstance(d, str) else f" ({fixed(d, digits, True)})"
            rgb = _rgb(v, low, high, diverging)
            if pale is not None and pale[i][j]:
                rgb = tuple(round(c + (255 - c) * 0.75) for c in rgb)
            cells.append('<td{}style="background:rgb({},{},{});color:{}">'.format(
                hover + " ", *rgb, text_colour(rgb)) + f"{esc(text)}{under}</td>")
        body.append(f"<tr>{th(str(name), row_names[i])}{''.join(cells)}</tr>")
    kind = "cluelab-heatmap " + ("cluelab-heatmap-fit" if fit else "cluelab-heatmap-cells")
    # the title above the scrolling table, as wide as the box: a <caption> is as wide as
    # its table and was cut mid-word with it ("…n = 6: run a-budge")
    title = f'<div class="cluelab-heatmap-title">{esc(caption)}</div>' if caption else ""
    return (f'<div class="cluelab-heatmap-box">{title}<div class="cluelab-heatmap-scroll">'
            f'<table class="{kind}"{style}>{layout}'
            f"<tr><th></th>{head}</tr>{''.join(body)}</table>"
            f"{colour_legend(low, high, diverging, digits)}</div></div>")


def injection_heatmap(table: Table) -> str:
    """The clue-injection table coloured by accuracy; each row's shared items beside its
    solver (the accuracy columns are its numeric ones but the items), each value and change
    against No Clue with the digits the table prints them with (a cell read 15.4 (-7.7) here
    and 15.38 (-7.69) in the table and its downloads), the change with its n when it is not
    the cells', and under each value the n it rests on (its run's scored items, `<source>_n`:
    a cell of 100.00 on 1 item read like one on 14), with its mark. A tile holds value,
    change and n alone: on which items a change is, and the items without a source clue,
    are on hover and in the notes (a narrow tile read "66.67 (+0.00 vs 66.67 without clue,
    on these 3 items) n 3 ‡ 3 no source clue")."""
    columns = [c for c in table.columns[1:] if c.numeric and c.key != "items"]
    sources, digits = [c.key for c in columns], max((c.digits for c in columns), default=2)
    rows = [r["solver"] + (f" ({counted(r['items'], 'item')})" if r.get("items") is not None else "")
            for r in table.rows]
    values = [[r.get(s) for s in sources] for r in table.rows]
    deltas = [[table.delta_text(r, s, digits) for s in sources] for r in table.rows]
    ns = [[_n_text(r, s) for s in sources] for r in table.rows]
    hovers = [[_hover(r, s, digits) for s in sources] for r in table.rows]
    if not rows:
        return "<p>No general scores for runs with clue sources yet.</p>"
    return heatmap_html(rows, sources, values, deltas=deltas, ns=ns, digits=digits,
                        hovers=hovers,
                        caption=f"{table.caption}; each cell's n: the items its accuracy is "
                                "over", scale=accuracy_scale(values))


def injection_notes(table: Table) -> str:
    """The injection table's notes as they read under its heatmap, which has no Items column:
    each row's items follow its name ("m · CoT (14 items)"), and the notes say so (they sent
    the reader to "the Items column" of a map without one)."""
    items = next((r["items"] for r in table.rows if r.get("items") is not None), None)
    where = "after each row's name" + (f', "({items} items)"' if items is not None else "")
    return table.notes.replace(ITEMS_WHERE, where)


def _n_text(row: dict, source: str):
    """A cell's n, with the table's mark when compared items were not asked for want of a
    source clue ('12 ‡': `scoring.source_clues`; how many is on hover and in the notes)."""
    n, missing = row.get(f"{source}_n"), row.get(f"{source}_no_source_clue")
    if n is None or not missing:
        return n
    mark = (row.get("_flags") or {}).get(source) or (row.get("_why_empty") or {}).get(source, "")
    return f"{n:g} {mark}".strip()


def _hover(row: dict, source: str, digits: int) -> str:
    """A tile's longer words: on which items its change is ('+0.00 vs 66.67 without clue, on
    these 3 items') and its items without a source clue ('‡ 3 items not asked: no source
    clue'), '' when none."""
    where = delta_where(row, source, digits)
    said = [f"{delta_text(row, source, digits)}{where}"] if where else []
    missing = row.get(f"{source}_no_source_clue")
    if missing:
        mark = (row.get("_flags") or {}).get(source) or \
            (row.get("_why_empty") or {}).get(source, "")
        said.append(f"{mark} {counted(missing, 'item')} not asked: no source clue".strip())
    return "; ".join(said)


def correlation_heatmap(summaries: dict[str, dict]) -> str:
    found = correlation(summaries)
    names, matrix, note = found["names"], found["matrix"], found["note"]
    if matrix is None:
        return f"<p>Correlation heatmap: {html.escape(note)}.</p>"
    values = [[float(v) for v in line] for line in matrix]
    critical = CRITICAL_R.get(found["points"])     # over the distinct points, not the runs
    pale = [[critical is not None and i != j and abs(v) < critical for j, v in enumerate(line)]
            for i, line in enumerate(values)]
    return heatmap_html(names, names, values, caption=note, digits=2, diverging=True,
                        fit=True, pale=pale)
