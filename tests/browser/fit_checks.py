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
