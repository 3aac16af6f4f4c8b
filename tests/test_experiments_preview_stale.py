"""The preview of a request says it is stale once what it depends on changed (a field of the
run form, the preview item, a price): a researcher read the old plan's projected cost after
changing the setting. Plain handler, as the page calls it on every such change."""
from ui.experiments_preview import STALE, marked_stale


def test_a_preview_is_marked_stale_once_and_nothing_is_marked_before_one():
    summary = "Preview of item `demo/a` …  \n**20 items** · projected cost **$0.0123**"
    marked = marked_stale(summary)
    assert marked.startswith(STALE) and marked.endswith(summary)
    assert "stale — preview again" in marked
    assert marked_stale(marked) is None          # a second change: marked already
    assert marked_stale("") is None and marked_stale(None) is None
    assert marked_stale(["not", "a summary"]) is None        # a script's malformed call
