"""Judge ids: one parse and one format, and the stored strings stay exactly as they were."""
import pytest

from domain.judge_ids import JudgeId, format_judge, llm_judge, panel_judge, parse_judge

STORED = ["offline", "offline:semantic", "llm:gpt-judge", "panel:a+b+c", "rule:location:strict",
          "llm:host:8000/v1"]


@pytest.mark.parametrize("text", STORED)
def test_a_stored_judge_id_formats_back_to_itself(text):
    assert format_judge(parse_judge(text)) == text


def test_parse_names_the_kind_the_endpoints_and_the_panel():
    assert parse_judge("offline") == JudgeId("offline")
    assert parse_judge("offline:semantic").method == "semantic"
    judge = parse_judge("llm:gpt-judge")
    assert judge.is_llm and not judge.is_panel and judge.endpoints == ("gpt-judge",)
    panel = parse_judge("panel:a+b")
    assert panel.is_panel and panel.endpoints == ("a", "b")
    assert panel.members == (llm_judge("a"), llm_judge("b"))
    assert [format_judge(m) for m in panel.members] == ["llm:a", "llm:b"]
    assert parse_judge("").kind == "" and not parse_judge("").is_llm


def test_the_scorer_writes_the_strings_it_always_wrote():
    assert format_judge(llm_judge("e")) == "llm:e"
    assert format_judge(panel_judge(["e", "f"])) == "panel:e+f"
