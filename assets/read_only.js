// A released item is read-only until an admin reopens it: the notice above the editor then
// holds a .cl-read-only line (ui/annotate_wiring.render_loaded), and here the editor's
// fields, its image tools, the box annotator and Save become inert (no click, no focus, no
// typing; dimmed by assets/cluelab.css) for as long as that line is shown, and the Item
// menu's Delete is disabled (its tooltip says why; the notice says it too). The server
// refuses a save of a released item anyway; this is so that it does not look editable.
// Done on the page rather than with interactive=False updates: those rebuild each component
// (ui/annotate_render.py, render), on every item opened. But the buttons that change the
// item's structure (Add clue, Up, Down, Remove clue, the image buttons) also get
// interactive=False from the server, sent only when the item's read-only state changes
// (annotate_render.edit_buttons): inert, they still looked enabled.
(() => {
  const PARTS = ["#item-form", "#image-bar", "#annotator", "#item-status", "#save-item",
                 "#discard-draft", "#save-comment"];

  function apply() {
    const notice = document.getElementById("item-notice");
    const readOnly = Boolean(notice && notice.querySelector(".cl-read-only"));
    for (const selector of PARTS) {
      const part = document.querySelector(selector);
      if (!part || part.inert === readOnly) continue;
      part.inert = readOnly;
      part.classList.toggle("cl-inert", readOnly);
    }
    const save = document.getElementById("save-item");
    if (save) save.disabled = readOnly;
    // the Item menu offered Delete on a released item: a question, then a toast refusing it
    const remove = document.getElementById("delete-item");
    if (remove && remove.disabled !== readOnly) {
      remove.disabled = readOnly;
      remove.title = readOnly ? "Released: read-only, not deleted. An admin reopens it first." : "";
    }
  }

  // the editor's parts arrive after the notice (the form is built on the first open), so
  // any change of the page is looked at, once per frame
  let pending = false;
  new MutationObserver(() => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => { pending = false; apply(); });
  }).observe(document.documentElement, {childList: true, subtree: true});
})();
