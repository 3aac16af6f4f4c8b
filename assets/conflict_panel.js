// The edit-conflict panel (ui/annotate_layout.build_conflict_panel) opens at the top of the
// Annotate page's form column, beside the image: when it opens out of view (Save pressed
// with the page scrolled down to the GT reasoning, say), the page scrolls just enough to
// show it; the image and the Question stay where the user can use them.
// The panel scrolls within a bounded height: a line stuck to its foot says how many of the
// comparison's rows are below its bottom ("3 more rows below ▾"; a click scrolls to them),
// and goes once all are in view: at 1400x900 the rows that matter ("clues they added", "its
// box on image 2 goes") were often under the fold of the panel with nothing saying so.
(() => {
  let shown = false;
  let queued = false;
  const cueOf = (panel) => {
    let cue = panel.querySelector(":scope > .cl-more-rows");
    if (!cue) {
      cue = document.createElement("button");
      cue.type = "button";
      cue.className = "cl-more-rows";
      cue.hidden = true;
      cue.addEventListener("click", () => {
        const below = hidden(panel);
        const first = below[0];
        if (!first) return;
        const top = first.getBoundingClientRect().top - panel.getBoundingClientRect().top;
        panel.scrollBy({top: Math.max(40, top - 60), behavior: "smooth"});
      });
      panel.appendChild(cue);
      panel.addEventListener("scroll", () => queue(), {passive: true});
    }
    return cue;
  };
  // the comparison's rows whose bottom is below the panel's visible bottom
  const hidden = (panel) => {
    const cue = panel.querySelector(":scope > .cl-more-rows");
    const bottom = panel.getBoundingClientRect().bottom -
      (cue && !cue.hidden ? cue.offsetHeight : 0);
    return [...panel.querySelectorAll("#conflict-diff .virtual-row, #conflict-diff tbody tr")]
      .filter((r) => r.offsetParent && r.getBoundingClientRect().bottom > bottom + 1);
  };
  const check = () => {
    queued = false;
    const panel = document.getElementById("conflict-panel");
    const now = Boolean(panel && panel.offsetParent);
    if (now && !shown) panel.scrollIntoView({block: "nearest"});
    shown = now;
    if (!now) return;
    const cue = cueOf(panel);
    const n = hidden(panel).length;
    const text = n ? `${n} more row${n === 1 ? "" : "s"} below ▾` : "";
    if (cue.textContent !== text) cue.textContent = text;
    if (cue.hidden !== !n) cue.hidden = !n;
    panel.toggleAttribute("data-cl-more", Boolean(n));
  };
  const queue = () => {
    if (!queued) { queued = true; requestAnimationFrame(check); }
  };
  new MutationObserver(queue).observe(document.documentElement,
    {childList: true, subtree: true, attributes: true, attributeFilter: ["class"]});
  window.addEventListener("resize", queue);
})();
