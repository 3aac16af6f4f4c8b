"""Structural edits of the working copy: clues, images and option images.

Each operation takes the item already collected from the widgets and returns a new
item; boxes follow their clue when clues move, and leave with an image that is removed.
"""
from __future__ import annotations

import copy

from domain.option_labels import new_label_problem
from ui import editor_model as em
from ui.editor_model import EditError
from ui.text import quoted


def add_clue(item: dict) -> tuple[dict, int]:
    item = copy.deepcopy(item)
    item.setdefault("clues", []).append({"text": "", "reasoning": "", "boxes": []})
    return item, len(item["clues"]) - 1


def remove_clue(item: dict, index: int | None) -> tuple[dict, None]:
    """The item without clue `index`, and no clue selected: the selection moved on to the
    next clue, and a second click removed a clue nobody had picked."""
    clues = item.get("clues", [])
    if index is None or not 0 <= index < len(clues):
        raise EditError("select a clue row first")
    item = copy.deepcopy(item)
    del item["clues"][index]
    return item, None


UNSAVED = "Not saved yet: Discard draft brings it back."


def quoted_start(text, empty: str = " (no text)") -> str:
    """' "the first 40 characters…"' of a clue's or an option's text, `empty` when it has
    none: the messages of a removal name what went, as the page showed it."""
    return f" {quoted(text, 40)}" if str(text or "").strip() else empty


def removed_clue_note(item: dict, index: int) -> str:
    """What Remove clue is about to take out, in words: the clue's number, the start of its
    text and its boxes (the working copy only: Discard draft brings it back)."""
    clue = item.get("clues", [])[index]
    boxes = len(clue.get("boxes") or [])
    with_boxes = f" and its {boxes} box{'es' * (boxes != 1)}" if boxes else ""
    return f"Removed clue {index + 1}{quoted_start(clue.get('text'))}{with_boxes}. {UNSAVED}"


def move_clue(item: dict, index: int | None, step: int) -> tuple[dict, int]:
    clues = item.get("clues", [])
    if index is None or not 0 <= index < len(clues):
        raise EditError("select a clue row first")
    target = index + step
    if not 0 <= target < len(clues):
        return item, index
    item = copy.deepcopy(item)
    item["clues"][index], item["clues"][target] = item["clues"][target], item["clues"][index]
    return item, target


def add_image(item: dict, sha: str) -> tuple[dict, int]:
    """Append an image; the same image (same sha256) twice is refused: its boxes could not
    be told apart, and a second copy is never what the annotator meant."""
    images = item.get("images", [])
    if sha in images:
        raise EditError(f"this image is already image {images.index(sha) + 1} of the item "
                        "(same content): not added again")
    item = copy.deepcopy(item)
    item.setdefault("images", []).append(sha)
    return item, len(item["images"]) - 1


def remove_image(item: dict, index: int) -> tuple[dict, int]:
    """Drop one context image and every box drawn on it."""
    images = item.get("images", [])
    if not 0 <= index < len(images):
        raise EditError("no image selected")
    item = copy.deepcopy(item)
    sha = item["images"].pop(index)
    if sha not in item["images"]:
        for clue in item.get("clues", []):
            clue["boxes"] = [b for b in clue.get("boxes", []) if b["image"] != sha]
        item["_unassigned"] = [b for b in item.get("_unassigned", []) if b["image"] != sha]
    return item, max(0, min(index, len(item["images"]) - 1))


def removed_image_note(item: dict, index: int) -> str:
    """What Remove image takes out, in words, as Remove clue says its clue: the image's
    number and its boxes (it said nothing; a click meant for image 2 took image 1 unseen)."""
    sha = (item.get("images") or [None])[index] if 0 <= index < len(item.get("images") or []) \
        else None
    boxes = sum(b["image"] == sha for clue in item.get("clues", [])
                for b in clue.get("boxes") or [])
    with_boxes = f" and its {boxes} box{'es' * (boxes != 1)}" if boxes else ""
    return f"Removed image {index + 1}{with_boxes}. {UNSAVED}"


def move_image(item: dict, index: int, step: int) -> tuple[dict, int]:
    images = item.get("images", [])
    target = index + step
    if not (0 <= index < len(images) and 0 <= target < len(images)):
        return item, index
    item = copy.deepcopy(item)
    item["images"][index], item["images"][target] = item["images"][target], item["images"][index]
    return item, target


