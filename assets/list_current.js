// The item list highlights the item the editor shows, however it was opened (a click, the
// id box, Previous / Next, a link). Gradio's Dataframe highlights the cell clicked last,
// which the server can neither set nor clear (ui/workarounds.py, LIST_CURRENT_ROW): opening
// an item from the id box left the previous row highlighted. That ring is hidden in the
// list (assets/cluelab.css) and the open item's row is marked instead: the editor's item
// id (its `change` event) names it, and the mark follows the rows as they are redrawn.
//
// The marked row is also brought into the list's view, once per item opened or page shown:
// the list scrolls inside itself and shows about ten of its hundred rows at 1400x900, so
// after a few Next the mark was out of view (the page is turned by the server, which says
// where the row is: #list-open-row, ui/browser_handlers.open_row). The row is placed one
// row below the list's header, or below the screen's top when the list starts above it.
// For that the list ends at the screen's bottom (--cl-list-room, assets/cluelab.css; its
// page buttons follow below): Gradio's fixed 640 px ran 300 px below a 900 px screen, and
// a page's last rows, scrolled as far as they go, stayed under it.
//
// A new listing (another search, filter or page) is shown from its top, or at the open
// item's row when it holds it: Gradio's Dataframe keeps its scroll position when its rows
// are replaced (ui/workarounds.py, DATAFRAME_KEEPS_SCROLL), so new results showed from the
// middle. A listing is new when the count line changes or a row shows another item than
// the row of its place did; the same rows re-read (after a save) keep their place.
(() => {
  let open = null;
  const idOf = (row) => {
    const text = row.querySelector(".body-cell.first-column span.text");
    return text ? text.textContent.replace(/^⚑ /, "").trim() : null;
  };
  const mark = () => {
    const list = document.getElementById("item-list");
    if (!list) return;
    for (const row of list.querySelectorAll(".virtual-row")) {
      const current = open !== null && idOf(row) === open;
      if (current !== row.hasAttribute("data-cl-open")) row.toggleAttribute("data-cl-open", current);
    }
  };
  let revealed = null;       // the open row last brought into view, and on which page
  const reveal = () => {
    const place = document.querySelector("#list-open-row [data-row]");
    const view = document.querySelector("#item-list .virtual-table-viewport");
    const count = document.getElementById("browser-count");
    if (!place || !view || !view.offsetParent) return;
    const key = [open, place.dataset.row, count ? count.textContent : ""].join("|");
    const row = view.querySelector(".virtual-row[data-cl-open]")
      || view.querySelector(".virtual-row[data-index]");
    if (key === revealed || !row) return;           // not drawn yet: a later mutation
    const box = view.getBoundingClientRect();
    const head = view.querySelector(".header-table");
    const from = Math.max(head ? head.getBoundingClientRect().bottom : box.top, 0);
    const to = Math.min(box.bottom, window.innerHeight);
    const drawn = row.getBoundingClientRect();
    // the open row's top on the screen, from a row that is drawn (rows are drawn near the
    // scrolled place only); the rows are one height
    const top = drawn.top + (Number(place.dataset.row) - Number(row.dataset.index)) * drawn.height;
    if (top >= from && top + drawn.height <= to) { revealed = key; return; }
    const before = view.scrollTop;
    view.scrollTop = Math.max(0, before + top - from - drawn.height);
    // as far as the list scrolls: done; else the rows drawn there are measured again
    if (view.scrollTop === before) revealed = key;
  };
  let listed = null;         // the listing last seen: its count line, the ids by row index
  const newListing = (view) => {
    const count = document.getElementById("browser-count");
    const ids = {};
    for (const row of view.querySelectorAll(".virtual-row[data-index]")) {
      ids[row.dataset.index] = idOf(row);
    }
    const before = listed;
    listed = {count: count ? count.textContent : "", ids};
    if (before === null) return false;
    return before.count !== listed.count ||
      Object.keys(ids).some((index) => index in before.ids && before.ids[index] !== ids[index]);
  };
  const fresh = () => {
    const view = document.querySelector("#item-list .virtual-table-viewport");
    if (!view || !view.offsetParent || !newListing(view)) return;
    revealed = null;          // reveal() shows the open row again, if this listing holds it
    if (!document.querySelector("#list-open-row [data-row]")) view.scrollTop = 0;
  };
  const MIN_ROOM = 260;      // six rows and the header, on the smallest screens
  let room = null;
  const fit = () => {
    const view = document.querySelector("#item-list .virtual-table-viewport");
    if (!view || !view.offsetParent) return;
    const top = view.getBoundingClientRect().top + window.scrollY;
    const fits = Math.max(MIN_ROOM, Math.floor(window.innerHeight - top - 8));
    if (fits === room) return;
    room = fits;
    document.documentElement.style.setProperty("--cl-list-room", `${fits}px`);
  };
  let queued = false;
  const later = () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => { queued = false; fit(); mark(); fresh(); reveal(); });
  };
  window.addEventListener("resize", later);
  window.cluelabShowOpenItem = (id) => { open = id || null; later(); };
  // rows are added, reused and refilled as the list is refreshed or scrolled
  new MutationObserver(later).observe(document.documentElement,
                                      {childList: true, subtree: true, characterData: true});
})();
