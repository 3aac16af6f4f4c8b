"""Inspect tab handlers on a real store with two hand-made runs (tests/inspect_helpers.py):
the side-by-side view, overlays and zooms, compare, the failure browser, tags and notes."""
import csv
import html
import json
from pathlib import Path

import pytest
from PIL import Image

from store import Store, ValidationError
from store.migrations import MIGRATIONS
from tests.inspect_helpers import built, env  # noqa: F401 (fixtures)
from ui import inspect_browser as ib
from ui import inspect_compare as ic
from ui import inspect_handlers as ih
from ui import inspect_tags as it
from ui import inspect_version as iv
from ui.editor_model import clue_color
from ui.inspect_overlay import Overlays


def filters(**values):
    widgets = dict(run=None, dataset=None, domain=None, subtask=None, item=None, status=None,
                   judge="offline", general=None, rigorous=None, grounded=None, verbench=None,
                   wrong_reason=False, flip_run=None, flip=None, flip_protocol=None,
                   disagree=None, tag=None)
    widgets.update(values)
    return ib.filters_from(*widgets.values())


def test_migration_seeds_the_tag_vocabulary_and_indexes(env):
    store, _ = env
    assert [m[0] for m in MIGRATIONS][4:6] == ["0005_inspect", "0006_inspect_tag_events"]
    assert it.vocabulary(store) == ["illusionary clue", "useless clue", "missed clue",
                                    "perception error", "reasoning error", "knowledge error",
                                    "format error"]
    indexes = {r[0] for r in store.db.conn.execute("SELECT name FROM sqlite_master WHERE "
                                                   "type = 'index'")}
    assert {"idx_response_tags_run", "idx_response_tags_tag", "idx_response_notes_work",
            "idx_run_work_item"} <= indexes


def test_side_by_side_matches_clues_and_names_who_said_so(env):
    store, ids = env
    view = ih.open_view(store, str(ids["a"]["ui/alpha"]))
    gt = ih.gt_table(view).data.values.tolist()
    assert [row[0] for row in gt] == ["GT1", "GT2"]
    assert "✓ M1 (judge llm:judge)" in gt[0][4] and "matcher offline:lexical" in gt[0][4]
    assert gt[1][4].startswith("✗ missed (judge llm:judge, matcher offline:lexical")
    assert [c["color"] for c in view["gt_clues"]] == [clue_color(0), clue_color(1)]
    model = ih.model_table(view).data.values.tolist()
    assert model[0][0] == "M1" and "GT1 (judge llm:judge)" in model[0][3]
    assert "GT1 (matcher offline:lexical, 92)" in model[0][3]
    assert model[1][3] == "—" and model[1][4] == "illusionary (judge llm:judge)"
    assert view["model_clues"][1]["boxes"] == [{"image": 0, "box": [1000, 560, 1150, 760]}]
    assert view["model_clues"][0]["color"] == clue_color(0)  # the colour of its GT clue
    verdicts = ih.verdict_table(view).data.values.tolist()
    assert [v[:3] for v in verdicts] == [["general", "offline", "correct"],
                                         ["rigorous", "llm:judge", "correct"],
                                         ["rigorous", "offline", "correct"],
                                         ["grounded", "offline", "correct"]]
    detail = ih.verdict_detail(view, 1)
    assert "Judge reply:" in detail and "there is no dragon" in detail
    assert iv.version_md(view) == r"Made with the item as it is now \(version 2\)\."
    assert "12" in ih.gold_md(view) and "EXIT 12" in view["response"]["text"]


