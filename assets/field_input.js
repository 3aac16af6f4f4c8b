// Every change of a text field reaches the server as the field's `input` event, whatever
// made it: typing, paste (Ctrl+V or the menu), drop, autofill, an IME, Backspace/Delete,
// or a test's `fill`. Gradio's Textbox sends `input` from its keypress handler only
// (ui/workarounds.py, TEXTBOX_INPUT_ON_KEYPRESS), so a pasted question was never autosaved
// as a draft: no "unsaved edits" line, and it was lost on reload or Next.
//
// The page listens to the DOM's own `input` (and `compositionend`) and, when no key press
// already told Gradio, hands the field the keypress Gradio listens to (a key that is not
// Enter, so it never submits). Gradio then reads the field's value as for a typed key.
(() => {
  const FIELD = "textarea[data-testid=textbox], input[data-testid=textbox]";
  let pressed = null;          // the field a real key press just went to (Gradio saw it)
  document.addEventListener("keypress", (e) => { if (e.isTrusted) pressed = e.target; }, true);
  const tell = (field) => field.dispatchEvent(new KeyboardEvent("keypress",
    {key: "Unidentified", bubbles: true, cancelable: true}));
  document.addEventListener("input", (e) => {
    const field = e.target;
    if (!field || !field.matches || !field.matches(FIELD) || e.isComposing) return;
    const typed = pressed === field && e.inputType === "insertText";
    pressed = null;
    if (!typed) tell(field);
  });
  document.addEventListener("compositionend", (e) => {
    if (e.target && e.target.matches && e.target.matches(FIELD)) tell(e.target);
  });
})();
