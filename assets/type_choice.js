// Answer type: typing replaces the type shown, and Enter on a text that names no type goes
// back to the type held (ui/workarounds.py, DROPDOWN_TYPED_TEXT_STAYS). Gradio's list is a
// text box that filters its choices: keys typed went into the value at the cursor
// ("multiple_choice" and "ope" typed read "multiple_chopeoice"), and Enter on a text that
// matches no choice left it on screen as the type. Typing a type then Enter still chooses
// it (ui/answer_wiring.py), as do the arrows and a click.
(() => {
  const FIELD = "#item-answer-type input";
  let held = null;              // the text the field showed as it got the focus
  document.addEventListener("focusin", (e) => {
    if (e.target.matches && e.target.matches(FIELD)) held = e.target.value;
  }, true);
  document.addEventListener("keydown", (e) => {
    const input = e.target;
    if (!input.matches || !input.matches(FIELD)) return;
    const typed = e.key.length === 1 && !e.ctrlKey && !e.metaKey && !e.altKey;
    if (typed && input.value === held) input.select();     // the first key replaces it
    if (e.key === "Enter") {
      // a choice made blurs the field (Gradio); still focused, the text named none: the
      // blur puts the type held back in the field, as Tab does
      setTimeout(() => { if (document.activeElement === input) input.blur(); }, 60);
    }
  }, true);
})();
