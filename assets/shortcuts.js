// ClueLab keyboard shortcuts: Ctrl/Cmd+S saves, Alt+Right / Alt+Left open the next /
// previous item (also PageDown / PageUp outside text fields); ? (outside text fields) opens
// and closes the key help under the image, as its "?" button does.
//
// The annotator's own keys (C draw, D move, E relabel, Delete remove, Space reset the view)
// work while the pointer is over the image: the component listens
// only on its focused container, so a key pressed with the pointer over the image and no
// text field focused is handed to it (focusing it, without scrolling). Space then never
// scrolls the page. `window.cluelabTyping` is the one "is the user typing" check: with the
// focus in an input, textarea, select, contenteditable or an editable table cell (selected
// or being edited) every key goes there and no canvas shortcut fires; except a cell whose
// words Enter just confirmed (no editor open): the image's keys go to the image. C, D and E
// also work with the pointer elsewhere, the focus in no text field (on a button, the page).
//
// Tab moves the focus only: Gradio's dropdown opens its list whenever its input gets the
// focus, so tabbing from the Question into Answer type dropped the list over the form
// (ui/workarounds.py, DROPDOWN_OPENS_ON_FOCUS). A dropdown reached by Tab is sent the
// component's own Escape, which closes the list and keeps the value; a click, typing or
// ArrowDown opens it as before.
//
// Next and Previous count their presses (a click, Alt+→/←, PageDown/PageUp): Gradio runs
// one event for all the presses made while one runs (ui/workarounds.py,
// GRADIO_TRIGGERS_COALESCE; it dropped them before), and that event's page script
// (ui/annotate_steps.py) sends how many there were, so three quick Alt+→ move three items.
(() => {
  const presses = {"next-item": 0, "prev-item": 0};
  document.addEventListener("click", (e) => {
    const button = e.target && e.target.closest && e.target.closest("#next-item, #prev-item");
    if (button) presses[button.id] += 1;
  }, true);
  // the count goes in at `at` (the last input unless said)
  window.cluelabNavSteps = (id, values, at = values.length - 1) => {
    const steps = Math.max(1, presses[id] || 0);
    presses[id] = 0;
    const sent = [...values];
    sent[at] = String(steps);
    return sent;
  };
})();
(() => {
  const ANNOTATOR_KEYS = new Set(["c", "d", "e", "delete", " "]);
  // An editable table's cell that has the focus takes typed keys too: Gradio's Dataframe
  // starts editing a selected cell with the key pressed (a clicked reasoning cell, then C,
  // must give "C" to the cell, not draw mode to the image). Static cells and read-only
  // tables (the item list) type nothing: the image's keys work from there.
  const EDITABLE_CELL = "[role=grid][aria-readonly=false] [role=gridcell]:not(.static)";
  const typing = (t) => !!t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" ||
    t.tagName === "SELECT" || t.isContentEditable ||
    !!(t.closest && t.closest(EDITABLE_CELL)));
  window.cluelabTyping = typing;
  // a table cell whose words were just entered (Enter in its editor), still selected with
  // no editor open, takes no keys as edits until worked on again (assets/cell_confirmed.js)
  const selectedCell = (t) => !!(window.cluelabCellConfirmed && window.cluelabCellConfirmed(t));
  // C, D and E reach the image wherever the pointer is, the focus in no text field nor in a
  // cell being edited (Delete and Space only over it: elsewhere they act on what has the
  // focus, a Space presses a focused button)
  const DRAW_KEYS = new Set(["c", "d", "e"]);
  const imageShown = () => {
    const box = document.querySelector("#annotator .annotator-container");
    return !!(box && box.getClientRects().length && !box.closest("[inert]"));
  };
  const click = (id) => { const el = document.getElementById(id); if (el) el.click(); };

  // where the pointer is, not which element it last entered: opening another item redraws
  // the canvas under a pointer that has not moved
  let pointer = null;
  document.addEventListener("pointermove", (e) => { pointer = [e.clientX, e.clientY]; }, true);
  document.addEventListener("pointerout", (e) => { if (!e.relatedTarget) pointer = null; }, true);
  const overImage = () => {
    const at = pointer && document.elementFromPoint(pointer[0], pointer[1]);
    return !!(at && at.closest && at.closest("#annotator .canvas-container"));
  };

  function toAnnotator(e) {
    const box = document.querySelector("#annotator .annotator-container");
    if (!box || e.target === box || document.getElementById("model-box-edit")) return false;
    e.preventDefault();
    e.stopPropagation();
    box.focus({preventScroll: true});
    box.dispatchEvent(new KeyboardEvent("keydown", {key: e.key, code: e.code, bubbles: true,
                                                    cancelable: true}));
    return true;
  }

  // Next / Previous by a key with a table cell's editor open: the editor's words become the
  // cell's first (its editor closes as it loses the focus, as a click on Next closes it),
  // then the item is left, so Next keeps them in the item's draft. Clicked at once, Next
  // sent the table without them and they were lost.
  const CELL_EDITOR = "[role=gridcell] textarea";
  function navigate(t, id) {
    if (!(t && t.matches && t.matches(CELL_EDITOR))) { click(id); return; }
    t.blur();
    setTimeout(() => click(id), 50);
  }
  let tabbed = false;
  document.addEventListener("keydown", (e) => {
    if (e.key === "Tab") { tabbed = true; setTimeout(() => { tabbed = false; }, 0); }
  }, true);
  // The list can also open later, while the field still has the focus: when its choices
  // arrive from the server (Domain and Subtask read theirs as they get the focus), which
  // under load came after the one Escape, and the list stayed open over the form. So
  // until the user does something with the field (a key, a click) or leaves it, any list
  // it opens is closed (checked every 100 ms, for 3 s).
  let quiet = null;
  const listOpen = (input) => {
    const block = input.closest(".block") || input.parentElement;
    const list = block && block.querySelector("ul.option-list");
    return !!(list && list.getClientRects().length);
  };
  const closeList = (input) => input.dispatchEvent(
    new KeyboardEvent("keydown", {key: "Escape", bubbles: true, cancelable: true}));
  document.addEventListener("keydown", (e) => {
    if (quiet && e.target === quiet && e.key !== "Tab" && e.key !== "Escape") quiet = null;
  }, true);
  document.addEventListener("pointerdown", () => { quiet = null; }, true);
  // A dropdown's list opened while its field no longer has the focus (its choices came
  // back after Tab had moved on: Domain's list stayed open over the form, detached from
  // it, through clicks and Next) is closed as it appears.
  let pending = false;
  const closeStrayLists = () => {
    pending = false;
    for (const list of document.querySelectorAll("ul.option-list")) {
      const block = list.closest(".block");
      const input = block && block.querySelector("input[role='combobox']");
      if (input && input !== document.activeElement && list.getClientRects().length) {
        closeList(input);
      }
    }
  };
  new MutationObserver(() => {
    if (!pending) { pending = true; requestAnimationFrame(closeStrayLists); }
  }).observe(document.documentElement, {childList: true, subtree: true});
  document.addEventListener("focusin", (e) => {
    const input = e.target;
    if (!tabbed || !input.matches || !input.matches("input[role='combobox']")) return;
    quiet = input;
    const started = Date.now();
    const check = () => {
      if (quiet !== input || document.activeElement !== input) return;
      if (listOpen(input)) closeList(input);
      if (Date.now() - started < 3000) setTimeout(check, 100);
    };
    setTimeout(() => {          // after the component's own focus handler opened the list
      if (document.activeElement !== input) return;
      closeList(input);
      setTimeout(check, 100);
    }, 0);
  }, true);

  document.addEventListener("keydown", (e) => {
    const t = e.target;
    const plain = !e.ctrlKey && !e.metaKey && !e.altKey;
    if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === "s") {
      e.preventDefault();
      if (t && typeof t.blur === "function" && typing(t)) t.blur();
      setTimeout(() => click("save-item"), 50);
    } else if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey &&
               e.key.toLowerCase() === "z" && !typing(t)) {
      // the last box change undone (assets/box_undo.js); in a text field, its own undo.
      // Outside one, never the browser's: it undid the question's last typed letter, out
      // of view, when no box change was left to undo
      e.preventDefault();
      if (window.cluelabBoxUndo && window.cluelabBoxUndo.can()) click("box-undo");
    } else if (e.altKey && e.key === "ArrowRight") {
      e.preventDefault(); navigate(t, "next-item");
    } else if (e.altKey && e.key === "ArrowLeft") {
      e.preventDefault(); navigate(t, "prev-item");
    } else if (!typing(t) && e.key === "PageDown") {
      e.preventDefault(); navigate(t, "next-item");
    } else if (!typing(t) && e.key === "PageUp") {
      e.preventDefault(); navigate(t, "prev-item");
    } else if (!e.ctrlKey && !e.metaKey && !e.altKey && !typing(t) && e.key === "?") {
      const help = document.querySelector("#annotator-help details");
      if (help) { e.preventDefault(); help.open = !help.open; }
    } else if (e.key === "Escape" && document.querySelector("#annotator-help details[open]")) {
      // Escape closes the key help, as it closes the other popups (it stayed over the save
      // bar until "?" was pressed again); the key goes on to whatever else it closes
      document.querySelector("#annotator-help details").open = false;
    } else if (plain && (!typing(t) || selectedCell(t)) && ANNOTATOR_KEYS.has(e.key.toLowerCase())
               && (overImage() || (DRAW_KEYS.has(e.key.toLowerCase()) && imageShown()))) {
      // a cell's words just entered: the key is the image's (C typed a "c" after the
      // clue's words)
      toAnnotator(e);
    } else if (e.key === "Enter" && t && t.closest && t.closest("#item-id")) {
      // Enter opens the item: the id box is done, so the next C over the image draws
      // instead of typing into the id (blurred after Gradio has read the Enter)
      setTimeout(() => t.blur(), 0);
    }
  }, true);
})();
