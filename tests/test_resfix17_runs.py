"""resfix17: runs with the real fake server. A clue-injection run whose every item had no
source clue ended "failed" though nothing failed: now it ends "done", saying how many rows
were skipped and why."""
from tests.test_source_clues import launch, server  # noqa: F401  (the fixture: the fake server)




def items(store, make_item, prefix: str, count: int) -> list[str]:
    ids = []
    for i in range(count):
        item = make_item(f"demo/{prefix}_{i}")
        store.create_item(item, "t")
        ids.append(item["id"])
    return ids


def test_an_injection_run_with_no_source_clue_at_all_ends_done(store, server, make_item):
    store.add_endpoint("fake", server.url, "fake-vlm", concurrency=4)
    ids = items(store, make_item, "N", 3)
    server.configure(reset=True, replies={}, default_reply="Answer: B")   # lists no clue
    source = launch(store, ids, setting="structured")
    outcome = launch(store, ids, setting="cot", clues=f"run:{source.run_id}")
    run = store.get_run(outcome.run_id)
    assert run["status"] == "done", run.get("message")
    assert "all 3 answer rows skipped, none failed" in run["message"]
    assert "no clue" in run["message"]


def test_run_output_names_the_cache_source_by_its_table_label(tmp_path, server):
    """`run` printed 'made by run 20261207-… "a-clues"' where `report` and the Results page
    say the table label ('a-clues'; an unnamed run 'fake-vlm · CoT')."""
    import json

    from store import Store
    from tests.test_runner_cli import DEMO, cli

    server.configure(reset=True, replies={}, default_reply="Answer: {letter}")
    db = tmp_path / "cache.db"
    assert cli("import", "--db", db, "--format", "jsonl", DEMO).returncode == 0
    assert cli("endpoint", "add", "fake", "--base-url", server.url, "--model", "fake-vlm",
               "--db", db).returncode == 0
    ids = "demo/alcove-furniture,demo/pantry-shelf"
    first = cli("run", "--db", db, "--endpoint", "fake", "--setting", "cot", "--ids", ids)
    assert first.returncode == 0, first.stderr
    [run] = json.loads(cli("runs", "--db", db, "--json").stdout)
    store = Store(db)
    store.label_run(run["id"], name="a-clues")
    again = cli("run", "--db", db, "--endpoint", "fake", "--setting", "cot", "--ids", ids)
    assert again.returncode == 0, again.stderr
    assert "made by a-clues (2)" in again.stdout, again.stdout
    assert run["id"] not in again.stdout.split("made by")[1], again.stdout
    second = next(r for r in json.loads(cli("runs", "--db", db, "--json").stdout)
                  if r["id"] != run["id"])
    shown = json.loads(cli("runs", "--db", db, "--show", second["id"], "--json").stdout)
    assert "made by a-clues (2)" in shown["cache"]["text"]


def test_the_completion_projection_is_measured_or_said_to_be_a_bound(tmp_path, server):
    """A first CoT run was projected at an a-priori 350 completion tokens a request, ~100x
    what the fake server's replies measure: with nothing measured the plan now says it
    counts max_tokens, an upper bound; once the model answered, the measured lengths."""
    import json

    from tests.test_runner_cli import DEMO, cli

    server.configure(reset=True, replies={}, default_reply="Answer: {letter}")
    db = tmp_path / "proj.db"
    assert cli("import", "--db", db, "--format", "jsonl", DEMO).returncode == 0
    assert cli("endpoint", "add", "fake", "--base-url", server.url, "--model", "fake-vlm",
               "--db", db).returncode == 0
    run = ("run", "--db", db, "--endpoint", "fake", "--setting", "cot", "--no-cache",
           "--max-tokens", "200", "--ids", "demo/alcove-furniture,demo/pantry-shelf")
    first = cli(*run, "--dry-run")
    assert "at most 400 completion tokens (max_tokens a request: no completion length " \
        "measured" in first.stdout, first.stdout
    done = json.loads(cli(*run, "--json").stdout)["totals"]["completion_tokens"]
    again = json.loads(cli(*run, "--dry-run", "--json").stdout)["projection"]
    assert again["completion_tokens"] == done and not again["completion_bounded"]
    assert f"~{done} completion tokens to send" in cli(*run, "--dry-run").stdout