def test_a_clue_judges_extra_entry_is_said_and_its_reason_read_as_plain_text(env):
    """A clue judge whose reply has one entry too many (model clue 3 of 2) and gives its
    reason as a list: the verdict was discarded (unscored) and the reason read
    "['clue 1 is the sign', ...]". Inspect shows the kept verdict, the entry left out and
    the reason as text."""
    import json as _json

    from judges.llm import rigorous_llm_verdict
    from judges.verdict import correct
    from scoring.score_run import _rows

    store, ids = env
    work_id = ids["a"]["ui/alpha"]
    reply = _json.dumps({"clues": [
        {"model_clue": 1, "label": "match", "gt_clue": 1},
        {"model_clue": 2, "label": "illusionary"},
        {"model_clue": 3, "label": "useless"}],
        "reason": ["clue 1 is the sign", {"clue": 2, "why": "there is no dragon"}]})
    response = store.response_detail(work_id)
    verdict, _ = rigorous_llm_verdict("llm:other", correct("gold", answer="12"),
                                      response["clues"], 2, "PROMPT", reply)
    verdict.details["clues_from"] = "clue list"
    store.upsert_scores(_rows("run-a", "rigorous", "llm:other", {work_id: verdict}))
    view = ih.open_view(store, work_id)
    rows = ih.verdict_table(view).data.values.tolist()
    row = next(k for k, v in enumerate(rows) if v[1] == "llm:other")
    assert rows[row][2] == "correct"
    assert "1 entry of the judge's reply left out, naming a clue that does not exist: " \
        '{"model_clue": 3, "label": "useless"}: there is no model clue 3' in rows[row][5]
    detail = ih.verdict_detail(view, row)
    assert '"judge_reason": "clue 1 is the sign; clue: 2, why: there is no dragon"' in detail
    assert "['" not in detail.split("Judge prompt:")[0] and "{'" not in detail
    model = ih.model_table(view).data.values.tolist()
    assert "GT1 (judge llm:other)" in model[0][3]


def test_wrong_answer_gets_the_live_matcher_and_the_version_change(env):
    store, ids = env
    view = ih.open_view(store, ids["a"]["ui/gamma"])
    gt = ih.gt_table(view).data.values.tolist()
    assert gt[0][4] == "✗ missed (matcher lexical (live, not stored))"
    # "The sign looks red. Answer: B": the answer line is no clue (#12), one sentence is
    assert [(r["source"], r["text"]) for r in view["model_clues"]] == [
        ("sentences of the reasoning", "The sign looks red.")]
    assert view["version"]["changed"] and view["version"]["fields"] == ["question"]
    assert "version 2 → 3" in iv.version_md(view)
    # the changed parts are named as the editor names them ("clue 1 text"), not as paths
    from ui.inspect_view import version_state
    assert "(changed: question, clue 1)" in version_state(store, "ui/gamma", 1, 3)["message"]
    assert ih.changed_mark(["clues[2>1].text"], "clues[2]") == " *(changed since)*"
    assert ih.changed_mark(["clues[12].text"], "clues[1]") == ""
    general = [v for v in view["verdicts"] if v["protocol"] == "general"]
    assert {(v["judge"], v["value"]) for v in general} == {("offline", "wrong"),
                                                          ("llm:judge", "correct")}


def test_untrusted_text_is_escaped_where_markdown_or_html(env):
    store, ids = env
    view = ih.open_view(store, ids["a"]["ui/beta"])
    assert view["response"]["text"].startswith("<script>")  # the text box shows it as text
    for markdown in (ih.header_md(view), ih.answer_md(view), ih.gold_md(view)):
        assert "<" not in markdown and "](javascript" not in markdown
    link = iv.item_link_html('x"><script>alert(1)</script>')
    assert "<script>" not in link and 'href="./?item=x%22%3E%3Cscript%3E' in link
    assert 'target="_blank"' in iv.item_link_html("ui/beta")
    assert "?item=ui%2Fbeta" in iv.item_link_html("ui/beta")
    rows = ih.model_table(view).data.values.tolist()
    assert rows[0][1].startswith("<img src=y")  # a table cell: shown as text by the grid


def test_overlays_are_drawn_once_and_zoom_crops_the_original(env):
    store, ids = env
    overlays = Overlays(store)
    view = ih.open_view(store, ids["a"]["ui/alpha"])
    gt_path, model_path = ih.overlays_for(overlays, view, 0)
    assert "inspect-cache" in gt_path and gt_path != model_path
    stamp = (overlays.folder / gt_path.rsplit("/", 1)[1]).stat().st_mtime_ns
    assert ih.overlays_for(overlays, view, 0)[0] == gt_path
    assert (overlays.folder / gt_path.rsplit("/", 1)[1]).stat().st_mtime_ns == stamp
    scale = 1024 / 1200  # the display copy: longest side 1024
    with Image.open(gt_path) as im:
        assert im.size == (1024, 683)
        red = im.convert("RGB").getpixel((round(300 * scale) + 1, round(230 * scale)))
    assert red[0] > 180 and red[1] < 90  # GT1's left edge in clue 1's colour, #e6194b
    with Image.open(model_path) as im:
        edge = [im.convert("RGB").getpixel((round(x * scale), round(560 * scale)))
                for x in range(1000, 1150, 3)]
    assert len(set(edge)) > 1  # dashes and gaps along M2's top edge
    path, caption = ih.zoom(overlays, view, "gt", 0)
    with Image.open(path) as im:
        assert im.size == (205, 103)  # the box (120x60 px) and a margin, at full resolution
    assert "GT1" in caption and "(300, 200)" in caption
    path, caption = ih.zoom(overlays, view, "model", 1)
    assert path and "M2" in caption
    second = ih.overlays_for(overlays, view, 1)
    assert second[0] != gt_path  # image 2 carries GT2's box
    bare = ih.overlays_for(overlays, ih.open_view(store, ids["b"]["ui/beta"]), 0)
    assert bare[0] == bare[1] and Image.open(bare[0]).size == (1024, 683)  # no box: the image


