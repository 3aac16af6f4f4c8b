"""The file name of a table exported from the Results page.

It says what the file holds (table, protocol, the runs' datasets, the run or how many) and
the day, so downloads do not overwrite each other. One run is named as the tables name it
(`scoring.compared.labels`: its name, else 'model · setting'), not by its id (a date and a
hash the researcher never sees beside the numbers); a word is said once (a VER-Bench table
of the verbench protocol was 'cluelab-verbench-verbench-…', three times on a dataset named
verbench).
"""
from __future__ import annotations

import re
import time

from scoring.compared import labels

EXPORT_FORMATS = {"csv": ".csv", "json": ".json", "md": ".md", "latex": ".tex"}


def download_name(store, kind: str, protocol: str, run_ids, fmt: str,
                  today: str | None = None, samples_rule: str = "") -> str:
    """'cluelab-main-general-demo-Baseline-samples_majority-20260101.csv' (the samples rule
    when the table has one: the same table under two rules had one name). Only letters,
    digits, '.', '_', '+' and '-' (a run's name could hold anything)."""
    runs = list(run_ids)
    datasets = sorted(name for name, ids in store.scored_runs_by_dataset().items()
                      if set(ids) & set(runs))
    run = labels(store, runs)[runs[0]] if len(runs) == 1 else f"{len(runs)}-runs"
    parts = ["cluelab", kind, protocol, "+".join(datasets[:3]) + ("+more" if len(datasets) > 3
                                                                  else ""),
             run.replace(" · ", "-"), f"samples_{samples_rule}" if samples_rule else "",
             today or time.strftime("%Y%m%d")]
    said = list(dict.fromkeys(p for p in parts if p))          # each word once, in order
    name = re.sub(r"[^A-Za-z0-9._+-]+", "_", "-".join(said))
    return name[:150] + EXPORT_FORMATS[fmt]