def option_of(item: dict, label: str) -> dict | None:
    return next((o for o in item.get("options") or [] if o.get("label") == label), None)


def option_named(option: dict) -> str:
    """'option C "Lentils"' (an image option: 'option C (an image)'), in a message."""
    empty = " (an image)" if option.get("image") else " (no text)"
    return f"option {option.get('label')}{quoted_start(option.get('text'), empty)}"


def option_image_note(item: dict, label: str, sha: str | None) -> str:
    """What Set option image (`sha`) or Remove option image (None) is about to do to option
    `label`, in words: a first image set ("Image set for option B."), a new option made
    with it, an image replaced or taken out; "" when it does nothing (no image to remove).
    The image went without a word, of whichever option the Selected option box named."""
    label = (label or "").strip()
    option = option_of(item, label)
    if option is None:
        return f"Option {label} added, with the image. {UNSAVED_NEW}" if sha else ""
    if option.get("image") == sha:
        return ""
    if not option.get("image"):
        return f"Image set for {option_named(option)}."
    done = "Replaced the image of" if sha else "Removed the image of"
    return f"{done} {option_named({**option, 'image': None})}. {UNSAVED}"


UNSAVED_NEW = "Not saved yet: Discard draft takes it out."


def added_option_note(label: str) -> str:
    """What Add option did (it said nothing, as Remove option says what it removed)."""
    return f"Option {label} added. {UNSAVED_NEW}"


def set_option_image(item: dict, label: str, sha: str | None) -> dict:
    """Attach (or, with sha None, detach) an image to an option; adds the option if new."""
    label = (label or "").strip()
    if not label:
        raise EditError("select an option row first (or type a new option's label in "
                        "Selected option)")
    item = copy.deepcopy(item)
    options = item.setdefault("options", [])
    for option in options:
        if option.get("label") == label:
            option["image"] = sha
            return item
    if sha is None:
        raise EditError(f"there is no option {label}")
    if problem := new_label_problem(label):        # a new option: held to the label rule
        raise EditError(problem)
    options.append({"label": label, "text": "", "image": sha})
    return item


LETTERS = [chr(c) for c in range(ord("A"), ord("Z") + 1)]


def add_option(item: dict) -> tuple[dict, str]:
    """Append an empty option under the letter after the last option's (A, C, D: E), so the
    options read in letter order: option B removed and one added took the freed B, listed
    last (A, C, D, B). Never the letter of a removed option that the gold answer still
    names (it would silently name the new option); past Z, the first free letter. The
    options keep their letters: relabelled, a gold, a history diff and a model's answer of
    an older version would name another option. Returns the new label."""
    item = copy.deepcopy(item)
    options = item.setdefault("options", [])
    labels = {o.get("label") for o in options}
    gold = (item.get("answer") or "").strip()
    taken = labels | ({gold} if gold in (item.get(em.REMOVED_LABELS) or []) else set())
    last = max((LETTERS.index(x) for x in labels if x in LETTERS), default=-1)
    free = [x for x in LETTERS if x not in taken]
    label = next((x for x in free if LETTERS.index(x) > last), free[0] if free else None)
    if label is None:
        raise EditError("every label A–Z is taken: relabel an option in the table instead")
    options.append({"label": label, "text": "", "image": None})
    return item, label


def remove_option(item: dict, label: str | None) -> dict:
    """Drop the option named `label` (its image goes with it, the image file stays stored)."""
    label = (label or "").strip()
    if not label:
        raise EditError("select an option row first")
    options = item.get("options", [])
    if label not in [o.get("label") for o in options]:
        raise EditError(f"there is no option {label}")
    item = copy.deepcopy(item)
    item["options"] = [o for o in item["options"] if o.get("label") != label]
    item[em.REMOVED_LABELS] = sorted({*(item.get(em.REMOVED_LABELS) or []), label})
    return item


def removed_option_note(item: dict, label: str) -> str:
    """What Remove option is about to take out of `item`, in words: it went without one,
    and the option was whichever the Selected option box still named."""
    option = option_of(item, (label or "").strip()) or {"label": label}
    with_image = " and its image" if option.get("image") and option.get("text") else ""
    return f"Removed {option_named(option)}{with_image}. {UNSAVED}"
