"""What a page at a given size must not cut: every visible label and field value whole, not
wider than its box (scrollWidth) nor out of its block (a block hides what overflows it)."""

CUT_TEXT = """() => [...document.querySelectorAll('[data-testid=block-info], input')]
  .filter(e => e.offsetParent && e.type !== 'checkbox' && e.type !== 'radio')
  .filter(e => !e.classList.contains('sr-only'))    // a label for screen readers only
  .filter(e => { const block = e.closest('.block') || e.parentElement;
    return e.scrollWidth > e.clientWidth + 1
      || e.getBoundingClientRect().right > block.getBoundingClientRect().right + 1; })
  .map(e => (e.closest('.block') || {}).id + ': ' + (e.value || e.textContent).trim())"""


def cut_text(page) -> list[str]:
    """'block id: text' of each label or value the page cuts."""
    return page.evaluate(CUT_TEXT)


CUT_COLUMNS = """([id, names]) => {
  const table = document.getElementById(id);
  const box = (table.querySelector('.table-wrap') || table).getBoundingClientRect();
  const heads = [...table.querySelectorAll('.header-cell')];
  return names.filter(name => {
    const head = heads.find(h => h.textContent.trim().startsWith(name));
    if (!head) return true;
    const k = heads.indexOf(head);
    const cells = [head, ...[...table.querySelectorAll('.virtual-row')]
      .map(r => r.querySelectorAll('.body-cell')[k]).filter(Boolean)];
    return cells.some(c => { const r = c.getBoundingClientRect();
      const text = c.querySelector('span.text') || c;
      return r.left < box.left - 1 || r.right > box.right + 1
        || text.scrollWidth > text.clientWidth + 1; });
  });
}"""


def cut_columns(page, elem_id: str, names: list[str]) -> list[str]:
    """The columns of the table `elem_id` (a Dataframe) whose header or a cell is out of the
    table's box (cut off, or behind a horizontal scroll) or cuts its text; [] when every
    named column is whole in view."""
    return page.evaluate(CUT_COLUMNS, [elem_id, names])
