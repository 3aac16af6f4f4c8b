"""A hedged location reply, "Answer: $germany,bavaria$ or $canada,quebec$", was read as its
last candidate and scored correct on a Montreal item; "A or D", "Yes or No" and "8 or 9
minutes" are unparsed. Two different `$country,admin1$` offered together are two candidates,
never the last one; the same one repeated is one answer. Real SQLite, the offline scorer."""
from __future__ import annotations

import pytest

from scoring.score_run import score_run
from store import Store
from tests.scoring_helpers import add_items, make_run

REPLIES = {
    "geo/hedged": "Looks like a French sign.\nAnswer: $germany,bavaria$ or $canada,quebec$",
    "geo/listed": "Answer: $canada,quebec$, $germany,bavaria$",
    "geo/maybe": "Answer: $germany,bavaria$, or maybe $canada,quebec$",
    "geo/repeated": "Answer: $canada,quebec$ or $Canada, Quebec$",
    "geo/changed": "At first $germany,bavaria$. But the sign is French.\nAnswer: $canada,quebec$",
    "geo/plain": "Answer: $canada,quebec$",
}


@pytest.fixture
def store(tmp_path):
    store = Store.open(tmp_path / "loc.db")
    add_items(store, [{"id": item, "answer_type": "location", "answer": "$canada,quebec$",
                       "domain": "d", "subtask": "montreal"} for item in REPLIES])
    make_run(store, "geo", REPLIES)
    score_run(store, "geo")
    yield store
    store.close()


def test_two_different_locations_offered_together_are_unparsed(store):
    verdicts = {r["item_id"]: r["value"] for r in store.run_scores("geo", "general", "offline")}
    assert verdicts == {"geo/hedged": "unparsed", "geo/listed": "unparsed",
                        "geo/maybe": "unparsed", "geo/repeated": "correct",
                        "geo/changed": "correct", "geo/plain": "correct"}
