// While the box label dialog is open (the clue picker of a box just drawn, or the relabel
// dialog of E / a double-click), the page stays on its item and its boxes as they are.
//
// Why: the dialog (gradio_image_annotation 0.5.6) acts, when it closes, on the box at the
// annotator's *selected index* in whatever boxes the annotator shows by then: Cancel of a new
// box removes that box, OK gives it the clue picked (ui/workarounds.py, BOX_DIALOG_INDEX).
// Alt+→ with the picker open opened the next item under the still open picker, and its
// Cancel then removed that item's saved box 1 (OK moved it to another clue), while the item
// left kept the unlabelled box in its draft.
//
// The dialog's backdrop covers the page, so a pointer reaches nothing else; what still did
// is a click made by the page (Alt+←/→ and PageUp/PageDown click Next / Previous, Ctrl+S
// Save, Ctrl+Z the undo: assets/shortcuts.js) or by the keyboard on a button Tab reached.
// So while the dialog is open, a click on anything outside it is refused (but the click that
// ends the drawing of the box, on the image, and a message's close, which assets/toasts.js
// clicks itself), and the dialog says why and what to do; and the focus stays in the dialog
// or on the image (Tab went on to the item id box, whose Enter opened another item).
(() => {
  const DIALOG = "#model-box-edit";
  const NAVIGATION = new Set(["next-item", "prev-item"]);
  const ALLOWED = "#annotator .canvas-container, [data-testid='toast-body']";

  const dialog = () => document.querySelector(DIALOG);

  function refusedAction(target) {
    const named = target.closest("[id]");
    const id = named ? named.id : "";
    if (NAVIGATION.has(id)) return "Not opened";
    if (id === "save-item") return "Not saved";
    return "Not done";
  }

  function say(modal, action) {
    const note = window.cluelabDialogNote(modal, "cl-pick-stay");     // assets/annotator.js
    // the relabel dialog offers Remove; a new box's picker does not
    const relabel = [...modal.querySelectorAll("button")]
      .some((button) => button.textContent.trim() === "Remove");
    note.textContent = relabel
      ? `${action}: finish relabelling this box first (OK, or Cancel / Esc to leave it ` +
        "as it was)."
      : `${action}: this new box has no clue yet. Pick its clue and press OK, or Cancel ` +
        "(Esc) to drop the box; then go on.";
  }

  window.addEventListener("click", (event) => {
    const modal = dialog();
    const target = event.target;
    if (!modal || !(target instanceof Element) || modal.contains(target) ||
        target.closest(ALLOWED)) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    say(modal, refusedAction(target));
  }, true);

  // the keys that open another item say so too: in the dialog's field PageUp/PageDown type
  // (assets/shortcuts.js), and nothing said why the item did not change
  window.addEventListener("keydown", (event) => {
    const modal = dialog();
    const opens = event.key === "PageUp" || event.key === "PageDown" ||
      (event.altKey && (event.key === "ArrowLeft" || event.key === "ArrowRight"));
    if (!modal || !opens) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    say(modal, "Not opened");
  }, true);

  document.addEventListener("focusin", (event) => {
    const modal = dialog();
    const target = event.target;
    if (!modal || !(target instanceof Element) || target.closest("#annotator")) return;
    const input = modal.querySelector("input");
    if (input) input.focus();
  }, true);
})();
