"""Recording results: a buffer committed in small batches, never losing a paid reply.

Results are committed every `batch_size` results and at every tick of the engine (its
`batch_interval`), together with their cache entries and the run's live counters, in one
transaction (`Store.record_run_batch`). A failed commit keeps the batch for the next try;
after three failures in a row the engine is told to stop dispatching (paying for replies
that cannot be saved helps nobody), and whatever is still unsaved when the run ends goes to
`<db>-runs/<run id>.unsaved.jsonl` rather than being lost.
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable

from domain.json_lines import dumps_line
from runner import leases

MAX_FAILURES = 3


class Recorder:
    def __init__(self, store, run_id: str, totals, batch_size: int,
                 on_state: Callable[[dict], None], on_failure: Callable[[str], None],
                 on_progress: Callable[[dict], None] | None = None):
        """on_state(state): what the commit read back ({"control", "owner"}); on_failure
        (message): commits keep failing; on_progress(totals) after each commit."""
        self.store, self.run_id, self.totals = store, run_id, totals
        self.batch_size = batch_size
        self.on_state, self.on_failure, self.on_progress = on_state, on_failure, on_progress
        self.rows: list[dict] = []
        self.cache_rows: list[dict] = []
        self.failures = 0

    def record(self, row: dict, cache_entry: dict | None = None) -> None:
        self.rows.append(row)
        if cache_entry is not None:
            self.cache_rows.append(cache_entry)
        self.totals.add(row)
        if len(self.rows) >= self.batch_size:
            self.flush()

    def flush(self) -> None:
        """Commit what is buffered (also renews the lease and reads pause/cancel)."""
        rows, cache_rows = self.rows, self.cache_rows
        self.rows, self.cache_rows = [], []
        snapshot = self.totals.snapshot()  # written with the batch, then shown as progress
        try:
            state = self.store.record_run_batch(self.run_id, leases.OWNER, rows, cache_rows,
                                                snapshot)
        except Exception as error:
            self.rows[:0], self.cache_rows[:0] = rows, cache_rows
            self.failures += 1
            leases.warn(f"run {self.run_id}: could not commit {len(rows)} results yet "
                        f"({type(error).__name__}: {error}); retrying")
            if self.failures >= MAX_FAILURES:
                self.on_failure(f"cannot write results to the database: {error}")
            return
        self.failures = 0
        self.on_state(state)
        if self.on_progress is not None:
            self.on_progress(snapshot)

    def save_unsaved(self) -> Path | None:
        """Last resort when the database refused the final commit: paid replies go to a
        JSON-lines file beside it. Returns its path, or None when nothing was left."""
        if not self.rows:
            return None
        path = Path(self.store.path)
        path = path.with_name(f"{path.stem}-runs") / f"{self.run_id}.unsaved.jsonl"
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "a", encoding="utf-8") as out:
            for row in self.rows:
                out.write(dumps_line({"response": row}) + "\n")
            for entry in self.cache_rows:
                out.write(dumps_line({"cache": entry}) + "\n")
        leases.warn(f"run {self.run_id}: {len(self.rows)} results could not be committed; "
                    f"saved to {path}")
        return path
