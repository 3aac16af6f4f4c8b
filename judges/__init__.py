"""Scoring: verdicts, rule-based judges, clue matching, grounding, statistics and tables.

Pure functions only: no SQL, no Gradio, no network (DESIGN.md: `judges` imports neither `store`
nor `gradio`). Answers are read from model text by `domain.extract`; judges compare.

    rules.py       judge_response() and the multiple-choice, yes/no, numeric and open judges
    location.py    SeekWorld's strict location rule and our normalised one, side by side
    mmr_life.py    MMR-Life's own extraction and sample aggregation, to compare with the paper
    clue_match.py  lexical (and optional semantic) clue matching; rigorous accuracy (eq. 1)
    grounding.py   IoU of clue boxes; grounded-rigorous accuracy
    stats.py       micro-averages, rates, Wilson and bootstrap CIs, repeats, samples
    verbench_stats.py  VER-Bench's sub-score means and the counting rule score and tables share
    paired.py      exact McNemar test and per-item flips between two runs
    tables.py      rows and CSV / JSON / Markdown / LaTeX renderings
    llm.py         LLM judges: prompts from templates, replies read into verdicts (no sending)
    agreement.py   panel majority vote, percent agreement, Cohen's kappa
"""
from judges.verdict import VALUES, Verdict  # noqa: F401
from judges.rules import judge_response  # noqa: F401
