"""One response as the Inspect tab shows it: plain data assembled from the store (no Gradio).

- the item's GT clues with their boxes and colours (the annotation workspace's palette), and
  per GT clue which model clue matched it, according to whom, or that the model missed it;
- the model's clues with their boxes converted to original-image pixels (as grounding does:
  pixel boxes refer to the image as sent, `domain.geometry.box_to_pixels`), which GT clue each
  matched and who said so: an LLM judge ("judge llm:x") or the offline matcher ("matcher
  offline:lexical"), and the judge's illusionary / useless labels;
- every verdict (protocol x judge) with its rationale;
- whether the item changed since the response was made (the run's planned item version,
  `run_work.item_version`, against the item's version now).

A judge may have read other clues than the response's clue list: the sentences of a free-form
reasoning (offline matcher) or clues it extracted itself (LLM judge); those lists are shown as
their own rows. When no stored verdict matched clues (the answer was wrong, so rigorous
scoring stopped early), the offline matcher is run now and said to be live: on the clue list,
or the sentences of a complete reply, never a cut reply's sentences (finish_reason length:
it stated no clue list, and its prose is no clue); where a stored verdict matched a cut
reply's sentences, they are its whole ones, named as a cut reply's.
"""
from __future__ import annotations

from domain.extract import whole_sentences
from domain.geometry import box_to_pixels, gt_clue_boxes
from domain.judge_ids import parse_judge

from judges.clue_match import DEFAULT_THRESHOLDS, match_clues
from judges.grounding import clue_boxes
from judges.llm import parse_extracted_clues
from scoring.offline import model_clues as offline_model_clues
from scoring.offline import sentence_clues
from scoring.compared import title
from scoring.no_boxes import shown_verdicts
from store import NotFoundError
from ui.conflict_show import diff_label
from ui.editor_model import clue_color
from ui.inspect_overlay import GREY

SENTENCES = "sentences of the reasoning"
CUT_SENTENCES = "whole sentences of a cut reply (finish_reason length)"
LIST_NAMES = {"clue list": "M", SENTENCES: "S", CUT_SENTENCES: "S"}


def _cut(response: dict) -> bool:
    return response.get("status") == "truncated"


def _judge_kind(verdict: dict) -> tuple[str, float]:
    """(who, match threshold) of a rigorous verdict."""
    judge, decided = verdict["judge"], verdict.get("decided_by") or ""
    decider = parse_judge(decided)
    if parse_judge(judge).is_llm or decider.is_llm:
        return f"judge {judge}", 100.0
    method = decider.method or "lexical"
    return f"matcher {decided or judge}", DEFAULT_THRESHOLDS.get(method, 70.0)


def _judged_list(verdict: dict, response: dict) -> tuple[str, list[dict]]:
    """(list key, clues) a rigorous verdict judged."""
    details = verdict["details"]
    source = details.get("clues_from") or "clue list"
    if source == "extracted by the judge":
        found, _ = parse_extracted_clues(details.get("extract_reply"))
        return f"extracted by {verdict['judge']}", _kept(found or [], details)
    if source == SENTENCES and _cut(response):     # as scoring read them: the whole ones
        return CUT_SENTENCES, sentence_clues(whole_sentences(response.get("text") or ""))
    if source == SENTENCES:
        return source, sentence_clues(response.get("text"))
    return "clue list", [c for c in response.get("clues") or []
                         if str(c.get("text") or "").strip()]


def _kept(found: list[dict], details: dict) -> list[dict]:
    """The extracted clues scoring kept (the judge's others were not in the reply:
    domain/extract/own_clues): shown all, a dropped one was E2 beside a rationale saying
    there is no clue 2, and the judge's labels, numbered over the kept ones, went unseen."""
    dropped = list(details.get("dropped_clues") or [])
    kept = []
    for clue in found:
        if clue.get("text") in dropped:
            dropped.remove(clue["text"])
        else:
            kept.append(clue)
    return kept


