"""Human baselines as the Results tab adds them: files checked before anything is written,
broken and hostile files refused with the problem named and the database unchanged, a label
added again replacing its baseline, and the tab's handlers reading what the store keeps.
Real SQLite store, real files in tmp_path."""
import html
import json
import re

import pytest

from scoring import tables
from scoring.human import add_baseline, list_baselines, read_baseline, stored_summary
from scoring.score_run import score_run
from scoring.results import ResultsError
from tests.scoring_helpers import add_items, make_run
from ui import results_handlers as h

ITEMS = [{"id": f"h/{i}", "answer_type": "yes_no", "answer": "Yes", "domain": "D",
          "subtask": "s"} for i in range(3)]


@pytest.fixture
def items(store):
    return add_items(store, ITEMS)


def write(tmp_path, content, name="baseline.json"):
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content if isinstance(content, str) else json.dumps(content),
                        encoding="utf-8")
    return path


def snapshot(store) -> list[tuple]:
    return store.db.execute("SELECT * FROM human_baselines ORDER BY name").fetchall()


def test_the_list_form_and_a_flat_map_are_read_like_the_results_form(tmp_path):
    listed = write(tmp_path, [{"item_id": "h/0", "correct": True},
                              {"item_id": "h/1", "correct": 0}])
    assert read_baseline(listed) == ("Human", {"h/0": True, "h/1": False})
    flat = write(tmp_path, {"label": "  Crowd\n(b)  ", "h/0": 1})
    assert read_baseline(flat) == ("Crowd (b)", {"h/0": True})
    with_bom = write(tmp_path, b"\xef\xbb\xbf" + json.dumps({"results": {"h/2": False}})
                     .encode())
    assert read_baseline(with_bom) == ("Human", {"h/2": False})


DEEP = "[" * 100_000 + "]" * 100_000
HOSTILE = "<img src=x onerror=alert(1)>" + "x" * 500
BROKEN = {
    "not JSON": ("{not json", r"it is not JSON \(Expecting property name .* at line 1, "
                              r"column 2\)"),
    "not UTF-8": (b"\xff\xfe{}", r"it is not UTF-8 text \(byte 0\)"),
    "nested": (DEEP, "its JSON is nested too deeply"),
    "a string": ('"just a string"', 'a human baseline is .*; this file holds "just a string"'),
    "empty": ({"label": "L", "results": {}}, "the baseline has no results"),
    "results a list": ({"results": [1, 2]},
                       r"results must be \{item_id: true/false\}, not \[1, 2\]"),
    "a word": ({"results": {"h/0": "yes"}},
               'item "h/0": the result must be true or false, not "yes"'),
    "a count": ({"results": {"h/0": 2}}, 'item "h/0": .* true or false, not 2'),
    "empty id": ({"results": {"": True}}, "an item id is empty"),
    "bad entry": ([{"item_id": "h/0", "correct": True}, "x"],
                  'entry 2 is "x", not {"item_id", "correct"}'),
    "id a list": ([{"item_id": ["h/0"], "correct": True}],
                  r'entry 1: item_id must be a non-empty string, not \["h/0"\]'),
    "twice": ([{"item_id": "h/0", "correct": True}, {"item_id": "h/0", "correct": False}],
              'item "h/0" is given twice, once right and once wrong'),
    "label a map": ({"label": {"<script>": 1}, "results": {"h/0": True}},
                    'the label must be a text, not {"<script>": 1}'),
    "long label": ({"label": "x" * 201, "results": {"h/0": True}},
                   "the label has 201 characters; at most 200"),
    "long value": ({"results": {"h/0": HOSTILE}},
                   r'not "<img src=x onerror=alert\(1\)>x+\.\.\.$'),
    # an entry missing a key names the key, the keys it has and the shape expected
    "entry without item_id": ([{"id": "h/0", "correct": True}],
                              r'entry 1 has no "item_id" \(its keys: "id", "correct"\); each '
                              r'entry is \{"item_id": "<an item id>", "correct": true or '
                              r'false\}'),
    "entry without either": ([{"item": "h/0"}],
                             r'entry 1 has no "item_id" and no "correct" \(its keys: "item"\)'),
    # a misnamed "results" is named as such, not taken for an item whose result is wrong
    "results misnamed": ({"label": "L", "result": {"h/0": True}},
                         r'the key "result" holds \{"h/0": true\}: the results go under '
                         r'"results" as \{item_id: true/false\}'),
}


@pytest.mark.parametrize("case", BROKEN)
def test_a_broken_or_hostile_file_is_refused_naming_the_problem_and_writes_nothing(
        store, items, tmp_path, case):
    content, problem = BROKEN[case]
    add_baseline(store, write(tmp_path, {"label": "Kept", "results": {"h/0": True}}, "k.json"))
    before = snapshot(store)
    path = write(tmp_path, content)
    with pytest.raises(ResultsError) as error:
        add_baseline(store, path)
    prefix = "baseline.json is not a human baseline file: "
    assert str(error.value).startswith(prefix) and len(str(error.value)) < 300
    assert re.search(problem, str(error.value)[len(prefix):]), str(error.value)
    with pytest.raises(h.ResultsUiError, match=f"not added: {prefix}"):
        h.add_human(store, str(path))
    assert snapshot(store) == before


