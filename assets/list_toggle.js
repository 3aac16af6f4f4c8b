// The Annotate page's item list can be hidden (the "☰ Items" button at the start of the item
// line), so that the image takes its width: with the list, the image column, and the
// clue table and fields, each a third of 1400 px, a 1600x1100 photo was drawn 484 px wide.
// The choice is kept per browser (localStorage); until one is made, the list shows on
// screens wide enough for it beside a large image (WIDE) and is hidden on narrower ones.
// assets/cluelab.css hides #item-browser while <html> has data-cl-list-hidden; the
// annotator refits to the new width by itself (assets/annotator.js watches the editor).
(() => {
  const KEY = "cluelab.itemList";
  const WIDE = 1700;
  const root = document.documentElement;

  const chosen = () => {
    try { return localStorage.getItem(KEY); } catch (e) { return null; }
  };
  const shown = () => {
    const choice = chosen();
    return choice ? choice === "shown" : window.innerWidth >= WIDE;
  };
  const apply = () => {
    const open = shown();
    if (root.hasAttribute("data-cl-list-hidden") === open) {
      root.toggleAttribute("data-cl-list-hidden", !open);
    }
    const button = document.getElementById("list-toggle");
    if (button && button.getAttribute("aria-expanded") !== String(open)) {
      button.setAttribute("aria-expanded", String(open));
      button.title = open ? "Hide the item list (the image gets its width)"
                          : "Show the item list";
    }
  };

  // With the list hidden, Next and Previous still follow its filters: a search typed long
  // ago sent Next to an item of the one that matched, with nothing on screen saying a
  // filter was on. The button says how many items the filters list when they leave some out.
  const FILTERED = /^(\d[\d,]*) of (\d[\d,]*) items match/;
  const mark = () => {
    const button = document.getElementById("list-toggle");
    const count = document.getElementById("browser-count");
    if (!button) return;
    const found = count && FILTERED.exec(count.textContent.trim());
    const text = found && found[1] !== found[2] ? `☰ Items · ${found[1]} of ${found[2]}` : "☰ Items";
    if (button.textContent !== text) button.textContent = text;
    button.classList.toggle("cl-filtered", text !== "☰ Items");
  };
  new MutationObserver(mark).observe(root, {childList: true, subtree: true,
                                            characterData: true});

  apply();      // before the page is drawn: the layout does not jump
  document.addEventListener("click", (event) => {
    if (!event.target.closest || !event.target.closest("#list-toggle")) return;
    try { localStorage.setItem(KEY, shown() ? "hidden" : "shown"); } catch (e) { /* private */ }
    apply();
  });
  window.addEventListener("resize", apply);
  // the button arrives with the page's components, after this script runs
  const pending = new MutationObserver(() => {
    if (document.getElementById("list-toggle")) { apply(); pending.disconnect(); }
  });
  pending.observe(root, {childList: true, subtree: true});
})();
