"""`score`'s protocols and counts: several --protocol are all scored (only the last was), and
the model's unparsed replies are "unparsed" under every protocol while a judge's failure is
counted and named as the judge's, the same way under every protocol (VER-Bench counted the
model's unparsed replies whose judge reply was unreadable as unscored, and its table read a
real-looking 0.0 on the two refusals left). Real store, real fake judge server, real CLI."""
from __future__ import annotations

import json

from tests import test_scoring as base
from tests.test_scoring import cli

server, scored = base.server, base.scored     # its fixtures: the judge server, run r1


def test_several_protocols_are_all_scored(store, scored):
    code, out, err = cli("score", "--db", store.path, "--run", "r1", "--protocol", "rigorous",
                         "--protocol", "grounded", "--json")
    assert code == 0, err
    result = json.loads(out)
    assert result["protocols"] == ["rigorous", "grounded"]
    assert {"rigorous offline", "grounded offline"} <= set(result["values"])
    assert {j["protocol"] for j in store.score_judges("r1")} == {"rigorous", "grounded"}
    code, _, err = cli("score", "--db", store.path, "--run", "r1", "--protocol", "general",
                       "--protocol", "verbench")
    assert code == 2 and "needs an LLM judge" in err