def _matches(verdicts: list[dict], response: dict, gt: list[dict]) -> list[dict]:
    """[{who, key, clues, best_gt, matched, scores, labels}] per judge that matched clues."""
    out = []
    for v in verdicts:
        details = v["details"]
        if v["protocol"] != "rigorous" or parse_judge(v["judge"]).is_panel or \
                not details.get("best_gt"):
            continue
        who, threshold = _judge_kind(v)
        key, clues = _judged_list(v, response)
        scores = details.get("clue_scores") or [100.0 if j is not None else 0.0
                                                for j in details["best_gt"]]
        labels = {}
        for kind in ("illusionary", "useless"):
            for entry in details.get(kind) or []:
                labels[int(entry.get("clue", 0)) - 1] = kind
        if who.startswith("judge "):      # an LLM judge's "match" is a label too (it was blank)
            for i, j in enumerate(details["best_gt"]):
                if j is not None:
                    labels.setdefault(i, "match")
        out.append({"who": who, "judge": v["judge"], "key": key, "clues": clues,
                    "best_gt": details["best_gt"],
                    "scores": scores, "labels": labels,
                    "matched": [j is not None and s >= threshold
                                for j, s in zip(details["best_gt"], scores)]})
    if not out and gt and response.get("status") not in (None, "error"):
        clues, source = offline_model_clues(response)
        # a cut reply's sentences are no clues it stated ("S1 Let me look at the image."):
        # only a stored verdict that matched them shows them, marked as a cut reply's
        if clues and not (source == SENTENCES and _cut(response)):
            match = match_clues(clues, gt, method="lexical")
            out.append({"who": "matcher lexical (live, not stored)", "judge": None,
                        "key": source,
                        "clues": clues, "best_gt": match.best_gt, "scores": match.scores,
                        "labels": {}, "matched": match.matched})
    return out


def _to_pixels(box, image: int | None, convention: str | None, sizes: list, max_pixels):
    k = image if image is not None and 0 <= image < len(sizes) else 0
    if not sizes or convention is None:
        return None, k
    return box_to_pixels(box, convention, sizes[k], max_pixels), k


def _colour(matches: list[dict], key: str, i: int, judge: str | None,
            found: list[dict]) -> tuple[str, str | None]:
    """(colour, whose match it follows) of model clue `i` of list `key`: the GT clue that
    `judge` (the one chosen in Inspect) matched it to, grey when that judge matched it to
    none; when that judge did not judge the list, the first match `found` (`who` says
    whose). It followed the offline matcher's "matched GT2" whatever the chosen judge said,
    beside that judge's "illusionary"."""
    chosen = next((m for m in matches if judge and m["judge"] == judge and m["key"] == key
                   and i < len(m["matched"])), None)
    if chosen is not None:
        return (clue_color(chosen["best_gt"][i]) if chosen["matched"][i] else GREY,
                chosen["who"])
    return (clue_color(found[0]["gt"]), found[0]["who"]) if found else (GREY, None)


def _model_rows(response: dict, matches: list[dict], sizes: list, config: dict,
                judge: str | None = None) -> list[dict]:
    lists = {"clue list": [c for c in response.get("clues") or []
                           if str(c.get("text") or "").strip()]}
    for m in matches:
        lists.setdefault(m["key"], m["clues"])
    rows = []
    for key, clues in lists.items():
        prefix = LIST_NAMES.get(key, "E")
        for i, clue in enumerate(clues):
            row = {"label": f"{prefix}{i + 1}", "source": key, "index": i,
                   "text": str(clue.get("text") or ""), "reasoning": clue.get("reasoning") or "",
                   "matches": [], "labels": [], "boxes": [], "raw_boxes": []}
            for m in matches:
                if m["key"] != key or i >= len(m["matched"]):
                    continue
                if m["matched"][i]:
                    row["matches"].append({"gt": m["best_gt"][i], "who": m["who"],
                                           "score": m["scores"][i]})
                if i in m["labels"]:
                    row["labels"].append(f"{m['labels'][i]} ({m['who']})")
            if key == "clue list":
                for image, box in clue_boxes(clue):
                    row["raw_boxes"].append(box)
                    pixels, k = _to_pixels(box, image, response.get("box_convention"), sizes,
                                           config.get("image_max_pixels"))
                    if pixels is not None and config.get("image_mode", "full") != "text_only":
                        row["boxes"].append({"image": k, "box": pixels})
            row["color"], row["colour_by"] = _colour(matches, key, i, judge, row["matches"])
            rows.append(row)
    return rows


