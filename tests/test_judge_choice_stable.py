"""The table's judge when none is named, among judges that scored as many responses, is the
same whenever they scored: a panel, then an LLM judge, then offline, each by name. It was
"then the latest", so a table read with llm:ja turned to llm:jb, its numbers with it, after
llm:jb alone was scored again from the cache. Real store, real scoring through the real
judge path (the fake OpenAI server in its own process), the real CLI."""
from __future__ import annotations

import time

import pytest

from tests.openai_server import start_server
from tests.scoring_helpers import add_items, cli, make_run

ITEMS = [{"id": f"c/{i}", "answer_type": "multiple_choice", "answer": "A", "domain": "d",
          "subtask": "s"} for i in range(3)]
ORDER = "a panel, then an LLM judge, then offline, each by name (never by when they scored)"


@pytest.fixture(scope="module")
def judge():
    with start_server(models=["m-a", "m-b", "m-c"]) as handle:
        yield handle


def _score(store, *judges: str) -> None:
    time.sleep(1.1)                       # scorings are stamped to the second
    args = [a for j in judges for a in ("--judge", j)]
    code, _, err = cli("score", "--db", store.path, "--run", "r1", "--protocol", "general",
                       *args)
    assert code == 0, err


def _table(store) -> tuple[str, str]:
    """(the Judge cell, the table's notes) of `table --kind main` on r1."""
    code, out, err = cli("table", "--db", store.path, "--kind", "main", "--runs", "r1")
    assert code == 0, err
    lines = [line for line in out.splitlines() if line.startswith("|")]
    head = [c.strip() for c in lines[0].strip("|").split("|")]
    row = dict(zip(head, (c.strip() for c in lines[2].strip("|").split("|"))))
    return row["Judge"], out


def test_the_common_judge_among_equals_does_not_follow_the_latest_scoring(store, judge):
    add_items(store, ITEMS)
    make_run(store, "r1", {i["id"]: "Answer: A" for i in ITEMS})
    for name, model in (("ja", "m-a"), ("jb", "m-b"), ("jc", "m-c")):
        store.add_endpoint(name, judge.url, model)
    _score(store, "ja")
    _score(store, "jb")                   # the latest: it was the table's judge
    shown, out = _table(store)
    assert shown == "llm:ja"
    assert ("llm:ja, llm:jb, offline scored as many: llm:ja by the order among equals, "
            f"{ORDER}.") in " ".join(out.split())
    _score(store, "ja")                   # again, from the cache: nothing changes
    _score(store, "jb")
    assert _table(store)[0] == "llm:ja"
    _score(store, "jb", "jc")             # a panel comes first...
    _score(store, "ja", "jb")             # ...of two panels, the first by name
    _score(store, "jb", "jc")             # re-scored from the cache: still panel:ja+jb
    shown, out = _table(store)
    assert shown.startswith("panel:ja+jb")
    assert "panel:ja+jb, panel:jb+jc, llm:ja, llm:jb, llm:jc, offline scored as many" in \
        " ".join(out.split())
