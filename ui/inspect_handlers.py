"""The side-by-side view of one response, its zooms and the compare view, as plain functions.

Each takes plain values (a work id, a row index) and returns plain values: escaped Markdown,
HTML built here from escaped parts, table rows (pandas, with cell colours), image file paths.
Model output and judge text are untrusted: they go into tables and text boxes (shown as
text), and into Markdown only through `ui.text.escape_md`. Model- and judge-written text
carries no live text-direction control to the page: a text shown as received (the output,
the verdict detail) and every table cell (ui/table_cells.py, for all read-only tables) show
each as "⟨U+202E⟩" (`ui.text.marks_shown`), and so do the item's texts in the Ground truth
lines (`item_md`); other Markdown lines strip and isolate them (`ui.text.isolated`).
"""
from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor

import pandas as pd

from judges.gold_check import readable_gold
from runner.totals import LABELS, counter
from ui.inspect_overlay import GREY, Overlays
from ui.inspect_view import response_view
from ui.text import escape_md, isolated, marks_shown, short

GT_HEADERS = ["clue", "text", "reasoning", "boxes", "model"]
MODEL_HEADERS = ["clue", "text", "box", "matched GT clue (who says)", "judge labels"]
VERDICT_HEADERS = ["protocol", "judge", "verdict", "score", "decided by", "rationale"]
_POOL = ThreadPoolExecutor(max_workers=2, thread_name_prefix="inspect-overlay")
_PREFETCH = ThreadPoolExecutor(max_workers=1, thread_name_prefix="inspect-prefetch")
VALUE_COLORS = {"correct": "#d3f9d8", "wrong": "#ffe3e3", "error": "#ffe3e3",
                "unparsed": "#fff3bf", "unscored": "#e9ecef"}


class InspectError(ValueError):
    """Shown to the user as a message."""


def parse_work_id(value) -> int:
    text = str(value if value is not None else "").strip().lstrip("#")
    if not text.isdigit():
        raise InspectError(f"{short(text, 60)!r} is not a response number; enter the work id "
                           "shown in the list")
    return int(text)


def _chip(color: str) -> str:
    return f"background-color: {color}; color: white; font-weight: 600"


def _styled(frame: pd.DataFrame, colors: dict[int, str], column: str):
    """The frame with cells of `column` coloured per row (clue colours)."""
    if frame.empty:
        return frame

    def paint(series):
        return [_chip(colors[i]) if i in colors else "" for i in range(len(series))]

    return frame.style.apply(paint, subset=[column], axis=0)


def _box_text(box) -> str:
    try:
        return "[" + ", ".join(f"{float(v):.0f}" if abs(float(v)) >= 2 else f"{float(v):.3g}"
                               for v in box) + "]"
    except (TypeError, ValueError):
        return str(box)


def gt_table(view: dict):
    rows, colors = [], {}
    has_matching = bool(view["matches"])
    for n, clue in enumerate(view["gt_clues"]):
        said = [f"✓ {m}" for m in clue["matched_by"]]
        if clue["missed_by"]:
            said.append("✗ missed (" + ", ".join(clue["missed_by"]) + ")")
        rows.append([clue["label"], clue["text"], clue["reasoning"], len(clue["boxes"]),
                     "; ".join(said) if has_matching else "— (no clue matching)"])
        colors[n] = clue["color"]
    return _styled(pd.DataFrame(rows, columns=GT_HEADERS), colors, "clue")


MODEL_CLUES = "Model clues (click one to zoom)"


def model_clues_label(view: dict) -> str:
    """The model clue table's title, saying whose match the colours follow (the judge
    chosen above when it matched the clues): the colour followed the offline matcher while
    the chosen judge's labels in the same table said otherwise."""
    whose = view.get("colour_by") or []
    if whose and view.get("colour_fallback"):        # not the chosen judge's: why, in words
        return (f"{MODEL_CLUES} · coloured by {' / '.join(whose)}, not the chosen judge: "
                f"{view['colour_fallback']}")
    return f"{MODEL_CLUES} · colour: the GT clue matched by {' / '.join(whose)}" if whose \
        else MODEL_CLUES


