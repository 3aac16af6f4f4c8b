"""COCO detection JSON export (`export --format coco`): clue boxes as annotations.

One COCO image per distinct stored image of the exported items (files copied to
`<OUT stem>_images/`, `file_name` relative to that folder), one category per dataset
(`supercategory: "clue"`), one annotation per box with `bbox` [x, y, width, height] in
pixels, `area`, `iscrowd` 0 and the clue in `attributes` (item id, clue number, text,
reasoning), so the file loads with pycocotools and still says what each box means.
"""
from __future__ import annotations

import json
from pathlib import Path

from .media_export import ImageWriter


def export(store, out: Path, dataset: str | None = None, images=None) -> dict:
    """`images`: formats/media_export.ImageSink (None: the folder beside `out`)."""
    out = Path(out)
    writer = ImageWriter(store, out, images)
    images, annotations, categories = [], [], {}
    image_ids: dict[str, int] = {}
    items = 0
    for item in store.iter_items(dataset=dataset):
        items += 1
        category = categories.setdefault(item["dataset"], len(categories) + 1)
        for sha in item.get("images") or []:
            if sha not in image_ids:
                image_ids[sha] = len(image_ids) + 1
                info = writer.info(sha)
                images.append({"id": image_ids[sha],
                               "file_name": writer.relative(sha).split("/", 1)[1],
                               "width": info["width"], "height": info["height"],
                               "sha256": sha})
        for number, clue in enumerate(item.get("clues") or [], start=1):
            for box in clue.get("boxes") or []:
                width, height = box["x1"] - box["x0"], box["y1"] - box["y0"]
                annotations.append({
                    "id": len(annotations) + 1, "image_id": image_ids[box["image"]],
                    "category_id": category, "bbox": [box["x0"], box["y0"], width, height],
                    "area": width * height, "iscrowd": 0,
                    "attributes": {"item_id": item["id"], "clue": number,
                                   "text": clue.get("text", ""),
                                   "reasoning": clue.get("reasoning", "")}})
    document = {
        "info": {"description": "ClueLab clue boxes", "version": "1"},
        "images": images,
        "annotations": annotations,
        "categories": [{"id": cid, "name": name, "supercategory": "clue"}
                       for name, cid in categories.items()],
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(document, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return {"format": "coco", "items": items, "images": len(images),
            "annotations": len(annotations), "categories": len(categories),
            "paths": [str(out)] + ([str(writer.folder)] if writer.count else [])}
