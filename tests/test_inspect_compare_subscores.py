"""Inspect › Compare flagged "◆ differs" on a VER-Bench row reading "wrong → wrong" (its
sub-scores differed: AC 3 vs 0), and the headline said "verdicts differ on … verbench
(llm:judge2: wrong → wrong)". A VER-Bench verdict now shows its four sub-scores, and a row
whose verdict is the same says that its sub-scores differ, not its verdict."""
from __future__ import annotations

import html

from ui import inspect_compare as ic


def _summary(a: dict, b: dict) -> str:
    return html.unescape(ic.compare_summary(a, b)).replace("\\", "")


def _verbench(value: str, ac: float, judge: str = "llm:judge2") -> dict:
    scores = {"AC": ac, "CC": 5.0, "RQ": 6.0, "ER": 4.0}
    return {"protocol": "verbench", "judge": judge, "value": value,
            "score": sum(scores.values()) / 40, "subscores": scores}


def _view(work_id: int, verdicts: list[dict]) -> dict:
    return {"verdicts": verdicts, "run_label": f"run {work_id}",
            "response": {"work_id": work_id, "item_id": "v/1"}}


def test_same_verdict_other_subscores_is_no_verdict_difference():
    general = {"protocol": "general", "judge": "offline", "value": "wrong", "score": 0.0,
               "subscores": {}}
    a = _view(1, [general, _verbench("wrong", 3)])
    b = _view(2, [general, _verbench("wrong", 0)])
    table = ic.compare_table(a, b).data.values.tolist()
    assert ["verbench", "llm:judge2", "wrong (AC 3, CC 5, RQ 6, ER 4)",
            "wrong (AC 0, CC 5, RQ 6, ER 4)", "◆ sub-scores differ"] in table
    assert ["general", "offline", "wrong", "wrong", ""] in table
    summary = _summary(a, b)
    assert "verdicts differ" not in summary
    assert ("the verdicts are the same, the sub-scores differ on verbench (llm:judge2: wrong "
            "(AC 3, CC 5, RQ 6, ER 4) → wrong (AC 0, CC 5, RQ 6, ER 4))") in summary


def test_a_verbench_verdict_that_differs_is_still_a_verdict_difference():
    a, b = _view(1, [_verbench("correct", 7)]), _view(2, [_verbench("wrong", 2)])
    assert ic.compare_table(a, b).data.values.tolist()[0][-1] == "◆ differs"
    assert "verdicts differ on verbench (llm:judge2: correct (AC 7" in _summary(a, b)
    same = _view(2, [_verbench("correct", 7)])
    assert _summary(a, same).endswith("the verdicts agree")