def test_unknown_items_a_missing_file_and_a_huge_file_write_nothing(store, items, tmp_path,
                                                                     monkeypatch):
    before = snapshot(store)
    unknown = write(tmp_path, {"results": {f"x/{i}": True for i in range(7)} | {"h/0": True}})
    with pytest.raises(ResultsError, match=r'7 item\(s\) .*: "x/0", "x/1", .*"x/4", "x/5", '
                                           r'"x/6"$'):
        add_baseline(store, unknown)
    many = write(tmp_path, {"results": {f"x/{i:02d}": True for i in range(14)}}, "many.json")
    with pytest.raises(ResultsError, match=r'14 item\(s\) .*: "x/00", .*"x/09" and 4 more$'):
        add_baseline(store, many)
    with pytest.raises(ResultsError, match="gone.json is not a human baseline file: cannot "
                                           "read it"):
        add_baseline(store, tmp_path / "gone.json")
    monkeypatch.setattr("scoring.human.MAX_FILE_BYTES", 10)
    with pytest.raises(ResultsError, match="is over 0 MB"):
        add_baseline(store, write(tmp_path, {"results": {"h/0": True}}))
    assert snapshot(store) == before == []


def test_the_same_label_replaces_its_baseline_and_a_clashing_name_is_refused(
        store, items, tmp_path):
    first = add_baseline(store, write(tmp_path, {"label": "Crowd A", "results": {
        "h/0": True, "h/1": True}}), "alice")
    assert first == "Crowd-A"
    again = add_baseline(store, write(tmp_path, {"label": "Crowd A", "results": {
        "h/0": False}}), "bob")
    assert again == first and list_baselines(store) == [("Crowd A", "Crowd-A")]
    kept = store.get_human_baseline(first)
    assert (kept["results"], kept["created_by"]) == ({"h/0": False}, "bob")
    assert stored_summary(store, first)["summary"]["overall"].accuracy == 0
    before = snapshot(store)
    with pytest.raises(ResultsError, match="'Crowd-A' is taken by the human baseline "
                                           "'Crowd A'; give this one another label"):
        add_baseline(store, write(tmp_path, {"label": "Crowd/A", "results": {"h/0": True}}))
    assert snapshot(store) == before
    add_baseline(store, write(tmp_path, {"label": "Crowd B", "results": {"h/1": True}}))
    assert [name for _, name in list_baselines(store)] == ["Crowd-A", "Crowd-B"]


def test_the_results_handlers_list_and_show_a_baseline_added_through_the_store(store, items):
    store.add_human_baseline("lab", "Lab <b>study</b>", {"h/0": True, "h/1": False}, "alice")
    assert h.human_choices(store) == [(h.NO_HUMAN, h.NO_HUMAN), ("Lab <b>study</b>", "lab")]
    chosen = h.reading(store, human="lab")["human"]
    assert chosen["label"] == "Lab <b>study</b>"
    assert chosen["summary"]["overall"].accuracy == 0.5
    assert h.reading(store, human=h.NO_HUMAN)["human"] is None
    with pytest.raises(ResultsError, match="no human baseline 'gone'"):
        h.reading(store, human="gone")
    with pytest.raises(h.ResultsUiError, match="choose a human-baseline JSON file"):
        h.add_human(store, None)


def test_the_human_row_is_on_the_compared_items_and_its_counters_add_up(store, tmp_path):
    """A baseline answering 2 of a run's 4 items and 1 item the run has not: before, its row
    read n 3, unscored 0 beside a table of 4 items (an item outside the comparison counted,
    the 2 unanswered ones nowhere). Now it is on the compared items as a run is: n 2, not
    answered 2, and n + unscored + not answered is the 4 items, shown, for every row."""
    add_items(store, [{"id": f"q/{i}", "answer_type": "yes_no", "answer": "Yes",
                       "domain": "D", "subtask": "s"} for i in range(5)])
    make_run(store, "r", {f"q/{i}": "Yes." for i in range(4)})      # q/4 not in the run
    score_run(store, "r")
    name = add_baseline(store, write(tmp_path, {"label": "Crowd", "results": {
        "q/0": True, "q/1": False, "q/4": True}}))
    table = tables.main_table(store, ["r"], human=stored_summary(store, name))
    rows = {row["model"]: row for row in table.rows}
    assert (rows["Crowd"]["n"], rows["Crowd"]["unscored"], rows["Crowd"]["not_answered"]) \
        == (2, 0, 2)
    assert rows["Crowd"]["overall"] == 50.0                          # q/4 is left out
    for row in table.rows:
        assert row["n"] + row["unscored"] + row["not_answered"] == 4
    assert "4 items" in table.caption and "Not answered" in table.to_markdown()
    assert "every row's n + unscored + not answered is the 4 items" in table.notes
    assert "1 of its answers is to items outside the comparison, left out" in table.notes
    # the page shows the same counters
    shown = h.show_results(store, ["r"], "general", human=name)["table"]
    crowd = shown[shown.iloc[:, 0] == "Crowd"].iloc[0]
    assert (crowd["n"], crowd["Unscored"], crowd["Not answered"]) == ("2", "0", "2")


