"""MMR-Life's own scoring rules, reproduced so that our numbers can be set beside the paper's.

These are *not* ClueLab's rules; they exist to measure how much the paper's rules move a score.
Source: the authors' release (`utils/load_data.py: extract_answer, get_final_pred` and
`parse_result.py: get_model_result`).

Extraction (`mmr_life_extract`). The text is stripped, every "-" or "*" and the spaces after it
are deleted, then the *last* match of
    `\\bAnswer\\s*:\\s*([A-Ea-e])`  |  `\\\\boxed{\\s*([A-Ea-e])\\s*}`  |  `([A-Ea-e])\\s*\\.`
is the answer, upper-cased. The third branch matches any a-e before a full stop, so
"# Answer: C\\nThis matches the blue cube." reads as E (the "e." of "cube."), and
"the answer is (C). See above." reads as E too. Without a match the paper stores "" and scores
it wrong; here that is `unparsed` (still wrong in accuracy, but visible as a rate).
ClueLab's own reading (`domain.extract`) takes the final explicit answer statement and never
lets a letter inside a word count, so it says C in both cases.

Aggregation over samples (`mmr_life_item_correct`). With one sample, the item is that sample's
correctness. With several, the paper draws min(5, n) samples at random and counts the item
correct when *more than 2* of them are correct: a majority of correct samples, which is not a
majority vote over answers (C, C, A, B, D is right by plurality vote when C is gold, but wrong
here: 2 of 5). The paper's random draw depends on its global random state and cannot be
reproduced; we take the first five samples. An item with no extracted answers counts wrong.
The Chinese summary in the seeds says the open models' scores are "an average of 5 runs"; the
released code does the above instead, and we follow the code. Its self-consistency method
("sc") is a plurality vote over the extracted letters, "" included, ties going to the letter
seen first (`collections.Counter.most_common`): `mmr_life_vote`.

The authors also leave 30 malformed items out of every score: `MMR_LIFE_EXCLUDED_IDS`.
"""
from __future__ import annotations

import re
from collections import Counter

from judges.verdict import Verdict, from_match, unparsed

_ANSWER_REGEX = re.compile(
    r"(?:\bAnswer\s*:\s*([A-Ea-e]))|(?:\\boxed\{\s*([A-Ea-e])\s*\})|(?:([A-Ea-e])\s*\.)")
_BULLETS = re.compile(r"[-*]\s*")

#: items the authors drop before scoring (parse_result.py, `wrong_index`)
MMR_LIFE_EXCLUDED_IDS = frozenset(
    "HAL_17 ARI_68 MCA_147 HAL_108 HAL_32 MCD_71 SFI_5 SFI_17 SFI_27 SFI_39 SFI_51 SFI_61 "
    "SFI_85 SFI_105 SFI_115 SFI_116 SFI_119 SFI_125 SFI_149 SFI_172 SFI_187 PSI_20 PSI_24 "
    "PSI_27 PSI_83 PSI_84 PSI_99 PSI_121 PSI_140 PSI_161".split())


def mmr_life_extract(text: str | None) -> str | None:
    """The letter MMR-Life's regex reads from one response; None where the paper stores ""."""
    if not text:
        return None
    last = None
    for last in _ANSWER_REGEX.finditer(_BULLETS.sub("", text.strip())):
        pass
    if last is None:
        return None
    return (last.group(1) or last.group(2) or last.group(3)).upper()


def mmr_life_rule(text: str | None, gold: str) -> Verdict:
    """The paper's verdict on one response: its extraction, then exact comparison."""
    judge = "rule:mmr_life"
    letter = mmr_life_extract(text)
    if letter is None:
        return unparsed("MMR-Life regex found no answer (the paper scores it wrong)",
                        judge=judge)
    expected = str(gold).strip().upper()
    return from_match(letter == expected, f"MMR-Life regex reads {letter}, gold {expected}",
                      judge=judge, answer=letter)


def mmr_life_item_correct(samples_correct: list[bool]) -> bool:
    """The paper's per-item correctness over samples: one sample decides alone; with several,
    more than 2 of the first five must be correct."""
    if not samples_correct:
        return False
    if len(samples_correct) == 1:
        return bool(samples_correct[0])
    return sum(bool(c) for c in samples_correct[:5]) > 2


def mmr_life_vote(letters: list[str | None]) -> str | None:
    """The paper's self-consistency answer: the most common extracted letter, "" (None here)
    included as a candidate, ties to the first seen. None when nothing wins but ""."""
    if not letters:
        return None
    winner = Counter(letter or "" for letter in letters).most_common(1)[0][0]
    return winner or None


def mmr_life_tied(letters: list[str | None]) -> bool:
    """Whether the most common candidate of `mmr_life_vote` shares its count with another
    (C, C, A, A, B): the vote then goes to the earliest of them, as the paper's rule does."""
    counts = Counter(letter or "" for letter in letters).most_common(2)
    return len(counts) == 2 and counts[0][1] == counts[1][1]
