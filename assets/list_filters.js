// The Annotate page's item list keeps its filters and search across a reload: they were
// reset to "(all)" each time, and an annotator curating one status of one dataset set them
// again after every reload. They are kept per browser and account (localStorage), never on
// the server: the events that apply the filters hand their values to `keep` on their way to
// the server (ui/browser_wiring.py, KEEP_FILTERS), and the page's first list asks `restore`
// for them (ui/annotate_wiring.py, AFTER_FIRST_IMAGE); the server drops a value it no
// longer offers (ui/browser_handlers.kept_filters).
(() => {
  const COUNT = 6;        // dataset, domain, subtask, status, import problems, search
  const key = () => {
    const name = window.gradio_config && window.gradio_config.username;
    return "cluelab.itemFilters" + (name ? ":" + name : "");
  };
  window.cluelabListFilters = {
    // values: the filters' values first, then any other input of the event (unchanged)
    keep(values) {
      try { localStorage.setItem(key(), JSON.stringify(values.slice(0, COUNT))); }
      catch (e) { /* private mode or full: the filters are just not kept */ }
      return values;
    },
    // the kept filters as JSON ("" when none), for a hidden field of the events that draw
    // or walk the list before it is drawn (ui/browser_handlers.parse_kept)
    json() {
      try { return localStorage.getItem(key()) || ""; } catch (e) { return ""; }
    },
    restore(values) {
      let kept = null;
      try { kept = JSON.parse(localStorage.getItem(key()) || "null"); } catch (e) { kept = null; }
      if (!Array.isArray(kept) || kept.length !== COUNT) return values;
      return [...kept, ...values.slice(COUNT)];
    },
  };
})();
