// ClueLab's "are you sure?" before the Annotate page's buttons that throw work away.
//
// The question is asked here, on the click itself (capture phase, before Gradio's own
// listener), and a click that is not confirmed never reaches Gradio. It used to be the
// event's `js=` script, which stopped the event by throwing: Gradio 6 then marks every
// output of the event with a red "Error" badge (ui/workarounds.py, GRADIO_JS_THROW).
// Buttons are found by their elem_id; the question may read the page (a version number,
// a dataset's name) as the event would send it.
(() => {
  const value = (selector) => {
    const field = document.querySelector(`${selector} input, ${selector} textarea`);
    return field ? field.value : "";
  };
  // a part's words, without its buttons' (a table cell's "⋮" menu)
  const text = (selector) => {
    const node = document.querySelector(selector);
    if (!node) return "";
    const copy = node.cloneNode(true);
    copy.querySelectorAll("button").forEach((button) => button.remove());
    return copy.textContent.replace(/\s+/g, " ").trim();
  };
  // this tab's unsaved edits (the save bar's draft line, ui/editor_handlers.DRAFT_KEPT):
  // a restore or a reload replaces them, which the questions did not say
  // (while an event runs the line also shows its timer, "0.1s")
  const unsaved = () => /\bunsaved edits\b/.test(text("#draft-state"));
  // the parts the line names ("unsaved edits of question and GT reasoning (draft kept)"):
  // the questions said "your unsaved edits", not which
  const editsOf = () => {
    // (": clue 2 removed" when a part is removed: ui/editor_notices.edits_said)
    const named = /\bunsaved edits( of |: )(.+?) \(draft kept\)/.exec(text("#draft-state"));
    return !named ? "" : named[1] === ": " ? ` (${named[2]})` : ` of ${named[2]}`;
  };
  // " (saved by bob at 2026-12-07 11:20 UTC)": a version's author and time, from the
  // History table's row of it (ui/history_handlers.HISTORY_HEADERS: version, author, time)
  // The rows Gradio draws (.virtual-row): its table's tbody holds one hidden row for sizing
  // whose cells mix versions (version 3 was said "saved at" version 1's time); a version
  // not drawn (scrolled out of the list) is named by its number alone
  const savedBy = (version) => {
    const drawn = document.querySelectorAll("#history-table .virtual-row");
    for (const row of drawn) {
      const cells = [...row.children].map((cell) => {
        const copy = cell.cloneNode(true);
        copy.querySelectorAll("button").forEach((button) => button.remove());
        return copy.textContent.replace(/\s+/g, " ").trim();
      });
      if (cells[0] === String(version) && cells[1]) return ` (saved by ${cells[1]} at ${cells[2]})`;
    }
    return "";
  };
  // [this tab's edited parts, the other tab's], as the two-tab choice's line names them
  const tabEdits = () => {
    const line = text("#draft-state");
    const theirs = /\(its edits of (.+?)\)\. Open it/.exec(line);
    const mine = /keep this tab's edits \(of (.+?)\)\./.exec(line);
    return [mine ? mine[1] : "", theirs ? theirs[1] : ""];
  };
  // a draft of a released item, said in the notice and not shown (ui/annotate_render)
  const releasedDraft = () => document.querySelector("#item-notice [data-cl-released-draft]");
  const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "es"}`;
  // A clue's or an option's words quoted in a question, as ui/text.quoted quotes them: without
  // text-direction controls (domain/item_ids.DIRECTION_MARKS) and, when they held one or
  // hold right-to-left letters, in an isolate (FSI … PDI). A clue "tiny cat \u202eevil"
  // mirrored the rest of the question ("…sexob 0 dna gninosaer sti htiw").
  const MARKS = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/g;
  const RTL = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFC]/;
  const quoted = (words) => {
    const kept = words.replace(MARKS, "");
    const cut = kept.length > 40 ? kept.slice(0, 40) + "…" : kept;
    return ` "${kept !== words || RTL.test(cut) ? `\u2068${cut}\u2069` : cut}"`;
  };
  // Any control left in a question (read from the page: an author's name, a notice's
  // words) reaches past its text: dropped, the isolates `quoted` writes kept
  const REACHING = /[\u202A-\u202E\u2066\u2067\u200E\u200F\u061C]/g;
  // Remove image: which image, and how many boxes go with it (the annotator's boxes as the
  // page shows them now: assets/box_undo.js)
  const removeImage = () => {
    const info = document.querySelector("#image-info [data-image]");
    if (!info) return "Remove this image and its boxes?";
    const boxes = window.cluelabBoxUndo ? window.cluelabBoxUndo.boxCount() : null;
    const what = boxes === null ? "and its boxes" :
      boxes ? `and its ${plural(boxes, "box")}` : "(no boxes on it)";
    // the item named: a click just after Previous/Next removed an image of the item opening
    const of = info.dataset.item ? ` of ${info.dataset.item}` : "";
    return `Remove image ${info.dataset.image}${of} ${what}?`;
  };
  // The clue row the page shows selected (its index from 0), null when none. Remove clue
  // removes that row, the one its question names (ui/annotate_structure.py,
  // PAGE_SELECTED_CLUE): the server's own record of the last row clicked outlived the
  // row's highlight (a click elsewhere), and the question was asked about "the selected
  // clue" when none was.
  const selectedClue = () => {
    const cell = document.querySelector("#clue-table [data-testid^='cell-'][aria-selected='true']");
    const row = cell && /^cell-(\d+)-/.exec(cell.dataset.testid);
    return row ? Number(row[1]) : null;
  };
  let clueAsked = null;       // the row of the last click on Remove clue
  // Remove clue: the clue of the selected row, its text and box count; no question when no
  // row is selected (the server then says "select a clue row first", at once)
  const removeClue = () => {
    clueAsked = selectedClue();
    if (clueAsked === null) return null;
    const part = (column) => text(`#clue-table [data-testid='cell-${clueAsked}-${column}']`);
    const words = part(1);
    const shown = words ? quoted(words) : " (no text)";
    const boxes = parseInt(part(3), 10) || 0;
    return `Remove ${part(0) || `clue ${clueAsked + 1}`}${shown} with its reasoning and ` +
      `${plural(boxes, "box")}?`;
  };
  window.cluelabConfirm = { clueAsked: () => clueAsked };
  // Remove option: the option named in "Selected option", its text; asked as a clue's
  // removal is (an option went at one click, a review); no question when none is named
  // or no option has that label. When the gold answer names it, the question says so: the
  // option went unwarned and the save was refused afterwards ("gold answer has no option")
  const goldNames = (label) => value("#item-answer").split(/[\s,;]+/)
    .some((part) => part.trim().toUpperCase() === label.toUpperCase());
  const removeOption = () => {
    const label = value("#option-label").trim();
    if (!label) return null;
    const cell = [...document.querySelectorAll("#option-table [data-testid$='-0']")]
      .find((node) => /^cell-\d+-0$/.test(node.dataset.testid) && text(
        `#option-table [data-testid='${node.dataset.testid}']`) === label);
    if (!cell) return null;                 // no such option: the server says so
    const row = /^cell-(\d+)-/.exec(cell.dataset.testid)[1];
    const words = text(`#option-table [data-testid='cell-${row}-1']`);
    const image = /\bimage\b/.test(text(`#option-table [data-testid='cell-${row}-2']`));
    const shown = words ? quoted(words) : image ? " (an image)" : "";
    const gold = goldNames(label) ? ` The gold answer names it: a save is refused until ` +
      "the gold answer names an option that is there." : "";
    return `Remove option ${label}${shown}?${gold} Discard draft brings it back until you save.`;
  };
  // Reload saved version: the version and its author, from the conflict panel's line
  // (ui/editor_handlers.save: "… was changed by X at <time> UTC (now version N) …")
  const reloadSaved = () => {
    const said = /was changed by (.+?) at [^(]*\(now version (\d+)\)/.exec(
      text("#conflict-message"));
    const saved = said ? `version ${said[2]} saved by ${said[1]}` : "the saved version";
    return unsaved() || said ? `Replace your unsaved edits${editsOf()} with ${saved}?` :
      `Show ${saved}?`;
  };
  const QUESTIONS = {
    "discard-draft": () => {
      const held = releasedDraft();
      if (held) {
        const parts = held.dataset.clReleasedDraft;
        return `Discard your unsaved edits${parts ? ` of ${parts}` : ""} of this released ` +
          "item (your draft, not shown)? They cannot be brought back.";
      }
      return `Discard your unsaved edits${editsOf() || " of this item"} and show the saved ` +
        "version?";
    },
    // the parts each side edited, from the line (ui/annotate_drafts.draft_conflict_offer):
    // neither question named what its choice drops
    "draft-open-other": () => {
      const [mine, theirs] = tabEdits();
      return "Replace the edits in this tab with the other tab's draft? This tab's edits" +
        `${mine ? ` of ${mine}` : ""} are replaced by the other tab's draft` +
        `${theirs ? ` (edits of ${theirs})` : ""}.`;
    },
    // the other tab went on saying "draft kept" while its edits were replaced
    "draft-keep-mine": () => {
      const theirs = tabEdits()[1];
      return "Keep this tab's edits as the item's draft? The other tab's unsaved edits" +
        `${theirs ? ` of ${theirs}` : ""} are replaced (that tab still shows them, and asks ` +
        "again when it edits).";
    },
    "remove-image": removeImage,
    // one click took a clue's text, reasoning and boxes, and a double click the next clue too
    "remove-clue": removeClue,
    "remove-option": removeOption,
    // a restore replaces this tab's unsaved edits too (their draft goes): said, not silent;
    // and who saved the version and when (the question named its number only)
    "history-restore": () => {
      const version = value("#history-version-a");
      // no such version (above the newest listed): nothing to ask, the server says so
      const listed = [...document.querySelectorAll("#history-table .virtual-row")]
        .map((row) => parseInt((row.children[0] || {}).textContent, 10))
        .filter((n) => !Number.isNaN(n));
      // or no whole number ("1.5"): the server refuses it, naming it
      const wanted = Number(version);
      if (!Number.isInteger(wanted)) return null;
      if (listed.length && !(wanted >= 1 && wanted <= Math.max(...listed))) return null;
      return `Restore version ${version}${savedBy(version)} as a new revision?` +
        (unsaved() ? ` Your unsaved edits in this tab${editsOf() || " of this item"} are ` +
          "replaced by it (their draft is dropped)." : "");
    },
    // it took the edits kept as a draft at once, with no question (Discard draft asks)
    "conflict-reload": reloadSaved,
    // the server's words (ui/editor_notices.delete_question): the colleagues' unsaved
    // drafts of the item, which the question did not mention
    "delete-item": () => {
      const asked = document.querySelector("#item-notice [data-cl-delete]");
      return asked ? asked.dataset.clDelete : `Delete item ${value("#item-id")}? An admin can ` +
        "restore it.";
    },
    // Item menu (admin): a restore brought a deleted item back with no question, unlike
    // Delete; nothing picked, nothing to ask (the server says to choose one)
    "restore-deleted": () => {
      const picked = value("#deleted-items").trim();
      if (!picked) return null;
      return `Restore deleted item ${picked}? It comes back as a new version and opens here.`;
    },
    // Experiments: a cancel dropped the requests in flight at once (their cost spent)
    // (the same words as `runs --cancel`'s help: "stop for good" there was not so)
    "run-cancel": () => `Cancel run ${value("#run-id")}? It stops now: the requests in ` +
      "flight are dropped (their replies are not recorded); Resume can still send the " +
      "items not done.",
    "delete-dataset": () =>
      `Delete dataset ${value("#dataset-to-delete")} for good? This cannot be undone.`,
  };

  window.addEventListener("click", (event) => {
    const button = event.target instanceof Element && event.target.closest("button[id]");
    const question = button && QUESTIONS[button.id];
    if (!question || button.disabled) return;
    const asked = question();               // null: nothing to ask about, the server says
    if (asked !== null && !window.confirm(asked.replace(REACHING, ""))) {
      event.preventDefault();
      event.stopImmediatePropagation();
    }
  }, true);
})();
