"""Inspect's "judge labels" column was empty for a clue the LLM judge labelled "match" (only
"illusionary" and "useless" were shown). Real store (tests/inspect_helpers.py), the page's
handlers."""
from tests.inspect_helpers import built, env  # noqa: F401 (fixtures)
from ui import inspect_handlers as ih


def test_a_clue_the_judge_labelled_match_says_so(env):  # noqa: F811
    store, ids = env
    view = ih.open_view(store, str(ids["a"]["ui/alpha"]))
    model = ih.model_table(view).data.values.tolist()
    assert "GT1 (judge llm:judge)" in model[0][3]
    assert model[0][4] == "match (judge llm:judge)"           # it was ""
    assert model[1][4] == "illusionary (judge llm:judge)"
