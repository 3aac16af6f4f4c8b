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

  // Keys typed before the new row's cell is open (the row comes back from the server in
  // ~1 s) went to the page: the words were lost, a space scrolled the page, and at ~1.5 s
  // the first letters were dropped. They are held here and put in the cell when it opens.
  const holdKeys = () => {
    const held = {text: "", enter: false};
    const keep = (event) => {
      if (event.ctrlKey || event.metaKey || event.altKey || held.enter) return;
      if (event.key === "Backspace" && held.text) held.text = held.text.slice(0, -1);
      else if (event.key === "Enter") held.enter = true;  // on the button: another row
      else if (event.key.length === 1) held.text += event.key;
      else return;
      event.preventDefault();
      event.stopPropagation();
    };
    window.addEventListener("keydown", keep, true);
    return () => {
      window.removeEventListener("keydown", keep, true);
      return held;
    };
  };

  // the cell's editor once the open cell has made it (a tick or more after the double click)
  const editorIn = (table) => {
    const editor = document.activeElement;
    return editor && /^(INPUT|TEXTAREA)$/.test(editor.tagName) && editor.closest(table)
      ? editor : null;
  };

  const typeInto = (editor, held) => {
    if (!held.text) return;
    editor.value = held.text + editor.value;
    editor.dispatchEvent(new Event("input", {bubbles: true}));
    if (held.enter) {
      editor.dispatchEvent(new KeyboardEvent("keydown", {key: "Enter", bubbles: true}));
    }
  };

  window.addEventListener("click", (event) => {
    const button = event.target instanceof Element && event.target.closest("button[id]");
    const table = button && TABLES[button.id];
    if (!table || button.disabled) return;
    const before = lastRow(table);
    const started = Date.now();
    const release = holdKeys();
    const look = () => {
      const viewport = document.querySelector(`${table} .virtual-table-viewport`);
      if (viewport) viewport.scrollTop = viewport.scrollHeight;
      const added = cells(table).find((cell) => Number(cell.dataset.row) > before);
      if (added) {
        open(added);
        const opened = Date.now();
        const typed = () => {     // the keys stay held until the editor is there to take them
          const editor = editorIn(table);
          if (editor) typeInto(editor, release());
          else if (Date.now() - opened < 2000) setTimeout(typed, 20);
          else release();
        };
        typed();
      } else if (Date.now() - started < WAIT_MS) setTimeout(look, 100);
      else release();           // no row came (a refused click): the keys held go nowhere
    };
    setTimeout(look, 100);
  });
})();
