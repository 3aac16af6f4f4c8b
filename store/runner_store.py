"""The Store's methods for the experiment runner (issue 3), kept out of core.py to keep it small.

`Store` inherits them; the SQL is in runner_endpoints (endpoints and prices), runner_prompts
(prompt templates), runner_runs (runs, their lease and control), run_labels (names, notes,
deletion), runner_work (work rows and results) and runner_cache (the response cache).
"""
from __future__ import annotations

from typing import Any

from . import run_labels, runner_cache, runner_endpoints, runner_prompts, runner_runs, runner_work


class RunnerMixin:
    """Mixed into `Store`; `self.db` is the thread's connection."""

    # Runner: endpoints and prices
    def add_endpoint(self, name: str, base_url: str, model: str, api_key_env: str | None = None,
                     concurrency: int = 8, max_image_pixels: int | None = None,
                     params: dict | None = None) -> dict:
        return runner_endpoints.add_endpoint(self.db, name, base_url, model, api_key_env,
                                             concurrency, max_image_pixels, params)

    def update_endpoint(self, name: str, **fields: Any) -> dict:
        return runner_endpoints.update_endpoint(self.db, name, **fields)

    def get_endpoint(self, name: str) -> dict:
        return runner_endpoints.get_endpoint(self.db, name)

    def list_endpoints(self) -> list[dict]:
        return runner_endpoints.list_endpoints(self.db)

    def delete_endpoint(self, name: str) -> None:
        runner_endpoints.delete_endpoint(self.db, name)

    def set_price(self, pattern: str, input_per_m: float, output_per_m: float) -> None:
        runner_endpoints.set_price(self.db, pattern, input_per_m, output_per_m)

    def delete_price(self, pattern: str) -> None:
        runner_endpoints.delete_price(self.db, pattern)

    def list_prices(self) -> list[dict]:
        return runner_endpoints.list_prices(self.db)

    def price_for(self, model: str) -> dict | None:
        return runner_endpoints.price_for(self.db, model)

    # Runner: prompt templates
    def ensure_prompt_template(self, name: str, default_text: str) -> dict:
        return runner_prompts.ensure_template(self.db, name, default_text)

    def prompt_template(self, name: str, version: int | None = None) -> dict:
        return runner_prompts.get_template(self.db, name, version)

    def save_prompt_template(self, name: str, text: str, author: str | None = None) -> int:
        return runner_prompts.save_template(self.db, name, text, author)

    def list_prompt_templates(self) -> list[dict]:
        return runner_prompts.list_templates(self.db)

    def prompt_template_history(self, name: str) -> list[dict]:
        return runner_prompts.template_history(self.db, name)

    # Runner: runs, work and results
    def create_run(self, run_id: str, config_id: str, config: dict, execution: dict,
                   endpoint: str, work: Any, author: str | None = None) -> int:
        return runner_runs.create_run(self.db, run_id, config_id, config, execution, endpoint,
                                      work, author)

    def get_run(self, run_id: str) -> dict:
        return runner_runs.get_run(self.db, run_id)

    def list_runs(self, limit: int | None = None) -> list[dict]:
        return runner_runs.list_runs(self.db, limit)

    def usage_history(self, base_url: str, model: str) -> dict:
        return runner_work.usage_history(self.db, base_url, model)

    def response_counts(self) -> dict[str, int]:
        return run_labels.response_counts(self.db)

    def run_same_readings(self, run_id: str) -> dict[str, int]:
        return run_labels.same_readings(self.db, run_id)

    def label_run(self, run_id: str, name: str | None = None, note: str | None = None) -> dict:
        """Set a run's name and/or note (None: unchanged, '': cleared)."""
        return run_labels.label_run(self.db, run_id, name, note)

    def runs_named(self, name: str) -> list[str]:
        """The ids of the runs with this name (names need not be unique)."""
        return run_labels.runs_named(self.db, name)

    def runs_with_short_id(self, tail: str) -> list[str]:
        """The ids of the runs whose short id (the 4-hex tail of a runner's id) is `tail`."""
        return run_labels.runs_with_short_id(self.db, tail)

    def run_contents(self, run_id: str) -> dict:
        """What deleting the run removes: {work, responses, scores, tags, notes, clue_users}."""
        return run_labels.run_contents(self.db, run_id)

    def delete_run(self, run_id: str, is_stale: Any) -> dict:
        return run_labels.delete_run(self.db, run_id, is_stale)

    def runs_with_config(self, config_id: str) -> list[dict]:
        return runner_runs.runs_with_config(self.db, config_id)

    def claim_run(self, run_id: str, owner: str, is_stale: Any) -> dict:
        return runner_runs.claim_run(self.db, run_id, owner, is_stale)

    def finish_run(self, run_id: str, owner: str, status: str, message: str,
                   totals: dict) -> None:
        runner_runs.finish_run(self.db, run_id, owner, status, message, totals)

    def set_run_execution(self, run_id: str, execution: dict) -> None:
        runner_runs.set_execution(self.db, run_id, execution)

    def request_run_control(self, run_id: str, control: str | None,
                            message: str | None = None) -> dict:
        """Ask a run to 'pause' or 'cancel' (None clears the request); `message` becomes the
        run's message when nobody executes it and its status changes at once."""
        return runner_runs.request_control(self.db, run_id, control, message)

    def read_run_control(self, run_id: str) -> str | None:
        return runner_runs.read_control(self.db, run_id)

    def pending_work(self, run_id: str, phase: str | None = None) -> list[dict]:
        return runner_work.pending_work(self.db, run_id, phase)

    def record_run_batch(self, run_id: str, owner: str, responses: list[dict],
                         cache_rows: list[dict], totals: dict) -> dict:
        return runner_work.record_batch(self.db, run_id, owner, responses, cache_rows, totals)

    def run_work_count(self, run_id: str) -> int:
        return runner_work.work_count(self.db, run_id)

    def run_work_counts(self, run_id: str) -> dict[str, int]:
        return runner_work.work_counts(self.db, run_id)

    def run_clue_work_ids(self, run_id: str) -> set[int]:
        return runner_work.clue_work_ids(self.db, run_id)

    def no_source_clue_items(self, run_id: str) -> dict[str, int]:
        return runner_work.no_source_clue_items(self.db, run_id)

    def run_aggregates(self, run_id: str) -> dict:
        return runner_work.aggregates(self.db, run_id)

    def run_cached_replies(self, run_id: str) -> list[dict]:
        return runner_work.cached_replies(self.db, run_id)

    def run_cache_sources(self, run_id: str) -> dict[str, int]:
        return runner_work.cache_sources(self.db, run_id)

    def run_error_reasons(self, run_id: str, phase: str = "answer",
                          limit: int = 3) -> list[tuple[str, int]]:
        return runner_work.error_reasons(self.db, run_id, phase, limit)

    def run_results(self, run_id: str, phase: str | None = "answer") -> list[dict]:
        return runner_work.run_results(self.db, run_id, phase)

    def run_response_clues(self, run_id: str, phase: str = "answer",
                           sample: int = 0) -> dict[tuple[str, int], dict]:
        return runner_work.response_clues(self.db, run_id, phase, sample)

    def delete_run_results(self, run_id: str, statuses: tuple[str, ...]) -> int:
        return runner_work.delete_results(self.db, run_id, statuses)

    def run_item_ids(self, run_id: str) -> list[str]:
        return runner_work.run_item_ids(self.db, run_id)

    def run_item_versions(self, run_id: str) -> dict[str, int | None]:
        return runner_work.run_item_versions(self.db, run_id)

    # Runner: response cache
    def cache_get(self, key: str) -> dict | None:
        return runner_cache.get(self.db, key)

    def cache_get_many(self, keys: list[str]) -> dict[str, dict]:
        return runner_cache.get_many(self.db, keys)

    def cache_put(self, entry: dict) -> None:
        runner_cache.put(self.db, entry)

    def cache_stats(self) -> dict:
        return runner_cache.stats(self.db)