def test_compare_highlights_verdict_differences(env):
    store, ids = env
    a = ih.open_view(store, ids["a"]["ui/gamma"])
    choices = ic.compare_choices(store, a)
    assert [c[1] for c in choices] == [ids["b"]["ui/gamma"]]
    assert ic.default_compare(store, a) == ids["b"]["ui/gamma"]
    store.label_run("run-b", name="Second look")   # the picker names runs by their name
    assert ic.compare_choices(store, a)[0][0].startswith(f"#{ids['b']['ui/gamma']} · Second "
                                                         "look · e (m-b)")
    b = ih.open_view(store, ids["b"]["ui/gamma"])
    table = ic.compare_table(a, b).data.values.tolist()
    assert ["general", "offline", "wrong", "correct", "◆ differs"] in table
    assert ["general", "llm:judge", "correct", "—", ""] in table
    assert "differ on general (offline: wrong → correct)" in ic.compare_summary(a, b)


def test_failure_browser_filters(env):
    store, ids = env
    a, b = ids["a"], ids["b"]

    def found(sort="run order", **values):
        return ib.browse(store, filters(**values), sort)["ids"]

    assert found(run="run-a") == [a["ui/alpha"], a["ui/beta"], a["ui/gamma"]]
    assert found(general="wrong") == [a["ui/gamma"]]
    assert found(general="not correct") == [a["ui/gamma"], b["ui/beta"]]
    assert found(general="correct", judge="llm:judge") == [a["ui/gamma"]]
    assert found(wrong_reason=True) == [b["ui/gamma"]]
    assert found(run="run-b", flip_run="run-a", flip=ib.FLIP_CHOICES[1]) == [b["ui/gamma"]]
    assert found(run="run-b", flip_run="run-a", flip=ib.FLIP_CHOICES[2]) == [b["ui/beta"]]
    assert found(run="run-b", flip_run="run-a", flip=ib.FLIP_CHOICES[3]) == [b["ui/beta"],
                                                                              b["ui/gamma"]]
    assert found(status=ib.STATUS_CHOICES[1]) == [b["ui/beta"]]
    assert found(status="error") == [b["ui/beta"]]
    assert found(disagree="general") == [a["ui/gamma"]]
    assert found(item="GAM") == [a["ui/gamma"], b["ui/gamma"]]
    assert found(dataset="ui", domain="Daily Commonsense", run="run-b") == list(b.values())
    assert found(sort="newest")[0] == b["ui/gamma"]
    assert found(sort="longest output")[0] == a["ui/beta"]
    with pytest.raises(ib.BrowseError, match="flip filter needs"):
        filters(flip=ib.FLIP_CHOICES[1])
    result = ib.browse(store, filters(), "run order", 1, size=2)
    assert result["total"] == 6 and result["pages"] == 3 and "page 1 of 3" in result["count"]
    assert result["rows"][0][:5] == [a["ui/alpha"], "m-a · Structured", "ui/alpha", "r0 s0", "ok"]


def test_next_and_previous_cross_pages(env):
    store, ids = env
    nav = ib.nav_state(ib.browse(store, filters(), "run order", 1, size=2))
    target, page = ib.step(store, nav, nav["ids"][1], 1)
    assert target == ids["a"]["ui/gamma"] and page["page"] == 2
    nav = ib.nav_state(page)
    target, page = ib.step(store, nav, nav["ids"][0], -1)
    assert target == ids["a"]["ui/beta"] and page["page"] == 1
    last = ib.nav_state(ib.browse(store, filters(), "run order", 3, size=2))
    with pytest.raises(ib.BrowseError, match="last response"):
        ib.step(store, last, last["ids"][-1], 1)
    assert ib.step(store, last, last["ids"][0], 1) == (last["ids"][1], None)


