// ClueLab keyboard shortcuts: Ctrl/Cmd+S saves, Alt+Right / Alt+Left open the next /
// previous item (also PageDown / PageUp outside text fields). The annotator keeps its own
// keys (C, D, E, Delete, Space) while it has focus.
(() => {
  const click = (id) => { const el = document.getElementById(id); if (el) el.click(); };
  document.addEventListener("keydown", (e) => {
    const t = e.target;
    const typing = t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.isContentEditable);
    if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === "s") {
      e.preventDefault();
      if (t && typeof t.blur === "function" && typing) t.blur();
      setTimeout(() => click("save-item"), 50);
    } else if (e.altKey && e.key === "ArrowRight") {
      e.preventDefault(); click("next-item");
    } else if (e.altKey && e.key === "ArrowLeft") {
      e.preventDefault(); click("prev-item");
    } else if (!typing && e.key === "PageDown") {
      e.preventDefault(); click("next-item");
    } else if (!typing && e.key === "PageUp") {
      e.preventDefault(); click("prev-item");
    }
  }, true);
})();
