// The edit-conflict panel (ui/annotate_layout.build_conflict_panel) opens at the top of the
// Annotate page's form column, beside the image: when it opens out of view (Save pressed
// with the page scrolled down to the GT reasoning, say), the page scrolls just enough to
// show it; the image and the Question stay where the user can use them.
(() => {
  let shown = false;
  let queued = false;
  const check = () => {
    queued = false;
    const panel = document.getElementById("conflict-panel");
    const now = Boolean(panel && panel.offsetParent);
    if (now && !shown) panel.scrollIntoView({block: "nearest"});
    shown = now;
  };
  new MutationObserver(() => {
    if (!queued) { queued = true; requestAnimationFrame(check); }
  }).observe(document.documentElement,
             {childList: true, subtree: true, attributes: true, attributeFilter: ["class"]});
})();
