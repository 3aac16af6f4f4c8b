"""Label Studio JSON export (`export --format labelstudio`): tasks to review boxes there.

One task per (item, context image): `data.image` is the image file copied to
`<OUT stem>_images/` (relative path; serve the folder with Label Studio's local-files
storage or rewrite the prefix), plus the item id, question, answer and the image's position.
The clue boxes of that image are one `annotations` entry of `rectanglelabels` results, with
x, y, width, height in percent of the image and original_width/original_height, the clue
text in `meta.text`. The matching labelling config is in docs/FORMATS.md.
"""
from __future__ import annotations

import json
from pathlib import Path

from .media_export import ImageWriter

LABEL = "clue"


def export(store, out: Path, dataset: str | None = None, images=None) -> dict:
    """`images`: formats/media_export.ImageSink (None: the folder beside `out`)."""
    out = Path(out)
    writer = ImageWriter(store, out, images)
    tasks, items, regions = [], 0, 0
    for item in store.iter_items(dataset=dataset):
        items += 1
        for position, sha in enumerate(item.get("images") or [], start=1):
            info = writer.info(sha)
            results = image_results(item, sha, info["width"], info["height"])
            regions += len(results)
            task = {"data": {"image": writer.relative(sha), "item_id": item["id"],
                             "image_index": position, "question": item.get("question", ""),
                             "answer": item.get("answer", "")},
                    "meta": {"item_id": item["id"], "sha256": sha}}
            if results:
                task["annotations"] = [{"result": results,
                                        "meta": {"source": "cluelab ground truth"}}]
            tasks.append(task)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(tasks, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return {"format": "labelstudio", "items": items, "tasks": len(tasks), "regions": regions,
            "images": writer.count,
            "paths": [str(out)] + ([str(writer.folder)] if writer.count else [])}


def image_results(item: dict, sha: str, width: int, height: int) -> list[dict]:
    """The rectanglelabels results of every clue box lying on image `sha`."""
    results = []
    for number, clue in enumerate(item.get("clues") or [], start=1):
        for k, box in enumerate(clue.get("boxes") or [], start=1):
            if box["image"] != sha:
                continue
            results.append({
                "id": f"c{number}b{k}", "type": "rectanglelabels",
                "from_name": "label", "to_name": "image",
                "original_width": width, "original_height": height, "image_rotation": 0,
                "value": {"x": 100.0 * box["x0"] / width, "y": 100.0 * box["y0"] / height,
                          "width": 100.0 * (box["x1"] - box["x0"]) / width,
                          "height": 100.0 * (box["y1"] - box["y0"]) / height,
                          "rotation": 0, "rectanglelabels": [LABEL]},
                "meta": {"text": [clue.get("text", "")], "clue": number,
                         "reasoning": clue.get("reasoning", "")}})
    return results
