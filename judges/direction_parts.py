"""Which texts of an item hold text-direction controls (domain.item_ids.DIRECTION_MARKS) or
invisible control characters (INVISIBLE_CONTROLS: a NUL, ESC, U+FEFF, U+2028, U+200B…; both
are REFUSED_MARKS): one list of an item's texts, read by the import's flag
(formats/direction_flags.py) and by the editor's save (ui/editor_handlers.save), so both look
at the same parts.

Why: an import flagged a clue text holding U+202E ("right-to-left override", which made
"tiny cat \\u202eevil" read "tiny cat live" and everything after it mirrored) while the
Annotate editor saved the same text typed by hand without a word. A save is now refused for
the controls it brings in (`introduced`), named by part and character; the controls an item
was imported with stay saveable (they are flagged, kept as imported), so an annotator can
edit another part of a flagged item, or that part itself without adding any. The invisible
controls go the same way (a question typed with a NUL was saved, and search stopped at it);
the import flags them as their own kind (CONTROL_KIND).
"""
from __future__ import annotations

from collections import Counter

from domain.item_ids import DIRECTION_MARKS, INVISIBLE_CONTROLS, REFUSED_MARKS, marks_named


def text_parts(item: dict) -> list[tuple[str, str]]:
    """(name, text) of each text of `item` a person reads: question, gold answer, GT
    reasoning, aliases, clue texts and reasonings, option labels and texts."""
    parts = [("question", item.get("question")), ("gold answer", item.get("answer")),
             ("GT reasoning", item.get("gt_reasoning"))]
    parts += [(f"alias {n}", a) for n, a in enumerate(item.get("aliases") or [], start=1)]
    for n, clue in enumerate(item.get("clues") or [], start=1):
        parts += [(f"clue {n} text", clue.get("text")),
                  (f"clue {n} reasoning", clue.get("reasoning"))]
    for n, option in enumerate(item.get("options") or [], start=1):
        name = option_name(n, option)
        parts += [(f"{name} label", option.get("label")), (name, option.get("text"))]
    return [(name, str(text or "")) for name, text in parts]


def option_name(n: int, option) -> str:
    """"option B": an option named by its label, as History and the editor name options
    ("option 2" read for an item whose options are lettered A and B); by its place (`n`,
    from 1) when its label is none a message may name (empty, long, not letters or digits)."""
    label = str((option or {}).get("label") or "").strip() if isinstance(option, dict) else ""
    return f"option {label}" if label.isalnum() and len(label) <= 4 else f"option {n}"


def marks_in(text, marks=REFUSED_MARKS) -> Counter:
    """How many of each text-direction control or invisible control character (`marks`:
    both kinds, domain.item_ids.REFUSED_MARKS) `text` holds (by code point)."""
    return Counter(ord(ch) for ch in str(text or "") if ord(ch) in marks)


def codes(marks) -> str:
    """"U+202E, U+2066": the controls named, at most five."""
    return ", ".join(f"U+{code:04X}" for code in sorted(marks)[:5])


def introduced(item: dict, base: dict | None) -> list[tuple[str, list[int]]]:
    """(part, controls) of each part of `item` holding a text-direction control that `base`
    (the version the edits are saved over) did not have there: a part unchanged, or moved
    (a clue reordered: its text is one of `base`'s), or holding no more of each control than
    the same part of `base`, brings in none."""
    before = dict(text_parts(base or {}))
    known = set(before.values())
    out = []
    for name, text in text_parts(item):
        marks = marks_in(text)
        if not marks or text in known:
            continue
        more = marks - marks_in(before.get(name))
        if more:
            out.append((name, sorted(more)))
    return out


KIND = "text-direction characters"
"""The kind of the import's problem (formats/direction_flags.py), "text-direction
characters: question, clue 1 text, option B (U+202E: …)"."""
CONTROL_KIND = "invisible control characters"
"""The kind of the import's problem for INVISIBLE_CONTROLS (a NUL, ESC, U+FEFF, U+2028…),
"invisible control characters: question (U+0000: …)", read the same way as KIND's."""
KINDS = {KIND: DIRECTION_MARKS, CONTROL_KIND: INVISIBLE_CONTROLS}
"""Each kind of those import problems and the characters it names."""


def kind_of(problem: str) -> str | None:
    """The kind (KINDS) of the import problem `problem`, None when it is of none."""
    return next((k for k in KINDS if problem.startswith(f"{k}:")), None)


UNEDITABLE = "file names cannot be edited: mark it resolved once checked"
"""Said after an import's text-direction problem that names only image file names (gone
once stored): a save cannot check them, only a person can."""


def is_flag(problem: str) -> bool:
    """Is `problem` the import's text-direction (or invisible control) problem?"""
    return kind_of(problem) is not None


def flag_parts(problem: str, item: dict) -> tuple[list[str], list[str], list[str], str]:
    """(the parts the import's text-direction problem `problem` names that hold a control in
    `item` now; those no save can read again, an image's file name; those that hold none now,
    a part gone too; its "3 more" of parts it did not name, or "")."""
    kind = kind_of(problem) or KIND
    head = problem[len(kind):].lstrip(": ").split(" (", 1)[0]
    named, more = (head.split(" and ", 1) + [""])[:2] if " more" in head else (head, "")
    texts = _texts(item)
    parts = [p.strip() for p in named.split(", ") if p.strip()]
    holding = [p for p in parts if marks_in(texts.get(p), KINDS[kind])]
    unread = [p for p in parts if p.endswith("file name")]
    return holding, unread, [p for p in parts if p not in holding + unread], more


