"""From failure to fix: what the item was when a response was made, and links between a
response and its item.

- `version_md`: whether the item changed since the response was made (the run's planned item
  version against the item's version now), and what changed.
- `old_gt_md`: when it changed, the ground truth of the version the response was made with
  (the revision snapshot, store/revisions.py): question, gold answer, GT clues with their
  reasoning and boxes, each part that changed since marked, so the researcher sees what the
  model was actually judged against beside the current GT.
- `item_link_html`: a link that opens the item in the annotation workspace (`?item=`).
- `deep_link_id` and LINK_JS: the `?response=<id>` deep link that opens the Inspect tab on a
  response (read by inspect_tab's page-load event), shown as a full URL to copy.

Item text is untrusted (imported datasets): Markdown goes through `escape_md`, HTML through
`escape_html`, URLs through `quote`.
"""
from __future__ import annotations

from urllib.parse import quote

from ui.inspect_handlers import InspectError, changed_mark, item_md, parse_work_id
from ui.text import escape_html, escape_md, short

# The link box shows the page's address with only `?response=<id>`: run in the browser
# whenever the open response changes (the server does not know the address it is reached by).
LINK_JS = ("(id) => { if (!id) return ''; const u = new URL(window.location.href);"
           " u.search = ''; u.hash = ''; u.searchParams.set('response', id);"
           " return u.toString(); }")


def version_md(view: dict) -> str:
    return escape_md(view["version"]["message"])


def _box_md(box: dict, images: list) -> str:
    k = images.index(box.get("image")) + 1 if box.get("image") in images else "?"
    coords = ", ".join(f"{float(box.get(c) or 0):.0f}" for c in ("x0", "y0", "x1", "y1"))
    return f"image {k} [{coords}]"


def _clue_md(j: int, clue: dict, images: list, fields: list) -> str:
    boxes = clue.get("boxes") or []
    where = "; ".join(_box_md(b, images) for b in boxes[:4]) + \
        (f" and {len(boxes) - 4} more" if len(boxes) > 4 else "")
    parts = [f"- **GT{j + 1}**{changed_mark(fields, f'clues[{j}]')} "
             f"{escape_md(short(clue.get('text'), 300))}"]
    if clue.get("reasoning"):
        parts.append(f"*{escape_md(short(clue['reasoning'], 300))}*")
    parts.append(f"boxes: {escape_md(where)}" if boxes else "no box")
    return " · ".join(parts)


def old_gt_md(view: dict) -> str:
    """The ground truth the response was judged against, when the item changed since; ""
    when it did not (or that version is not in the history)."""
    version = view["version"]
    then = version.get("then_item")
    if not version["changed"] or not then:
        return ""
    fields = version["fields"]
    images = then.get("images") or []
    clues = then.get("clues") or []
    now_clues = len((view["item"] or {}).get("clues") or [])
    lines = [f"#### Ground truth of version {version['then']} (the response was made with "
             f"it and judged against it)", item_md(then, fields)]
    if images != (view["item"] or {}).get("images"):
        lines.append(f"**Images:** {len(images)} then *(changed since: "
                     f"{len((view['item'] or {}).get('images') or [])} now)*")
    head = f"**GT clues then:** {len(clues)}"
    if now_clues != len(clues):
        head += f" *(now {now_clues})*"
    lines.append(head + ("\n\n" + "\n".join(_clue_md(j, c, images, fields)
                                            for j, c in enumerate(clues)) if clues else ""))
    return "\n\n".join(lines)


def item_link_html(item_id: str | None) -> str:
    """A link that opens the item in the annotation workspace, in a new tab."""
    if not item_id:
        return ""
    href = "./?item=" + quote(str(item_id), safe="")   # the Annotate page, from /inspect
    return (f'<a id="inspect-open-item-link" href="{escape_html(href)}" target="_blank" '
            f'rel="noopener noreferrer">✎ Open {escape_html(item_id)} in the annotation '
            "workspace ↗</a>")


def deep_link_id(query_params) -> int | None:
    """The response a page address names (`?response=<id>`), None when it names none;
    InspectError when the value is not a response number."""
    value = (query_params or {}).get("response")
    if value is None or not str(value).strip():
        return None
    if not str(value).strip().lstrip("#").isdigit():
        # not quoted (parse_work_id quotes what was typed): the address bar shows it, and
        # a crafted link put its own words in the warning
        raise InspectError("the response in this page's address is not a response number")
    return parse_work_id(value)
