"""Pure conversions between the store's item dict and the editor's widgets.

The bbox component cannot carry an id per box, so a box belongs to a clue through its
label (`clue 1`, `clue 2`, …) and each clue has its own colour. Everything here is plain
data in, plain data out, so the mapping rules are tested without a browser.
"""
from __future__ import annotations

import copy
import re

from domain.item_ids import no_words
from domain.option_labels import new_label_problem

PALETTE = [
    "#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#42d4f4",
    "#f032e6", "#9a6324", "#469990", "#800000", "#808000", "#000075",
]
CLUE_HEADERS = ["clue", "text", "reasoning", "boxes"]
OPTION_HEADERS = ["label", "text", "image"]
_CLUE_LABEL = re.compile(r"^\s*(?:clue\s*)?(\d+)\s*$", re.IGNORECASE)


class EditError(ValueError):
    """An edit that cannot be saved as it stands; the message tells the user what to fix."""


def clue_label(index: int) -> str:
    return f"clue {index + 1}"


def clue_color(index: int) -> str:
    return PALETTE[index % len(PALETTE)]


def parse_clue_label(label: str | None, n_clues: int) -> int | None:
    """Index of the clue a box label names, or None when it names no existing clue."""
    match = _CLUE_LABEL.match(label or "")
    if not match:
        return None
    index = int(match.group(1)) - 1
    return index if 0 <= index < n_clues else None


PICK_LABEL = "(pick a clue)"
PICK_COLOR = "#7f7f7f"


def label_list(n_clues: int) -> tuple[list[str], list[str]]:
    """Labels and colours offered by the annotator's label picker.

    The picker shows its first choice while a new box has no label yet; leading with an
    explicit "(pick a clue)" keeps what the annotator sees equal to what is stored.
    """
    labels = [PICK_LABEL] + [clue_label(i) for i in range(n_clues)]
    return labels, [PICK_COLOR] + [clue_color(i) for i in range(n_clues)]


def _hex_to_rgb(color: str) -> tuple[int, int, int]:
    color = color.lstrip("#")
    return tuple(int(color[i:i + 2], 16) for i in (0, 2, 4))


def boxes_for_image(item: dict, sha: str | None) -> list[dict]:
    """The annotator's boxes for one image, newest first as the component keeps them."""
    boxes = []
    for index, clue in enumerate(item.get("clues", [])):
        for box in clue.get("boxes", []):
            if box["image"] == sha:
                boxes.append({
                    "label": clue_label(index), "color": _hex_to_rgb(clue_color(index)),
                    "xmin": box["x0"], "ymin": box["y0"], "xmax": box["x1"], "ymax": box["y1"],
                })
    for box in item.get("_unassigned", []):
        if box["image"] == sha and drawn(box):
            # drawn in a colour of no clue, with a label saying what to do: a box with an
            # empty label showed as a bare frame with nothing to click on
            boxes.append({"label": box.get("label") or PICK_LABEL, "color": UNASSIGNED_RGB,
                          "xmin": box["x0"], "ymin": box["y0"],
                          "xmax": box["x1"], "ymax": box["y1"]})
    return list(reversed(boxes))


# the grey of "(pick a clue)", as Save's refusal says ("drawn in grey"): they were black
UNASSIGNED_RGB = _hex_to_rgb(PICK_COLOR)


def drawn(box: dict) -> bool:
    """A box with an area of at least one pixel. The annotator reports a box from the press
    that starts it (no size yet, no label) and drops it itself if it stays under one pixel;
    such a box was kept in the draft and came back after a reload as a line that could be
    neither selected nor deleted, and blocked Save."""
    return (box["x1"] - box["x0"]) * (box["y1"] - box["y0"]) >= 1


def unpicked(box: dict) -> bool:
    """A box set aside (`_unassigned`) whose clue was never picked: its label is the picker's
    placeholder, or none. The picker cannot commit either (assets/annotator.js), so such a
    box is one whose picker is still open: its Cancel drops it, and so does a reload."""
    return str(box.get("label") or "").strip() in ("", PICK_LABEL)


