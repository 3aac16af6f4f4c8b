"""Researcher review (resfix26c), Results page: the table's title ("Accuracy (%), general
protocol, 4 items, with 95% CI") did not name the samples rule the Markdown and LaTeX exports
name ("; samples rule: first sample only"); and typing "first" in the Samples rule dropdown
picked "MMR-Life: over 2 of first 5 right", listed before "first sample only". Real SQLite,
real offline scoring, the page's handler."""
from __future__ import annotations

from tests.scoring_helpers import add_items, make_run
from tests.test_tables_paper_review import finish
from ui import results_handlers as h

ITEMS = [{"id": f"demo/{i}", "answer_type": "multiple_choice", "answer": "A", "domain": "d",
          "subtask": "s"} for i in range(4)]


def test_the_table_title_names_its_samples_rule_as_the_exports_do(store):
    add_items(store, ITEMS)
    run = make_run(store, "20261207-100000-650f", {i["id"]: ["Answer: A", "Answer: B",
                                                             "Answer: B"] for i in ITEMS},
                   model="vlm-a", samples=3)
    finish(store, run)
    for rule, words in (("first", "first sample only"), ("majority", "majority vote")):
        shown = h.show_results(store, [run], "general", None, rule)
        assert shown["title"] == f"{shown['caption']}, with 95% CI; samples rule: {words}", \
            shown["title"]


def test_typing_first_finds_first_sample_only_first():
    typed = [value for label, value in h.SAMPLE_RULE_CHOICES if "first" in label.lower()]
    assert typed[0] == "first", h.SAMPLE_RULE_CHOICES
    # the info line says the rules in the dropdown's order
    info = h.SAMPLE_RULE_INFO
    assert info.index("first sample only") < info.index("MMR-Life")
