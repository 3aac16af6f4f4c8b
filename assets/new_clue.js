// After Add clue, the new clue's text cell is open for typing: the annotator adds a clue to
// write what it shows, and had to find the new row and double-click its cell first.
// The click is watched here (not an event of its own on the server): once the clue table
// has a row after the last one before the click, that row's text cell is scrolled into view
// and opened, as a double click would. The table draws only the rows near its view, so
// its viewport is scrolled to the end while the new row is looked for.
(() => {
  const CELLS = '#clue-table [role=gridcell][data-col="1"]';
  const WAIT_MS = 10000;     // an Add clue refused (no item open) adds no row
  const lastRow = () => Math.max(-1, ...[...document.querySelectorAll(CELLS)]
    .map((cell) => Number(cell.dataset.row)));

  const open = (cell) => {
    cell.scrollIntoView({block: "nearest"});
    cell.click();
    cell.dispatchEvent(new MouseEvent("dblclick", {bubbles: true}));
  };

  window.addEventListener("click", (event) => {
    const button = event.target instanceof Element && event.target.closest("#add-clue");
    if (!button || button.disabled) return;
    const before = lastRow();
    const started = Date.now();
    const look = () => {
      const viewport = document.querySelector("#clue-table .virtual-table-viewport");
      if (viewport) viewport.scrollTop = viewport.scrollHeight;
      const cells = [...document.querySelectorAll(CELLS)];
      const added = cells.find((cell) => Number(cell.dataset.row) > before);
      if (added) open(added);
      else if (Date.now() - started < WAIT_MS) setTimeout(look, 100);
    };
    setTimeout(look, 100);
  });
})();
