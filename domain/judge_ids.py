"""Who judged: the judge id stored with every score, as a value instead of a string to take apart.

The stored form stays a string (no migration), written and read only here:

    offline             rule verdicts and the lexical clue matcher
    offline:semantic    the MiniLM clue matcher
    llm:<endpoint>      an LLM judge on that endpoint
    panel:<a>+<b>       the majority of the LLM judges on endpoints a and b

A verdict's own decider (`decided_by`: "rule:open", "offline:lexical", "llm:<endpoint>") has the
same `kind:rest` shape, so it parses too: the rest is the method of non-LLM kinds.
"""
from __future__ import annotations

from dataclasses import dataclass

LLM, PANEL = "llm", "panel"


@dataclass(frozen=True)
class JudgeId:
    kind: str                          # "offline", "llm", "panel", "rule", ...
    endpoints: tuple[str, ...] = ()    # llm: its endpoint; panel: its members' endpoints
    method: str = ""                   # other kinds: what follows the colon ("semantic")

    @property
    def is_llm(self) -> bool:
        return self.kind == LLM

    @property
    def is_panel(self) -> bool:
        return self.kind == PANEL

    @property
    def members(self) -> tuple["JudgeId", ...]:
        """The LLM judges a panel is made of (none for other kinds)."""
        return tuple(llm_judge(e) for e in self.endpoints) if self.is_panel else ()


def llm_judge(endpoint: str) -> JudgeId:
    return JudgeId(LLM, (endpoint,))


def panel_judge(endpoints) -> JudgeId:
    return JudgeId(PANEL, tuple(endpoints))


def parse_judge(text: str) -> JudgeId:
    """The value of a stored judge id (or a verdict's decider)."""
    kind, _, rest = (text or "").partition(":")
    if kind == LLM:
        return llm_judge(rest)
    if kind == PANEL:
        return panel_judge(rest.split("+"))
    return JudgeId(kind, method=rest)


def format_judge(judge: JudgeId) -> str:
    """The stored string of a judge id: `format_judge(parse_judge(s)) == s`."""
    if judge.is_llm:
        return f"{LLM}:{judge.endpoints[0]}"
    if judge.is_panel:
        return f"{PANEL}:" + "+".join(judge.endpoints)
    return f"{judge.kind}:{judge.method}" if judge.method else judge.kind


PANEL_LIKE = f"{PANEL}:%"
"""SQL LIKE pattern of every panel's id, for queries that leave panels out."""
