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
  const QUESTIONS = {
    "discard-draft": () => "Discard your unsaved edits of this item and show the saved version?",
    "draft-open-other": () => "Replace the edits in this tab with the other tab's draft?",
    // the other tab went on saying "draft kept" while its edits were replaced
    "draft-keep-mine": () => "Keep this tab's edits as the item's draft? The other tab's " +
      "unsaved edits are replaced (that tab still shows them, and asks again when it edits).",
    "remove-image": () => "Remove this image and its boxes?",
    // one click took a clue's text, reasoning and boxes, and a double click the next clue too
    "remove-clue": () => "Remove the selected clue with its text, reasoning and boxes?",
    "history-restore": () => `Restore version ${value("#history-version-a")} as a new revision?`,
    // the server's words (ui/editor_notices.delete_question): the colleagues' unsaved
    // drafts of the item, which the question did not mention
    "delete-item": () => {
      const asked = document.querySelector("#item-notice [data-cl-delete]");
      return asked ? asked.dataset.clDelete : "Delete this item? An admin can restore it.";
    },
    // Experiments: a cancel dropped the requests in flight at once (their cost spent)
    "run-cancel": () => `Cancel run ${value("#run-id")}? The requests in flight are ` +
      "dropped (Resume goes on with the items not done).",
    "delete-dataset": () =>
      `Delete dataset ${value("#dataset-to-delete")} for good? This cannot be undone.`,
  };

  window.addEventListener("click", (event) => {
    const button = event.target instanceof Element && event.target.closest("button[id]");
    const question = button && QUESTIONS[button.id];
    if (!question || button.disabled) return;
    if (!window.confirm(question())) {
      event.preventDefault();
      event.stopImmediatePropagation();
    }
  }, true);
})();
