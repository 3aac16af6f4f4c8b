"""What the Unparsed and Unscored columns hold beyond their definition, per run, for the
notes under a results table (Results page and `report`): the items counted unparsed because
their samples tied under majority vote (no reply was unreadable; the rule picks no answer),
the items whose tie self-consistency gave to the earliest of the tied answers, and, when a run has several responses per item, how many responses were unscored beside the
items the Unscored column counts. Also how the samples rule met the samples it had: an
MMR-Life rule over single-sample runs (it is made for several), and items of a run that
stopped before drawing all the samples asked, decided on fewer."""
from __future__ import annotations


def _items(n: int) -> str:
    return f"{n} item" if n == 1 else f"{n} items"


def tie_note(label: str, result: dict) -> str:
    """'run X: Unparsed includes 1 item whose samples tied (majority vote picks none).',
    or '' when no record of the run tied."""
    tied = {r["item_id"] for r in result["records"] if r.get("tied")}
    if not tied:
        return ""
    return (f"run {label}: Unparsed includes {_items(len(tied))} whose samples tied "
            f"(majority vote picks none).")


def tie_broken_note(label: str, result: dict) -> str:
    """'run X: 1 item whose samples tied was decided by the earliest of the tied answers
    (the paper's self-consistency).', or '' when no record's tie was broken that way: the
    item counted correct (or wrong) with nothing saying a tie decided it."""
    broken = {r["item_id"] for r in result["records"] if r.get("tie_broken")}
    if not broken:
        return ""
    return (f"run {label}: {_items(len(broken))} whose samples tied "
            f"{'was' if len(broken) == 1 else 'were'} decided by the earliest of the tied "
            f"answers (the paper's self-consistency).")


def unscored_note(label: str, result: dict) -> str:
    """'run X: Unscored counts 1 item; 3 of its responses were unscored (an item is unscored
    when the response that counts for it is).', when the run's unscored responses (on the
    table's items) are not as many as its unscored items (samples, repeats), else ''."""
    records = result["records"]
    responses = sum(r.get("unscored_responses", 0) for r in records)
    items = result["summary"]["overall"].unscored
    if responses == items or not responses:
        return ""
    count = f"{items:g}" if isinstance(items, float) else str(items)
    were = "was" if responses == 1 else "were"
    return (f"run {label}: Unscored counts {count} item{'' if items == 1 else 's'}; "
            f"{responses} of its responses {were} unscored (an item counts as unscored only "
            f"when the answer that decides it is).")


MMR_LIFE_RULES = {"mmr_life": "MMR-Life (more than 2 of the first 5 samples correct)",
                  "mmr_life_sc": "MMR-Life self-consistency (a plurality vote over samples)"}


def samples_notes(label: str, result: dict) -> list[str]:
    """What the samples rule decided items on, when it is not what the rule expects: an
    MMR-Life rule over a run of 1 sample per item (each item is its one sample: nothing
    said so), and items of a run that stopped (cancelled, say) before drawing all its
    samples, decided on fewer than asked with no word. [] when neither (and under
    "first", which reads the first sample whatever the others)."""
    rule, asked = result.get("samples_rule"), result.get("samples_asked") or 1
    notes = []
    if rule in MMR_LIFE_RULES and asked == 1:
        notes.append(f"run {label}: the samples rule {MMR_LIFE_RULES[rule]} is made for "
                     f"several samples per item (the paper's 5); this run has 1, so each "
                     f"item is decided by its one sample alone.")
    if rule == "first" or asked < 2:
        return notes
    fewer = {}
    for record in result["records"]:
        if record.get("samples", asked) < asked:
            fewer[record["item_id"]] = min(record["samples"],
                                           fewer.get(record["item_id"], asked))
    if fewer:
        low, high = min(fewer.values()), max(fewer.values())
        took = f"{low}" if low == high else f"{low} to {high}"
        notes.append(f"run {label}: {_items(len(fewer))} {'was' if len(fewer) == 1 else 'were'}"
                     f" decided on fewer samples than the {asked} asked ({took}; the run "
                     f"stopped before drawing them all).")
    return notes


def count_notes(found: dict, names: dict) -> list[str]:
    """The notes of `tie_note`, `tie_broken_note`, `unscored_note` and `samples_notes` for
    each run of a table."""
    notes = []
    for rid, result in found.items():
        notes += [n for n in (tie_note(names[rid], result),
                              tie_broken_note(names[rid], result),
                              unscored_note(names[rid], result),
                              *samples_notes(names[rid], result)) if n]
    return notes