def without_unpicked(item: dict) -> dict:
    """`item` without its unpicked boxes (the draft keeps no such box: see unpicked)."""
    boxes = item.get("_unassigned") or []
    if not any(unpicked(box) for box in boxes):
        return item
    return {**item, "_unassigned": [box for box in boxes if not unpicked(box)]}


def _to_edge(value: float, length: int) -> float:
    """`value` moved onto the image's edge when it is past it by no more than a canvas
    pixel's rounding can make (1% of the side, at least 2 px); further out it is left for
    the store to refuse: a box well outside the image is no rounding, and is never moved."""
    slack = max(2.0, 0.01 * length)
    if -slack <= value < 0:
        return 0
    if length < value <= length + slack:
        return length
    return value


def merge_annotator_boxes(item: dict, sha: str | None, annot_boxes: list[dict] | None,
                          size: tuple[int, int] | None = None) -> dict:
    """Replace the boxes of image `sha` with what the annotator holds.

    Boxes whose label names no clue are kept aside in `_unassigned` (never dropped), and
    saving refuses until each has a clue, so a mislabelled box cannot vanish silently.
    With the image's `size` (width, height), a box a rounding past an edge is cut to it
    (`_to_edge`): one dragged past the bottom edge came back from the canvas a pixel too
    tall (its scale rounded) and made every save of the item fail.
    """
    item = copy.deepcopy(item)
    if sha is None or annot_boxes is None:
        return item
    clues = item.setdefault("clues", [])
    held: list[list[dict]] = [[] for _ in clues]     # each clue's boxes of `sha`, oldest first
    unassigned = [b for b in item.get("_unassigned", []) if b["image"] != sha]
    for box in reversed(annot_boxes):  # oldest first, so box order is stable across saves
        coords = {"x0": box["xmin"], "y0": box["ymin"], "x1": box["xmax"], "y1": box["ymax"]}
        x0, x1 = sorted((coords["x0"], coords["x1"]))
        y0, y1 = sorted((coords["y0"], coords["y1"]))
        if size is not None:
            x0, x1 = (_to_edge(v, size[0]) for v in (x0, x1))
            y0, y1 = (_to_edge(v, size[1]) for v in (y0, y1))
        coords = {"image": sha, "x0": x0, "y0": y0, "x1": x1, "y1": y1}
        if not drawn(coords):
            continue                            # a box still being drawn (see drawn)
        index = parse_clue_label(box.get("label"), len(clues))
        if index is None:
            unassigned.append({**coords, "label": box.get("label") or ""})
        else:
            held[index].append(coords)
    for clue, boxes in zip(clues, held):
        clue["boxes"] = _in_place(clue.get("boxes", []), sha, boxes)
    item["_unassigned"] = unassigned
    return item


def _in_place(old: list[dict], sha: str, boxes: list[dict]) -> list[dict]:
    """A clue's boxes with those of image `sha` replaced by `boxes`, each in the place of
    one it had there and any more appended: appending them all after the boxes of other
    images reordered an untouched clue, so merely opening an item and pressing Save made a
    new version (and a draft that Discard could not clear)."""
    boxes = list(boxes)
    kept = []
    for box in old:
        if box["image"] != sha:
            kept.append(box)
        elif boxes:
            kept.append(boxes.pop(0))
    return kept + boxes


def clue_rows(item: dict) -> list[list]:
    rows = []
    for index, clue in enumerate(item.get("clues", [])):
        boxes = clue.get("boxes", [])
        images = item.get("images", [])
        where = sorted({images.index(b["image"]) + 1 for b in boxes if b["image"] in images})
        summary = f"{len(boxes)}" + (f" (img {', '.join(map(str, where))})" if where else "")
        rows.append([clue_label(index), clue.get("text", ""), clue.get("reasoning", ""), summary])
    return rows


