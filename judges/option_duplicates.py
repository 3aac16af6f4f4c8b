"""Two options of a multiple-choice item a model cannot tell apart: what it is shown of an
option is its text and its image, and two options showing the same of both leave the
question two right answers or none.

Why: an annotator gave options B and D the same picture and made D the gold, and nothing
said so; MMR-Life's CRE_63 lists "Rotate clockwise about 45 degrees, then …" as both A and
C. Options of one text and different images (or one image and different texts) are told
apart, and stay allowed.
"""
from __future__ import annotations


def same_options(labels: list[str], options: list[dict]) -> list[str]:
    """One sentence per later option that shows what an earlier one shows ("duplicated
    option: options B and D have the same text and image", "… the same text", "… the same
    image" when the other part is empty in both); no text is quoted."""
    first: dict[tuple, str] = {}
    said = []
    for label, option in zip(labels, options):
        text = " ".join(str(option.get("text") or "").split()).casefold()
        image = option.get("image") or ""
        if not label or not (text or image):
            continue
        key = (text, image)
        if key in first:
            what = "text and image" if text and image else "text" if text else "image"
            said.append(f"duplicated option: options {first[key]} and {label} have the same "
                        f"{what}")
        else:
            first[key] = label
    return said