def _gt_rows(item: dict, matches: list[dict], model_rows: list[dict]) -> list[dict]:
    rows = []
    for j, (clue, boxes) in enumerate(zip(item.get("clues") or [], gt_clue_boxes(item))):
        row = {"label": f"GT{j + 1}", "index": j, "text": clue.get("text") or "",
               "reasoning": clue.get("reasoning") or "", "color": clue_color(j), "boxes": boxes,
               "matched_by": [], "missed_by": []}
        for r in model_rows:
            for m in r["matches"]:
                if m["gt"] == j:
                    row["matched_by"].append(f"{r['label']} ({m['who']})")
        for m in matches:
            if not any(ok and m["best_gt"][i] == j for i, ok in enumerate(m["matched"])):
                row["missed_by"].append(m["who"])
        rows.append(row)
    return rows


def _fields(fields: list[str], limit: int = 8) -> str:
    if not fields:
        return "nothing visible"
    return ", ".join(fields[:limit]) + (f" and {len(fields) - limit} more" if len(fields) > limit
                                        else "")


def version_state(store, item_id: str, then: int | None, now: int | None) -> dict:
    """{"then", "now", "changed", "fields", "then_item", "message"}: did the item change
    since? When it did, `then_item` is the item as it was at version `then` (the revision
    snapshot: the GT the response was judged against) and `fields` what changed since."""
    out = {"then": then, "now": now, "changed": False, "fields": [], "then_item": None}
    if now is None:
        out["message"] = "⚠ The item no longer exists."
        return out
    if then is None:
        out["message"] = (f"The run did not record the item version it was made with; the "
                          f"item is at version {now}.")
        return out
    if then == now:
        out["message"] = f"Made with the item as it is now (version {now})."
        return out
    out["changed"] = True
    try:
        out["then_item"] = store.revision(item_id, then)
        out["fields"] = list(dict.fromkeys(d["field"] for d in store.diff_items(
            out["then_item"], store.revision(item_id, now))))
    except NotFoundError:
        out["fields"] = ["(revision not found)"]
    shown = (f"the ground truth of version {then}, which it was judged against, is shown "
             "below" if out["then_item"] else f"version {then} is not in the history")
    out["message"] = (f"⚠ The item changed since this response was made: version {then} → "
                      f"{now} (changed: {_fields([diff_label(f) for f in out['fields']])}). The boxes and clues shown "
                      f"are the current ones; {shown}.")
    return out


def _fallback(verdicts: list[dict], matches: list[dict], judge: str | None) -> str:
    """Why the colours do not follow the chosen `judge`: '<judge> gave no readable verdict
    for this reply' (its rigorous verdict has no clue match: unread, failed), '<judge> has not
    judged this reply', or '' when its matches colour the clues. The colours fell back to
    the offline matcher silently (a review)."""
    if not judge or any(m["judge"] == judge for m in matches):
        return ""
    judged = any(v["judge"] == judge and v["protocol"] == "rigorous" for v in verdicts)
    return f"{judge} gave no readable verdict for this reply" if judged else \
        f"{judge} has not judged this reply's clues"


