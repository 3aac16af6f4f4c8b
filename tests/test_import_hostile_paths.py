"""No import problem quotes a value read from the imported file (paths, labels, keys, box
coordinates): a problem names the part by its place (image 2, option 1, clue 1, line 3) and
says what was expected. Before, "image file not found: <the path in the file>" carried
whatever the file held (markup, a secret) to the page, the CLI and the server's log.

The hostile values are imported through every place that once quoted one: context image
paths (missing, leaving the folder, a corrupt image), option images, an unknown field that
clashes with metadata, text box coordinates, MMR-Life's img_path, VLMEvalKit's image_path
and a base64 column that is not base64."""
from __future__ import annotations

import json
import logging

from cli import main as cli_main
from formats import import_path
from ui.import_roots import ImportRoots
from ui.io_handlers import IoHandlers

SECRET = "sk-live-4f9a8b7c6d5e"
HOSTILE = f"<img src=x onerror=alert(1)>{SECRET}"
MARKERS = (SECRET, "<img", "onerror")


def hostile_files(folder, make_png):
    """{format: data file} of files whose every string a message once quoted is HOSTILE."""
    (folder / "images" / "temporal" / "HAL" / "3").mkdir(parents=True)
    make_png(folder, name="good.png")
    (folder / f"{HOSTILE[:3]}corrupt.png").write_text("not a PNG")
    (folder / "broken.png").write_text(f"not a PNG {SECRET}")
    line = {"id": "h/1", "dataset": "h", "question": "q?", "answer_type": "multiple_choice",
            "answer": "A", "metadata": {HOSTILE: 1},
            HOSTILE: "clashes with metadata",
            "images": ["good.png", f"missing/{HOSTILE}.png", f"../../{HOSTILE}.png",
                       "broken.png"],
            "options": [{"label": HOSTILE, "text": "t", "image": f"{HOSTILE}.png"},
                        {"label": "A", "text": "u"}],
            "clues": [{"text": "c", "boxes": [{"image": 0, "x0": HOSTILE, "y0": 1,
                                               "x1": 2, "y1": 3},
                                              {"image": 0, "x0": 9, "y0": 1, "x1": 2, "y1": 3}]}]}
    jsonl = folder / "h.jsonl"
    jsonl.write_text(json.dumps(line) + "\n")
    mmr = folder / "mmr.json"
    mmr.write_text(json.dumps([{"id": "HAL_1", "img_path": f"images/{HOSTILE}",
                                "question": "q? Options: A. a B. b C. c D. d E. e",
                                "golden_answer": "A"},
                               {"id": "HAL_2", "img_path": f"../{HOSTILE}",
                                "question": "q? Options: A. a B. b C. c D. d E. e",
                                "golden_answer": "A"},
                               {"id": "HAL_3", "img_path": "images/temporal/HAL/3",
                                "question": "q? Options: A. a B. b C. c D. d E. e",
                                "golden_answer": "A"}]))
    make_png(folder / "images" / "temporal" / "HAL" / "3", name="1.png")
    tsv = folder / "v.tsv"
    tsv.write_text("index\tquestion\tanswer\timage\timage_path\n"
                   f"1\tq?\tA\t\t{HOSTILE}.png\n"
                   f"2\tq?\tA\t{'!' * 80}{SECRET}\t{HOSTILE}.png\n")
    return {"jsonl": jsonl, "mmr-life": mmr, "vlmevalkit": tsv}


def assert_clean(text: str) -> None:
    for marker in MARKERS:
        assert marker not in text, text


def test_no_problem_quotes_a_value_from_the_file(store, tmp_path, make_png, caplog):
    caplog.set_level(logging.DEBUG)
    for fmt, path in hostile_files(tmp_path / "files", make_png).items():
        report = import_path(store, fmt, path)
        assert report.problems, fmt                 # the hostile values are all reported
        assert_clean(json.dumps(report.to_dict()) + report.render_text())
    for item_id in store.item_ids():
        assert_clean(json.dumps(store.get_item(item_id)["problems"]))
    assert_clean("\n".join(r.getMessage() for r in caplog.records))
    problems = " ".join(store.get_item("h/1")["problems"])
    for place in ("image 2", "image 3", "image 4", "the image of option 1", "clue 1",
                  "unknown field dropped: line 1"):
        assert place in problems, (place, problems)


def test_the_cli_and_the_page_show_none_of_it(tmp_path, make_png, capsys, caplog):
    caplog.set_level(logging.DEBUG)
    files = hostile_files(tmp_path / "files", make_png)
    for fmt, path in files.items():
        cli_main(["import", "--db", str(tmp_path / "cli.db"), "--format", fmt, str(path)])
        out = capsys.readouterr()
        assert_clean(out.out + out.err)
        assert "problems:" in out.out
    from store import Store
    with Store.open(tmp_path / "page.db") as store:
        handlers = IoHandlers(store, ImportRoots([tmp_path]))
        for fmt, path in files.items():
            shown = handlers.run_import(fmt, None, str(path), "", "", author="tester")
            assert_clean(json.dumps(shown))
    assert_clean("\n".join(r.getMessage() for r in caplog.records))