def plain_table(value):
    """A table widget's value as plain data: {"headers", "data"} from a pandas DataFrame
    (empty cells as None), anything else unchanged."""
    if not hasattr(value, "columns"):
        return value
    rows = [[None if isinstance(v, float) and v != v else v for v in row]
            for row in value.astype(object).values.tolist()]
    return {"headers": [str(c) for c in value.columns], "data": rows}


def table_rows(table, headers: list[str], name: str) -> list[list] | None:
    """The rows of an editable table whose columns are the schema `headers`, or EditError.

    `table` is {"headers", "data"} (plain_table of the widget's value) or bare rows. A table with
    other columns (added, missing, renamed or reordered) is refused as a whole: read by
    position, its cells would land in the wrong fields (an added column once emptied every
    clue's reasoning), and nothing of it is applied.
    """
    def refused(what: str) -> EditError:
        return EditError(f"the {name} table must have exactly the columns "
                         f"{', '.join(headers)}; {what}. Nothing was saved.")

    if table is None:
        return None
    rows = table
    if isinstance(table, dict):
        given = [str(h) for h in table.get("headers") or []]
        if given != headers:
            raise refused(f"it has {', '.join(given) or 'none'}")
        rows = table.get("data") or []
    if not isinstance(rows, (list, tuple)):
        raise EditError(f"the {name} table is not a list of rows")
    rows = [list(row) for row in rows if len(row)]  # an empty table arrives as [[]]
    for number, row in enumerate(rows, start=1):
        if len(row) != len(headers):
            raise refused(f"row {number} has {len(row)} cells")
    return rows


def clue_row_plan(rows, n_old: int) -> list[tuple[int | None, str, str]] | None:
    """(index of the old clue the row is, or None for a new row; text; reasoning) for each
    non-empty row of the clue table, in the table's order; None when there is no table."""
    rows = table_rows(rows, CLUE_HEADERS, "clue")
    if rows is None:
        return None
    plan = []
    for row in rows:
        label, text, reasoning = (str(v) if v is not None else "" for v in row[:3])
        if label or text or reasoning:
            plan.append((parse_clue_label(label, n_old), text, reasoning))
    return plan


def rows_renumbered(rows, n_old: int) -> bool:
    """Does the clue table add, drop or reorder clues (rows not labelled clue 1..n_old in
    order), rather than only change their words? False when it cannot be read (the
    collect that follows says why)."""
    try:
        plan = clue_row_plan(rows, n_old)
    except EditError:
        return False
    return plan is not None and [index for index, _, _ in plan] != list(range(n_old))


def apply_clue_rows(item: dict, rows) -> dict:
    """Take the clue texts from the table; boxes follow the clue their row's label names.

    Rows the user added in the table (no label) become new clues without boxes; a clue
    whose row was deleted loses its boxes with it.
    """
    item = copy.deepcopy(item)
    old = item.get("clues", [])
    plan = clue_row_plan(rows, len(old))
    if plan is None:
        return item
    item["clues"] = [{"text": text, "reasoning": reasoning,
                      "boxes": copy.deepcopy(old[index].get("boxes", []))
                      if index is not None else []}
                     for index, text, reasoning in plan]
    return item


def relabel_for_rows(annot_boxes: list[dict] | None, rows, n_old: int) -> list[dict] | None:
    """The annotator's boxes with their labels moved as the clue table moved the clues.

    The annotator labels a box by the clue's position (`clue 1`); a row added above it in
    the table makes that clue `clue 2`, so the box must be relabelled too, or saving would
    hand it to the new row's clue. A box of a clue whose row was deleted goes with it."""
    plan = clue_row_plan(rows, n_old)
    if annot_boxes is None or plan is None:
        return annot_boxes
    moved = {old: new for new, (old, _, _) in enumerate(plan) if old is not None}
    out = []
    for box in annot_boxes:
        index = parse_clue_label(box.get("label"), n_old)
        if index is None:
            out.append(box)                     # kept aside as unassigned, as before
        elif index in moved:
            out.append({**box, "label": clue_label(moved[index])})
    return out


