"""A Replace import that changes a verified item's content writes it in_review, as an edit
would: a researcher's import kept a new gold answer "verified" with no review (a review,
round 29). The report says how many went back."""
import json

from formats import import_path


def line(**fields):
    return json.dumps({"dataset": "t", "answer_type": "open", "question": "q?",
                       "answer": "x", **fields})


def test_a_changed_verified_item_goes_back_in_review(store, tmp_path):
    first = tmp_path / "a.jsonl"
    first.write_text(line(id="t/1", status="verified") + "\n" +
                     line(id="t/2", status="verified") + "\n")
    import_path(store, "jsonl", first)
    assert store.get_item("t/1")["status"] == "verified"
    again = tmp_path / "b.jsonl"
    again.write_text(line(id="t/1", status="verified", answer="TAMPERED") + "\n" +
                     line(id="t/2", status="verified") + "\n")      # t/2 unchanged
    report = import_path(store, "jsonl", again, replace=True)
    assert store.get_item("t/1")["status"] == "in_review"
    assert store.get_item("t/1")["answer"] == "TAMPERED"
    assert store.get_item("t/2")["status"] == "verified"
    assert (report.replaced, report.unchanged, report.back_to_review) == (1, 1, 1)
    assert "1 verified, changed: back in review" in report.render_text()
    # the file may lower a status; it never keeps one a review gives
    lowered = tmp_path / "c.jsonl"
    lowered.write_text(line(id="t/2", status="draft", answer="y") + "\n")
    import_path(store, "jsonl", lowered, replace=True)
    assert store.get_item("t/2")["status"] == "draft"