def test_tags_and_notes_keep_author_and_time(env):
    store, ids = env
    wid = ids["a"]["ui/beta"]
    message, state = it.save_tags(store, wid, ["Perception error", "format error"], "alice")
    assert "added perception error, format error" in message.replace("\\", "")
    assert state["value"] == ["format error", "perception error"]
    assert [row[1:3] for row in state["log"]] == [["added", "alice"]] * 2 and state["log"][0][3]
    _, state = it.save_tags(store, wid, ["perception error", "missed clue"], "bob")
    assert {(r[0], r[1], r[2]) for r in state["log"]} == {
        ("perception error", "added", "alice"), ("format error", "added", "alice"),
        ("missed clue", "added", "bob"), ("format error", "removed", "bob")}
    # what Save tags took off is logged too, and who had put it on stays in the log
    with pytest.raises(it.TagError, match="unknown tag"):
        it.save_tags(store, wid, ["no such tag"], "bob")
    _, names = it.add_vocabulary_tag(store, "  Wrong   crop ", "carol")
    assert names[-1] == "Wrong crop" and it.add_vocabulary_tag(store, "wrong CROP", "x")[1] == \
        names
    it.save_tags(store, ids["b"]["ui/beta"], ["wrong crop"], "carol")
    with pytest.raises(ValidationError, match="is on 1 response; remove it from that response first"):
        store.delete_failure_tag("Wrong crop")
    with pytest.raises(it.TagError, match="empty"):
        it.add_note(store, wid, "   ", "alice")
    it.add_note(store, wid, "the platform sign is misread", "alice")
    _, state = it.add_note(store, wid, "=HYPERLINK(\"x\")", "bob")
    assert [n[1] for n in state["notes"]] == ["bob", "alice"]  # newest first
    assert store.tag_counts("run-a") == {"missed clue": 1, "perception error": 1}
    assert ib.browse(store, filters(tag="perception error"), "run order")["ids"] == [wid]
    assert ib.browse(store, filters(tag=ib.TAGGED), "run order")["ids"] == [
        wid, ids["b"]["ui/beta"]]
    assert wid not in ib.browse(store, filters(tag=ib.UNTAGGED), "run order")["ids"]
    assert "perception error" in ib.browse(store, filters(tag=ib.TAGGED), "run order"
                                           )["rows"][0][10]
    markdown = it.tag_counts_markdown(store, ["run-a", "run-b"])
    assert "m\\-a · Structured: missed clue 1, perception error 1" in markdown and \
        "Wrong crop 1" in markdown                  # runs by their table label, as README
    assert it.tag_counts_frame(store, ["run-a"]).values.tolist() == [
        ["m-a · Structured", "missed clue", 1], ["m-a · Structured", "perception error", 1]]


def test_tagged_cases_export_as_csv_and_json(env):
    store, ids = env
    wid = ids["a"]["ui/beta"]
    it.save_tags(store, wid, ["perception error"], "alice")
    it.add_note(store, wid, "=cmd|' /C calc'!A0", "bob")
    with pytest.raises(it.TagError, match="nothing to export: 0 tagged or noted cases, "
                                          "every tag, run m-b · Structured"):
        it.export_tagged(store, "run-b", "csv")
    data = json.loads(open(it.export_tagged(store, "run-a", "json")[0]).read())
    assert [(r["work_id"], r["item_id"], r["gold"]) for r in data] == [(wid, "ui/beta", "Yes")]
    assert data[0]["tags"][0]["author"] == "alice" and data[0]["notes"][0]["author"] == "bob"
    with open(it.export_tagged(store, None, "csv")[0], newline="") as f:
        rows = list(csv.DictReader(f))
    assert rows[0]["tags"] == "perception error" and rows[0]["tagged_by"].startswith(
        "perception error: alice")
    assert "bob" in rows[0]["notes"] and not rows[0]["notes"].startswith("=")
    assert it.export_rows(store, tag="missed clue") == []


