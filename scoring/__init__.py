"""Scoring runs and turning scores into results: the orchestration between store, runner and
judges (judges stay pure; this package reads and writes the store and sends judge requests).

    judge_client.py  judge prompts through the runner's client, limiter and response cache
    offline.py       rule verdicts from stored extractions, offline clue matching, grounding
    llm_stages.py    the LLM judges' stages over a whole run (open, extract, clues, VER-Bench)
    score_run.py     score a run: protocols general | rigorous | verbench | grounded | all
    results.py       per-run summaries: samples, repeats, CIs, VER-Bench, paired comparison
    judge_agreement.py  judges' agreement on a run's verdicts (their own verdicts only)
    no_boxes.py      grounded-rigorous is n/a ("–") for runs whose prompts asked for no boxes
    extraction.py    re-reading multiple-choice answers with MMR-Life's own regex
    human.py         human baselines (JSON files) as an extra, unranked table row
    tables.py        result tables across runs: main, drop, clue injection, ablation, leaderboard
    solver_rows.py   injection and ablation rows: model (and setting) and how the runs drew replies
    figures.py       data frames and bar charts for the Results tab's plots
    heatmaps.py      the Results tab's heatmaps (clue injection, reasoning-type correlation)
"""
PROTOCOLS = ("general", "rigorous", "verbench", "grounded")
SAMPLE_RULES = ("majority", "mmr_life", "mmr_life_sc", "first")
OFFLINE = "offline"                 # rule verdicts and the lexical clue matcher
SEMANTIC = "offline:semantic"       # the MiniLM clue matcher (optional extra), on request
