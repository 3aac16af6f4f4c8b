"""What the Unparsed and Unscored columns hold beyond their definition, per run, for the
notes under a results table (Results page and `report`): the items counted unparsed because
their samples tied under majority vote (no reply was unreadable; the rule picks no answer),
the items whose tie self-consistency gave to the earliest of the tied answers, and, when a run has several responses per item, how many responses were unscored beside the
items the Unscored column counts. Also how the samples rule met the samples it had: an
MMR-Life rule over single-sample runs (it is made for several), and items of a run that
stopped before drawing all the samples asked, decided on fewer."""
from __future__ import annotations

from judges.samples import rule_name


def _items(n: int) -> str:
    return f"{n} item" if n == 1 else f"{n} items"


def _runs(labels: list[str]) -> str:
    """'A', 'A and B', 'A, B and C'."""
    return " and ".join(filter(None, (", ".join(labels[:-1]), labels[-1])))


def _each(body: str) -> tuple[str, str]:
    """A note of one run and the same note of several ("runs A and B, each: …")."""
    return f"run {{runs}}: {body}", f"runs {{runs}}, each: {body}"


def grouped(said: list[tuple[str, tuple[str, str]]]) -> list[str]:
    """The notes `said` ((run label, (the sentence of one run, of several), "{runs}" where
    the runs are named)), each sentence once, naming every run it is said of: over 9
    single-sample runs under MMR-Life's rule, the same sentence was said 8 times."""
    by: dict[tuple[str, str], list[str]] = {}
    for label, sentences in said:
        by.setdefault(sentences, []).append(label)
    return [(one if len(labels) == 1 else many).replace("{runs}", _runs(labels))
            for (one, many), labels in by.items()]


def _tie(result: dict) -> tuple[str, str] | None:
    tied = {r["item_id"] for r in result["records"] if r.get("tied")}
    if not tied:
        return None
    return _each(f"Unparsed includes {_items(len(tied))} whose samples tied "
                 f"(majority vote picks none).")


def tie_note(label: str, result: dict) -> str:
    """'run X: Unparsed includes 1 item whose samples tied (majority vote picks none).',
    or '' when no record of the run tied."""
    said = _tie(result)
    return grouped([(label, said)])[0] if said else ""


def _tie_broken(result: dict) -> tuple[str, str] | None:
    broken = {r["item_id"] for r in result["records"] if r.get("tie_broken")}
    if not broken:
        return None
    return _each(f"{_items(len(broken))} whose samples tied "
                 f"{'was' if len(broken) == 1 else 'were'} decided by the earliest of the tied "
                 f"answers (the paper's self-consistency).")


def tie_broken_note(label: str, result: dict) -> str:
    """'run X: 1 item whose samples tied was decided by the earliest of the tied answers
    (the paper's self-consistency).', or '' when no record's tie was broken that way: the
    item counted correct (or wrong) with nothing saying a tie decided it."""
    said = _tie_broken(result)
    return grouped([(label, said)])[0] if said else ""


def _unscored(result: dict) -> tuple[str, str] | None:
    records = result["records"]
    responses = sum(r.get("unscored_responses", 0) for r in records)
    items = result["summary"]["overall"].unscored
    if responses == items or not responses:
        return None
    count = f"{items:g}" if isinstance(items, float) else str(items)
    were = "was" if responses == 1 else "were"
    return _each(f"Unscored counts {count} item{'' if items == 1 else 's'}; "
                 f"{responses} of its responses {were} unscored (an item counts as unscored "
                 f"only when the answer that decides it is).")


def unscored_note(label: str, result: dict) -> str:
    """'run X: Unscored counts 1 item; 3 of its responses were unscored (an item is unscored
    when the response that counts for it is).', when the run's unscored responses (on the
    table's items) are not as many as its unscored items (samples, repeats), else ''."""
    said = _unscored(result)
    return grouped([(label, said)])[0] if said else ""


MMR_LIFE_RULES = {rule: rule_name(rule) for rule in ("mmr_life", "mmr_life_sc")}


def _samples(result: dict) -> list[tuple[str, str]]:
    rule, asked = result.get("samples_rule"), result.get("samples_asked") or 1
    notes = []
    if rule in MMR_LIFE_RULES and asked == 1:
        said = (f": the samples rule {MMR_LIFE_RULES[rule]} is made for several samples per "
                f"item (the paper's 5); {{has}} 1, so each item is decided by its one sample "
                f"alone.")
        notes.append(("run {runs}" + said.replace("{has}", "this run has"),
                      "runs {runs}" + said.replace("{has}", "these runs have")))
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
        notes.append(_each(f"{_items(len(fewer))} {'was' if len(fewer) == 1 else 'were'}"
                           f" decided on fewer samples than the {asked} asked ({took}; the run "
                           f"stopped before drawing them all)."))
    return notes


def samples_notes(label: str, result: dict) -> list[str]:
    """What the samples rule decided items on, when it is not what the rule expects: an
    MMR-Life rule over a run of 1 sample per item (each item is its one sample: nothing
    said so), and items of a run that stopped (cancelled, say) before drawing all its
    samples, decided on fewer than asked with no word. [] when neither (and under
    "first", which reads the first sample whatever the others)."""
    return grouped([(label, s) for s in _samples(result)])


PRESET_SAID = ("{runs} made with the MMR-Life preset; its paper reads several samples with "
               "the MMR-Life rule (Samples rule: MMR-Life).")


def _preset(result: dict) -> tuple[str, str] | None:
    """A run of several samples made with the MMR-Life preset and read with another rule
    than MMR-Life's (majority vote, the default, or the first sample): nothing said that its
    paper reads its samples otherwise. The default stays: this is said, not changed."""
    if (result.get("preset") != "mmr-life" or result.get("samples_rule") in MMR_LIFE_RULES
            or (result.get("samples_asked") or 1) < 2):
        return None
    return (PRESET_SAID.replace("{runs}", "run {runs} was"),
            PRESET_SAID.replace("{runs}", "runs {runs} were"))


def preset_notes(found: dict, names: dict) -> list[str]:
    """`_preset`'s note, once, for the runs of `found` ({run id: result}) it concerns."""
    return grouped([(names[rid], said) for rid, result in found.items()
                    if (said := _preset(result))])


def count_notes(found: dict, names: dict) -> list[str]:
    """The notes of `tie_note`, `tie_broken_note`, `unscored_note`, `samples_notes` and
    `preset_notes` for the runs of a table, each sentence said once for all the runs it
    concerns (`grouped`)."""
    said = []
    for rid, result in found.items():
        said += [(names[rid], s) for s in (_tie(result), _tie_broken(result),
                                           _unscored(result), *_samples(result),
                                           _preset(result)) if s]
    return grouped(said)
