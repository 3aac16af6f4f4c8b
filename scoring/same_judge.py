"""When two LLM judges are one judge: two endpoints that send the same request (the same
model at the same URL, with the same parameters as a judge call sends them), so the
second's replies are the first's, taken from the response cache.

One test for every place that meets it: a panel of such judges is refused
(`scoring.judge_client.panel_problem`), their agreement is never computed
(`scoring.judge_agreement`: "llm:judge vs llm:judge2: agree on 100%" and a low-agreement
caution were built on a judge and its copy), and `score` names the judge whose cached
replies another endpoint reused (`scoring.judge_client.counts_text`).
"""
from __future__ import annotations

from domain.judge_ids import parse_judge

from runner.cache import cache_key
from store import NotFoundError

JUDGE_PARAMS = {"temperature": 0}
"""Sent with every judge call whatever the endpoint's own parameters say (one reading per
prompt, so that its reply can be cached and re-read): two endpoints that differ only here
ask the same request (`scoring.judge_client.panel_problem`)."""


def judge_params(endpoint: dict) -> dict:
    """The parameters a judge call on `endpoint` sends."""
    return {**(endpoint.get("params") or {}), **JUDGE_PARAMS}


def endpoint_identity(endpoint: dict) -> str:
    """What makes a judge the judge it is: the cache key of an empty prompt to it."""
    return cache_key(endpoint["base_url"], endpoint["model"],
                     [{"role": "user", "content": ""}], judge_params(endpoint))


def _endpoint(store, judge: str) -> dict | None:
    parsed = parse_judge(judge)
    if not parsed.is_llm:
        return None
    try:
        return store.get_endpoint(parsed.endpoints[0])
    except NotFoundError:        # its endpoint was removed: nothing to compare it by
        return None


def one_judge_why(store, a: str, b: str) -> str:
    """'' unless judges `a` and `b` (stored judge ids) are one judge; then why, in words."""
    first, second = _endpoint(store, a), _endpoint(store, b)
    if not first or not second or endpoint_identity(first) != endpoint_identity(second):
        return ""
    return (f"{a} and {b} are one judge: the same model ({second['model']}) on the same "
            "server, asked the same way, so one's verdicts are the other's replies (from the "
            "response cache); not compared")
