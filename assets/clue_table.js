// The page's side of the clue table's events (ui/annotate_structure.py and
// ui/annotate_drafts.py wire them; their event scripts only call these).
//
// Rows: the table's edits reach the server only when they add, drop or move a clue: filled
// rows whose labels are not "clue <their place>" (a row added with "+" and typed in: its
// label is empty; rows moved), or fewer filled rows than the table had just before this edit
// (a row deleted with the cell menu: the table's `change`, which runs just before its
// `input`, keeps the counts); and only once for the same rows (the table keeps a new row's
// empty label until the next structural event). A row not yet typed in is no clue yet.
// Gradio's Dataframe has no event of its own for rows (ui/workarounds.py,
// DATAFRAME_NO_ROW_EVENT). Once add_clue_rows has shown the item with its new clues, the
// filled rows are labelled by their place, as the item now numbers them, with what was
// typed meanwhile.
//
// Box counts: after a box edit the server sends the counts only (the table as the event's
// output erased what was typed during its round trip), and they are put into the table as
// it is now; not when its rows changed meanwhile (the next box edit will).
//
// Box edits: the annotator's `change` passes on only when it still shows the image it
// showed last time (its boxes were edited); when the image itself changed (an item loaded,
// another image) there is nothing to keep.
//
// Each check that stops an event throws, and is one of `window.cluelabGates`, called only
// by events with no outputs of their own: a page script that throws marks its event's
// outputs with a red "Error" (ui/workarounds.py, GRADIO_JS_THROW; tests/test_messages.py
// holds every event to that by this name).
(() => {
  const text = (cell) => String(cell ?? "").trim();
  const filled = (value) => ((value && value.data) || []).filter((row) => row.some(text));
  const numbered = (value) => {
    let place = 0;
    return ((value && value.data) || []).map((row) =>
      row.some(text) ? [`clue ${++place}`, ...row.slice(1)] : row);
  };
  let rowsNow, rowsBefore, lastSent;

  window.cluelabClueRows = {
    counted(value) {
      rowsBefore = rowsNow;
      rowsNow = filled(value).length;
    },
    number: (value) => ({...value, data: numbered(value)}),
  };

  const fits = (counts, table) => Array.isArray(counts) &&
    counts.length === ((table && table.data) || []).length;
  window.cluelabBoxCounts = {
    show: (counts, table) => !fits(counts, table) ? table :
      {...table, data: table.data.map((row, i) => [...row.slice(0, -1), counts[i]])},
  };

  // A row added from the cell menu ("Add row above/below") comes selected in its first
  // cell, the clue's label, which is not typed in: what was typed next went nowhere. The new
  // row's text cell is selected instead, so that typing starts the clue's text
  // (ui/workarounds.py, DATAFRAME_NEW_ROW_FIRST_CELL).
  document.addEventListener("click", (event) => {
    const button = event.target.closest && event.target.closest("button");
    if (!button || !/^Add row (above|below)$/.test(button.textContent.trim())) return;
    let frames = 10;
    const moveToText = () => {
      const cell = document.querySelector(
        "#clue-table [role=gridcell].cell-selected[data-col='0']");
      if (!cell) { if (frames-- > 0) requestAnimationFrame(moveToText); return; }
      const row = cell.dataset.row;
      const cells = [...document.querySelectorAll(`#clue-table [role=gridcell][data-row='${row}']`)];
      const textCell = cells.find((c) => c.dataset.col === "1");
      if (!textCell || cells.some((c) => text(c.textContent))) return;
      for (const type of ["mousedown", "mouseup"]) {    // the table selects on mousedown
        textCell.dispatchEvent(new MouseEvent(type, {bubbles: true, button: 0}));
      }
    };
    requestAnimationFrame(moveToText);
  }, true);

  let annotatorImage;
  window.cluelabGates = {
    // passes the edit on to add_clue_rows (`added` true) or edit_clue_rows, or throws
    clueRowsChanged(value, added) {
      const rows = filled(value);
      const labels = rows.map((row) => text(row[0]));
      const isAdded = labels.includes("");
      const moved = labels.some((label, i) => label !== `clue ${i + 1}`);
      const fewer = rowsBefore !== undefined && rows.length < rowsBefore;
      const sent = JSON.stringify(labels);
      if (isAdded !== added || !(moved || fewer) || (!fewer && sent === lastSent)) {
        throw new Error("not sent: no clue added, dropped or moved");
      }
      lastSent = sent;
      return value;
    },
    clueRowsUnnumbered(value) {
      if (JSON.stringify(numbered(value)) === JSON.stringify(value.data)) {
        throw new Error("numbered");
      }
    },
    boxCountsFit(counts, table) {
      if (!fits(counts, table)) throw new Error("not shown: the rows changed");
    },
    boxEditsOnly(args) {
      const value = args[args.length - 1];
      const image = value && value.image ? (value.image.url || value.image.path) : null;
      const edited = image !== null && annotatorImage === image;
      annotatorImage = image;
      if (window.cluelabBoxUndo) window.cluelabBoxUndo.seen(value, image);   // Ctrl+Z
      if (!edited) throw new Error("not sent: the image changed, not its boxes");
      return args;
    },
    // Answer type: its `change` goes on to switch_answer_type only when the person chose the
    // type (a key or a click in the list within the last seconds): the value an opened item
    // sets fired it too, one request more for every Next (ui/answer_wiring.py)
    answerTypeChosen() {
      if (Date.now() - typeTouched > 5000) throw new Error("not sent: the page set the type");
    },
  };
  let typeTouched = 0;
  for (const kind of ["keydown", "pointerdown"]) {
    document.addEventListener(kind, (event) => {
      const list = event.target && event.target.closest &&
        event.target.closest("#item-answer-type, ul.options");
      if (list) typeTouched = Date.now();
    }, true);
  }
})();
