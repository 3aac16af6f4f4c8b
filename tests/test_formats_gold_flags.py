"""Importers flag the gold answers the editor refuses (the shared judges.gold_check rules)."""
import json

from formats import import_path


def line(item_id, answer_type, answer, **fields):
    return json.dumps({"id": f"g/{item_id}", "dataset": "g", "question": "q?",
                       "answer_type": answer_type, "answer": answer, **fields})


ABCD = [{"label": x, "text": x.lower()} for x in "ABCD"]


def test_wrong_type_golds_are_imported_and_flagged(store, tmp_path):
    path = tmp_path / "golds.jsonl"
    path.write_text("\n".join([
        line("mc-ok", "multiple_choice", "B", options=ABCD),
        line("mc-bad", "multiple_choice", "Z", options=ABCD),
        line("yn-bad", "yes_no", "maybe"),
        line("loc-ok", "location", "$italy,lazio/latium$"),
        line("loc-bad", "location", "Paris"),
        line("num-bad", "numeric", "twelve"),
        line("num-options", "numeric", "4", options=ABCD),
    ]) + "\n")
    report = import_path(store, "jsonl", path)
    assert report.imported == 7 and report.flagged == 5
    reasons = {p["item_id"]: p["reason"] for p in report.problems}
    assert reasons == {
        "g/mc-bad": "gold answer has no option (options A, B, C, D)",
        "g/yn-bad": "gold answer is not Yes or No",
        "g/loc-bad": "location is not $country,region$",
        "g/num-bad": "gold answer is not a number",
        "g/num-options": "options on a non-multiple-choice item: an item of type numeric has no "
                         "options (4 given); remove them or make it multiple_choice",
    }
    for item_id, reason in reasons.items():
        saved = store.get_item(item_id)
        assert saved["flagged"] and saved["problems"] == [reason]
        assert saved["answer"] == json.loads(
            next(l for l in path.read_text().splitlines() if item_id in l))["answer"]
    assert not store.get_item("g/mc-ok")["flagged"] and not store.get_item("g/loc-ok")["flagged"]


def test_a_number_that_is_no_finite_float_is_kept_as_written_and_flagged(store, tmp_path):
    """A JSON gold 1e400 was imported as "inf" (Python's float of it), an alias -1e999 as
    "-Infinity", and a 5,000-digit integer ended the import with a traceback: each is kept
    as the file wrote it, and a numeric gold or alias that is no finite number is flagged
    like any other that is no number (a security review)."""
    from judges.gold_check import numeric_value
    huge = "7" * 5000
    path = tmp_path / "overflow.jsonl"
    path.write_text("\n".join([
        '{"id": "g/over", "question": "q?", "answer_type": "numeric", "answer": 1e400, '
        '"aliases": [-1e999, NaN, 3]}',
        '{"id": "g/open", "question": "q?", "answer_type": "open", "answer": Infinity}',
        f'{{"id": "g/long", "question": "q?", "answer_type": "numeric", "answer": {huge}}}',
        line("ok", "numeric", 12.5, aliases=[12]),
    ]) + "\n")
    report = import_path(store, "jsonl", path)
    assert report.imported == 4 and report.flagged == 2
    over = store.get_item("g/over")
    assert (over["answer"], over["aliases"]) == ("1e400", ["-1e999", "NaN", "3"])
    assert set(over["problems"]) == {"gold answer is not a number",
                                     "numeric alias without a number"}
    assert store.get_item("g/open")["answer"] == "Infinity"
    assert store.get_item("g/long")["problems"] == ["gold answer is not a number"]
    assert store.get_item("g/ok")["answer"] == "12.5" and not store.get_item("g/ok")["flagged"]
    for text in ("1e400", "inf", "-Infinity", "NaN", "1" + "0" * 400, "1" + "0" * 400 + " km"):
        assert numeric_value(text) is None, text
