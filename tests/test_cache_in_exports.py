"""A run partly made of another run's cached replies: the Results page's LaTeX export never
said so, the CLI's main CSV had no cache column (the fact reached only stderr), and the
injection heatmap said nothing under it. Now the cache line is in the table's notes (inside
the LaTeX float's notes), the main CSV has `from_cache` (the count of cached replies), and
the heatmap's note says it. Real SQLite, real scoring, the CLI and the page's handlers."""
import csv
import io

from tests.scoring_helpers import cli
from tests.test_compare_shared_replies import runs as repeat_runs
from tests.test_injection_partial_cache import runs as injection_runs
from ui import results_handlers as h

SAID = "m · CoT · 2 repeats: replies from the cache (another run's draws, not new ones): " \
       "repeat 0: 4 of 4 from m · CoT; repeat 1: none"


def test_the_latex_export_and_the_main_csv_say_the_cache(store):
    repeat_runs(store)
    path = h.export_table(store, ["a", "b"], "general", "main", "latex")
    latex = open(path, encoding="utf-8").read()
    float_body = latex[latex.index("\\end{tabular}"):latex.index("\\end{table}")]
    assert "From the cache" in float_body and "repeat 0: 4 of 4 from" in float_body
    code, out, err = cli("table", "--db", store.path, "--runs", "a,b", "--format", "csv")
    assert code == 0, err
    rows = {r["run_id"]: r for r in csv.DictReader(io.StringIO(out))}
    assert rows["b"]["from_cache"] == "4" and rows["a"]["from_cache"] == "0"
    code, out, err = cli("table", "--db", store.path, "--runs", "a,b")
    assert out.count(SAID) == 1       # in the Markdown table's notes, not again after them


def test_the_injection_heatmap_says_the_cache(store):
    chosen = injection_runs(store)
    shown = h.show_results(store, chosen)["injection"]
    assert "From the cache" in shown and "repeat 0: 4 of 4 from" in shown
