"""Who made the changes a conflict is about: the authors of the versions saved between the
version I edited and the one saved now, named as the one saving reads them, per part where
the versions tell it.

Why: a conflict named only the head version's author. When my other tab saved a merge over a
colleague's version, the colleague's changes read "your other tab (its edit kept)" and the
colleague was named nowhere (a review). Plain data in and out: ui/editor_handlers.py reads
the versions from the store.
"""
from __future__ import annotations

from ui import conflict_merge as cm

OWN = "your other tab"
"""The saver's own versions (another tab or window), as a conflict row names them."""


def shown(author: str | None, user: str) -> str:
    """An author as a conflict row names them: the saver's own versions are `OWN`."""
    return OWN if author == user else str(author or "someone")


def names(authors: list[str], user: str) -> list[str]:
    """The authors of the versions since the base, each once, in the order they saved."""
    return [shown(a, user) for a in dict.fromkeys(authors)]


def changed_by(authors: list[str], user: str, own: str = "you, in another tab or window") -> str:
    """Who changed the item since the base, for "changed by …": "alice", "you, in another tab
    or window", "alice and by you in another tab or window"."""
    people = list(dict.fromkeys(authors))
    if len(people) == 1:
        return own if people[0] == user else str(people[0])
    return " and by ".join("you in another tab or window" if a == user else str(a)
                           for a in people)


def theirs_named(authors: list[str], user: str) -> str:
    """Whose version a merge was made with, as History's readers know it (not "theirs"):
    "alice's", "bob's other tab's" (the saver's own versions), "alice's and bob's other
    tab's"."""
    return " and ".join(f"{user}'s other tab's" if a == user else f"{a}'s"
                        for a in dict.fromkeys(authors))


def saved_heading(authors: list[str], version: int, user: str) -> str:
    """The conflict table's saved column, headed by the version it shows and whose save that
    version is (the last of `authors`, the authors of the versions since the base in order),
    with those who saved before it since the base: "carol's save (version 3)", "carol's save
    (version 3, after bob's)", "your other tab's save (version 3)". It was headed "saved
    (bob and carol)", or, in the narrow column, cut to a name ("saved (ann)"), naming
    neither the version nor whose save it is (a review)."""
    last, after = _saves(authors, user)
    return f"{last} save (version {version}{after})"


def take_from(authors: list[str], version: int, user: str) -> str:
    """The version the panel's checkboxes take from, named as its column is headed
    (`saved_heading`): "version 3 (carol's save, after bob's)". It said "Tick the ones to
    take from bob's version" above a column headed "carol's save (version 3, after bob's)"."""
    last, after = _saves(authors, user)
    return f"version {version} ({last} save{after})"


def _saves(authors: list[str], user: str) -> tuple[str, str]:
    """("carol's", ", after bob's"): whose save the version is, and who saved before it."""
    people = [_possessive(a, user) for a in dict.fromkeys(authors)] or ["someone's"]
    last = _possessive(authors[-1], user) if authors else people[-1]
    before = [p for p in people if p != last]
    return last, f", after {' and '.join(before)}" if before else ""


def _possessive(author: str | None, user: str) -> str:
    return f"{shown(author, user)}'s"


def whose(authors: list[str], user: str) -> str:
    """Whose version the panel's checkboxes take from ("Tick the ones to take from X's
    version"): one author, `OWN`, or "alice and your other tab"."""
    return " and ".join(names(authors, user))


def part_authors(base: dict, versions: list[tuple[str, dict]], user: str) -> dict[str, list[str]]:
    """{part key (as ui/conflict_merge.parts keys it): the authors who changed it, shown},
    from `versions`, [(author, item)] of the versions after `base` in order: a part is an
    author's when it differs in their version from the version before."""
    before = _values(base, base)
    out: dict[str, list[str]] = {}
    for author, item in versions:
        now = _values(base, item)
        for key in dict.fromkeys([*before, *now]):
            if before.get(key) != now.get(key):
                out.setdefault(key, [])
                if shown(author, user) not in out[key]:
                    out[key].append(shown(author, user))
        before = now
    return out


def _values(base: dict, item: dict) -> dict[str, object]:
    """Each part's value in `item`, matched to `base` as a merge matches it."""
    return {key: values[1] for key, values in cm.parts(base, item, item).items()}


def choosers(authors: dict[str, list[str]], keys) -> list[str]:
    """Who (as `part_authors` names them) changed the parts `keys`: the panel's checkboxes
    said "take from your other tab and alice's version" of parts alice alone had changed (a
    review)."""
    return list(dict.fromkeys(a for key in keys for a in authors.get(key) or []))


def whose_parts(base: dict, versions: list[tuple[str, dict]], user: str,
                keys: dict[str, list[str]]) -> dict[str, str]:
    """{each choice a merge made (`keys`: its part keys): whose version it was over, as
    History's readers know them ("alice's", "bob's other tab's")}: the comment said "bob's
    other tab's and alice's taken over bob's: clue 2" of a clue only alice had changed (a
    review)."""
    stored = part_authors(base, versions, "")           # the authors as stored, not shown
    everyone = [a for a, _ in versions]
    return {name: theirs_named(choosers(stored, covered) or everyone, user)
            for name, covered in keys.items()}


def versions_named(over: list[tuple[int, str]], user: str) -> str:
    """The versions a merge was made over, for its stored comment: "version 3 by alice";
    "versions 2 (bob, other tab) and 3 (alice)": the comment named only the last (a
    review)."""
    if len(over) == 1:
        return f"version {over[0][0]} by {over[0][1]}"
    said = [f"{v} ({a}{', other tab' if a == user else ''})" for v, a in over]
    return f"versions {', '.join(said[:-1])} and {said[-1]}"


def replaced_by(base: dict, versions: list[tuple[str, dict]], user: str,
                keys: dict[str, list[str]]) -> str:
    """Whose versions replaced my edits of the parts `keys` ({name: its part keys}), for
    "Your edits of … were replaced by version 3, saved by alice": each part credited to who
    changed it (`part_authors`). It said "saved by alice and by you in another tab or
    window" of a question only alice had changed (a review). One author set for all the
    parts: "alice"; else per part: "alice (question) and you in another tab or window
    (clue 2)"."""
    stored = part_authors(base, versions, "")           # the authors as stored, not shown
    everyone = [a for a, _ in versions]
    per = {name: changed_by(choosers(stored, covered) or everyone, user)
           for name, covered in keys.items()}
    if len(set(per.values())) <= 1:
        return next(iter(per.values()), changed_by(everyone, user))
    by: dict[str, list[str]] = {}
    for name, who in per.items():
        by.setdefault(who.replace("you, in another", "you in another"), []).append(name)
    return " and ".join(f"{who} ({', '.join(names)})" for who, names in by.items())
