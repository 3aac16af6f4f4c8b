"""Dataset statistics, computed in SQL (a few aggregate queries, no item is loaded).

Definitions (the ones the benchmark papers use):
- `images`: distinct images used by the items, context images and option images together;
- `images_shown`: images shown by the items, context + option images, counting an image each
  time an item shows it (so it is `images` or more: the page said "24 images" beside a mean
  of 1.47 per item over 17 items, 25 shown, and the two did not agree at a glance);
- `mean_images_per_item`: `images_shown` / items
  (MMR-Life: 19,108 images / 2,646 questions = 7.22);
- `mean_box_area_fraction`: mean over boxes of box area / its image's area (VER-Bench: 0.0025);
- `mean_resolution`: mean width, height and megapixels over the distinct images used;
- `by_<column>`: items per dataset, domain, subtask, reasoning type (MMR-Life's 7 types),
  answer type and status, "(none)" for items without one.
Means over nothing are 0.0, so callers can format every number without special cases.
`render_stats` is their text form, printed by `stats` and shown on the Statistics page.
"""
from __future__ import annotations

import sqlite_utils

from .db import reading

NONE_LABEL = "(none)"


def stats(db: sqlite_utils.Database, dataset: str | None = None) -> dict:
    """Counts, breakdowns and means for all items, or for one dataset."""
    # Every query below restricts items with `scope`, and takes `params` once per use.
    # Deleted items (store/lifecycle.py) are not counted.
    scope, params = (("items.deleted_at IS NULL AND items.dataset = ?", [dataset]) if dataset
                     else ("items.deleted_at IS NULL", []))
    context = ("FROM item_images JOIN items ON items.id = item_images.item_id "
               f"WHERE {scope}")
    options = ("FROM item_options JOIN items ON items.id = item_options.item_id "
               f"WHERE {scope} AND item_options.image IS NOT NULL")
    boxes = ("FROM boxes JOIN clues ON clues.id = boxes.clue_id "
             "JOIN items ON items.id = clues.item_id "
             f"JOIN images ON images.sha256 = boxes.image WHERE {scope}")

    def value(sql: str, uses: int = 1):
        return db.conn.execute(sql, params * uses).fetchone()

    def by(column: str) -> dict:
        return {(v if v is not None else NONE_LABEL): n for v, n in db.conn.execute(
            f"SELECT {column}, count(*) FROM items WHERE {scope} GROUP BY {column} "
            f"ORDER BY count(*) DESC, {column}", params)}

    with reading(db):
        items, flagged = value(f"SELECT count(*), coalesce(sum(flagged), 0) FROM items "
                               f"WHERE {scope}")
        clues = value(f"SELECT count(*) FROM clues JOIN items ON items.id = clues.item_id "
                      f"WHERE {scope}")[0]
        shown = (value(f"SELECT count(*) {context}")[0]
                 + value(f"SELECT count(*) {options}")[0])
        n_boxes, area = value("SELECT count(*), avg((boxes.x1 - boxes.x0) * "
                              f"(boxes.y1 - boxes.y0) / (images.width * images.height)) {boxes}")
        n_images, width, height, megapixels = value(
            "SELECT count(*), avg(width), avg(height), avg(width * height) / 1e6 FROM images "
            f"WHERE sha256 IN (SELECT item_images.sha256 {context} "
            f"UNION SELECT item_options.image {options})", uses=2)
        breakdowns = {f"by_{c}": by(c)
                      for c in ("dataset", "domain", "subtask", "reasoning_type",
                                         "answer_type", "status")}
    return {
        "items": items,
        "images": n_images,
        "images_shown": shown,
        "clues": clues,
        "boxes": n_boxes,
        **breakdowns,
        "flagged": flagged,
        "mean_images_per_item": shown / items if items else 0.0,
        "mean_box_area_fraction": float(area or 0.0),
        "mean_resolution": {"width": float(width or 0.0), "height": float(height or 0.0),
                            "megapixels": float(megapixels or 0.0)},
    }


def render_stats(stats: dict) -> str:
    """Human-readable stats: totals first, then one block per distribution."""
    lines = [
        f"items {stats['items']}  images {stats['images']} distinct "
        f"({stats.get('images_shown', stats['images'])} shown)  clues {stats['clues']}  "
        f"boxes {stats['boxes']}  flagged {stats['flagged']}",
        f"mean images shown per item {stats['mean_images_per_item']:.2f}  "
        f"mean box area {100 * stats['mean_box_area_fraction']:.3f}% of the image",
    ]
    res = stats.get("mean_resolution") or {}
    if res:
        lines.append(
            "mean resolution "
            + "  ".join(f"{k} {v:.1f}" for k, v in res.items() if isinstance(v, (int, float)))
        )
    for key in ("by_dataset", "by_domain", "by_subtask", "by_reasoning_type", "by_answer_type",
                "by_status"):
        counts = stats.get(key) or {}
        if not counts:
            continue
        lines.append(f"\n{key[3:].replace('_', ' ')}:")
        width = max(len(str(k)) for k in counts)
        for name, n in sorted(counts.items(), key=lambda kv: (-kv[1], str(kv[0]))):
            lines.append(f"  {str(name):<{width}}  {n}")
    return "\n".join(lines)
