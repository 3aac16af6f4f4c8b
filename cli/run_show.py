"""What `runs --show RUN` prints without --json: the run as a person reads it, a labelled
line per part (it printed one raw JSON blob, the shape `--json` keeps for scripts)."""
from __future__ import annotations

from runner.config import boxes_text, draws_text
from runner.costs import money, usd
from runner.totals import abandoned_text, counts_text
from domain.vocabulary import IMAGE_MODE_TITLES
from scoring.compared import SETTING_TITLES
from store.run_labels import clues_text
from store.runner_retried import retried_text

SAMPLING = ("temperature", "top_p", "max_tokens", "seed")


def show_text(run: dict, names: dict | None = None) -> str:
    """`run`: `cli.runs_commands.run_json`'s shape; `names`: run labels for another run's
    clues (`scoring.compared.table_names`); the setting titled as the tables and README
    title it ('CoT': it printed 'setting cot')."""
    c, t, e = run["config"] or {}, run["totals"] or {}, run["execution"] or {}
    endpoint = c.get("endpoint") or {}
    setup = " · ".join(p for p in (
        f"setting {SETTING_TITLES.get(c.get('setting'), c.get('setting'))}", f"clues {clues_text(c, names or {})}",
        f"images {IMAGE_MODE_TITLES.get(c.get('image_mode'), c.get('image_mode'))}", draws_text(c), boxes_text(c)) if p)
    sampling = ", ".join(f"{k} {c[k]}" for k in SAMPLING if c.get(k) is not None)
    items = (c.get("items") or {}).get("count")
    budget = e.get("budget")
    lines = [
        ("run", run["id"] + (f" ({run['name']})" if run.get("name") else "")),
        ("status", run["status"] + (f": {run['message']}" if run.get("message") else "")),
        ("note", run.get("note") or ""),
        ("endpoint", f"{run['endpoint']} (model {endpoint.get('model')} at "
                     f"{endpoint.get('base_url')})"),
        ("setup", setup),
        ("sampling", sampling or "the endpoint's defaults"),
        ("items", f"{items if items is not None else '?'} (filters "
                  f"{_filters(c)})"),
        ("progress", f"{t.get('done', 0)}/{t.get('total', '?')}  "
                     + counts_text(run["counts"])),
        ("requests", f"{t.get('requests', 0)} sent, {t.get('retries', 0)} of them retries"
                     + (f"; {abandoned_text(t)}" if t.get("abandoned") else "")
                     + (f"; {retried_text(t['retried'])}" if t.get("retried") else "")),
        ("tokens", f"{t.get('prompt_tokens', 0)} prompt, {t.get('completion_tokens', 0)} "
                   "completion"),
        ("cost", money(t.get("cost")) + ("" if budget is None else f" (budget {usd(budget)})")),
        ("cache", (run.get("cache") or {}).get("text") or ""),
        ("created", f"{run['created_at']} by {run.get('created_by') or '?'}"),
        ("started", run.get("started_at") or "-"),
        # a paused run keeps the time its process stopped: "finished" beside "paused" misled
        ("finished" if run["status"] in ("done", "cancelled", "failed") else "stopped",
         run.get("finished_at") or "-"),
        ("config id", run["config_id"]),
    ]
    width = max(len(label) for label, _ in lines)
    return "".join(f"{label + ':':<{width + 2}}{value}\n" for label, value in lines
                   if value or label != "note") + "(all of it as JSON: add --json)\n"


def _filters(config: dict) -> str:
    if config.get("ids"):
        return "explicit ids"
    found = {k: v for k, v in (config.get("filters") or {}).items() if v not in (None, "")}
    return ", ".join(f"{k}={v}" for k, v in found.items()) or "none"