def response_view(store, work_id: int, judge: str | None = None) -> dict:
    """Everything the side-by-side view shows for one response; a model clue's colour
    follows `judge`'s match when that judge matched the clues (`_colour`)."""
    response = store.response_detail(int(work_id))
    response["reason"] = reason_named(store, response.get("reason"))
    config = response["config"]
    try:
        item = store.get_item(response["item_id"])
    except NotFoundError:
        item = None
    verdicts = store.response_verdicts(response["run_id"], response["work_id"])
    gt = (item or {}).get("clues") or []
    images = (item or {}).get("images") or []
    sizes = []
    for sha in images:
        info = store.image_info(sha)
        sizes.append((info["width"], info["height"]))
    matches = _matches(verdicts, response, gt)
    model_rows = _model_rows(response, matches, sizes, config, judge)
    return {
        "response": response, "config": config, "item": item, "images": images,
        "sizes": sizes, "verdicts": shown_verdicts(verdicts, config), "matches": matches, "model_clues": model_rows,
        "gt_clues": _gt_rows(item, matches, model_rows) if item else [],
        "colour_by": list(dict.fromkeys(r["colour_by"] for r in model_rows
                                        if r["colour_by"])),
        "colour_fallback": _fallback(verdicts, matches, judge),
        "version": version_state(store, response["item_id"], response["item_version"],
                                 item["version"] if item else None),
        # by its table label, as the Results page names it (the picker's form: labelled)
        "run_label": title(store, response["run_id"]),
        "cached_from": title(store, response["cached_from"])
        if response.get("cached_from") else None,
    }


def reason_named(store, reason: str | None) -> str | None:
    """A row's reason with the source run of a clue injection named by its label ("no clues
    from run a-clues ..."), as everything else names runs (`scoring.source_clues.
    named_reason`): it read "no clues from run 20261207-064552-1835"."""
    from scoring.source_clues import named_reason

    return named_reason(store, reason)


def verdict_key(v: dict) -> tuple[str, str]:
    return v["protocol"], v["judge"]


def compare_verdicts(a: list[dict], b: list[dict]) -> list[dict]:
    """Per (protocol, judge) in either response: both values and what differs ("differs":
    "verdict", "sub-scores", "score" or ''). A VER-Bench verdict is shown with its four
    sub-scores (`shown_verdict`): "◆ differs" on a row reading "wrong → wrong" (AC 3 vs 0)
    named no difference one could see."""
    va, vb = {verdict_key(v): v for v in a}, {verdict_key(v): v for v in b}
    out = []
    for key in sorted(set(va) | set(vb), key=lambda k: (
            ("general", "rigorous", "grounded", "verbench").index(k[0])
            if k[0] in ("general", "rigorous", "grounded", "verbench") else 9, k[1])):
        x, y = va.get(key), vb.get(key)
        out.append({"protocol": key[0], "judge": key[1],
                    "a": shown_verdict(x), "b": shown_verdict(y),
                    "a_value": x["value"] if x else "—", "b_value": y["value"] if y else "—",
                    "a_score": x["score"] if x else None, "b_score": y["score"] if y else None,
                    "differs": what_differs(x, y)})
    return out


def _subscores(v: dict) -> dict:
    return {k: x for k, x in (v.get("subscores") or {}).items() if isinstance(x, (int, float))}


def shown_verdict(v: dict | None) -> str:
    """'wrong', or a VER-Bench verdict with its sub-scores: 'wrong (AC 3, CC 5, RQ 6, ER 4)'."""
    if v is None:
        return "—"
    scores = _subscores(v)
    if v["protocol"] == "verbench" and scores:
        return f"{v['value']} ({', '.join(f'{k} {x:g}' for k, x in scores.items())})"
    return v["value"]


def what_differs(x: dict | None, y: dict | None) -> str:
    """'verdict' when the values differ, 'sub-scores' when only VER-Bench's sub-scores do,
    'score' when only another score does, '' when nothing (or one side has no verdict)."""
    if not (x and y):
        return ""
    if x["value"] != y["value"]:
        return "verdict"
    if _subscores(x) != _subscores(y):
        return "sub-scores"
    return "score" if x["score"] != y["score"] else ""