@pytest.mark.parametrize("fmt", ["csv", "json"])
def test_a_tagged_export_says_what_it_covers_in_its_name_and_line(env, fmt):
    """With the list's Tag filter on 'format error' the export held 2 rows, without it 3,
    and both files were cluelab-tagged-all-runs.csv: the name and the line now say which."""
    store, ids = env
    it.add_vocabulary_tag(store, "format error", "alice")
    for item, tag in (("ui/alpha", "format error"), ("ui/beta", "format error"),
                      ("ui/gamma", "perception error")):
        it.save_tags(store, ids["a"][item], [tag], "alice")
    path, line = it.export_tagged(store, None, fmt, "format error")
    assert Path(path).name == f"cluelab-tagged-all-runs-format-error.{fmt}"
    assert line == f"2 tagged cases, tag 'format error', all runs ({fmt.upper()})"
    assert len(_exported(path, fmt)) == 2
    path, line = it.export_tagged(store, None, fmt)
    assert Path(path).name == f"cluelab-tagged-all-runs.{fmt}"
    assert line == f"3 tagged or noted cases, every tag, all runs ({fmt.upper()})"
    assert len(_exported(path, fmt)) == 3
    path, line = it.export_tagged(store, "run-a", fmt, "perception error")
    assert Path(path).name == f"cluelab-tagged-run-a-perception-error.{fmt}"
    assert line.startswith("1 tagged case, tag 'perception error', run m-a · Structured")


def _exported(path: str, fmt: str) -> list:
    with open(path, newline="", encoding="utf-8") as f:
        return json.load(f) if fmt == "json" else list(csv.DictReader(f))


def test_remembered_matches_follow_writes_of_other_processes(env):
    store, ids = env
    a, b = ids["a"], ids["b"]
    tagged = filters(tag="perception error")
    assert ib.browse(store, tagged, "run order")["total"] == 0
    assert ib.browse(store, filters(general="not correct"), "run order")["ids"] == [
        a["ui/gamma"], b["ui/beta"]]
    other = Store(store.path)  # another connection, as another process would have
    try:
        other.set_response_tags(a["ui/beta"], ["perception error"], "x")
        assert other.delete_run_results("run-b", ("error",)) == 1  # a retry: now pending
    finally:
        other.close()
    assert ib.browse(store, tagged, "run order")["ids"] == [a["ui/beta"]]
    result = ib.browse(store, filters(general="not correct"), "run order")
    assert result["ids"] == [a["ui/gamma"]] and result["total"] == 1
    assert ib.browse(store, filters(run="run-b"), "run order")["total"] == 2


def test_a_location_gold_reads_as_people_read_it(tmp_path):
    """`$canada,quebec/québec$` in the list's gold column and the view's gold answer is
    "Canada, Quebec (also: Québec)"; the stored gold (and so the exports) keep the raw form."""
    from scoring.score_run import score_run
    from tests.scoring_helpers import add_items, make_run

    store = Store.open(tmp_path / "loc.db")
    add_items(store, [{"id": "geo/1", "answer_type": "location",
                       "answer": "$canada,quebec/québec$", "domain": "Location",
                       "subtask": "city"}])
    make_run(store, "loc", {"geo/1": "Answer: $canada,ontario$"})
    score_run(store, "loc")
    page = ib.browse(store, filters(run="loc"), "run order")
    gold = page["rows"][0][ib.HEADERS.index("gold")]
    assert gold == "Canada, Quebec (also: Québec)"
    shown = ih.gold_md(response_view_of(store, page["ids"][0]))
    from ui.text import escape_md

    assert escape_md("Canada, Quebec (also: Québec)") in shown and "canada" not in shown
    assert store.get_item("geo/1")["answer"] == "$canada,quebec/québec$"
    store.close()


def response_view_of(store, work_id):
    from ui.inspect_view import response_view

    return response_view(store, work_id)


def test_a_tagged_export_names_a_named_run_by_its_name(env):
    """The export's line (its toast) said 'run 20260101-…-ab12': the run as the lists name
    it now, the file still named by its id (two runs may share a name)."""
    store, ids = env
    store.label_run("run-a", name="GPT-4o GT clues")
    it.save_tags(store, ids["a"]["ui/alpha"], ["perception error"], "alice")
    path, line = it.export_tagged(store, "run-a", "csv")
    assert line == "1 tagged or noted case, every tag, run GPT-4o GT clues (CSV)"
    assert Path(path).name == "cluelab-tagged-run-a.csv"


def widget_values(**values) -> list:
    widgets = dict(run=None, dataset=None, domain=None, subtask=None, item=None, status=None,
                   judge="offline", general=None, rigorous=None, grounded=None, verbench=None,
                   wrong_reason=False, flip_run=None, flip=None, flip_protocol=None,
                   disagree=None, tag=None)
    return list({**widgets, **values}.values())


