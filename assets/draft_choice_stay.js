// While the page asks which draft to keep ("Open the other tab's draft" / "Keep this tab's
// edits", #draft-choice: another tab or window of the same user changed this item's draft),
// the page stays on its item. This tab's last edits are on the page only (their autosave
// was refused so as not to replace the other tab's draft unseen), and opening another item
// (Next / Previous by click or key, a row of the item list, an id typed in the id box) lost
// them: Alt+→ moved on and a message said only that they were not kept.
//
// So while the choice is shown, those are refused in the page, and the choice's row says
// why and what to do, and leaving the page (a reload, a link, closing the tab) is asked
// first; once the user has chosen (the row is hidden) they work again.
(() => {
  const CHOICE = "#draft-choice";
  const NAVIGATION = "#next-item, #prev-item";
  const NOTE_ID = "cl-draft-choice-note";
  const SAID = "Not opened: another tab or window changed this item's draft, and this " +
    "tab's edits are not kept yet. Choose first: open the other tab's draft, or keep this " +
    "tab's edits; then go on.";

  const pending = () => {
    const row = document.querySelector(CHOICE);
    const shown = !!(row && row.getClientRects().length);
    const note = document.getElementById(NOTE_ID);
    if (!shown && note) note.remove();        // chosen since: the note goes with the row
    return shown;
  };

  function say() {
    const row = document.querySelector(CHOICE);
    if (!row) return;
    let note = document.getElementById(NOTE_ID);
    if (!note) {
      note = document.createElement("p");
      note.id = NOTE_ID;
      note.setAttribute("role", "alert");
      row.appendChild(note);
    }
    note.textContent = SAID;
  }

  function refuse(event) {
    event.preventDefault();
    event.stopImmediatePropagation();
    say();
  }

  // Next / Previous: a click, or the click Alt+←/→ and PageUp/PageDown make
  // (assets/shortcuts.js); a row of the list opens its item as the pointer goes down on it
  window.addEventListener("click", (event) => {
    const target = event.target;
    if (pending() && target instanceof Element && target.closest(NAVIGATION)) refuse(event);
  }, true);
  for (const type of ["pointerdown", "mousedown", "mouseup", "click"]) {
    window.addEventListener(type, (event) => {
      const target = event.target;
      if (pending() && target instanceof Element &&
          target.closest("#item-list .virtual-row, #item-list td")) refuse(event);
    }, true);
  }
  window.addEventListener("keydown", (event) => {
    const target = event.target;
    if (!pending() || event.key !== "Enter" || !(target instanceof Element)) return;
    if (target.closest("#item-id") || target.closest("#item-list")) refuse(event);
  }, true);
  // A reload, a link of the top bar or closing the tab: the browser asks first, as those
  // edits would go with the page (a reload while the choice was shown lost " TAB2" with no
  // word: a review, round 25)
  window.addEventListener("beforeunload", (event) => {
    if (!pending()) return;
    event.preventDefault();
    event.returnValue = "";
  });
})();

// Back in this tab (another tab or window of the account may have saved the item, which
// dropped the draft this tab's line says is kept): the line is read again on the server
// (#draft-recheck, ui/annotate_wiring.py draft_now), only while it says a draft is kept,
// or while it offers the two-tab choice: the other tab's draft may be gone (saved), and
// "Open the other tab's draft" would open nothing of it (ui/draft_gone.py).
(() => {
  const recheck = () => {
    if (document.visibilityState !== "visible") return;
    const line = document.querySelector("#draft-state");
    const choice = document.querySelector("#draft-choice");
    const offered = !!(choice && choice.getClientRects().length);
    if (!line || !(offered || /\(draft kept\)/.test(line.textContent || ""))) return;
    const button = document.querySelector("#draft-recheck");
    if (button) button.click();
  };
  document.addEventListener("visibilitychange", recheck);
  window.addEventListener("focus", recheck);
})();
