// The item list highlights the item the editor shows, however it was opened (a click, the
// id box, Previous / Next, a link). Gradio's Dataframe highlights the cell clicked last,
// which the server can neither set nor clear (ui/workarounds.py, LIST_CURRENT_ROW): opening
// an item from the id box left the previous row highlighted. That ring is hidden in the
// list (assets/cluelab.css) and the open item's row is marked instead: the editor's item
// id (its `change` event) names it, and the mark follows the rows as they are redrawn.
(() => {
  let open = null;
  const idOf = (row) => {
    const text = row.querySelector(".body-cell.first-column span.text");
    return text ? text.textContent.replace(/^⚑ /, "").trim() : null;
  };
  const mark = () => {
    const list = document.getElementById("item-list");
    if (!list) return;
    for (const row of list.querySelectorAll(".virtual-row")) {
      const current = open !== null && idOf(row) === open;
      if (current !== row.hasAttribute("data-cl-open")) row.toggleAttribute("data-cl-open", current);
    }
  };
  let queued = false;
  const later = () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => { queued = false; mark(); });
  };
  window.cluelabShowOpenItem = (id) => { open = id || null; later(); };
  // rows are added, reused and refilled as the list is refreshed or scrolled
  new MutationObserver(later).observe(document.documentElement,
                                      {childList: true, subtree: true, characterData: true});
})();
