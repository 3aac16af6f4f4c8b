"""Galleries that show every image whole, scaled to their panel: never cropped.

Gradio's Gallery makes every cell a square (aspect-ratio 1) and clips its grid at the
gallery's height, so a 1024x640 picture alone in a two-column gallery 340 px high showed
as its top part, the rest behind a scroller (ui/workarounds.py GALLERY_SQUARE_CELLS). The
class below lets each cell take its image's own shape, the image the panel's width (at most
70% of the window's height, letterboxed, never cut) with its caption beneath it, and the
gallery as high as its images (assets/cluelab.css, .cl-whole-images).
"""
from __future__ import annotations

import gradio as gr

WHOLE_IMAGES = "cl-whole-images"


def whole_image_gallery(label: str, elem_id: str, **options) -> gr.Gallery:
    """A read-only gallery of whole images, two per row (options: scale, ...)."""
    return gr.Gallery(label=label, columns=2, height="auto", object_fit="contain",
                      interactive=False, elem_classes=[WHOLE_IMAGES], elem_id=elem_id,
                      **options)
