"""The editor's two rows of small images, as escaped HTML: the item's image strip (click one
to annotate it) and the option images (click one to open it full size).

Why not gr.Gallery: the Gallery front end pulls in Gradio's video player and hls.js
(~0.6 MB of script) and costs ~0.35 s of a fresh browser's first paint of the editor
(docs/PERFORMANCE.md). A row of <img> tags does the same job here, shows which image the
annotator is on, and its click arrives as an ordinary `select` event (index, label).

Images are named by ClueLab's own media route (ui/media_http.media_url), never by a server
path. Labels come from imported data: everything interpolated is HTML-escaped.
"""
from __future__ import annotations

from html import escape

# In the page: a click on a thumbnail becomes the component's `select` event.
STRIP_JS = """element.addEventListener('click', (event) => {
  const thumb = event.target.closest('button[data-index]');
  if (thumb) trigger('select', {index: Number(thumb.dataset.index), value: thumb.dataset.label});
});"""


def strip_html(previews: list[str], selected: int | None) -> str:
    """One button per image (the URL of its preview), numbered from 1, the annotated one
    marked; none without an image (the line beside it says so)."""
    if not previews:
        return '<div class="cl-thumbs cl-empty"></div>'
    buttons = []
    for index, url in enumerate(previews):
        label = str(index + 1)
        marks = ' cl-current" aria-current="true' if index == selected else ""
        buttons.append(
            f'<button type="button" class="cl-thumb{marks}" data-index="{index}" '
            f'data-label="{label}" title="Annotate image {label}">'
            f'<img src="{escape(url)}" alt="image {label}" loading="lazy">'
            f'<span>{label}</span></button>')
    return '<div class="cl-thumbs">' + "".join(buttons) + "</div>"


def option_images_html(options: list[tuple[str, str, str]]) -> str:
    """(preview URL, original URL, label) per image option; empty when no option is an
    image."""
    if not options:
        return ""
    links = [
        f'<a class="cl-thumb" href="{escape(original)}" target="_blank" '
        f'rel="noopener" title="Option {escape(label)}: open full size">'
        f'<img src="{escape(preview)}" alt="option {escape(label)}" loading="lazy">'
        f'<span>{escape(label)}</span></a>'
        for preview, original, label in options]
    return ('<div class="cl-caption">Image options</div><div class="cl-thumbs">'
            + "".join(links) + "</div>")
