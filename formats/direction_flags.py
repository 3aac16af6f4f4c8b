"""Imported texts that hold text-direction controls, flagged: kept as imported (a dataset's
own text is never rewritten on import), said so that a curator sees it before it travels.

Why: a question holding U+202E ("right-to-left override") was shown reversed on every
page ("RLO" read "OLR"), while a review note or a revision comment with one is refused
(domain.item_ids.direction_marks_problem): text can be made to read as other text. The
texts are judges.direction_parts.text_parts, those the editor's save checks too. An image's
file name is flagged as well: an option image named "cat\\u202egnp.exe" went unflagged while
a clue text with the same control was flagged. Invisible control characters (a NUL, ESC,
U+FEFF, U+2028, U+200B: domain.item_ids.INVISIBLE_CONTROLS) are flagged the same way, as
their own problem: a NUL made SQLite's search stop short, and the TSV export wrote it raw.
"""
from __future__ import annotations

from judges.direction_parts import CONTROL_KIND, KIND, KINDS, codes, marks_in, option_name, \
    text_parts

from .report import problem

WHY = {KIND: "they can make text read as other text",
       CONTROL_KIND: "they are unseen on the page, and SQLite's text search stops at a NUL"}


def direction_flags(item: dict, image_names: list[tuple[str, str]] = ()) -> list[str]:
    """One problem for each kind (judges.direction_parts.KINDS: text-direction controls,
    invisible control characters) naming the parts (never their text) whose text holds
    characters of that kind, and which ones; [] when none does. `image_names`: (part, file
    name) of the images as the file named them ("image 2", "option A image"), gone once
    stored."""
    out = []
    for kind, kind_marks in KINDS.items():
        found, marks = [], set()
        for name, text in [*text_parts(item), *image_names]:
            here = set(marks_in(text, kind_marks))
            if here:
                found.append(name)
                marks |= here
        if found:
            out.append(problem(kind, ", ".join(found[:8]) +
                               (f" and {len(found) - 8} more" if len(found) > 8 else ""),
                               f"{codes(marks)}: {WHY[kind]}; kept as imported, "
                               "remove them if they are not the text's own"))
    return out


def image_names(record: dict) -> list[tuple[str, str]]:
    """(part, file name) of a parsed record's images and option images ("image 1 file
    name", "option B image file name")."""
    names = [(f"image {n} file name", getattr(ref, "name", ""))
             for n, ref in enumerate(record.get("images") or [], start=1)]
    names += [(f"{option_name(n, o)} image file name", getattr(o.get("image"), "name", ""))
              for n, o in enumerate(record.get("options") or [], start=1)
              if isinstance(o, dict) and o.get("image") is not None]
    return [(part, str(name or "")) for part, name in names]
