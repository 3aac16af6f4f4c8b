"""Reviewer round 29: the Experiments progress panel's heading for an unnamed run showed its
bare id alone, while the runs list names it by its label ("b · CoT · T 0.5 · 2 repeats").
The heading shows the label, with the id beside it."""
from tests.scoring_helpers import add_items, make_run
from ui import experiments_runs as xr


def test_an_unnamed_runs_panel_heading_is_its_label_with_its_id(store):
    add_items(store, [{"id": "p/1", "answer_type": "yes_no", "answer": "Yes"}])
    make_run(store, "run-u", {"p/1": "Answer: Yes"}, model="b", setting="cot")
    label = {row[1]: row[0] for row in xr.runs_table(store)}["run-u"]
    assert label.startswith("b · CoT"), label
    panel, _ = xr.progress(store, "run-u")
    head = panel.split("<div class='xp-head'>", 1)[1].split("<span class='xp-status", 1)[0]
    assert head == (f"<b class='xp-name'>{xr.escape_html(label)}</b>"
                    "<span class='xp-id'>run-u</span>"), head
