// After Add clue (or Add option), the new row's text cell is open for typing: the annotator
// adds a clue or an option to write its words, and had to find the new row and double-click
// its cell first (and the focus stayed on the button: each Space typed pressed it again,
// adding empty rows while the words went nowhere).
// The click is watched here (not an event of its own on the server): once the table has a
// row after the last one before the click, that row's text cell is scrolled into view and
// opened as a person's click and double click would (so that Tab then moves on to the
// next cell). The table draws only the rows near its view, so its viewport is scrolled to
// the end while the new row is looked for.
(() => {
  const TABLES = {"add-clue": "#clue-table", "add-option": "#option-table"};
  const TEXT_COLUMN = 1;     // clue: clue, text, ...; option: label, text, image
  const WAIT_MS = 10000;     // a refused click (no item open) adds no row

  const cells = (table) => [...document.querySelectorAll(
    `${table} [role=gridcell][data-col="${TEXT_COLUMN}"]`)];
  const lastRow = (table) => Math.max(-1, ...cells(table).map((c) => Number(c.dataset.row)));

  const open = (cell) => {
    cell.scrollIntoView({block: "nearest"});
    for (const type of ["mousedown", "mouseup", "click"]) {
      cell.dispatchEvent(new MouseEvent(type, {bubbles: true, cancelable: true, button: 0}));
    }
    cell.dispatchEvent(new MouseEvent("dblclick", {bubbles: true}));
  };
  window.cluelabOpenCell = open;    // assets/cell_keep.js opens a cell the same way

  window.addEventListener("click", (event) => {
    const button = event.target instanceof Element && event.target.closest("button[id]");
    const table = button && TABLES[button.id];
    if (!table || button.disabled) return;
    const before = lastRow(table);
    const started = Date.now();
    const look = () => {
      const viewport = document.querySelector(`${table} .virtual-table-viewport`);
      if (viewport) viewport.scrollTop = viewport.scrollHeight;
      const added = cells(table).find((cell) => Number(cell.dataset.row) > before);
      if (added) open(added);
      else if (Date.now() - started < WAIT_MS) setTimeout(look, 100);
    };
    setTimeout(look, 100);
  });
})();