def _texts(item: dict) -> dict[str, str]:
    texts = dict(text_parts(item))
    for n, option in enumerate(item.get("options") or [], start=1):   # named by place before
        texts.setdefault(f"option {n}", str(option.get("text") or ""))
        texts.setdefault(f"option {n} label", str(option.get("label") or ""))
    return texts


def flag_holds(problem: str, item: dict) -> bool | None:
    """Does the import's text-direction problem `problem` still hold for `item` as a save
    stores it? True while a part it names holds a control; False once none does (a part gone
    holds none); None when it names a part no save can read again (an image's file name,
    gone once stored; "and 3 more") and no named part holds one. Why: the save said "2
    import problems stay …: no rule can check them again" of this one, which it can."""
    holding, unread, _, more = flag_parts(problem, item)
    marks = KINDS.get(kind_of(problem), DIRECTION_MARKS)
    if holding or (more and any(marks_in(t, marks) for t in _texts(item).values())):
        return True
    return None if more or unread else False


def narrowed(problem: str, item: dict) -> str:
    """`problem` naming only the parts that still hold a control or that no save can check:
    "text-direction characters: image 2 file name (U+202E: …) — file names cannot be
    edited: mark it resolved once checked". Why: a save that fixed the question and four
    other parts kept a line naming all five, and said of it "no rule can check it again"."""
    kind = kind_of(problem)
    if kind is None:
        return problem                           # another kind: left as it is
    holding, unread, fixed, more = flag_parts(problem, item)
    if not (holding or unread or more):
        return problem                           # it goes (flag_holds is False)
    detail = problem.split(" (", 1)[1] if " (" in problem else ""
    detail = detail.removesuffix(f" — {UNEDITABLE}")
    if not fixed and (holding or more or problem.endswith(UNEDITABLE)):
        return problem
    if holding and not unread and not more and ":" in detail:   # the codes of the parts left
        marks = sum((marks_in(_texts(item).get(p), KINDS[kind]) for p in holding), Counter())
        detail = f"{codes(marks)}:{detail.split(':', 1)[1]}"
    where = ", ".join(holding + unread) + (f" and {more}" if more else "")
    return (f"{kind}: {where}" + (f" ({detail}" if detail else "")
            + ("" if holding or more else f" — {UNEDITABLE}"))


def save_note(problem: str, item: dict) -> str:
    """The save's sentence for the import's text-direction problem left on `item`: the parts
    that still hold a control, or those that can only be marked resolved; "" when it goes."""
    holding, unread, _, more = flag_parts(problem, item)
    unread = unread + ([f"{more} parts named at import"] if more else [])
    what = ("Invisible control characters" if kind_of(problem) == CONTROL_KIND
            else "Text-direction controls")
    if holding:
        return (f"{what} are still in {', '.join(holding)}: remove them, or "
                "mark the problem resolved" + (f" ({', '.join(unread)}: no save can check "
                                               f"{'it' if len(unread) == 1 else 'them'})"
                                               if unread else "") + ".")
    if not unread:
        return ""
    return (f"1 import problem ({kind_of(problem) or KIND}) now names only {', '.join(unread)}, "
            "which no save can check (file names cannot be edited): check "
            f"{'it' if len(unread) == 1 else 'them'}, then mark it resolved (Mark import "
            "problems resolved).")


def holds_problem(name: str, text) -> str | None:
    """"the review note holds a text-direction control (U+202E); remove it": why a free text
    (`name`, as the sentence names it) is refused for its controls, never quoting it; None
    when it holds none. Why: a review refused for one read "Review not recorded: item
    demo/x: note: Review note holds text-direction characters (U+202E)…"."""
    marks = marks_in(text)
    if not marks:
        return None
    return (f"{name} holds {marks_named(marks)} ({codes(marks)}); "
            f"remove {'it' if len(marks) == 1 else 'them'}")


def introduced_problem(item: dict, base: dict | None) -> str | None:
    """Why a save is refused for the controls it brings in, naming each part and control and
    never quoting the text: "clue 1 text holds a text-direction control (U+202E); remove
    it"; None when it brings in none."""
    found = introduced(item, base)
    if not found:
        return None
    said = [f"{name} holds {marks_named(marks)} ({codes(marks)})" for name, marks in found[:5]]
    more = f" and {len(found) - 5} more parts" if len(found) > 5 else ""
    them = "it" if len(found) == 1 and len(found[0][1]) == 1 else "them"
    every = {code for _, marks in found for code in marks}
    why = ("such controls make text read as other text" if not every & INVISIBLE_CONTROLS
           else "such characters are unseen on the page" if every <= INVISIBLE_CONTROLS else
           "such characters make text read as other text or are unseen on the page")
    return f"{'; '.join(said)}{more}; remove {them}: {why}"
