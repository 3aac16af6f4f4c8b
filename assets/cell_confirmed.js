// A table cell whose words Enter just confirmed (its editor closed, the cell still selected
// and focused) takes no further key as an edit: Gradio's Dataframe starts editing a
// selected cell on any printable key and Delete/Backspace empty it (ui/workarounds.py,
// CELL_EDITS_AFTER_ENTER). "sun shadow", Enter, then C (the draw key) with the pointer still
// over Add clue made the clue "sun shadowc", kept in the draft and saved.
// Until the user works on a cell again on purpose (a click or double click on it, Enter or
// F2 on the selected cell, the arrows, Tab, Home or End moving the selection) or the focus
// leaves the table, its letters, Backspace and Delete are dropped here; the image's keys
// (C, D, E) go to the image (assets/shortcuts.js, which asks `window.cluelabCellConfirmed`).
// Loaded after shortcuts.js and before cell_edit.js: its keydown listener runs between.
(() => {
  const CELL = "[role=grid][aria-readonly=false] [role=gridcell]:not(.static)";
  const EDITOR = "[role=gridcell] textarea";
  const DELIBERATE = new Set(["Enter", "F2", "ArrowUp", "ArrowDown", "ArrowLeft",
                              "ArrowRight", "Tab", "Home", "End"]);
  let confirmed = null;       // the table whose cell's words Enter confirmed

  const isConfirmed = (t) => !!(confirmed && t && t.matches && t.matches(CELL) &&
                                t.closest("[role=grid]") === confirmed);
  window.cluelabCellConfirmed = isConfirmed;

  document.addEventListener("pointerdown", () => { confirmed = null; }, true);
  document.addEventListener("focusin", (e) => {
    if (confirmed && !(e.target instanceof Element && confirmed.contains(e.target))) {
      confirmed = null;
    }
  }, true);
  document.addEventListener("keydown", (e) => {
    const t = e.target;
    if (e.key === "Enter" && !e.shiftKey && t && t.matches && t.matches(EDITOR)) {
      confirmed = t.closest("[role=grid]");
      return;
    }
    if (!isConfirmed(t) || e.ctrlKey || e.metaKey || e.altKey || e.isComposing) return;
    if (DELIBERATE.has(e.key)) { confirmed = null; return; }
    if (e.key.length !== 1 && e.key !== "Backspace" && e.key !== "Delete") return;
    e.preventDefault();         // the image's key was handed on before (shortcuts.js)
    e.stopImmediatePropagation();
  }, true);
})();
