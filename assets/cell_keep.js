// What is typed into a clue's text or reasoning cell reaches the item, and its draft, only
// when the cell's editor closes (Enter, Tab, a click elsewhere): a reload or a crashed tab
// in the middle of a clue's words lost them, while a Question typed the same moment was
// kept. The editor's words are kept here, in this tab's sessionStorage, as they are typed,
// and given back to their cell when the same item is open again in this tab: the cell's
// editor is opened, the words put in and Enter pressed, as the annotator would have. Once
// the editor closes in the page (its words the cell's, or given up with Escape) they are
// dropped. Another item, or a cell that already holds those words, takes nothing.
(() => {
  const KEY = "cluelab-unfinished-cell";
  const EDITOR = "#clue-table textarea[aria-label='Edit cell']";
  const WAIT_MS = 30000;      // the page's item and table arrive within this after a load

  const openItem = () => {
    const field = document.querySelector("#item-id input, #item-id textarea");
    return field ? field.value : "";
  };
  const kept = () => {
    try { return JSON.parse(sessionStorage.getItem(KEY) || "null"); } catch { return null; }
  };

  document.addEventListener("input", (event) => {
    const editor = event.target;
    if (!editor.matches || !editor.matches(EDITOR) || restoring) return;
    const cell = editor.closest("[role=gridcell]");
    if (!cell || !openItem()) return;
    sessionStorage.setItem(KEY, JSON.stringify({item: openItem(), row: cell.dataset.row,
                                                col: cell.dataset.col, text: editor.value}));
  }, true);
  document.addEventListener("focusout", (event) => {
    if (event.target.matches && event.target.matches(EDITOR) && !restoring) {
      sessionStorage.removeItem(KEY);
    }
  }, true);

  let restoring = false;
  const cellOf = (entry) => document.querySelector(
    `#clue-table [role=gridcell][data-row='${entry.row}'][data-col='${entry.col}']`);

  function giveBack(entry, cell) {
    restoring = true;
    window.cluelabOpenCell(cell);       // as a person's click and double click (new_row.js)
    const started = Date.now();
    const fill = () => {
      const editor = document.querySelector(EDITOR);
      if (!editor) {
        if (Date.now() - started < 3000) setTimeout(fill, 50);
        else restoring = false;
        return;
      }
      editor.value = entry.text;
      editor.dispatchEvent(new Event("input", {bubbles: true}));
      editor.dispatchEvent(new KeyboardEvent("keydown", {key: "Enter", bubbles: true,
                                                         cancelable: true}));
      restoring = false;
      sessionStorage.removeItem(KEY);
      sayRestored(entry);
    };
    setTimeout(fill, 50);
  }

  // Said as every draft restored on open is ("Restored your unsaved draft …" in the notice,
  // ui/editor_notices.draft_notice): the clue's words came back with only the draft line
  // naming them. Not said twice (a draft of other parts restored too), and gone once
  // another item is open (the notice's own value may not change, and would keep it).
  const NOTE_ID = "cl-cell-restored";
  function sayRestored(entry) {
    const notice = document.querySelector("#item-notice");
    if (!notice || /Restored your unsaved draft/.test(notice.textContent || "")) return;
    const note = document.createElement("p");
    note.id = NOTE_ID;
    note.setAttribute("role", "status");
    note.dataset.item = entry.item;
    note.textContent = "Restored your unsaved draft: the words typed into clue " +
      `${Number(entry.row) + 1}'s cell before the page was reloaded (kept as a draft).`;
    (notice.querySelector(".prose, .html-container") || notice).prepend(note);
    const watch = setInterval(() => {
      if (!note.isConnected) { clearInterval(watch); return; }
      if (openItem() !== note.dataset.item) { note.remove(); clearInterval(watch); }
    }, 500);
  }

  const loaded = Date.now();
  const look = () => {
    const entry = kept();
    if (!entry) return;
    const cell = openItem() === entry.item ? cellOf(entry) : null;
    if (cell) {
      if (cell.textContent.trim() !== String(entry.text).trim()) giveBack(entry, cell);
      else sessionStorage.removeItem(KEY);
      return;
    }
    if (openItem() && openItem() !== entry.item) { sessionStorage.removeItem(KEY); return; }
    if (Date.now() - loaded < WAIT_MS) setTimeout(look, 300);
  };
  setTimeout(look, 300);
})();