def option_rows(item: dict) -> list[list]:
    return [[o.get("label", ""), o.get("text", "") or "", "image" if o.get("image") else ""]
            for o in item.get("options", [])]


def apply_option_rows(item: dict, rows) -> dict:
    """Option labels and texts from the table; image options keep their image by label."""
    item = copy.deepcopy(item)
    rows = table_rows(rows, OPTION_HEADERS, "options")
    if rows is None:
        return item
    images = {o.get("label"): o.get("image") for o in item.get("options", [])}
    options = []
    for row in rows:
        label = str(row[0] or "").strip()
        text = str(row[1] or "")
        if not label and not text:
            continue
        if not label:
            raise EditError(f"option '{text[:30]}' has no label")
        if label not in images and (problem := new_label_problem(label)):
            raise EditError(problem)                # a stored label stays (imports flag)
        options.append({"label": label, "text": text, "image": images.get(label)})
    labels = [o["label"] for o in options]
    duplicates = sorted({lab for lab in labels if labels.count(lab) > 1})
    if duplicates:
        raise EditError(f"duplicate option labels: {', '.join(duplicates)}")
    item["options"] = options
    gone = {lab for lab in images if lab} - set(labels)
    if gone:      # ui/editor_ops.add_option gives none of them to a new option the gold names
        item[REMOVED_LABELS] = sorted({*(item.get(REMOVED_LABELS) or []), *gone})
    return item


REMOVED_LABELS = "_removed_labels"    # editor-private: the option labels removed here


def split_aliases(text: str | None) -> list[str]:
    """Aliases are typed one per line (commas belong to location answers): lines end at LF,
    CR or CRLF only. str.splitlines also split at U+2028, U+0085, form feeds…, so an alias
    typed with one became two aliases without a word (the save now refuses such a character,
    judges.direction_parts)."""
    return [line.strip() for line in re.split(r"\r\n|[\r\n]", text or "") if line.strip()]


def check_saveable(item: dict) -> None:
    """Refuse what would silently lose work: boxes with no clue, an empty question."""
    unassigned = [box for box in item.get("_unassigned", []) if drawn(box)]
    if unassigned:
        raise EditError(unassigned_message(item, unassigned))
    if no_words(item.get("question")):      # spaces, or a braille blank: shows nothing
        raise EditError("the question is empty")


def unassigned_message(item: dict, unassigned: list[dict]) -> str:
    """Why Save refuses boxes without a clue, and how to fix it, in the annotator's words:
    how many, on which images, and what to press (no pixel coordinates)."""
    images = item.get("images", [])
    where = sorted({images.index(b["image"]) + 1 for b in unassigned if b["image"] in images})
    n = len(item.get("clues", []))
    count = "1 box has" if len(unassigned) == 1 else f"{len(unassigned)} boxes have"
    on = (f" (on image {', '.join(map(str, where))})" if where else "")
    named = sorted({b.get("label") for b in unassigned
                    if b.get("label") and b.get("label") != PICK_LABEL})
    wrong = "".join(f" '{label}' names no clue." for label in named)
    pick = (f"press E, type its clue number (1 to {n}) and Enter" if n
            else "add a clue first, then press E and type its number")
    return (f"{count} no clue yet{on}, drawn in grey.{wrong} Select each (press D, then "
            f"click it) and {pick}, or press Del to delete it.")


def strip_editor_fields(item: dict) -> dict:
    """The item as the store takes it: without the editor's private keys."""
    return {k: v for k, v in item.items() if not k.startswith("_")}


READ_ONLY_FIELDS = ("version", "updated_at", "updated_by", "flagged")


def content_only(item: dict) -> dict:
    """What an annotator edits: no editor-private keys, no bookkeeping the store fills in."""
    return {k: v for k, v in strip_editor_fields(item).items() if k not in READ_ONLY_FIELDS}
