"""Which clues an LLM judge extracted from a reply are the reply's own.

The extraction prompt (assets/prompts/judge_extract_clues.txt) asks for the visual clues a
model's reasoning relies on, "close to the model's own words", and "no clue of your own".
A judge that invents clues anyway turned a reply of only "Answer: C" into two clues that
matched the GT ones, and the rigorous protocol scored the reply correct: 28.57% rigorous for
a model that wrote no reasoning at all (a researcher's review). So, before and after asking:

- `has_reasoning(text)`: is there anything besides the answer statements to take a clue
  from? A reply that is its answer alone ("Answer: C", "\\boxed{12}", "C") is not sent for
  extraction: it names no clue.
- `own_clues(clues, text)`: the extracted clues at least half of whose content words are
  the reply's (its word or the start of one, "signs" for "sign"; for Chinese or Japanese
  text, pairs of characters in a row), the others dropped. One shared word was not enough:
  "the timetable says departures at :05" was kept for a reply whose only such word was
  "says" (a review). A paraphrase with few words of the reply's is dropped too: the prompt
  asks for the model's own words, and a clue the reply does not name is no evidence of its
  reasoning.
Pure functions of the texts; scoring/llm_stages.py applies them.
"""
from __future__ import annotations

import re

from domain.extract.statements import markers

_WORD = re.compile(r"[^\W\d_]+|\d+")
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]")
STOPWORDS = frozenset("""
a an the and or but of in on at to for from with by as is are was were be been being it its
this that these those there here which what who whom whose how why when where than then so
not no yes can could would should will may might must shall do does did has have had
image images picture photo photograph shows show shown showing see seen seeing visible
appears appear looks look like also very more most some any all one two answer answers
question final correct option choice because since therefore thus i we you they he she
says say said reads read written writes write states stated indicates indicate suggests
suggest mentions mention contains contain there's it's
""".split())
"""Words that say nothing about what is in the image: a fabricated 'the image shows a
sign' shares 'image' and 'shows' with almost every reply."""


def _content_words(text: str) -> set[str]:
    """Its words of letters or digits, CJK characters aside (`_cjk_pairs` reads those)."""
    words = {w for w in _WORD.findall(_CJK.sub(" ", text.lower())) if w not in STOPWORDS}
    return {w for w in words if len(w) >= 3 or w.isdigit()}


def _stem(word: str) -> str:
    """A crude shared start: 'signs', 'signage' and 'sign' meet at 'sign'; 'colours' and
    'colour' at 'colou'."""
    return word[:5] if len(word) > 5 else word.rstrip("s") or word


def _cjk_pairs(text: str) -> set[str]:
    chars = [c if _CJK.match(c) else " " for c in text]
    joined = "".join(chars)
    return {joined[i:i + 2] for i in range(len(joined) - 1) if " " not in joined[i:i + 2]}


def _without_answers(text: str) -> str:
    """The reply with its answer statements ("Answer: C", "\\boxed{C}", "<answer>C</answer>")
    blanked out."""
    kept, at = [], 0
    for marker in markers(text):
        if marker.start < at:
            continue
        end = marker.end if marker.end is not None else \
            marker.content_start + len(marker.content)
        kept.append(text[at:marker.start])
        at = max(end, marker.start)
    kept.append(text[at:])
    return " ".join(kept)


def has_reasoning(text: str | None) -> bool:
    """Does the reply say anything besides its answer a clue could be taken from: a content
    word, or two CJK characters in a row, outside its answer statements?"""
    rest = _without_answers(text or "")
    return bool(_content_words(rest) or _cjk_pairs(rest))


def own_clues(clues: list[dict], text: str | None) -> tuple[list[dict], list[dict]]:
    """(kept, dropped): the extracted clues ({"text": ...}) that share a content word (or,
    in CJK text, two characters in a row) with the reply, and the rest."""
    reply = text or ""
    stems = {_stem(w) for w in _content_words(reply)}
    pairs = _cjk_pairs(reply)
    kept, dropped = [], []
    for clue in clues:
        said = str(clue.get("text") or "")
        (kept if _mostly_in(said, stems, pairs) else dropped).append(clue)
    return kept, dropped


def _mostly_in(clue: str, stems: set[str], pairs: set[str]) -> bool:
    """Are at least half the clue's content words (else its CJK character pairs) the
    reply's, and at least one?"""
    words = {_stem(w) for w in _content_words(clue)}
    if words:
        return 2 * len(words & stems) >= len(words)
    own = _cjk_pairs(clue)
    return bool(own) and 2 * len(own & pairs) >= len(own)