def model_table(view: dict):
    rows, colors = [], {}
    convention = view["response"].get("box_convention") or ""
    for n, clue in enumerate(view["model_clues"]):
        boxes = "; ".join(_box_text(b) for b in clue["raw_boxes"])
        matched = ", ".join(
            f"GT{m['gt'] + 1} ({m['who']}"
            + (f", {m['score']:.0f}" if m["who"].startswith("matcher") else "") + ")"
            for m in clue["matches"]) or "—"
        source = "" if clue["source"] == "clue list" else f" [{clue['source']}]"
        rows.append([clue["label"], clue["text"] + source,
                     f"{boxes} {convention}".strip() if boxes else "", matched,
                     "; ".join(clue["labels"])])
        colors[n] = clue["color"]
    if not rows:      # said, not left as an empty table (and never filled with a guess)
        response = view["response"]
        cut = response.get("status") == "truncated"
        said = NO_CLUES_CUT if cut else NO_CLUES if (response.get("text") or "").strip() \
            else no_reply(response)
        rows.append(["—", said, "", "", ""])
    return _styled(pd.DataFrame(rows, columns=MODEL_HEADERS), colors, "clue")


NO_CLUES = ("no clues stated: the output has no clue list and no reasoning besides its "
            "answer")
NO_CLUES_CUT = ("no clues stated: the reply was cut off (finish_reason length) with no whole "
                "clue list, and a cut reply's sentences are not offered as clues")


def no_reply(response: dict) -> str:
    """A response with no reply (never asked: no source clue; a failed call): "no clues
    stated: the output has no clue list …" spoke of an output there never was."""
    why = response.get("reason") or response.get("error") or response.get("status") or ""
    return "no reply to read clues from" + (f": {why}" if why else "")


def _score(v) -> str:
    return "" if v is None else f"{v:.2f}".rstrip("0").rstrip(".") if v % 1 else f"{v:.0f}"


def value_styled(frame: pd.DataFrame, columns: list[str], extra=None):
    if frame.empty:
        return frame

    def paint(series):     # 'wrong (AC 3, CC 5, …)': coloured by its verdict
        values = [str(v).split(" (")[0] for v in series]
        return [f"background-color: {VALUE_COLORS[v]}" if v in VALUE_COLORS else ""
                for v in values]

    styler = frame.style.apply(paint, subset=columns, axis=0)
    return extra(styler) if extra else styler


def verdict_table(view: dict):
    rows = []
    for v in view["verdicts"]:
        rationale = v["rationale"]
        if v["subscores"] and v["protocol"] == "verbench":
            rationale = " ".join(f"{k} {x:g}" for k, x in v["subscores"].items()
                                 if isinstance(x, (int, float))) + " · " + rationale
        rows.append([v["protocol"], v["judge"], v["value"], _score(v["score"]),
                     v["decided_by"], short(rationale, 300)])
    return value_styled(pd.DataFrame(rows, columns=VERDICT_HEADERS), ["verdict"])


def verdict_detail(view: dict, row: int | None) -> str:
    """Plain text (shown in a text box): a verdict's full rationale, details, prompt, reply."""
    verdicts = view["verdicts"]
    if row is None or not 0 <= row < len(verdicts):
        return ""
    v = verdicts[row]
    parts = [f"{v['protocol']} · {v['judge']} · {v['value']} (decided by {v['decided_by']}, "
             f"{v['created_at']})", "", "Rationale:", v["rationale"] or "(none)", "",
             "Details:", json.dumps(v["details"], indent=1, ensure_ascii=False)]
    if v["subscores"]:
        parts += ["", "Sub-scores:", json.dumps(v["subscores"], ensure_ascii=False)]
    if v.get("judge_prompt"):
        parts += ["", "Judge prompt:", v["judge_prompt"]]
    if v.get("judge_reply"):
        parts += ["", "Judge reply:", v["judge_reply"]]
    return marks_shown("\n".join(parts))


def output_text(view: dict) -> str:
    """The model's output as received, for its text box: each text-direction control shown
    as its code (a reply "\u202eC :rewsnA\u202c" read "Answer: C" though stored reversed)."""
    return marks_shown(view["response"].get("text") or "")