def test_choosing_a_run_lists_its_responses_at_once_with_its_judge(env):
    """The Run box applied only when Filter was pressed: the list kept the old run's
    responses under the new run's name. Choosing one lists its responses, read with its
    judge (offline when it has it)."""
    store, ids = env
    judges, judge, result = ib.run_chosen(store, "run order",
                                          widget_values(run="run-b", judge="llm:judge"))
    assert judge == "offline" and judge in judges
    assert result["filters"]["run_id"] == "run-b" and result["filters"]["judge"] == "offline"
    assert set(result["ids"]) == set(ids["b"].values())
    assert {row[1] for row in result["rows"]} == {"m-b · Structured"}


def test_a_saved_tag_shows_in_the_list_at_once(env):
    """The list's tags column showed a saved tag only after filtering again: the page on
    screen is read again after a save or a removal."""
    store, ids = env
    shown = ib.browse(store, filters(run="run-a"), "run order", 1)
    nav = ib.nav_state(shown)
    wid = ids["a"]["ui/beta"]
    it.save_tags(store, wid, ["perception error"], "alice")
    again = ib.relisted(store, nav)
    assert again["rows"][again["ids"].index(wid)][-1] == "perception error"
    it.remove_tag(store, wid, "perception error", "alice")
    assert ib.relisted(store, nav)["rows"][again["ids"].index(wid)][-1] == ""
    assert ib.relisted(store, None) is None


def test_the_list_reads_a_run_with_the_judge_results_reads_it_with(env):
    """run-a has general verdicts by llm:judge as well as offline: Results reads it with the
    LLM judge (its common judge), Inspect defaulted to offline, so the two pages showed
    opposite verdicts for ui/gamma. Inspect now starts on the judge Results uses."""
    from scoring.results import common_judge
    from scoring.tables import main_table
    store, ids = env
    # a real LLM scoring writes a verdict for every response (the rules decide the rest):
    # a judge that scored fewer of the run's items than offline is no longer its default
    store.upsert_scores([{**{k: r[k] for k in ("work_id", "value", "answer")},
                          "run_id": "run-a", "protocol": "general", "judge": "llm:judge"}
                         for r in store.run_scores("run-a", "general", "offline")
                         if r["item_id"] != "ui/gamma"])
    assert main_table(store, ["run-a"]).rows[0]["judge"] == "llm:judge" \
        == common_judge(store, ["run-a"], "general")
    judges, judge, result = ib.run_chosen(store, "run order",
                                          widget_values(run="run-a", judge="offline"))
    assert judge == "llm:judge" and result["filters"]["judge"] == "llm:judge"
    gamma = result["rows"][result["ids"].index(ids["a"]["ui/gamma"])]
    assert gamma[ib.HEADERS.index("general")].startswith("correct")
    assert ib.default_judge(store, "run-b", ib.judge_choices(store, "run-b")) == "offline"


def test_grounded_is_na_in_the_list_the_verdicts_and_compare_for_a_run_without_boxes(env):
    """A cot run asks for no boxes: every table shows its grounded-rigorous as "–" (n/a),
    while Inspect showed its stored "wrong" in red in the list, the verdict table and
    Compare. Inspect shows "–" with the reason there too."""
    from scoring.no_boxes import NA_CELL
    from scoring.score_run import score_run
    from tests.inspect_helpers import ALPHA_A, make_run
    store, ids = env
    cot = make_run(store, "run-cot", "m-c", {"ui/alpha": ALPHA_A}, setting="cot")
    score_run(store, "run-cot", protocol="all")
    stored = {v["value"] for v in store.response_verdicts("run-cot", cot["ui/alpha"])
              if v["protocol"] == "grounded"}
    assert len(stored) == 1 and stored != {"–"}                     # stored as scored
    listed = ib.browse(store, filters(run="run-cot"), "run order", 1)["rows"][0]
    assert listed[ib.HEADERS.index("grounded")] == NA_CELL
    assert "grounded –: not applicable, its run asked for no boxes" in \
        ib.browse(store, filters(run="run-cot"), "run order", 1)["count"]
    structured = ib.browse(store, filters(run="run-a"), "run order", 1)["rows"]
    assert NA_CELL not in [row[ib.HEADERS.index("grounded")] for row in structured]
    view = ih.response_view(store, cot["ui/alpha"])
    grounded = [v for v in ih.verdict_table(view).data.values.tolist() if v[0] == "grounded"]
    assert grounded and all(v[2] == "–" and "asks for no boxes" in v[5] for v in grounded)
    assert f"stored verdict: {stored.pop()}" in ih.verdict_detail(
        view, [v["protocol"] for v in view["verdicts"]].index("grounded"))
    other = ih.response_view(store, ids["a"]["ui/alpha"])
    table = ic.compare_table(other, view).data.values.tolist()
    assert ["grounded", "offline", "correct", "–", "◆ differs"] in table
    assert "grounded (offline: correct → –)" in ic.compare_summary(other, view)


