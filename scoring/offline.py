"""What needs no judge model: rule verdicts, offline clue matching, grounded rigor.

Rule verdicts are read from the extraction stored with each response (the runner extracted the
answer when the reply came in, and the UI shows that same reading), so scoring 100,000
responses does not re-parse 100,000 texts. Response statuses map to verdicts as follows:
error -> `error`; refused -> `unparsed` (a reply without an answer); truncated, unparsed and
ok -> the rule judge on the answer extracted (none -> `unparsed`).

A truncated reply (cut off by max_tokens, finish_reason length) is read again from its text
as a cut reply (`as_scored`, `domain.extract` with complete=False), whatever the runner stored:
its answer only from a whole explicit statement (an `Answer: X` line a newline ends,
`\\boxed{X}`, ...; no fallback reads a fragment), else it is unparsed. What its clues count
for: the clues it wrote whole, with their reasoning; the last, unended line is a fragment and
no clue, and the unfinished last sentence is neither a sentence of the reasoning nor text an
LLM judge reads, so a cut clue is never matched as a whole one (Inspect's live matching reads
it the same way, `model_clues`). Rigorous needs the answer right anyway, so a cut reply's clues count
only when a whole statement gave the right answer.

Offline rigorous accuracy matches the model's clue list against the GT clues lexically
(`judges.clue_match`); when the output has no clue list, the sentences of its reasoning stand
in for clues (said in the verdict's details), which is lenient, hence the LLM judge stays the
reference and the two are compared. Grounding converts the model's boxes to original-image
pixels with `domain.geometry.box_to_pixels`: boxes in pixels refer to the image as sent
(downscaled to the run's image_max_pixels), normalised boxes to any size of it.
"""
from __future__ import annotations

import re

from domain.extract import clues_of, extract, whole_sentences
from domain.geometry import gt_clue_boxes

from judges.clue_match import match_clues, rigorous_verdict
from judges.grounding import ground_clues, grounded_verdict
from judges.rules import judge_response
from judges.verdict import NOT_ASKED, Verdict, error, unparsed, unscored
from store.runner_work import NO_SOURCE_CLUE

_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")
# What the prompt asks the model to write around its reasoning, not a clue: the answer
# statement ("Answer: B", "# Final answer: B", "\boxed{B}") and bare headings ("Clues:").
_NOT_A_CLUE = re.compile(r"^[#*>\s]*(final\s+)?answer\s*[:：]|^[#*>\s]*\\boxed\{[^}]*\}[\s.]*$|"
                         r"^[#*>\s]*(clues?|reasoning|evidence)\s*[:：]?[*\s]*$", re.I)


TRUNCATED = "truncated"
CUT_NOTE = "the reply was cut off (finish_reason length): read from what it wrote whole"


def _read_as_cut(response: dict) -> dict:
    """A truncated reply's clues and prose as scoring reads them: the clues of its whole
    lines, its text up to its last whole sentence or line."""
    text = response.get("text") or ""
    return {**response, "clues": clues_of(text, complete=False),
            "text": whole_sentences(text), "read_as_cut": True}


def as_scored(response: dict, item: dict | None) -> dict:
    """The response as scoring reads it: itself, or for a truncated reply (with its text) a
    copy read as a cut reply: answer and reason from `extract(complete=False)`, the clues of
    its whole lines, its text up to its last whole sentence (what the sentences of the
    reasoning and the LLM judges read). The stored box convention is kept."""
    if response.get("status") != TRUNCATED or item is None or "text" not in response:
        return response
    read = extract(response.get("text") or "", item["answer_type"], item.get("options") or [],
                   complete=False)
    return {**_read_as_cut(response), "answer": read.answer,
            "reason": f"{CUT_NOTE}; {read.reason}"}


def rule_verdict(item: dict | None, response: dict) -> Verdict:
    """The general-protocol rule verdict of one response, from its stored extraction."""
    status = response["status"]
    if item is None:
        return unscored("the item no longer exists", judge="rule")
    if no_source_clue(response):
        return unscored(f"not asked, not this run's error: {response.get('reason')}"[:300],
                        judge=f"rule:{item['answer_type']}", details={NOT_ASKED: True})
    if status == "error":
        return error(f"the model call failed: {response.get('reason') or ''}"[:300],
                     judge=f"rule:{item['answer_type']}")
    if status == "refused":
        return unparsed("the model refused to answer", judge=f"rule:{item['answer_type']}")
    return judge_response(item["answer_type"],
                          {"answer": response.get("answer"), "reason": response.get("reason")},
                          item["answer"], item.get("aliases") or (), item.get("options") or [])


