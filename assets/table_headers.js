// A table's headers are its schema: they cannot be renamed. Gradio's Dataframe starts
// editing a header's text on a click (a double-click too), or on Enter / F2 while a header
// has the focus, in every editable table, with no setting to stop it short of making each
// column read-only (static_columns) (ui/workarounds.py, DATAFRAME_HEADER_EDIT): "text" in
// the clue table could be typed over. Those clicks and keys are stopped before they reach
// the table; a header then does nothing (a click on a header sorts nothing in Gradio 6: its
// menu button, where a table has one, still opens the sort and filter menu).
(() => {
  const onHeader = (e) => !!(e.target && e.target.closest && e.target.closest("th.header-cell")
    && !e.target.closest("button, input, [role=button]"));
  const stop = (e) => { e.stopPropagation(); e.preventDefault(); };
  for (const kind of ["click", "dblclick"]) {
    window.addEventListener(kind, (e) => { if (onHeader(e)) stop(e); }, true);
  }
  window.addEventListener("keydown", (e) => {
    if ((e.key === "Enter" || e.key === "F2") && onHeader(e)) stop(e);
  }, true);
})();