def header_md(view: dict) -> str:
    r = view["response"]
    tokens = f" · {r['completion_tokens']} output tokens" if r.get("completion_tokens") else ""
    # the run the reply was cached from by its label, as the README names runs (it named
    # none, then its id)
    named = view.get("cached_from") or r.get("cached_from")
    source = f" from {escape_md(named)}" if named else " from an earlier run"
    latency = f" · cached reply{source}" if r.get("cached") else \
        f" · {r['latency']:.1f} s" if r.get("latency") else ""
    return (f"**Response {r['work_id']}** · run {escape_md(view['run_label'])} · item "
            f"**{escape_md(r['item_id'])}** · repeat {r['repeat']}, sample {r['sample']}"
            f"{tokens}{latency}")


def changed_mark(fields, name: str) -> str:
    """" *(changed since)*" when a diff's field list touches `name` (or its parts)."""
    moved = name[:-1] + ">" if name.endswith("]") else None     # "clues[2>1].text": moved up
    hit = any(f == name or f.startswith((name + "[", name + ".")) or
              (moved and f.startswith(moved)) for f in fields or ())
    return " *(changed since)*" if hit else ""


def item_md(item: dict, changed=()) -> str:
    """Question, gold answer, aliases, options and GT reasoning of an item dict (a revision
    snapshot too), escaped; parts named in `changed` (diff fields) are marked. A location's
    gold and aliases read as people read them (`readable_gold`), alike. Each text's
    direction controls written as codes (`marks_shown`): an option's U+202E reversed the
    next option and moved the gold answer's parenthesis (a review, round 27)."""
    answer = str(item.get("answer") or "")
    option = next((o for o in item.get("options") or [] if o.get("label") == answer), None)
    text = f" ({_shown(short(option.get('text'), 120))})" if option and option.get("text") \
        else ""
    parts = [f"**Question:**{changed_mark(changed, 'question')} "
             f"{_shown(item.get('question'))}",
             f"**Gold answer:**{changed_mark(changed, 'answer')} "
             f"{_shown(readable_gold(answer)) or '(none)'}{text}"]
    if item.get("aliases"):
        parts.append(f"**Aliases:**{changed_mark(changed, 'aliases')} "
                     + ", ".join(_shown(readable_gold(a)) for a in item["aliases"]))
    if item.get("options"):
        parts.append(f"**Options:**{changed_mark(changed, 'options')} " + " · ".join(
            f"{_shown(o.get('label'))}. {_shown(short(o.get('text'), 60)) or '(image)'}"
            for o in item["options"]))
    if item.get("gt_reasoning"):
        parts.append(f"**GT reasoning:**{changed_mark(changed, 'gt_reasoning')} "
                     f"{_shown(item['gt_reasoning'])}")
    return "\n\n".join(parts)


def _shown(text) -> str:
    """Imported text escaped, its direction controls written out as codes."""
    return escape_md(marks_shown(text))


def gold_md(view: dict) -> str:
    return item_md(view["item"]) if view["item"] is not None else \
        "**The item no longer exists.**"


def answer_md(view: dict) -> str:
    r = view["response"]
    if r.get("status") is None:
        return "**No result yet** (the work row is pending)."
    # in words as the gold beside it ("$canada,qc$" read raw beside "Canada, Quebec")
    answer = escape_md(isolated(readable_gold(r["answer"]))) if r.get("answer") is not None \
        else "(none)"
    reason = f" · {escape_md(isolated(short(r.get('reason'), 200)))}" if r.get("reason") else ""
    status = counter(r["status"], r.get("reason"))     # "no source clue", as counted
    return (f"**Extracted answer:** {answer} · status "
            f"**{escape_md(LABELS.get(status, status))}**{reason}")


def image_choices(view: dict) -> list[tuple[str, str]]:
    """(label, value) per image of the item; the label counts the boxes drawn on it."""
    out = []
    for k in range(len(view["images"])):
        gt, model = len(gt_specs(view, k)), len(model_specs(view, k))
        out.append((f"image {k + 1} · {gt} GT box{'es' * (gt != 1)}, {model} model "
                    f"box{'es' * (model != 1)}", f"image {k + 1}"))
    return out


