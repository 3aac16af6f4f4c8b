"""The token estimate's basis ended in a bare number and named settings by id ("completion
tokens a request: clue_guided as a priori ×0.01, the ratio of this endpoint's lengths in
other settings (70 replies) 21"): each part now says its setting's display title and what
its number is ("...(70 replies): 21 tokens a request")."""
from __future__ import annotations

from runner import costs
from runner.projection import basis_text


def test_the_basis_names_the_setting_and_says_what_its_number_is():
    c = costs.calibrate([{"images": False, "n": 10, "prompt": 900, "text": 1000, "image": 0}],
                        [{"setting": "cot", "clues": "none", "n": 70, "completion": 35}])
    mean, basis = c.completion("clue_guided", "none")
    assert basis == "Clue-guided CoT as measured for CoT (70 replies)"   # resfix23
    said = basis_text("m", c, {basis: 21})
    assert said.endswith("as measured for CoT (70 replies): 21 tokens a request"), said
    assert "clue_guided" not in said
    assert c.completion("cot", "none")[1] == "CoT with clues none (70 replies)"