def no_source_clue(response: dict) -> bool:
    """A response not asked because the run its clues are injected from has none for the
    item (`store.runner_work.NO_SOURCE_CLUE`): unscored, never counted as this run's error
    (the source run failed there, this one was never asked)."""
    return response.get("status") == "error" and \
        (response.get("reason") or "").startswith(NO_SOURCE_CLUE)


def needs_llm(verdict: Verdict) -> bool:
    """An open answer that the normalised match could not confirm."""
    return bool(verdict.details.get("needs_llm_judge"))


def sentence_clues(text: str | None) -> list[dict]:
    """The sentences of a free-form reasoning, as stand-in clues for the offline matcher;
    the answer statement and template headings are not clues (an output of only "Answer: B"
    states none: nothing unparsed is guessed)."""
    parts = [" ".join(p.split()) for p in _SENTENCE.split(text or "")]
    return [{"text": p} for p in parts if len(p) > 3 and not _NOT_A_CLUE.match(p)][:60]


def model_clues(response: dict) -> tuple[list[dict], str]:
    """(clues, where from): the extracted clue list, else the reasoning's sentences; of a
    truncated reply with its text, those of its whole lines (as `as_scored` reads it, so
    that Inspect's live matching never matches its cut clue either)."""
    if response.get("status") == TRUNCATED and response.get("text") is not None and \
            not response.get("read_as_cut"):
        response = _read_as_cut(response)
    clues = [c for c in response.get("clues") or [] if str(c.get("text") or "").strip()]
    if clues:
        return clues, "clue list"
    return sentence_clues(response.get("text")), "sentences of the reasoning"


def offline_rigorous(item: dict, response: dict, general: Verdict, method: str = "lexical"
                     ) -> tuple[Verdict, object]:
    """Rigorous verdict with the offline matcher; also returns the ClueMatch (for grounding)."""
    clues, source = model_clues(response)
    match = match_clues(clues, item.get("clues") or [], method=method)
    if source != "clue list":
        match.label = "S"             # as Inspect names the reasoning's sentences: S1 (it said M1)
    verdict = rigorous_verdict(general, match)
    verdict.details.update(clues_from=source, clue_match=match.any_match)
    if response.get("status") == TRUNCATED:
        verdict.details["cut_off"] = CUT_NOTE
    verdict.judge = f"offline:{match.method}"
    return verdict, (match, clues)


# -- grounding -----------------------------------------------------------------------------------

def gt_boxes(item: dict) -> list[dict]:
    """GT clues with boxes as grounding wants them: {"box": [x0, y0, x1, y1], "image": k}."""
    return [{"text": clue.get("text"), "boxes": boxes}
            for clue, boxes in zip(item.get("clues") or [], gt_clue_boxes(item))]


def grounded(item: dict, response: dict, general: Verdict, match, clues: list[dict],
             sizes: dict[str, tuple[int, int]], max_pixels: int | None, image_mode: str,
             threshold: float = 0.5) -> Verdict:
    """Grounded-rigorous verdict. `sizes`: original (w, h) per image sha."""
    originals = [sizes.get(sha) for sha in item.get("images") or []]
    convention = response.get("box_convention")
    if image_mode == "text_only" or not originals or None in originals:
        grounding = ground_clues([], [], match, image_size=None, convention=None)
        grounding.grounded = [False] * len(clues)
        grounding.best_iou = [None] * len(clues)
        grounding.note = "no image was sent" if image_mode == "text_only" else "no image size"
    else:
        grounding = ground_clues(clues, gt_boxes(item), match, image_size=originals,
                                 convention=convention, threshold=threshold,
                                 max_pixels=max_pixels)
    verdict = grounded_verdict(general, match, grounding)
    verdict.details.update(convention=convention, image_mode=image_mode,
                           note=grounding.note or "")
    return verdict