def image_index(choice) -> int:
    text = str(choice or "").removeprefix("image ").strip()
    return int(text) - 1 if text.isdigit() else 0


def gt_specs(view: dict, k: int) -> list[dict]:
    return [{"box": b["box"], "color": c["color"], "label": c["label"]}
            for c in view["gt_clues"] for b in c["boxes"] if b["image"] == k]


def model_specs(view: dict, k: int) -> list[dict]:
    return [{"box": b["box"], "color": c["color"], "label": c["label"], "dashed": True}
            for c in view["model_clues"] for b in c["boxes"] if b["image"] == k]


def right_specs(view: dict, k: int) -> list[dict]:
    """What the model side draws on image k: the model's boxes dashed, over the GT boxes as
    thin unlabelled outlines."""
    return [{**s, "label": "", "thin": True} for s in gt_specs(view, k)] + model_specs(view, k)


def model_overlays(overlays: Overlays, view: dict) -> list[tuple[str, str]]:
    """(path, caption) of the model side of every image of the item, in order."""
    return [(overlays.overlay(sha, right_specs(view, k)), label)
            for k, (sha, (label, _)) in enumerate(zip(view["images"], image_choices(view)))]


def overlays_for(overlays: Overlays, view: dict, k: int) -> tuple[str | None, str | None]:
    """(GT overlay, model overlay) of image k: GT boxes solid on the left; on the right the
    model's boxes dashed, with the GT boxes as thin outlines for reference. Both are drawn
    at once (Pillow decodes and encodes without the GIL) when not cached yet."""
    if not view["images"]:
        return None, None
    k = min(max(k, 0), len(view["images"]) - 1)
    sha = view["images"][k]
    gt, model = gt_specs(view, k), right_specs(view, k)
    if overlays.path_of(sha, gt).exists() or overlays.path_of(sha, model).exists():
        return overlays.overlay(sha, gt), overlays.overlay(sha, model)
    overlays.warm(sha)  # the display copy, decoded once for both
    pending = _POOL.submit(overlays.overlay, sha, model)
    return overlays.overlay(sha, gt), pending.result()


def prefetch(store, overlays: Overlays, work_id) -> None:
    """Draw the overlays of the response likely opened next (J / next), in the background."""
    def warm():
        try:
            overlays_for(overlays, response_view(store, int(work_id)), 0)
        except Exception:  # a warm-up only: the real open reports any problem
            pass
    if work_id is not None:
        _PREFETCH.submit(warm)  # its own thread: warm() waits on _POOL


ZOOM_HINT = "Click a GT or model clue to zoom to its box at full resolution."


def zoom(overlays: Overlays, view: dict, kind: str, row: int | None) -> tuple[str | None, str]:
    """(crop path, caption) for a click on a GT clue ("gt") or model clue ("model") row;
    (None, the hint or why there is nothing to zoom to) when there is no crop."""
    rows = view["gt_clues"] if kind == "gt" else view["model_clues"]
    if row is None or not 0 <= row < len(rows):
        return None, ZOOM_HINT
    clue = rows[row]
    if not clue["boxes"]:
        return None, f"**{escape_md(clue['label'])}** has no box to zoom to."
    box = clue["boxes"][0]
    spec = {"box": box["box"], "color": clue["color"] if kind == "gt" else
            (clue["color"] if clue["color"] != GREY else "#222222"),
            "label": clue["label"], "dashed": kind == "model"}
    x0, y0, x1, y1 = box["box"]
    more = f" (first of {len(clue['boxes'])} boxes)" if len(clue["boxes"]) > 1 else ""
    caption = (f"**{escape_md(clue['label'])}** on image {box['image'] + 1}: "
               f"{escape_md(isolated(short(clue['text'], 160)))} · box ({x0:.0f}, {y0:.0f}) – "
               f"({x1:.0f}, {y1:.0f}) px, full resolution{more}")
    return overlays.zoom(view["images"][box["image"]], spec), caption


def open_view(store, work_id, judge: str | None = None) -> dict:
    """The view of a response, its model clues coloured as `judge` (the list's) matched them."""
    try:
        return response_view(store, parse_work_id(work_id), judge)
    except KeyError as error:  # NotFoundError
        raise InspectError(str(error)) from None
