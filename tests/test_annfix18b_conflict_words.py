"""The conflict table's words (annotator review): "(removed)" was marked as if it were
changed text, and the saved column was headed "saved" while the tick-box question over it
said "bob's version"."""
from __future__ import annotations

from ui.conflict_marks import marked, table_value
from ui.conflict_merge import take_saved_label


def test_removed_is_not_marked_as_text():
    theirs, mine = marked("(removed)", "A red roof on the left")
    assert theirs == '<i class="cl-none">(removed)</i>'
    assert "<mark" not in mine and mine == "A red roof on the left"
    theirs, mine = marked("A <b>sign</b>", "(removed)")
    assert theirs == "A &lt;b&gt;sign&lt;/b&gt;" and mine == '<i class="cl-none">(removed)</i>'


def test_the_saved_column_is_headed_by_who_saved_it():
    value = table_value([["question", "bob (theirs kept)", "a", "b"]],
                        "bob's save (version 2)")   # ui/conflict_authors.saved_heading
    assert value["headers"] == ["part", "changed by", "bob's save (version 2)", "yours"]
    assert "take from version 2 (bob's save)" in take_saved_label("version 2 (bob's save)")
