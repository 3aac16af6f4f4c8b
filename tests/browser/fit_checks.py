"""What a page at a given size must not cut: every visible label and field value whole, not
wider than its box (scrollWidth) nor out of its block (a block hides what overflows it)."""

CUT_TEXT = """() => {
  const measure = document.createElement('canvas').getContext('2d');
  // a dropdown's value runs under its arrow: the input is as wide as the box, the arrow
  // drawn over its right end, so the value is not cut by the input (scrollWidth) but hidden
  const underArrow = (e) => {
    const arrow = e.parentElement && e.parentElement.querySelector(':scope > .icon-wrap');
    if (!arrow || !e.value) return false;
    const style = getComputedStyle(e);
    measure.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const end = e.getBoundingClientRect().left + parseFloat(style.paddingLeft)
      + measure.measureText(e.value).width;
    return end > arrow.getBoundingClientRect().left + 1;
  };
  return [...document.querySelectorAll('[data-testid=block-info], input')]
    .filter(e => e.offsetParent && e.type !== 'checkbox' && e.type !== 'radio')
    .filter(e => !e.classList.contains('sr-only'))    // a label for screen readers only
    .filter(e => { const block = e.closest('.block') || e.parentElement;
      return e.scrollWidth > e.clientWidth + 1 || underArrow(e)
        || e.getBoundingClientRect().right > block.getBoundingClientRect().right + 1; })
    .map(e => (e.closest('.block') || {}).id + ': ' + (e.value || e.textContent).trim());
}"""


def cut_text(page) -> list[str]:
    """'block id: text' of each label or value the page cuts (a dropdown's value under its
    arrow included)."""
    return page.evaluate(CUT_TEXT)


COVERED_FIELDS = """([barSelector, scopeSelector]) => {
  const bar = document.querySelector(barSelector);
  // what of an element is on screen: its box within every box that clips it
  const seen = (e) => {
    const r = e.getBoundingClientRect();
    let [top, bottom, left, right] = [r.top, r.bottom, r.left, r.right];
    for (let a = e.parentElement; a; a = a.parentElement) {
      const style = getComputedStyle(a);
      if (style.overflowY === 'visible' && style.overflowX === 'visible') continue;
      const c = a.getBoundingClientRect();
      [top, bottom] = [Math.max(top, c.top), Math.min(bottom, c.bottom)];
      [left, right] = [Math.max(left, c.left), Math.min(right, c.right)];
    }
    return {top, bottom, left, right};
  };
  const fields = [...document.querySelector(scopeSelector).querySelectorAll(
      'input:not([type=checkbox]):not([type=radio]), textarea')]
    .filter(e => e.offsetParent && !bar.contains(e));
  return fields.filter(field => {
    field.scrollIntoView({block: 'end'});           // as the browser brings a field it focuses
    const [b, f] = [bar.getBoundingClientRect(), seen(field)];
    return f.bottom > f.top && f.top < b.bottom - 1 && f.bottom > b.top + 1
      && f.left < b.right && f.right > b.left;
  }).map(e => (e.closest('.block') || {}).id || e.placeholder);
}"""


def covered_fields(page, bar: str, scope: str) -> list[str]:
    """The block ids of the fields in `scope` that the bar `bar` (a sticky one, say) covers
    when each is scrolled into view at the bottom of the screen, as the browser brings a
    field it focuses; [] when the bar covers none."""
    return page.evaluate(COVERED_FIELDS, [bar, scope])


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


WORDS_WIDER_THAN_COLUMNS = """(id) => {
  const measure = document.createElement('canvas').getContext('2d');
  const table = document.getElementById(id);
  const heads = [...table.querySelectorAll('.header-cell')];
  const rows = [...table.querySelectorAll('.virtual-row')];
  const out = [];
  heads.forEach((head, k) => {
    const cells = [head, ...rows.map(r => r.querySelectorAll('.body-cell')[k]).filter(Boolean)];
    for (const cell of cells) {
      const text = cell.querySelector('span.text') || cell;
      const style = getComputedStyle(text);
      measure.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const room = text.getBoundingClientRect().width + 1;
      for (const word of text.textContent.trim().split(/\\s+/).filter(Boolean))
        if (measure.measureText(word).width > room)
          out.push(`${(head.querySelector('span.text') || head).textContent.trim()}: ${word}`);
    }
  });
  return out;
}"""


def words_wider_than_columns(page, elem_id: str) -> list[str]:
    """'column: word' for each word of a Dataframe's titles and cells wider than its column
    (so broken inside, "offline:lexica / l", or cut); [] when every word reads whole."""
    return page.evaluate(WORDS_WIDER_THAN_COLUMNS, elem_id)


SPLIT_NS = """(id) => [...document.querySelectorAll(`#${id} .header-cell span.text`)]
  .filter(text => {
    const node = [...text.childNodes].find(n => n.nodeType === 3 && /\\(n\\s\\d+\\)/.test(n.data));
    if (!node) return false;
    const at = node.data.search(/\\(n\\s\\d+\\)/), range = document.createRange();
    range.setStart(node, at);
    range.setEnd(node, at + node.data.slice(at).indexOf(')') + 1);
    const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
    return tops.size > 1;
  }).map(text => text.textContent.trim())"""


def split_ns(page, elem_id: str) -> list[str]:
    """The column titles of the table `elem_id` whose "(n 4)" is broken over two lines
    ("(n" on one, "4)" on the next); [] when each n reads on one line."""
    return page.evaluate(SPLIT_NS, elem_id)


LINES = """(selector) => [...document.querySelectorAll(selector)].map(e => {
  const range = document.createRange();
  range.selectNodeContents(e);
  return [e.textContent.trim(), new Set([...range.getClientRects()]
    .filter(r => r.width > 0).map(r => Math.round(r.top))).size];
})"""


def lines(page, selector: str) -> dict[str, int]:
    """{text: the lines it takes} of each element matching `selector`."""
    return dict(page.evaluate(LINES, selector))
