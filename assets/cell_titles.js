// A table cell cut with an ellipsis (the endpoints list's base URL, the item list's
// question: assets/cluelab.css) shows its whole text in a tooltip. Gradio's Dataframe sets
// no title on its cells, and its virtual rows are redrawn as they scroll, so the title is
// set when the pointer comes over a cell, and only when its text is cut.
(() => {
  window.addEventListener("mouseover", (e) => {
    const text = e.target && e.target.closest && e.target.closest(".body-cell span.text");
    if (!text) return;
    if (text.scrollWidth > text.clientWidth + 1) text.title = text.textContent.trim();
    else text.removeAttribute("title");
  }, true);
})();
