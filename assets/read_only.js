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
//
// On a released item the user's draft of it is said in the notice, not shown (its marker
// [data-cl-released-draft]): Discard draft stays pressable, for that draft only. On any
// other item Discard draft is disabled while there is nothing to discard: the save bar's
// draft line names no unsaved edits and nothing was typed or drawn since it last changed
// (it asked "Discard your unsaved edits …?" of an item just opened, with none; an image
// file chosen counts once the server took it). Both are
// set here on every item opened, however it was reached.
// The read-only line on the keys under the image (#annotator-help) says "read-only:
// released" in place of "C draw · Del remove · … Ctrl+S save".
(() => {
  const PARTS = ["#item-form", "#image-bar", "#annotator", "#item-status", "#save-item",
                 "#discard-draft", "#save-comment"];
  let line = null;            // the draft line's text when last looked at
  let item = null;            // the item open then
  let typed = false;          // an edit since: its autosave (and the line) not back yet

  function draftLine() {      // without the timer an event shows in it ("0.1s")
    const node = document.getElementById("draft-state");
    return node ? node.textContent.replace(/\b\d+(\.\d+)?s\b/g, "").trim() : "";
  }

  function discardable(releasedDraft) {
    const now = draftLine();
    const input = document.querySelector("#item-id input, #item-id textarea");
    const open = input ? input.value : "";
    if (now !== line || open !== item) typed = false;    // the server has said since
    line = now;
    item = open;
    return releasedDraft || typed || now !== "";
  }

  function keyLine(readOnly) {
    const keys = document.querySelector("#annotator-help .cl-hint > span");
    if (!keys) return;
    if (keys.dataset.keys === undefined) keys.dataset.keys = keys.innerHTML;
    const shown = readOnly ? "read-only: released" : keys.dataset.keys;
    if (keys.innerHTML !== shown) keys.innerHTML = shown;
  }

  function apply() {
    const notice = document.getElementById("item-notice");
    const readOnly = Boolean(notice && notice.querySelector(".cl-read-only"));
    const releasedDraft = Boolean(notice && notice.querySelector("[data-cl-released-draft]"));
    for (const selector of PARTS) {
      const part = document.querySelector(selector);
      const inert = readOnly && !(selector === "#discard-draft" && releasedDraft);
      if (!part || part.inert === inert) continue;
      part.inert = inert;
      part.classList.toggle("cl-inert", inert);
    }
    keyLine(readOnly);
    // on a released item, Discard draft only for a draft of it (the server's
    // interactive=True, sent when the read-only state changes, did not undo a `disabled` set
    // here on the item before: opened by Next, its id or after a delete, it stayed disabled)
    const discard = document.getElementById("discard-draft");
    const nothing = readOnly ? !releasedDraft : !discardable(releasedDraft);
    if (discard && discard.disabled !== nothing) {
      discard.disabled = nothing;
      discard.title = nothing ? "Nothing to discard: the item is as saved." : "";
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
  const soon = () => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => { pending = false; apply(); });
  };
  new MutationObserver(soon).observe(document.documentElement,
                                     {childList: true, subtree: true, characterData: true});
  // an edit whose autosave is on its way: typing in the form, a box drawn or moved
  const edit = (event) => {
    const target = event.target;
    const where = event.type === "input" ? "#item-form, #annotator" : "#annotator canvas";
    if (!(target instanceof Element) || !target.closest(where)) return;
    // a file chosen (an option image) is no edit until the server takes it: its draft line
    // then names it; refused ("not an image"), Discard draft came on with nothing to discard
    if (target instanceof HTMLInputElement && target.type === "file") return;
    typed = true;
    soon();
  };
  window.addEventListener("input", edit, true);
  window.addEventListener("pointerup", edit, true);
})();
