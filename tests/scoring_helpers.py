"""Hand-made runs for scoring tests: real items and run rows in a real SQLite store, with
responses written through the store exactly as the engine writes them (no model call)."""
from __future__ import annotations

import contextlib
import io

from domain.item_ids import NAME_MARKUP
from runner.outcomes import from_failure, from_reply
from tests.conftest import png_bytes

NOT_RUN = object()   # a reply of make_run's that leaves the work pending (a cancelled run)


def add_items(store, specs: list[dict], width: int = 100, height: int = 80) -> list[str]:
    """specs: {"id", "answer_type", "answer", "domain", "subtask", "clues"?, "options"?}."""
    sha = store.add_image(png_bytes(width, height, (40, 90, 160)), "scene.png").sha256
    for spec in specs:
        item = {"dataset": spec["id"].split("/")[0], "question": f"Question {spec['id']}?",
                "options": [], "aliases": [], "status": "draft", "images": [sha],
                "clues": [], "reasoning_type": None, **spec}
        if item["answer_type"] == "multiple_choice" and not item["options"]:
            item["options"] = [{"label": L, "text": f"option {L}", "image": None}
                               for L in "ABCD"]
        # a hostile name ("Dom <b>") is refused for new items now (domain/item_ids NAME_MARKUP):
        # written afterwards, as a database from before that rule holds it, to test escaping
        legacy = {f: item.pop(f) for f in ("domain", "subtask", "reasoning_type")
                  if isinstance(item.get(f), str) and any(c in NAME_MARKUP for c in item[f])}
        store.create_item(item, "test")
        write_legacy_names(store, item["id"], legacy)
    return [s["id"] for s in specs]


def write_legacy_names(store, item_id: str, names: dict) -> None:
    """Write {field: name} (domain, subtask, reasoning_type) into the item as a database from
    before the markup rule holds it (the store refuses them on a save now), to test that
    such names still reach the browser escaped."""
    with store.atomic():
        for field, value in names.items():
            store.db.conn.execute(f"UPDATE items SET {field} = ? WHERE id = ?",
                                  [value, item_id])


def make_run(store, run_id: str, replies: dict, *, model: str = "m", setting: str = "cot",
             clues: str = "none", samples: int = 1, repeats: int = 1,
             image_max_pixels: int | None = None, sent_size=(100, 80),
             preset: str | None = None, asked: int | None = None,
             cached_from: str | None = None, sampling: dict | None = None,
             box_convention: str | None = None) -> str:
    """replies: {item_id: text, or a list of texts (samples x repeats, sample-major within
    each repeat), None meaning the call failed, NOT_RUN that it was never sent}; `preset`:
    the run was started with that preset (runner.config.PRESETS); `asked`: the items the
    run was planned on, as the engine's config says it (`items.count`); `cached_from`:
    every reply was taken from the cache, made by that run (a dict {repeat: run}: the
    replies of those repeats only); `sampling`: the sampling parameters it was run with
    ({"temperature": 0.2}), recorded as the engine records them (given and resolved);
    `box_convention`: the one the run states (None: auto, not recorded)."""
    config = {"endpoint": {"name": "e", "base_url": "http://x/v1", "model": model},
              "setting": setting, "clues": clues, "image_mode": "full",
              "image_max_pixels": image_max_pixels, "samples": samples, "repeats": repeats,
              **({"preset": preset} if preset else {}),
              **({"items": {"count": asked}} if asked else {}),
              **({"box_convention": box_convention} if box_convention else {}),
              **({"sampling": dict(sampling), **sampling} if sampling is not None else {})}
    work = [("answer", item_id, r, s, None, None) for item_id in replies
            for r in range(repeats) for s in range(samples)]
    store.create_run(run_id, f"cfg-{run_id}", config, {}, "e", work)
    rows = []
    for w in store.pending_work(run_id):
        item = store.get_item(w["item_id"])
        source = cached_from.get(w["repeat"]) if isinstance(cached_from, dict) else cached_from
        texts = replies[w["item_id"]]
        text = texts[w["repeat"] * samples + w["sample"]] if isinstance(texts, list) else texts
        if text is NOT_RUN:
            continue
        if text is None:
            rows.append(from_failure(w["id"], "HTTP 500 from test"))
            continue
        rows.append(from_reply(w["id"], {"text": text, "finish_reason": "stop",
                                         "completion_tokens": len(text) // 4},
                               item["answer_type"], item["options"],
                               cache_key=source_key(store, source, w) or f"k{w['id']}",
                               price_cost=None, image_size=sent_size, cached_from=source,
                               box_convention=box_convention or "auto"))
    store.record_run_batch(run_id, "test", rows, [], {})
    return run_id


def source_key(store, source: str | None, work: dict) -> str | None:
    """The cache key of the reply `source` made for this work row's draw (item, repeat,
    sample): the key a run taking that reply from the cache records, as the runner's are."""
    if not source:
        return None
    return next((r["cache_key"] for r in store.run_results(source)
                 if (r["item_id"], r["repeat"], r["sample"]) ==
                 (work["item_id"], work["repeat"], work["sample"])), None)


def cli(*args) -> tuple[int, str, str]:
    """Run `python app.py <args>` in this process: (exit code, stdout, stderr)."""
    from cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([str(a) for a in args])
    return code, out.getvalue(), err.getvalue()


def runs_listed(out: str) -> dict[str, dict[str, str]]:
    """`runs`' listing read back: {run id: {column title: cell}}, each cell cut where its
    column title starts on the header line (cli/runs_commands.listing aligns them)."""
    import re

    header, *lines = out.splitlines()
    starts = [(m.start(), m.group()) for m in re.finditer(r"\S+", header)]
    ends = [start for start, _ in starts[1:]] + [None]
    rows = [{title: line[start:end].strip() for (start, title), end in zip(starts, ends)}
            for line in lines]
    return {row["run"]: row for row in rows}


def judge_says(store, run_id: str, judge: str, value_of) -> None:
    """`judge`'s own general verdicts of run `run_id`'s responses, as an LLM judge's would be
    written: `value_of(item_id)` each (the run scored offline first)."""
    store.upsert_scores([{"run_id": run_id, "protocol": "general", "judge": judge,
                          "work_id": r["work_id"], "answer": r["answer"],
                          "value": value_of(r["item_id"])}
                         for r in store.run_scores(run_id, "general", "offline")])


def page_text(markdown: str) -> str:
    """A Markdown line the app escaped (ui/text.escape_md) as the page shows its words: the
    entities read, the backslashes gone. For assertions on the words, not on the escaping."""
    import html
    return html.unescape(markdown).replace("\\", "")
