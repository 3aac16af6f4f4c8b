// What is typed into an editable table's cell lands in that cell, all of it
// (ui/workarounds.py, CELL_FIRST_KEY_LOST). Gradio's Dataframe starts editing a selected
// cell on a printable key, but opens its editor (a textarea) and focuses it a frame later:
// that key, and any typed before the editor had the focus, were lost ("reason" came out
// as "eason", quick typists lost more). The keys pressed on a selected cell of an editable
// table are kept here and put into its editor, in order, when that editor gets the focus.
// (Its editor staying inside the cell, so that a quick click on the next row reaches that
// row, is assets/cluelab.css, CELL_EDITOR_OVERFLOWS.)
(() => {
  const CELL = "[role=grid][aria-readonly=false] [role=gridcell]:not(.static)";
  const WAIT_MS = 3000;       // an editor that did not open by then (under load) is not coming
  let pending = null;         // {cell, text, at}

  const coords = (cell) => `${cell.dataset.row}:${cell.dataset.col}`;
  document.addEventListener("keydown", (e) => {
    const cell = e.target && e.target.matches && e.target.matches(CELL) ? e.target : null;
    if (!cell || e.ctrlKey || e.metaKey || e.altKey || e.isComposing || e.key.length !== 1) {
      if (cell && e.key.length !== 1) pending = null;    // Enter, arrows, Escape: not text
      return;
    }
    const same = pending && pending.grid === cell.closest("[role=grid]") &&
      pending.where === coords(cell) && Date.now() - pending.at < WAIT_MS;
    if (!same && e.key === " ") return;                  // Space selects; it opens no editor
    pending = same ? {...pending, text: pending.text + e.key}
                   : {grid: cell.closest("[role=grid]"), where: coords(cell), text: e.key,
                      at: Date.now()};
  }, true);

  document.addEventListener("focusin", (e) => {
    const editor = e.target;
    if (!pending || !editor.matches || !editor.matches("textarea[aria-label='Edit cell']")) return;
    const cell = editor.closest("[role=gridcell]");
    const mine = cell && editor.closest("[role=grid]") === pending.grid &&
      coords(cell) === pending.where && Date.now() - pending.at < WAIT_MS;
    const text = pending.text;
    pending = null;
    if (!mine) return;
    editor.setRangeText(text, editor.selectionStart, editor.selectionEnd, "end");
    editor.dispatchEvent(new Event("input", {bubbles: true}));
  }, true);
  document.addEventListener("pointerdown", () => { pending = null; }, true);
})();
