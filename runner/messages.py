"""Chat messages for one item x setting x clue source x image mode, in two steps.

1. `build_messages` lays out the request with every image as an `ImageRef` (content hash +
   what to do to it: mask, crop, resize, format). This is cheap and is all the cache key
   needs (runner/cache.py), so a cached request never touches an image.
2. `materialise` turns the refs into OpenAI `image_url` parts with base64 data URLs, via an
   `ImageEncoder` that reads the store's original files and remembers recent encodings
   (samples and repeats of an item send the same images).

Layout: the images first (each labelled "Image k" when there are several, so the text can
refer to them), then the question, options, injected clues; the system prompt carries the
setting's procedure and the answer format.
"""
from __future__ import annotations

import collections
from dataclasses import dataclass
from typing import Any

from runner.prompts import PromptSet, format_options


@dataclass(frozen=True)
class ImageRef:
    """One image as sent: the stored original `sha` and the transformation applied to it.

    op: "full", "mask" (`boxes` blacked out or blurred, `style`) or "crop" (`boxes[0]`).
    max_pixels / format / quality: the run's preprocessing, applied after mask or crop.
    """
    sha: str
    op: str = "full"
    boxes: tuple[tuple[float, float, float, float], ...] = ()
    style: str = "black"
    max_pixels: int | None = None
    format: str = "jpeg"
    quality: int = 90

    def key_fields(self) -> dict:
        return {"image": self.sha, "op": self.op, "boxes": [list(b) for b in self.boxes],
                "style": self.style if self.op == "mask" else None,
                "max_pixels": self.max_pixels, "format": self.format,
                "quality": self.quality if self.format in ("jpeg", "webp") else None}


@dataclass(frozen=True)
class ImageOptions:
    mode: str = "full"              # full | text_only | clue_masked | clue_crops
    mask_style: str = "black"
    max_pixels: int | None = None
    format: str = "jpeg"
    quality: int = 90

    def ref(self, sha: str, op: str = "full", boxes: tuple = ()) -> ImageRef:
        return ImageRef(sha, op, tuple(boxes), self.mask_style, self.max_pixels, self.format,
                        self.quality)


def _box(b: dict) -> tuple[float, float, float, float]:
    return (float(b["x0"]), float(b["y0"]), float(b["x1"]), float(b["y1"]))


def plan_images(item: dict, images: ImageOptions) -> list[tuple[str, ImageRef]]:
    """The images to send, in order, each with its role: ("context", ref),
    ("crop:<n>", ref) for a crop of a box of clue n, ("option:<label>", ref)."""
    if images.mode == "text_only":
        return []
    boxes = [(n, b) for n, clue in enumerate(item.get("clues") or [], 1)
             for b in clue.get("boxes") or []]
    planned = []
    for sha in item.get("images") or []:
        on_image = tuple(_box(b) for _, b in boxes if b["image"] == sha)
        if images.mode == "clue_masked" and on_image:
            planned.append(("context", images.ref(sha, "mask", on_image)))
        else:
            planned.append(("context", images.ref(sha)))
    if images.mode == "clue_crops":
        for n, b in boxes:
            planned.append((f"crop:{n}:{b['image']}", images.ref(b["image"], "crop", (_box(b),))))
    for option in item.get("options") or []:
        if option.get("image"):
            planned.append((f"option:{option['label']}", images.ref(option["image"])))
    return planned


def _label(number: int, role: str, context_numbers: dict[str, int]) -> str:
    if role.startswith("option:"):
        return f"Image {number} (option {role.split(':', 1)[1]}):"
    if role.startswith("crop:"):
        _, clue, sha = role.split(":", 2)
        source = context_numbers.get(sha)
        where = f" of Image {source}" if source else ""
        return f"Image {number} (close-up of a region{where}):"
    return f"Image {number}:"