def test_the_readme_example_of_a_baseline_file_is_one():
    from pathlib import Path

    from scoring.human import parse_baseline

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    section = readme[readme.index("**Human baseline.**"):]
    example = re.search(r"```json\n(.+?)\n```", section, re.S).group(1)
    assert parse_baseline(json.loads(example)) == (
        "Crowd, 12 participants", {"demo/bus-stop-wait": True, "demo/munich-street": False})


def test_the_human_row_has_no_unparsed_or_error_rate(store, tmp_path):
    """People's answers are right or wrong, never unparsed nor an error: the human row read
    'Unparsed % 0.00, Error % 0.00' as if it had been measured. It shows '–' (not
    applicable) there, a run's row its rates."""
    add_items(store, [{"id": f"q/{i}", "answer_type": "yes_no", "answer": "Yes",
                       "domain": "D", "subtask": "s"} for i in range(4)])
    make_run(store, "r", {"q/0": "Yes.", "q/1": "No.", "q/2": "Yes", "q/3": None})
    score_run(store, "r")
    name = add_baseline(store, write(tmp_path, {"label": "Crowd", "results": {
        f"q/{i}": i % 2 == 0 for i in range(4)}}))
    shown = h.show_results(store, ["r"], "general", human=name)["table"]
    crowd = shown[shown.iloc[:, 0] == "Crowd"].iloc[0]
    run = shown[shown.iloc[:, 0] != "Crowd"].iloc[0]
    assert (crowd["Unparsed %"], crowd["Error %"]) == ("–", "–")
    assert run["Error %"] == "25.00" and run["Unparsed %"] != "–"
    table = tables.main_table(store, ["r"], human=stored_summary(store, name))
    assert json.loads(table.to_json())["rows"][1]["unparsed_rate_pct"] is None


def test_a_refused_file_lists_every_problem_not_only_its_first(store, items, tmp_path):
    """The message named one problem: fixed, the file was refused for the next. Every
    entry's problem is listed (the first 10, then how many more)."""
    entries = [{"item": "h/0"}, {"item_id": "h/1", "correct": "maybe"}, 5,
               {"item_id": "h/2", "correct": True}]
    with pytest.raises(ResultsError) as error:
        add_baseline(store, write(tmp_path, entries))
    message = str(error.value)
    assert "3 problems: entry 1 has no" in message
    assert 'item "h/1": the result must be true or false, not "maybe"' in message
    assert "entry 3 is 5" in message
    with pytest.raises(ResultsError) as error:
        add_baseline(store, write(tmp_path, {"results": {f"h/{i}": "yes" for i in range(13)}}))
    message = str(error.value)
    assert "14 problems: " in message and message.endswith("; and 4 more")
    assert message.count("the result must be true or false") == 10
    assert snapshot(store) == []


def test_bad_values_and_unknown_items_are_named_in_one_refusal(store, items, tmp_path):
    """A file with a bad value and an unknown item named the value only; the unknown item
    came at the next try."""
    with pytest.raises(ResultsError) as error:
        add_baseline(store, write(tmp_path, {"results": {"h/0": "maybe", "x/9": True}}))
    message = str(error.value)
    assert message.startswith("baseline.json is not a human baseline file: 2 problems: ")
    assert 'item "h/0": the result must be true or false, not "maybe"' in message
    assert '1 item(s) of the human baseline are not in the database: "x/9"' in message
    assert snapshot(store) == []


def test_the_n_note_gives_the_human_baseline_as_the_reason_not_unscored_runs(store, tmp_path):
    """Every run scored all 8 items, the baseline answered 2 of them: the cells' n differ
    because of the baseline's 6 not answered. The note said "runs with different numbers
    of unscored items there" (every run had 0 unscored); it names the true reason."""
    from judges.tables import N_IN_CELLS, N_IN_CELLS_HUMAN
    add_items(store, [{"id": f"q/{i}", "answer_type": "yes_no", "answer": "Yes",
                       "domain": "D" if i < 4 else "E", "subtask": "s"} for i in range(8)])
    for run in ("a", "b"):
        make_run(store, run, {f"q/{i}": "Yes." for i in range(8)}, model=run)
        score_run(store, run)
    name = add_baseline(store, write(tmp_path, {"label": "Crowd", "results": {
        "q/0": True, "q/5": False}}))
    shown = h.show_results(store, ["a", "b"], "general", human=name)
    rules = html.unescape(shown["rules"]).replace("\\", "")     # the page's text
    assert N_IN_CELLS_HUMAN in rules and N_IN_CELLS not in rules
    assert "unscored items there" not in rules
    table = tables.main_table(store, ["a", "b"], human=stored_summary(store, name))
    assert N_IN_CELLS_HUMAN in table.notes and all(r["unscored"] == 0 for r in table.rows)
