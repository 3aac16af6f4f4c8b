"""Bold and underline rank cells on the same number of items only. An injection table
bolded 30.00 (n 10) over 27.27 (n 11) in one column, the two runs on different items (a
researcher's review): a higher accuracy on other items is no better score. A column whose
ranked cells differ in n marks none, and the notes say which column and why."""
from judges.tables import Column, Table
from scoring.table_marks import with_judges


def _table(rows):
    return Table([Column("model", "Model", numeric=False), Column("GT", "GT"),
                  Column("No Clue", "No Clue")], rows)


def test_a_column_whose_cells_differ_in_n_marks_none_and_says_so():
    table = _table([{"model": "a", "GT": 30.0, "GT_n": 10, "No Clue": 50.0, "No Clue_n": 11},
                    {"model": "b", "GT": 27.27, "GT_n": 11, "No Clue": 40.0, "No Clue_n": 11},
                    {"model": "c", "GT": 20.0, "GT_n": 11, "No Clue": 30.0, "No Clue_n": 11}])
    marks = table.marks()
    assert not [key for (_, key) in marks if key == "GT"]
    assert marks[(0, "No Clue")] == "best" and marks[(1, "No Clue")] == "second"
    with_judges(table, ["offline"] * 3)
    assert ("No best or second is marked in GT: its cells rest on different numbers of "
            "items (n)") in table.notes
    assert "**30.00" not in table.to_markdown() and "**50.00 (n 11)**" in table.to_markdown()


def test_the_rows_n_counts_when_cells_carry_none():
    table = Table([Column("model", "Model", numeric=False), Column("overall", "Overall")],
                  [{"model": "a", "overall": 80.0, "n": 100},
                   {"model": "b", "overall": 82.0, "n": 98}])
    assert table.marks() == {}
    same = Table(table.columns, [dict(r, n=100) for r in table.rows])
    assert same.marks() == {(1, "overall"): "best", (0, "overall"): "second"}
    with_judges(same, ["offline"] * 2)
    assert "No best or second is marked" not in same.notes
