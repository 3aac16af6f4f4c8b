"""Experiments monitor: a run's configuration and totals as text a person reads.

gr.JSON showed them one token a line (a run's 80 lines, `"cached_from": {` and `}` on two);
here they are YAML's key: value lines, nested ones indented, the order the run keeps.
The totals' "errors" is left out: the runner writes it equal to "error" (runner/totals.py,
kept in the stored totals for scripts reading `runs --json`), and the page showed both.
"""
from __future__ import annotations

import yaml

REPEATED = ("errors",)
"""Totals keys that repeat another one (runner.totals.Totals.snapshot: errors = error)."""


def config_text(detail: dict) -> str:
    """`ui.experiments_runs.run_config`'s dict as key: value lines."""
    totals = detail.get("totals")
    if isinstance(totals, dict):
        detail = {**detail, "totals": {k: v for k, v in totals.items() if k not in REPEATED}}
    return yaml.safe_dump(detail, sort_keys=False, allow_unicode=True,
                          default_flow_style=False, width=88)
