"""An annotator's review of the Annotate page (annfix16, Chromium): the clue picker's red
"Pick a clue first" line, under the clue list that opened again over it."""
from tests.browser.test_annotate_annfix15 import ok_with_no_clue, srv  # noqa: F401  (fixture)


def test_the_pick_a_clue_line_is_not_covered_by_the_clue_list(srv, page):  # noqa: F811
    """After OK with no clue picked the dialog stayed open, its list over the line saying
    why ("Pick a … number (Canc…")."""
    note = ok_with_no_clue(page, srv.url).locator(".cl-pick-refused")
    page.wait_for_timeout(500)
    covered = note.evaluate("""(note) => {
      const r = note.getBoundingClientRect();
      const points = [];
      for (const fx of [0.1, 0.3, 0.5, 0.7, 0.9]) for (const fy of [0.3, 0.7])
        points.push([r.left + r.width * fx, r.top + r.height * fy]);
      return points.filter(([x, y]) => {
        const top = document.elementFromPoint(x, y);
        return !(top && (top === note || note.contains(top)));
      }).length;
    }""")
    assert covered == 0, f"{covered} of 10 points of the line are under something else"
    page.keyboard.press("Escape")
