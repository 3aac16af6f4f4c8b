// Experiments: a watcher who may not steer the run watched (a run started from the command
// line, for a researcher: only an admin may) gets every control of it disabled by the
// server (ui/experiments_owners.owner_controls, experiments_steering.buttons); here each
// gets a tooltip saying why, the words of the progress panel's data-cl-off (the control
// line under the buttons says them too). "Delete run…" and "Save name and note" looked
// live and refused only after the click (round 28). A title set here goes when the run
// watched is one the watcher may steer, or when the control is on again.
(() => {
  const CONTROLS = ["run-pause", "run-cancel", "run-resume", "run-retry-errors",
                    "run-resume-budget", "run-name", "run-note", "run-save-labels",
                    "run-delete"];

  function apply() {
    const panel = document.querySelector("#run-progress .xp-progress");
    const why = panel ? panel.getAttribute("data-cl-off") || "" : "";
    for (const id of CONTROLS) {
      const control = document.getElementById(id);
      if (!control) continue;
      const field = control.matches("button, input, textarea") ? control
        : control.querySelector("input, textarea, button");
      const off = Boolean(why) && Boolean(field && field.disabled);
      const title = off ? why : "";
      // on the control and on its field: a disabled field shows its own title only
      for (const node of new Set([control, field])) {
        if (!node) continue;
        if (title && node.title !== title) node.title = title;
        else if (!title && node.dataset.clOffTitle !== undefined) node.removeAttribute("title");
        if (title) node.dataset.clOffTitle = "";
        else delete node.dataset.clOffTitle;
      }
    }
  }

  let pending = false;
  const soon = () => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => { pending = false; apply(); });
  };
  new MutationObserver(soon).observe(document.documentElement, {
    childList: true, subtree: true, characterData: true, attributes: true,
    attributeFilter: ["disabled", "data-cl-off"]});
})();