def build_messages(item: dict, setting: str, prompts: PromptSet, images: ImageOptions,
                   clues: list[str] | None = None) -> list[dict]:
    """The chat messages with images as ImageRef parts (see module docstring).

    `clues` is the injected clue texts (None: no clue block; [] is refused by the caller).
    """
    planned = plan_images(item, images)
    labelled = len(planned) > 1
    context_numbers: dict[str, int] = {}
    option_numbers: dict[str, int] = {}
    content: list[Any] = []
    for number, (role, ref) in enumerate(planned, 1):
        if role == "context":
            context_numbers.setdefault(ref.sha, number)
        if role.startswith("option:"):
            option_numbers[role.split(":", 1)[1]] = number
        if labelled:
            content.append({"type": "text", "text": _label(number, role, context_numbers)})
        content.append(ref)
    note = (f"The {len(planned)} images are numbered Image 1 to Image {len(planned)} "
            "in the order shown." if labelled else "")
    options = format_options(item.get("options") or [], option_numbers,
                             images_shown=images.mode != "text_only")
    text = prompts.user(item["question"], options, clues, note)
    content.append({"type": "text", "text": text})
    system = prompts.system(setting, item.get("answer_type") or "open", clues is not None)
    return [{"role": "system", "content": system}, {"role": "user", "content": content}]


def image_refs(messages: list[dict]) -> list[ImageRef]:
    return [part for m in messages if isinstance(m["content"], list)
            for part in m["content"] if isinstance(part, ImageRef)]


class ImageEncoder:
    """ImageRef -> data URL, from the store's original files, with a small LRU memory.

    Thread-safe enough for the engine's use: it is called from worker threads, and a race
    only means an image is encoded twice.
    """

    def __init__(self, store, memory: int = 64):
        self.store = store
        self.memory = memory
        self._recent: collections.OrderedDict[ImageRef, str] = collections.OrderedDict()
        self._paths: dict[str, Any] = {}

    def path(self, sha: str):
        if sha not in self._paths:
            self._paths[sha] = self.store.image_path(sha)
        return self._paths[sha]

    def remembers(self, ref: ImageRef) -> bool:
        """True when `ref` is encoded already (the engine then skips the worker thread)."""
        return ref in self._recent

    def data_url(self, ref: ImageRef) -> str:
        found = self._recent.get(ref)
        if found is not None:
            self._recent.move_to_end(ref)
            return found
        url = encode_ref(self.path(ref.sha), ref)
        self._recent[ref] = url
        while len(self._recent) > self.memory:
            self._recent.popitem(last=False)
        return url


def encode_ref(path, ref: ImageRef) -> str:
    """Read the original, apply the ref's mask or crop, preprocess, return a data URL."""
    from runner import images

    source = path
    if ref.op == "mask":
        source = images.mask_boxes(images.load_array(path), list(ref.boxes), mode=ref.style)
    elif ref.op == "crop":
        source = images.crop_boxes(images.load_array(path), list(ref.boxes))[0]
        if source.size == 0:
            raise ValueError(f"box {ref.boxes[0]} of image {ref.sha[:12]} covers no pixel")
    prepared = images.prepare_image(source, max_pixels=ref.max_pixels, image_format=ref.format,
                                    quality=ref.quality)
    return images.to_data_url(prepared.data, prepared.mime)


def materialise(messages: list[dict], encoder: "ImageEncoder | dict") -> list[dict]:
    """The messages as sent: every ImageRef becomes an `image_url` part with a data URL,
    from an ImageEncoder or from a dict of data URLs encoded beforehand."""
    data_url = encoder.__getitem__ if isinstance(encoder, dict) else encoder.data_url
    out = []
    for message in messages:
        content = message["content"]
        if isinstance(content, list):
            content = [{"type": "image_url", "image_url": {"url": data_url(part)}}
                       if isinstance(part, ImageRef) else part for part in content]
        out.append({"role": message["role"], "content": content})
    return out
