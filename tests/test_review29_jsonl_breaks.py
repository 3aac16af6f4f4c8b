"""An item holding U+2028, U+2029 or U+0085 (kept by any import) survives a JSONL export and
its import back: the exporter wrote them raw and the reader broke lines at them, the item
cut into broken `line-N` items and lost (a review, round 29)."""
import json

from domain.json_lines import dumps_line, lines
from formats.sources import read_json_lines

ODD = ["a\u2028b", "a\u2029b", "a\u0085b", "a\x0bb", "a\x1cb"]


def test_a_line_holds_no_character_a_splitter_breaks_at():
    for text in ODD:
        line = dumps_line({"question": text})
        assert line.splitlines() == [line]
        assert json.loads(line) == {"question": text}


def test_the_reader_splits_at_newlines_only(tmp_path):
    raw = "".join(json.dumps({"id": f"t/{i}", "q": t}, ensure_ascii=False) + "\r\n"
                  for i, t in enumerate(ODD))            # as other tools write them: raw
    path = tmp_path / "odd.jsonl"
    path.write_text(raw, encoding="utf-8")
    rows = read_json_lines(path)
    assert [(n, value["q"], error) for n, value, error in rows] == \
        [(i + 1, t, None) for i, t in enumerate(ODD)]
    assert lines("a\r\nb\nc") == ["a", "b", "c"]


def test_an_export_of_such_items_imports_back_whole(store, tmp_path):
    from formats import export_path, import_path

    source = tmp_path / "in.jsonl"
    source.write_text("".join(
        dumps_line({"id": f"t/{i}", "dataset": "t", "question": t, "answer_type": "open",
                    "answer": "x"}) + "\n" for i, t in enumerate(ODD)), encoding="utf-8")
    import_path(store, "jsonl", source)
    out = tmp_path / "out.jsonl"
    export_path(store, "jsonl", out, dataset="t")
    assert len(out.read_text(encoding="utf-8").splitlines()) == len(ODD)
    from store import Store

    other = Store.open(tmp_path / "other.db")
    try:
        report = import_path(other, "jsonl", out)
        assert sorted(other.get_item(i)["question"] for i in other.item_ids()) == \
            sorted(ODD), report
    finally:
        other.close()
