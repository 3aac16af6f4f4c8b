"""Findings of a researcher review (round 15), each with the test that failed before its fix."""
from tests.inspect_helpers import built, env  # noqa: F401 (fixtures)
from tests.scoring_helpers import add_items, cli, make_run, runs_listed


def _items(store, n=3):
    add_items(store, [{"id": f"u/{i}", "answer_type": "multiple_choice", "answer": "A",
                       "domain": "d", "subtask": "s"} for i in range(n)])
    return {f"u/{i}": "Answer: A" for i in range(n)}


def _not_asked(store, replies) -> dict:
    """A run "user" injecting the clues of run "src" (vlm-c, Clue-guided CoT), its answer
    not asked for want of a source clue, as the engine records it; that row."""
    from store.runner_work import NO_SOURCE_CLUE

    make_run(store, "src", replies, model="vlm-c", setting="clue_guided")
    make_run(store, "user", {"u/0": None}, clues="run:src")
    [row] = store.run_results("user")
    with store.atomic():
        store.db.conn.execute("UPDATE run_responses SET reason = ? WHERE work_id = ?",
                              [NO_SOURCE_CLUE + "src", row["work_id"]])
    return row


# -- 1. runs are named by their table label, not their id ----------------------------------

def test_the_scored_table_names_a_run_without_a_name_by_its_label(store):
    from ui import results_handlers as h

    replies = _items(store)
    make_run(store, "20261207-065451-079e", replies, model="vlm-a")
    shown = h.score_runs(store, ["20261207-065451-079e"], [], "general")
    assert "| vlm\\-a · CoT |" in shown and "20261207-065451-079e" not in shown, shown


def test_report_names_the_run_its_cached_replies_came_from_by_its_label(store):
    replies = _items(store)
    make_run(store, "20261207-064538-fa73", replies, model="vlm-a", setting="direct")
    make_run(store, "new", {k: [v, v] for k, v in replies.items()}, repeats=2,
             cached_from={0: "20261207-064538-fa73"})
    store.finish_run("new", "test", "done", "", {"cached": 3,
                                                  "cached_from": {"20261207-064538-fa73": 3}})
    from scoring.score_run import score_run

    score_run(store, "new", protocol="general")
    code, out, err = cli("report", "--db", store.path, "--run", "new")
    assert code == 0, err
    assert "repeat 0: 3 of 3 from vlm-a · No-CoT; repeat 1: none" in out, out
    assert "20261207-064538-fa73" not in out


def test_runs_name_an_unnamed_clue_source_by_its_label_and_title_the_setting(store):
    replies = _items(store)
    make_run(store, "20261207-064552-1835", replies, model="vlm-a", setting="clue_guided")
    make_run(store, "user", replies, model="vlm-b", clues="run:20261207-064552-1835")
    code, out, _ = cli("runs", "--db", store.path)
    assert runs_listed(out)["user"]["clues"] == "of (vlm-a · Clue-guided CoT)", out
    code, out, _ = cli("runs", "--db", store.path, "--show", "user")
    assert "setting CoT" in out and "clues of (vlm-a · Clue-guided CoT)" in out, out


def test_inspect_names_the_cache_source_and_the_clue_source_by_label(store):
    from ui import inspect_handlers as ih
    from ui.inspect_view import response_view

    replies = _items(store, 1)
    make_run(store, "20261207-064538-fa73", replies, model="vlm-a", setting="direct")
    make_run(store, "copy", replies, cached_from="20261207-064538-fa73")
    [row] = store.run_results("copy")
    view = response_view(store, row["work_id"])
    header = ih.header_md(view).replace("\\", "")
    assert "cached reply from vlm-a · No-CoT" in header, header
    row = _not_asked(store, replies)
    shown = ih.answer_md(response_view(store, row["work_id"])).replace("\\", "")
    assert "no clues from run vlm-c · Clue-guided CoT" in shown, shown
    assert "no source clue" in shown


# -- 2. Compare's Response-B picker says a response's status as the list does ---------------

def test_the_compare_picker_says_no_source_clue_as_the_list_does(store):
    from ui.inspect_compare import compare_choices
    from ui.inspect_view import response_view

    replies = _items(store, 1)
    row = _not_asked(store, replies)
    [a] = store.run_results("src")
    [(label, work_id)] = compare_choices(store, response_view(store, a["work_id"]))
    assert work_id == row["work_id"] and " · no source clue · " in label, label


# -- 3. every run picker names a run in one form, its short id last --------------------------

