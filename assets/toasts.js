// Toasts stay clear of the controls (ui/workarounds.py, TOAST_TOP_RIGHT): Gradio puts them
// top-right, over the Annotate page's Next button and status dropdown, for seconds after
// every save. assets/cluelab.css moves them bottom-right; here the room they keep below
// them follows the sticky save bar's height (--cl-save-bar: 0 on pages without one), and a
// toast is dismissed by a click on it (its header still folds it; × still closes it) or,
// outside a text field, by Escape.
// Stale warnings go (ui/workarounds.py, TOASTS_STAY): Gradio keeps a warning on screen for
// its seconds, whatever happened since, and no server call closes one, so "Not saved:
// changed by rev" stayed beside the "Saved" of Save merged, and a gold warning stayed after
// the type was switched again. A success or info toast closes the warnings and errors shown
// before it, and so does a new action that makes them out of date (Save, a new answer type,
// another item); the new outcome then says its own.
(() => {
  const root = document.documentElement;
  let watched = null;
  const measure = () => {
    const bar = document.getElementById("item-footer");
    const height = bar && bar.offsetParent ? bar.getBoundingClientRect().height : 0;
    root.style.setProperty("--cl-save-bar", `${Math.ceil(height)}px`);
    if (bar && bar !== watched) { watched = bar; new ResizeObserver(measure).observe(bar); }
  };
  new MutationObserver(() => { if (!watched || !watched.isConnected) measure(); })
    .observe(root, {childList: true, subtree: true});
  window.addEventListener("resize", measure);

  const close = (toast) => {
    const button = toast && toast.querySelector("[data-testid='toast-close']");
    if (button) button.click();
  };
  const STALE = "[data-testid='toast-body'].warning, [data-testid='toast-body'].error";
  const closeStale = (except) => {
    document.querySelectorAll(STALE).forEach((toast) => { if (toast !== except) close(toast); });
  };
  new MutationObserver((records) => {
    for (const record of records) {
      for (const node of record.addedNodes) {
        const toast = node.nodeType === 1 && node.closest("[data-testid='toast-body']");
        if (toast && (toast.classList.contains("success") || toast.classList.contains("info"))) {
          closeStale(toast);
          return;
        }
      }
    }
  }).observe(root, {childList: true, subtree: true});
  const ACTIONS = "#save-item, #conflict-overwrite, #conflict-reload, #prev-item, #next-item, " +
                  "#item-answer-type [data-testid='dropdown-option']";
  document.addEventListener("pointerdown", (e) => {
    if (e.target.closest && e.target.closest(ACTIONS)) closeStale(null);
  }, true);

  document.addEventListener("click", (e) => {
    const toast = e.target.closest && e.target.closest("[data-testid='toast-body']");
    if (!toast || e.target.closest(".toast-header")) return;
    close(toast);
  });
  document.addEventListener("keydown", (e) => {
    if (e.key !== "Escape" || (window.cluelabTyping && window.cluelabTyping(e.target))) return;
    document.querySelectorAll("[data-testid='toast-body']").forEach(close);
  });
})();