def test_location_aliases_read_as_people_read_them_like_the_gold():
    """The gold read "Germany, Bavaria (also: Bayern)" and its aliases "$germany,bavaria$,
    …" raw, beside it: the aliases read the same way."""
    md = ih.item_md({"question": "Where?", "answer_type": "location",
                     "answer": "$germany,bavaria/bayern$",
                     "aliases": ["$germany,bavaria$", "$deutschland,bayern/bavaria$", "Bayern"]})
    from ui.text import escape_md
    assert "**Gold answer:** " + escape_md("Germany, Bavaria (also: Bayern)") in md
    assert "**Aliases:** " + ", ".join(map(escape_md, [
        "Germany, Bavaria", "Deutschland, Bayern (also: Bavaria)", "Bayern"])) in md
    assert "$" not in md


def test_the_tagged_csv_starts_with_a_bom_as_the_results_csvs_do(env):
    """The Results CSVs have a UTF-8 BOM (spreadsheets read non-ASCII right with it), the
    tagged-cases CSV had none: a note "Schild unleserlich · Straße" read as mojibake."""
    store, ids = env
    it.add_note(store, ids["a"]["ui/beta"], "Schild unleserlich · Straße", "bob")
    path = Path(it.export_tagged(store, "run-a", "csv")[0])
    raw = path.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf") and raw.count(b"\xef\xbb\xbf") == 1
    with open(path, newline="", encoding="utf-8-sig") as f:
        rows = list(csv.DictReader(f))
    assert "work_id" in rows[0] and "Straße" in rows[0]["notes"]
    assert not Path(it.export_tagged(store, "run-a", "json")[0]).read_bytes().startswith(
        b"\xef\xbb\xbf")


def test_a_cached_reply_names_the_run_it_came_from(env):
    """Inspect said "cached reply" and nothing of whose: the README promises the run."""
    store, ids = env
    work_id = ids["a"]["ui/alpha"]
    store.db.execute("UPDATE run_responses SET cached = 1, cached_from = 'run-z' "
                     "WHERE work_id = ?", [work_id])
    assert "cached reply from run run\\-z" in ih.header_md(ih.open_view(store, work_id))
    store.db.execute("UPDATE run_responses SET cached_from = NULL WHERE work_id = ?", [work_id])
    assert "cached reply from an earlier run" in ih.header_md(ih.open_view(store, work_id))


def test_the_list_says_which_judge_has_the_verdicts_its_judge_lacks(env):
    """The list reads one judge: a panel that scored general only left the rigorous and
    grounded columns empty, with nothing to say that llm:judge1 had filled them. The count
    line names each protocol the chosen judge did not score and the judges that did."""
    from judges.verdict import correct
    from scoring.results import run_judges
    from scoring.score_run import _rows
    store, ids = env
    lacking = {p: run_judges(store, "run-a", p) for p in ("rigorous", "grounded")}
    assert "offline" in lacking["rigorous"]
    store.upsert_scores(_rows("run-a", "general", "llm:solo",
                              {ids["a"]["ui/alpha"]: correct("gold", answer="12")}))
    def count(judge):
        shown = ib.browse(store, filters(run="run-a", judge=judge), "run order", 1)["count"]
        return html.unescape(shown).replace("\\", "")

    # the run's default judge first: offline scored more of its rigorous responses
    assert ("no rigorous verdicts by llm:solo: offline and llm:judge have them (Judge, "
            "above)") in count("llm:solo")
    assert "no grounded verdicts by llm:solo: offline has them" in count("llm:solo")
    assert "no general verdicts" not in count("llm:solo")
    count = count("offline")
    assert "no rigorous verdicts" not in count and "no general verdicts" not in count