def test_pickers_name_every_run_in_one_form_and_a_name_only_for_its_run(store):
    from ui.run_choices import run_choices

    replies = _items(store, 1)
    make_run(store, "20261207-064538-fa73", replies, model="vlm-a", setting="clue_guided")
    store.label_run("20261207-064538-fa73", name="a-clues")
    make_run(store, "20261207-064552-1835", replies, model="vlm-b",
             clues="run:20261207-064538-fa73")
    make_run(store, "20261207-064600-77ab", replies, model="vlm-b")
    picked = {rid: label for label, rid in run_choices(store)}
    assert picked["20261207-064538-fa73"] == ("a-clues · e (vlm-a) · Clue-guided CoT · "
                                              "clues none · images full · created · id fa73")
    # the clue source as the tables name it (judge17: one wording, "clues of <label>")
    assert picked["20261207-064552-1835"] == ("e (vlm-b) · CoT · clues of a-clues · "
                                              "images full · created · id 1835")
    assert picked["20261207-064600-77ab"].endswith(" · clues none · images full · created "
                                                   "· id 77ab")
    # the run's own name leads its label: the one that starts with it is that run
    assert [rid for rid, label in picked.items() if label.startswith("a-clues")] == \
        ["20261207-064538-fa73"]


# -- 6. a heatmap cell's text colour follows its luminance -----------------------------------

def test_a_saturated_blue_correlation_cell_has_white_text():
    """"0.94" was printed in black on the correlation heatmap's saturated blue."""
    from scoring.heatmaps import _rgb, text_colour

    assert text_colour(_rgb(0.94, -1, 1, True)) == "#fff"
    assert text_colour(_rgb(0.7, -1, 1, True)) == "#fff"
    assert text_colour(_rgb(0.3, -1, 1, True)) == "#111"       # pale cells keep dark text
    assert text_colour(_rgb(-0.3, -1, 1, True)) == "#111"
    assert text_colour((255, 255, 0)) == "#111"


# -- 5. tag counts fill without a button; the tagged cases carry the run's label -------------

def test_tag_counts_fill_when_the_panel_opens_and_after_a_tag_is_saved(store):
    """They stayed empty, after a reload too, until "Tag counts per run" (read as a caption)
    was pressed. The wiring is checked on the built page: opening the panel, saving and
    removing a tag each fill the counts table."""
    from ui.server import build_app

    blocks = build_app(store)
    counts = next(b for b in blocks.blocks.values()
                  if getattr(b, "elem_id", None) == "inspect-tag-counts")
    filling = {d.api_name for d in blocks.fns.values()
               if any(o is counts for o in d.outputs)}
    assert {"inspect_counts_opened", "inspect_counts_saved", "inspect_counts_removed"} <= \
        filling, filling
    panel = next(b for b in blocks.blocks.values()
                 if getattr(b, "elem_id", None) == "inspect-export-panel")
    opened = next(d for d in blocks.fns.values() if d.api_name == "inspect_counts_opened")
    assert list(opened.targets) == [(panel._id, "expand")]


def test_the_tagged_cases_file_names_each_run_by_its_label(env):
    import csv

    from ui import inspect_tags as it

    store, ids = env
    it.save_tags(store, ids["a"]["ui/beta"], ["perception error"], "alice")
    path, _ = it.export_tagged(store, "run-a", "csv")
    with open(path, newline="", encoding="utf-8-sig") as f:
        [row] = list(csv.DictReader(f))
    assert (row["run_id"], row["run_label"]) == ("run-a", "m-a · Structured")


# -- 4. a model clue's colour follows the judge chosen in Inspect ----------------------------

def test_a_model_clues_colour_follows_the_chosen_judge(env):
    """M2 was coloured as the offline matcher matched it ("matched GT2", green) while the
    chosen judge, llm:judge, labelled it illusionary in the next column."""
    from ui import inspect_handlers as ih
    from ui.editor_model import clue_color
    from ui.inspect_overlay import GREY

    store, ids = env
    work = ids["a"]["ui/alpha"]
    with store.atomic():       # the matcher matched M2 to GT2; llm:judge says illusionary
        store.db.conn.execute(
            "UPDATE scores SET details = json_set(details, '$.best_gt', json('[0, 1]'), "
            "'$.clue_scores', json('[91.7, 90.0]')) WHERE run_id = 'run-a' AND protocol = "
            "'rigorous' AND judge = 'offline' AND work_id = ?", [work])
    by_judge = ih.open_view(store, work, "llm:judge")
    m2 = by_judge["model_clues"][1]
    assert m2["labels"] == ["illusionary (judge llm:judge)"]
    assert m2["color"] == GREY                           # as the chosen judge has it
    assert "matched by judge llm:judge" in ih.model_clues_label(by_judge)
    by_matcher = ih.open_view(store, work, "offline")
    assert by_matcher["model_clues"][1]["color"] == clue_color(1)        # GT2's colour
    assert "matched by matcher offline" in ih.model_clues_label(by_matcher)
