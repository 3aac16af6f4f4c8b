// ClueLab's fit of the box annotator (gradio_image_annotation 0.5.6) to the screen.
//
// The component draws the image scaled to its container's *width* into a canvas whose
// pixel size has the image's aspect ratio, and then styles that canvas with the `height`
// it was given: any fixed height stretched the picture (a 1300x900 photo showed about
// half as wide as tall). ClueLab gives it `height: auto` (ui/annotate_layout.py), so the
// canvas keeps its own aspect ratio, and here limits the container's width so that the
// whole image also fits the height left on the first screen (above the sticky save bar's
// own line: a question opened above that line, another tab's draft, shows over the image
// until it is answered; a refused save's panel opens beside the image, in the form column). The image's size comes from the line
// above it (#image-info's data-width/data-height). The room counts the component's toolbar
// and the help line under the canvas, so the tools are on the first screen too. The fit
// waits while a pointer is down on the image: a canvas resized in the middle of a drag
// records the box's end with the old scale.
//
// Also: the relabel picker opens listing every clue. The component focuses its input before
// it has filtered the list by the current label, so only that clue was listed; focusing the
// input again once it is shown runs its own "show every choice" path.
//
// And a clue typed into that picker ("clue 2", or just "2") + Enter or OK assigns the clue
// with its colour, exactly as picking it from the list: the component takes typed text as
// the label alone (the colour stayed the grey of "(pick a clue)"), so the typed clue's list
// entry is picked for it. Text that names no clue is refused in the dialog, which says so
// and stays open (the component took it as the label).
// "(pick a clue)", the label a new box shows until it has a clue, is no choice: the list
// hides it (assets/cluelab.css), ArrowDown/ArrowUp walk the clues only (the component's
// walk started on it, and Enter then committed it), Enter with no clue chosen keeps the
// dialog open, and it is never part of what is typed: a click into the field put the caret
// after it, and "2" typed then read "(pick a clue)2", a label of no clue
// (ui/workarounds.py, BOX_LABEL_PLACEHOLDER).
// The dialog is placed next to the box it labels, beside it (right, else left, else below
// or above) so it covers neither the box nor is far from it: the component centres it near
// the top of the screen, whatever the box (ui/workarounds.py, BOX_DIALOG_POSITION). The box
// is the one just drawn (press to release) or, to relabel, the one last clicked.
(() => {
  const MIN_HEIGHT = 320;     // below this the image is allowed to run past the first screen
  const GAP = 8;              // room between the help line's bottom and the save bar

  let pointerDown = false;
  let fitPending = false;

  function fit() {
    if (pointerDown) { fitPending = true; return; }
    const container = document.querySelector("#annotator .canvas-container");
    const size = document.querySelector("#image-info [data-width]");
    if (!container) return;
    const width = size ? Number(size.dataset.width) : 0;
    const height = size ? Number(size.dataset.height) : 0;
    let maxWidth = "";
    if (width > 0 && height > 0) {
      const top = pageTop(container);
      // what follows the canvas: the toolbar, the block's padding, the help line
      const help = document.getElementById("annotator-help");
      const last = help && help.offsetParent ? help : document.getElementById("annotator");
      const below = last.getBoundingClientRect().bottom -
                    container.getBoundingClientRect().bottom;
      const room = Math.max(MIN_HEIGHT, window.innerHeight - top - barHeight() - below - GAP);
      maxWidth = `${Math.floor(room * width / height)}px`;
    }
    if (container.style.maxWidth !== maxWidth) container.style.maxWidth = maxWidth;
  }

  // The container's top on the page, as at the top of the page: its column is sticky
  // (assets/cluelab.css, #image-column), so scrolled its top on screen stays near 0 and
  // "screen top + scrollY" put the image hundreds of pixels lower: a fit made scrolled (Add
  // option scrolls to the new row) shrank the image to about half (611 -> 352 px wide).
  // The column's parent row does not move with it: the container's top is that row's page
  // top plus the container's place inside the column.
  function pageTop(container) {
    const column = container.closest("#image-column");
    const row = column && column.parentElement;
    if (!row) return container.getBoundingClientRect().top + window.scrollY;
    return row.getBoundingClientRect().top + window.scrollY +
           (container.getBoundingClientRect().top - column.getBoundingClientRect().top);
  }

  function barHeight() {      // the save bar's own line, from its top to the screen's bottom
    const footer = document.getElementById("item-footer");
    if (!footer || !footer.offsetParent) return 0;
    const row = document.getElementById("save-row");
    const bottom = footer.getBoundingClientRect().bottom;
    if (!row) return footer.getBoundingClientRect().height;
    return bottom - row.getBoundingClientRect().top +
           parseFloat(getComputedStyle(footer).paddingTop || "0");
  }

  function showEveryChoice(modal) {
    const input = modal.querySelector("input");
    if (!input) return;
    requestAnimationFrame(() => {
      if (!input.isConnected) return;
      input.blur();
      input.focus();
      input.select();     // typing replaces the current label and filters from scratch
    });
  }

  const CLUE_LABEL = /^\s*(?:clue\s*)?(\d+)\s*$/i;   // as ui/editor_model.parse_clue_label
  const DIALOG_GAP = 12;      // between the box and its label dialog
  let box = null;             // {left, top, right, bottom} of the box on screen
  let press = null;

  const PICK_LABEL = "(pick a clue)";                // as ui/editor_model.PICK_LABEL
  let highlighted = null;     // the clue ArrowDown/ArrowUp moved to in the label dialog
  let lastPicked = null;      // {item, name}: the clue this item's last labelled box was given
  let picking = false;        // OK is being clicked for a clue picked here: let it through

  function clueOptions() {    // the dialog's list entries that are clues, in their order
    return [...document.querySelectorAll("#model-box-edit [data-testid='dropdown-option']")]
      .filter((li) => li.getAttribute("aria-label") !== PICK_LABEL);
  }

  function highlight(name) {
    highlighted = name;
    for (const li of document.querySelectorAll("[data-testid='dropdown-option']")) {
      li.classList.toggle("cluelab-highlight", li.getAttribute("aria-label") === name);
      li.classList.remove("active");  // the component's own highlight may be on the placeholder
    }
  }

  function openItem() {
    const input = document.querySelector("#item-id input, #item-id textarea");
    return input ? input.value : "";
  }

  // A new box of the item whose last box was given a clue offers that clue first: the list
  // shows it highlighted and Enter takes it (drawing several boxes for one clue is one key
  // each); ArrowDown/ArrowUp still walk to the others. The first box of an item offers none.
  function remember(event) {
    const option = event.target.closest &&
      event.target.closest("#model-box-edit [data-testid='dropdown-option']");
    const name = option && option.getAttribute("aria-label");
    if (name && name !== PICK_LABEL) lastPicked = {item: openItem(), name};
  }

  // So does a new box of an item with one clue: that clue, the only choice, is preselected.
  function offerLastClue(modal, frames = 10) {
    const input = modal.querySelector("input[role='listbox']");
    if (!input || !modal.isConnected) return;
    if (input.value.trim() !== PICK_LABEL || highlighted) return;  // a relabel, or keys used
    const names = clueOptions().map((li) => li.getAttribute("aria-label"));
    const last = lastPicked && lastPicked.item === openItem() ? lastPicked.name : null;
    if (names.includes(last)) highlight(last);
    else if (names.length === 1) highlight(names[0]);
    else if (!names.length && frames > 0) {   // the list is not shown yet
      requestAnimationFrame(() => offerLastClue(modal, frames - 1));
    }
  }

  function itemHasClues() {
    return document.querySelectorAll('#clue-table [role=gridcell][data-col="0"]').length > 0;
  }

  function okButton(modal) {
    return [...modal.querySelectorAll("button")]
      .find((button) => button.textContent.trim() === "OK");
  }

  function pickOption(modal, option) {
    option.dispatchEvent(new MouseEvent("mousedown", {bubbles: true}));  // as a pick
    requestAnimationFrame(() => {
      const ok = okButton(modal);
      if (!ok) return;
      picking = true;
      ok.click();
      picking = false;
    });
  }

  // the dialog's line of class `name` saying why something was refused (made once); also
  // assets/box_dialog_stay.js's. It goes above the clue list's field: below it, the list
  // (open again as the field takes the focus) covered it ("Pick a … number (Canc…").
  function dialogNote(modal, name) {
    const dialog = modal.querySelector(".modal-container") || modal;
    let note = dialog.querySelector(`.${name}`);
    if (!note) {
      note = document.createElement("div");
      note.className = name;
      note.setAttribute("role", "alert");
      let field = dialog.querySelector("input[role='listbox']");
      while (field && field.parentElement !== dialog) field = field.parentElement;
      if (field) dialog.insertBefore(note, field);
      else dialog.appendChild(note);
    }
    return note;
  }
  window.cluelabDialogNote = dialogNote;

  function refuse(modal, input, text) {   // the dialog stays open and says why
    const note = dialogNote(modal, "cl-pick-refused");
    const shown = text.length > 40 ? `${text.slice(0, 40)}…` : text;
    note.textContent = `“${shown}” names no clue of this item: type a clue's number ` +
                       "or pick one from the list.";
    input.focus();
    input.select();
  }

  function pickFirst(modal, input) {     // OK with no clue picked: the dialog says so
    dialogNote(modal, "cl-pick-refused").textContent =
      "Pick a clue first: click it in the list or type its number (Cancel or Esc drops " +
      "the box).";
    if (input) { input.focus(); input.select(); }
  }

  function dropPlaceholder(event) {       // typing never adds to "(pick a clue)"
    const input = event.target;
    if (!input.matches || !input.matches("#model-box-edit input[role='listbox']")) return;
    if (input.value !== PICK_LABEL && input.value.includes(PICK_LABEL)) {
      input.value = input.value.replace(PICK_LABEL, "").trim();
    }
    const note = document.querySelector("#model-box-edit .cl-pick-refused");
    if (note) note.remove();
  }

  function labelDialogOk(event) {         // OK with typed text: as Enter with it
    const modal = document.getElementById("model-box-edit");
    const button = event.target.closest && event.target.closest("button");
    if (picking || !modal || !button || button !== okButton(modal)) return;
    const input = modal.querySelector("input[role='listbox']");
    const text = input ? input.value.trim() : "";
    if (!text || text === PICK_LABEL) {
      // no clue picked: OK left the box grey, and the save was refused later ("1 box has
      // no clue yet"); now OK takes the clue offered (highlighted) as Enter does, and with
      // none the dialog stays open and says to pick one. An item without clues keeps OK:
      // its dialog says how to give the grey box its clue later (hintWithoutClues).
      const chosen = highlighted && clueOptions()
        .find((li) => li.getAttribute("aria-label") === highlighted);
      if (!chosen && !itemHasClues()) return;
      event.preventDefault();
      event.stopImmediatePropagation();
      if (chosen) pickOption(modal, chosen);
      else pickFirst(modal, input);
      return;
    }
    event.preventDefault();
    event.stopImmediatePropagation();
    const typed = CLUE_LABEL.exec(text);
    if (typed) pickTypedClue(modal, input, `clue ${Number(typed[1])}`);
    else refuse(modal, input, text);
  }

  function moveHighlight(step) {
    const names = clueOptions().map((li) => li.getAttribute("aria-label"));
    if (!names.length) return;
    const at = names.indexOf(highlighted);
    highlight(names[at < 0 ? (step > 0 ? 0 : names.length - 1)
                           : (at + step + names.length) % names.length]);
  }

  function labelDialogKey(event) {
    const modal = document.getElementById("model-box-edit");
    const input = modal && modal.querySelector("input[role='listbox']");
    if (!input || event.target !== input) return;
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      // the component's own keys also walk onto "(pick a clue)": the walk is among clues
      event.preventDefault();
      event.stopImmediatePropagation();
      moveHighlight(event.key === "ArrowDown" ? 1 : -1);
      return;
    }
    if (event.key !== "Enter") return;
    const chosen = highlighted && clueOptions()
      .find((li) => li.getAttribute("aria-label") === highlighted);
    const typed = CLUE_LABEL.exec(input.value);
    const nothing = !input.value.trim() || input.value.trim() === PICK_LABEL;
    event.preventDefault();
    event.stopImmediatePropagation();            // the component's own Enter must not run
    if (chosen) { pickOption(modal, chosen); return; }
    if (nothing) return;                         // no clue chosen yet: the dialog stays open
    if (!typed) { refuse(modal, input, input.value.trim()); return; }
    pickTypedClue(modal, input, `clue ${Number(typed[1])}`);
  }

  function pickTypedClue(modal, input, name) {
    const original = input.value.trim();
    input.focus();                          // its list shows (after a click on OK it had gone)
    input.value = name;                     // the list filters to it
    input.dispatchEvent(new Event("input", {bubbles: true}));
    requestAnimationFrame(() => {
      const option = [...document.querySelectorAll("[data-testid='dropdown-option']")]
        .find((li) => li.getAttribute("aria-label") === name);
      if (option) { pickOption(modal, option); return; }
      input.value = original;               // no such clue: the text typed, refused
      input.dispatchEvent(new Event("input", {bubbles: true}));
      refuse(modal, input, original);
    });
  }

  // Where the label dialog goes: beside the box, never on it, and inside the image's own
  // column when there is room (right of the box, left, below, above), so that it does not
  // spill over the Question and the clue table; else anywhere on screen beside the box.
  function placeNextToBox(modal) {
    const dialog = modal.querySelector(".modal-container");
    if (!dialog || !box) return;
    const width = dialog.offsetWidth;
    const height = dialog.offsetHeight;
    const screen = {left: DIALOG_GAP, top: DIALOG_GAP, right: window.innerWidth - DIALOG_GAP,
                    bottom: window.innerHeight - DIALOG_GAP};
    const root = document.getElementById("annotator");
    const column = root ? root.getBoundingClientRect() : screen;
    const within = {left: Math.max(screen.left, column.left),
                    right: Math.min(screen.right, column.right),
                    top: screen.top, bottom: screen.bottom};
    const spot = placeIn(within, width, height) || placeIn(screen, width, height, true);
    Object.assign(dialog.style, {marginTop: "0", transform: "none", bottom: "",
                                 left: `${spot.left}px`, top: `${spot.top}px`});
  }

  // {left, top} beside the box within area; null when it has no room there (unless `anyhow`:
  // then as near the box as the area allows)
  function placeIn(area, width, height, anyhow = false) {
    const clampTop = (value) => Math.max(area.top, Math.min(value, area.bottom - height));
    const clampLeft = (value) => Math.max(area.left, Math.min(value, area.right - width));
    if (box.right + DIALOG_GAP + width <= area.right) {
      return {left: box.right + DIALOG_GAP, top: clampTop(box.top)};
    }
    if (box.left - DIALOG_GAP - width >= area.left) {
      return {left: box.left - DIALOG_GAP - width, top: clampTop(box.top)};
    }
    if (area.right - area.left < width) return null;
    if (box.bottom + DIALOG_GAP + height <= area.bottom) {
      return {left: clampLeft(box.left), top: box.bottom + DIALOG_GAP};
    }
    if (box.top - DIALOG_GAP - height >= area.top) {
      return {left: clampLeft(box.left), top: box.top - DIALOG_GAP - height};
    }
    return anyhow ? {left: clampLeft(box.left), top: clampTop(box.top)} : null;
  }

  // An item without clues: the dialog's list has nothing to pick, and says what to do.
  function hintWithoutClues(modal) {
    const clues = document.querySelectorAll('#clue-table [role=gridcell][data-col="0"]');
    const dialog = modal.querySelector(".modal-container") || modal;
    if (clues.length || dialog.querySelector(".cl-pick-hint")) return;
    const note = document.createElement("div");
    note.className = "cl-pick-hint";
    note.setAttribute("role", "note");
    note.textContent = "This item has no clues yet. Press OK to keep the box grey, then " +
                       "Add clue (beside the image) and give the box its clue: select it " +
                       "(D, then click it), press E and type the clue's number.";
    dialog.appendChild(note);
  }

  function watch() {
    const root = document.getElementById("annotator");
    const info = document.getElementById("image-info");
    if (!root || !info) return false;
    new MutationObserver(fit).observe(info, {childList: true, subtree: true});
    new MutationObserver((records) => {
      for (const record of records) {
        for (const node of record.addedNodes) {
          const modal = node.nodeType === 1 &&
            (node.id === "model-box-edit" ? node : node.querySelector("#model-box-edit"));
          if (modal) {
            hintWithoutClues(modal);
            placeNextToBox(modal);       // and once laid out (its list, its fonts)
            requestAnimationFrame(() => placeNextToBox(modal));
            // and whenever it grows (a refusal under its field, its hint): placed once, it
            // grew past the screen's bottom over the save bar (a review)
            const dialog = modal.querySelector(".modal-container");
            if (dialog && window.ResizeObserver) {
              new ResizeObserver(() => placeNextToBox(modal)).observe(dialog);
            }
            showEveryChoice(modal);
            highlighted = null;
            // once the list is shown (showEveryChoice's focus, a frame later)
            requestAnimationFrame(() => offerLastClue(modal));
          }
        }
      }
    }).observe(root, {childList: true, subtree: true});
    root.addEventListener("pointerdown", (event) => {
      pointerDown = true;
      press = [event.clientX, event.clientY];
    }, true);
    root.addEventListener("pointerup", (event) => {
      if (!press) return;
      box = {left: Math.min(press[0], event.clientX), right: Math.max(press[0], event.clientX),
             top: Math.min(press[1], event.clientY), bottom: Math.max(press[1], event.clientY)};
    }, true);
    const editor = document.getElementById("item-editor");
    if (editor) new ResizeObserver(fit).observe(editor);
    fit();
    return true;
  }

  function pointerReleased() {
    pointerDown = false;
    if (fitPending) { fitPending = false; fit(); }
  }

  window.addEventListener("resize", fit);
  window.addEventListener("keydown", labelDialogKey, true);
  window.addEventListener("input", dropPlaceholder, true);
  window.addEventListener("click", labelDialogOk, true);
  window.addEventListener("mousedown", remember, true);
  window.addEventListener("pointerup", pointerReleased, true);
  window.addEventListener("pointercancel", pointerReleased, true);
  // the page's components arrive after this script runs; only the Annotate page has them
  const pending = new MutationObserver(() => { if (watch()) pending.disconnect(); });
  pending.observe(document.documentElement, {childList: true, subtree: true});
})();
