// Toasts stay clear of the controls (ui/workarounds.py, TOAST_TOP_RIGHT): Gradio puts them
// top-right, over the Annotate page's Next button and status dropdown, for seconds after
// every save; bottom-right they covered the Gold answer field, the clue table, the review
// note and Submit review. On a page with a save bar (Annotate) they show in the bar's
// message box, wherever the bar is (it sticks to the screen's bottom, and sits above the
// History panel once the page is scrolled to its end): here the box's place and size go to
// CSS variables and <html data-cl-toast-in-bar>, which assets/cluelab.css turns into the
// toast's place and size. Elsewhere they go bottom-right. A toast is dismissed by a click
// on it (its header still folds it; × still closes it) or, outside a text field, by Escape.
// Stale warnings go (ui/workarounds.py, TOASTS_STAY): Gradio keeps a warning on screen for
// its seconds, whatever happened since, and no server call closes one, so "Not saved:
// changed by rev" stayed beside the "Saved" of Save merged, and a gold warning stayed after
// the type was switched again. A success or info toast closes the warnings and errors shown
// before it, and so does a new action that makes them out of date (Save, a new answer type,
// another item); the new outcome then says its own.
(() => {
  const root = document.documentElement;
  let watched = null;
  const place = () => {
    const box = document.getElementById("save-status");
    const rect = box && box.offsetParent ? box.getBoundingClientRect() : null;
    const inBar = Boolean(rect && rect.height > 0 && rect.bottom > 0 &&
                          rect.top < window.innerHeight);
    if (inBar) {
      root.style.setProperty("--cl-toast-left", `${Math.floor(rect.left)}px`);
      root.style.setProperty("--cl-toast-width", `${Math.ceil(rect.width)}px`);
      root.style.setProperty("--cl-toast-bottom",
                             `${Math.floor(window.innerHeight - rect.bottom)}px`);
      root.style.setProperty("--cl-toast-height", `${Math.ceil(rect.height)}px`);
    }
    if (root.hasAttribute("data-cl-toast-in-bar") !== inBar) {
      root.toggleAttribute("data-cl-toast-in-bar", inBar);
    }
    if (box && box !== watched) { watched = box; new ResizeObserver(place).observe(box); }
  };
  let queued = false;
  const later = () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => { queued = false; place(); });
  };
  new MutationObserver(() => { if (!watched || !watched.isConnected) later(); })
    .observe(root, {childList: true, subtree: true});
  window.addEventListener("resize", later);
  window.addEventListener("scroll", later, {passive: true});

  const close = (toast) => {
    const button = toast && toast.querySelector("[data-testid='toast-close']");
    if (button) button.click();
  };
  const STALE = "[data-testid='toast-body'].warning, [data-testid='toast-body'].error";
  const closeStale = (except) => {
    document.querySelectorAll(STALE).forEach((toast) => { if (toast !== except) close(toast); });
  };
  // An upload the server refused (too large, over the quota: ui/upload_limits.py) read
  // 'HTTP 413: {"detail": "Upload refused: …"}': Gradio's client puts the status and the
  // reply's raw body in its error (ui/workarounds.py, UPLOAD_ERROR_RAW). Its detail alone.
  const RAW = /^\s*HTTP (\d{3}): (\{[\s\S]*\})\s*$/;
  const plain = (toast) => {
    if (!toast.textContent.includes("HTTP ")) return;
    for (const part of toast.querySelectorAll("*")) {
      if (part.children.length) continue;
      const raw = RAW.exec(part.textContent || "");
      if (!raw) continue;
      try {
        const detail = JSON.parse(raw[2]).detail;
        if (typeof detail === "string" && detail) part.textContent = detail;
      } catch (err) { /* not JSON: as it came */ }
    }
  };
  new MutationObserver(() => {     // its text arrives after the toast itself
    document.querySelectorAll("[data-testid='toast-body']").forEach(plain);
  }).observe(root, {childList: true, subtree: true, characterData: true});
  new MutationObserver((records) => {
    for (const record of records) {
      for (const node of record.addedNodes) {
        const toast = node.nodeType === 1 && node.closest("[data-testid='toast-body']");
        if (toast) place();       // where the message box is now (the list shown or hidden)
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
  // A new save starts with an empty message box: every message of before goes (a "Saved"
  // too), however the save was asked for: the button, Ctrl+S (assets/shortcuts.js clicks
  // it: no pointerdown), Enter in the comment field, the conflict panel's buttons. Stale
  // errors stayed after a Ctrl+S, and the new one was appended below them, out of view.
  const SAVES = "#save-item, #conflict-overwrite, #conflict-reload";
  const closeAll = () => document.querySelectorAll("[data-testid='toast-body']").forEach(close);
  document.addEventListener("click", (e) => {
    if (e.target.closest && e.target.closest(SAVES)) closeAll();
  }, true);
  document.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && e.target.closest && e.target.closest("#save-comment")) closeAll();
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
