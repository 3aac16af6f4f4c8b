"""Comparing runs only on the items they share.

Two accuracies measured on different items say nothing about the runs: a clue-injection delta
between a GT-clue run on 14 demo items and a no-clue run on 210 MMR-Life items is a delta
between datasets. So every table and plot that puts runs side by side first takes the items
every compared run has a record for, computes each run's numbers on those items only, and
says how many there are; runs that share no item are refused with a message naming each run
and its item count. A record the judge could not decide (`unscored`) keeps its item in the
set: it is left out of that run's n and counted as unscored, so that within the shared items
a run's n plus its unscored count is the total (items x repeats), never a count from
elsewhere.

Pure functions over plain values: {name: set of item ids} in, `Shared` out. Nothing here
depends on the order the runs were given in: names are reported sorted. When no runs were
named, `sharing_groups` splits a dataset's runs into groups that can be compared.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping

from domain.vocabulary import counted

UNSCORED = "unscored"


class PairingError(ValueError):
    """The runs to compare share no item (the message names them and their item counts)."""


@dataclass(frozen=True)
class Shared:
    items: frozenset            # item ids every compared run has a record for
    counts: tuple               # ((name, items of that run), ...) sorted by name
    what: str = "runs"          # what the compared things are ("run–protocol pairs", ...)
    union: int = 0              # item ids any compared run has a record for
    asked: tuple = ()           # ((name, items the run was asked), ...) when known

    @property
    def n(self) -> int:
        return len(self.items)

    @property
    def partial(self) -> bool:
        """Some run has items the others lack (they were left out of the comparison)."""
        return any(count != self.n for _, count in self.counts)

    def limit(self, shown: Mapping[str, int] | None = None) -> str:
        """What limits n, when some run had items the others lack ('' when none did):
        'n = 2: run X covers 2 of 30 items' (the run, or runs, with the fewest items), or,
        when every run has more than the shared items, 'n = 5: the runs overlap on 5 of
        15 items, run X having the fewest (10)'. Every caption and note that gives the n of a
        comparison says it (a cancelled run silently shrinking n to 2 reads as a result).
        Only what limits n, in one wording: 'run Y has 12 of its 14 items' after it named a
        run that limits nothing. `shown`: {name: the n its row shows}, said of a limiting
        run whose row's n is less ('n = 10: run X covers 10 of its 14 items; its row's n is
        5, the other 5 unscored', where it read as n 10 beside the row's 5)."""
        if not self.partial:
            return ""
        fewest = min(count for _, count in self.counts)
        names = [name for name, count in self.counts if count == fewest]
        listed = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
        if self.what == "runs":
            listed = ("run " if len(names) == 1 else "runs ") + listed
        of = max(self.union, fewest)
        asked = dict(self.asked)
        if fewest == self.n and all(asked.get(name) for name in names):
            said = f"n = {self.n}: {_covers(names, fewest, asked, self.what == 'runs')}"
        elif fewest == self.n:
            verb = "covers" if len(names) == 1 else "each cover"
            said = f"n = {self.n}: {listed} {verb} {fewest} of {counted(of, 'item')}"
        else:
            said = f"n = {self.n}: the {self.what} overlap on {self.n} of " \
                f"{counted(of, 'item')}, {listed} having the fewest ({fewest})"
        return said + _rows_n(names if fewest == self.n else [], self.n, shown or {})

    def _count(self, name: str, count: int) -> str:
        """'11 of its 14' when the run was asked more items than it has, else '11'."""
        asked = dict(self.asked).get(name, 0)
        return f"{count} of its {asked}" if asked > count else str(count)

    def caption(self, shown: Mapping[str, int] | None = None) -> str:
        """The n for a caption: '30 items', or what limits it (`limit`, `shown`)."""
        return self.limit(shown) or counted(self.n, "item")

    def note(self) -> str:
        """One sentence for under a table: how many items were compared, and, when some
        runs had more, which run limits n and how many each had."""
        if len(self.counts) < 2:
            return f"{counted(self.n, 'item')}."
        every = "both" if len(self.counts) == 2 else f"all {len(self.counts)} {self.what}"
        text = f"{self.what[:1].upper()}{self.what[1:]} compared on the {counted(self.n, 'item')} " \
            f"{every} share"
        if self.partial:
            text += f"; {self.limit()} (" + ", ".join(
                f"{name}: {self._count(name, count)}" for name, count in self.counts) + \
                " items; the rest left out)"
        return text + "."


def _rows_n(names: list, n: int, shown: Mapping[str, int]) -> str:
    """"; its row's n is 5, the other 5 unscored" of the limiting runs `names` whose row
    shows less than the `n` they limit ('' when none does)."""
    less = [name for name in names if shown.get(name) is not None and shown[name] < n]
    if len(less) == 1 and len(names) == 1:
        return f"; its row's n is {shown[less[0]]}, the other {n - shown[less[0]]} unscored"
    return "; rows' n: " + ", ".join(f"{name} {shown[name]}" for name in less) + \
        " (the rest unscored)" if less else ""


def _covers(names: list, fewest: int, asked: dict, runs: bool) -> str:
    """'run X covers 4 of its 14 items', 'runs X and Y each cover 4 of their 14 items',
    'run X covers 4 of its 14 items and run Y 4 of its 10': each run's own items (asked),
    not the items any run has ("each cover 4 of 12 items" named a cancelled third run's
    12 as the finished runs' 14)."""
    word = ("run " if runs else "")
    if all(asked[name] == fewest for name in names):
        # whole runs made on fewer items: nothing of theirs is missing ("covers 2 of its 2")
        listed = f"{', '.join(names[:-1])} and {names[-1]}" if len(names) > 1 else names[0]
        verb = "was" if len(names) == 1 else "were each"
        return f"{(word if len(names) == 1 else 'runs ') if runs else ''}{listed} {verb} " \
               f"made on only {counted(fewest, 'item')}"
    if len(names) > 1 and len({asked[name] for name in names}) == 1:
        listed = f"{', '.join(names[:-1])} and {names[-1]}"
        return (f"{'runs ' if runs else ''}{listed} each cover {fewest} of their "
                f"{counted(asked[names[0]], 'item')}")
    parts = [f"{word}{name} covers {fewest} of its {counted(asked[name], 'item')}" if i == 0 else
             f"{word}{name} {fewest} of its {asked[name]}" for i, name in enumerate(names)]
    return ", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else parts[0]


def scored_items(records: Iterable[Mapping]) -> set:
    """Item ids with at least one scored (not `unscored`) record."""
    return {r["item_id"] for r in records if r["value"] != UNSCORED}


def recorded_items(records: Iterable[Mapping]) -> set:
    """Item ids with any record, scored or not (what a run can be compared on)."""
    return {r["item_id"] for r in records}


def shared_items(items_by_run: Mapping[str, set], what: str = "runs",
                 asked: Mapping[str, int] | None = None) -> Shared:
    """The items every run has; PairingError when there is none (with two or more runs), or
    when a run has no scored item at all. `what` names the compared things in the message;
    `asked`: {name: the items that run was asked}, when known (what a run that stopped
    covers is said against its own items)."""
    counts = tuple(sorted((name, len(items)) for name, items in items_by_run.items()))
    sets = list(items_by_run.values())
    common = frozenset.intersection(*map(frozenset, sets)) if sets else frozenset()
    if sets and not common:
        listed = ", ".join(f"{name} ({counted(count, 'item')})" for name, count in counts)
        if len(sets) == 1:
            raise PairingError(f"{listed} has no scored item to show")
        raise PairingError(f"these {what} share no item, so they cannot be compared: "
                           f"{listed}; shared by all: 0. Compare runs made on the same items")
    union = len(frozenset().union(*map(frozenset, sets))) if sets else 0
    return Shared(common, counts, what, union,
                  tuple(sorted((k, v) for k, v in (asked or {}).items() if v)))


def item_key(record: Mapping):
    """What pairs runs: the item (a run's repeats are no pairs of another run's)."""
    return record["item_id"]


def record_key(record: Mapping) -> tuple:
    """What pairs one run's protocols: the item and repeat (the same response's verdicts)."""
    return record["item_id"], record["repeat"]


def scored_by_all(records_by_name: Mapping[str, Iterable[Mapping]], key=item_key) -> frozenset:
    """The keys (`item_key`, or `record_key` for one run's protocols) that every one of the
    compared scored (a record not `unscored`): what a figure that subtracts or compares their
    accuracies (a drop, a delta) is computed on, so that both numbers have one n. A
    protocol's accuracy over its own scored items beside another's over theirs is 8/12
    against 10/14, and their difference is no drop."""
    sets = [{key(r) for r in records if r["value"] != UNSCORED}
            for records in records_by_name.values()]
    return frozenset.intersection(*map(frozenset, sets)) if sets else frozenset()


def restrict(records: Iterable[Mapping], items: frozenset) -> list:
    """The records whose item is among `items` (order kept)."""
    return [r for r in records if r["item_id"] in items]


def sharing_groups(items_by_run: Mapping[str, set], order: Iterable[str]) -> list[list[str]]:
    """The runs split into groups, each compared on the items its runs share, so that a run
    with fewer items (a cancelled one, a run on a subset) never narrows the others' n nor
    makes the whole table impossible. Runs are taken in `order` (the caller's: finished
    runs first, then those with the most items); a run joins the first group whose items it
    all has (the group's items are its first run's, and stay so: a joining run never
    removes one); otherwise it starts a group of its own. Groups come most runs first,
    then most shared items, then in `order`.

    The rule was "joins when the items shared stay at least half of the group's first run's
    and of its own": a run cancelled halfway then cut every finished run's n in half, in a
    table that compared them on the half it had answered. Comparing runs on fewer items is
    asked for by naming them (the table then says which run limits n)."""
    groups: list[tuple[list[str], frozenset]] = []    # (runs, the items they share)
    for name in order:
        items = frozenset(items_by_run[name])
        for runs, shared in groups:
            if shared <= items:
                runs.append(name)
                break
        else:
            groups.append(([name], items))
    ranked = sorted(range(len(groups)), key=lambda k: (-len(groups[k][0]),
                                                       -len(groups[k][1]), k))
    return [groups[k][0] for k in ranked]
