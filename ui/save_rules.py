"""What a save does besides storing the edited item: plain data in, plain data out.

- Import problems follow the item. A problem of a rule the shared validator can check again
  (judges.gold_check.still_holds: the gold, options, aliases, boxes, "missing image", an
  image lost at import, a clue's invalid box, text-direction controls in the parts named:
  narrowed to those left) is dropped once the edited item keeps the rule; any other (a
  duplicate id in the file) stays until the annotator marks it resolved (`mark_resolved`,
  kept in the working copy and its draft until the save); those ticked but not yet marked
  are marked by the save (`apply_ticked`). The flag is the store's: flagged while problems
  remain.
- A content change to a `verified` item puts it back `in_review`: what was verified is
  not what is saved (a change of the status alone is the user's own choice).
- The revision's comment says what the save did besides the user's words: the version it
  was merged with, the problems it found fixed and those marked resolved (who and when
  are the revision's author and time, shown in History).
"""
from __future__ import annotations

import re

from domain.item_ids import direction_marks_problem, id_key, visible
from domain.limits import MAX_COMMENT, too_long
from judges import direction_parts
from judges.gold_check import still_holds
from judges.lost_parts import edit_can_fix
from judges.past_draft import textless_clue_numbers
from store import diff_items
from ui import editor_model as em
from ui.text import short

RESOLVED = "_resolved_problems"   # editor-private: problems marked resolved, not yet saved
BOOKKEEPING = ("status", "problems")


def mark_resolved(item: dict, problems: list[str]) -> dict:
    """`item` without the import problems `problems` (the annotator says they are
    resolved), which are remembered until the save records them."""
    chosen = [p for p in problems or [] if p in (item.get("problems") or [])]
    if not chosen:
        raise em.EditError("tick the import problems you have resolved first")
    return {**item, "problems": [p for p in item["problems"] if p not in chosen],
            RESOLVED: [*(item.get(RESOLVED) or []), *chosen]}


def apply_ticked(item: dict, ticked: list[str] | tuple) -> dict:
    """`item` with the import problems ticked in "Mark import problems resolved" marked
    resolved, as its button would have: a save does not drop ticks its button was not
    pressed for. Ticks of problems the item no longer lists change nothing."""
    chosen = [p for p in ticked or () if p in (item.get("problems") or [])]
    return mark_resolved(item, chosen) if chosen else item


def no_gold_note(item: dict) -> str:
    """The save's sentence for a draft saved without its gold answer (judges.past_draft
    .missing_gold refuses that past draft): the annotator is told, not stopped."""
    if str(item.get("answer") or "").strip():
        return ""
    return "It has no gold answer yet: it stays a draft until it has one."


def marked_only_note(item: dict) -> str:
    """The save's sentences for the import problems left: those a rule finds still holding
    (image 3 lost, the item has 2), and those no rule can check again (a duplicate id in the
    file): they stay, and the item flagged, until fixed or marked resolved. A save that left
    one said nothing, and the flag stayed unexplained."""
    holds = {p: still_holds(p, item) for p in item.get("problems") or []}
    flags = [p for p, h in holds.items() if h is not False and direction_parts.is_flag(p)]
    parts = " ".join(filter(None, (direction_parts.save_note(p, item) for p in flags)))
    holds = {p: h for p, h in holds.items() if h is True or (h is None and p not in flags)}
    held = [p.split(":", 1)[0] for p, h in holds.items() if h is True and edit_can_fix(p)]
    stuck = [p.split(":", 1)[0] for p, h in holds.items() if h is True and not edit_can_fix(p)]
    left = [p for p, h in holds.items() if h is None]
    said = (f"{len(held)} import problem{'s' * (len(held) != 1)} still "
            f"hold{'s' * (len(held) == 1)} ({', '.join(dict.fromkeys(held))}): fix what "
            f"{'it says' if len(held) == 1 else 'they say'} (see Import problems), or mark "
            f"{'it' if len(held) == 1 else 'them'} resolved.") if held else ""
    said = " ".join(filter(None, [said, parts]))
    if stuck:       # "fix what it says" of a box on no image of the item: nothing can
        one = len(stuck) == 1
        said = " ".join(filter(None, [said, (
            f"{len(stuck)} import problem{'s' * (not one)} ({', '.join(dict.fromkeys(stuck))}) "
            f"no edit can fix: check {'it' if one else 'them'}, then mark "
            f"{'it' if one else 'them'} resolved (Mark import problems resolved).")]))
    if not left:
        return said
    which = "1 import problem stays" if len(left) == 1 else f"{len(left)} import problems stay"
    return " ".join(filter(None, [said, (
        f"{which} until you mark it resolved (Mark import problems resolved): no rule "
        "can check it again.") if len(left) == 1 else (
        f"{which} until you mark them resolved (Mark import problems resolved): no rule "
        "can check them again.")]))


def textless_clue_note(item: dict) -> str:
    """The save's sentence for a draft saved with clues that have no text yet
    (judges.past_draft.textless_clues refuses them past draft)."""
    empty = textless_clue_numbers(item)
    if not empty:
        return ""
    which = f"Clue {empty[0]} has" if len(empty) == 1 else f"Clues {', '.join(empty)} have"
    return f"{which} no text yet: it stays a draft until each clue has its words."


def settle_problems(item: dict) -> tuple[dict, list[str], list[str]]:
    """(the item with the problems that no longer hold removed, a text-direction problem
    narrowed to the parts that still hold or cannot be checked (direction_parts.narrowed);
    those found fixed, and the parts found fixed of one narrowed; those the annotator marked
    resolved)."""
    kept, fixed = [], []
    for problem in item.get("problems") or []:
        if still_holds(problem, item) is False:
            fixed.append(problem)
            continue
        now = direction_parts.narrowed(problem, item)      # others are left as they are
        gone = direction_parts.flag_parts(problem, item)[2] if now != problem else []
        if gone:
            fixed.append(f"{direction_parts.kind_of(problem)} in {', '.join(gone)}")
        kept.append(now)
    return {**item, "problems": kept}, fixed, list(item.get(RESOLVED) or [])



def content_changed(item: dict, saved: dict) -> bool:
    """Did anything but the status and the import problems change?"""
    return any(change["field"] not in BOOKKEEPING
               for change in diff_items(em.content_only(saved), em.content_only(item)))


BACK_IN_REVIEW = "Your changes put the verified item back in review (status in_review)."


BACK_FROM_REJECTED = ("Your changes put the rejected item back in review (status "
                      "in_review), for a reviewer to see the fix.")


def status_after(item: dict, saved: dict) -> tuple[dict, str]:
    """(the item with the status its save gives it, the sentence saying so or ""). A
    verified or rejected item whose content a save changes, its status left as it was, goes
    back in review: a fixed rejected item stayed "rejected" with no word of what to do, where
    an edited verified one went back by itself (a review, round 27)."""
    before = saved.get("status")
    if before in ("verified", "rejected") and item.get("status") == before \
            and content_changed(item, saved):
        return ({**item, "status": "in_review"},
                BACK_IN_REVIEW if before == "verified" else BACK_FROM_REJECTED)
    return item, ""


def revision_comment(comment: str, merged: tuple | None = None,
                     fixed: list[str] = (), resolved: list[str] = (),
                     names: tuple[str, str | dict] | None = None, over: str = "") -> str:
    """The user's comment, then what the save did: "merged with version 3 by ann2 (theirs
    taken: question, clue 2)", or "saved over version 3 by ann2, which changed no content"
    (a review's verdict: "merged with" said there had been something to merge), the import
    problems it found fixed, and those marked resolved. `merged`: (version, author, the
    parts taken from theirs, whether that version changed the content[, the parts both
    changed where mine was kept[, how many of my boxes it dropped with an image they
    removed]]). `names`: (the saver, the other side) as History's
    readers know them: a stored "(yours kept over theirs: option A)" read as the reader's
    own (a review); "(alice's kept over bob's: option A)". `over`: the versions merged over
    when several ("versions 2 (bob, other tab) and 3 (alice)"). The dropped boxes were said only
    in the message after the save, History's comment told nothing of them (a review)."""
    parts = [(comment or "").strip()]
    if merged:
        version, author, taken, changed, *rest = merged
        if not changed:
            parts.append(f"saved over version {version} by {author}, which changed no content")
        else:
            parts.append(f"merged with {over or f'version {version} by {author}'}"
                         + merge_choices(taken, rest[0] if rest else (), names))
        lost = rest[1] if len(rest) > 1 else 0
        if lost:
            whose = f" of {names[0]}" if names else ""
            parts.append(f"dropped: {lost} box{'es' * (lost != 1)}{whose} on a removed image")
    if fixed:
        parts.append("import problems fixed: " + "; ".join(fixed))
    if resolved:
        parts.append("import problems marked resolved: " + "; ".join(resolved))
    return " · ".join(p for p in parts if p)


def merge_choices(taken, kept, names: tuple[str, str | dict] | None = None) -> str:
    """The choices a merge made, as the save's message names them: " (theirs taken:
    question; yours kept over theirs: answer)", "" when none; with `names` (the saver, the
    other side, or {each part: whose it was over}), as the revision's comment names them:
    " (alice's taken over bob's: question; bob's kept over alice's: answer)". A part where
    mine replaced theirs was named nowhere (a review). `names` are possessive ("alice's")."""
    me, them = names or ("yours", "theirs")
    whose = them if isinstance(them, dict) else {}
    said = []
    for parts, phrase in ((taken, "{them} taken" + (" over {me}" if names else "")),
                          (kept, "{me} kept over {them}")):
        by: dict[str, list[str]] = {}
        for part in parts:
            by.setdefault(whose.get(part) or str(them), []).append(part)
        said += [f"{phrase.format(me=me, them=other)}: {', '.join(group)}"
                 for other, group in by.items()]
    return f" ({'; '.join(said)})" if said else ""


def merge_notes(combined: list[str], moved: dict[str, str], mine: dict, merged: dict,
                other_tab: bool = False) -> str:
    """The sentences of Save merged's message besides "Merged with version N by X": the
    parts both changed whose changes it combined ("Both changes kept — clue 3: your new box
    added, the box they removed stays removed."), and my options it gave another letter
    ("Your option E is now F (they added an option E too); your gold answer follows it.").
    The message said neither: the panel's "option F (your E)" was the only word of it."""
    said = [f"Both changes kept — {'; '.join(combined)}."] if combined else []
    they = "your other tab" if other_tab else "they"
    for was, now in moved.items():
        follows = mine.get("answer_type") == "multiple_choice" and \
            str(mine.get("answer") or "") == was and str(merged.get("answer") or "") == now
        said.append(f"Your option {was} is now {now} ({they} added an option {was} too)"
                    + ("; your gold answer follows it." if follows else "."))
    return " ".join(said)


VERDICT_WORDS = {"approve": "approved", "reject": "rejected", "revise": "revise"}


def merged_over(reviews: list[dict], since: list[dict], status: str) -> str:
    """What a save merged at once over versions that changed no content (a review's verdict,
    a delete and its undo) was merged over, and the status it leaves: it said only "Saved …
    as version 3.", the status quietly a colleague's "rejected". `reviews`: those of the
    version the save built on or later, newest first; `since`: the revisions saved after
    that version ({version, author}).

    The note is in typographic quotes: a note quoting something in plain quotes read
    "— 'Question text 'X' is not …'" (a review).

    A save that put an approved item back in review says so once, in status_after's
    sentence: "Merged over ann2's review: approved; status in_review." before it read as
    a contradiction."""
    if reviews and reviews[0]["verdict"] == "approve" and status == "in_review":
        return f"{reviews[0]['reviewer']} had approved version {reviews[0]['version']}."
    if reviews:
        said = ", ".join(
            f"{r['reviewer']}'s review: {VERDICT_WORDS.get(r['verdict'], r['verdict'])}"
            + (f" — “{short(str(r['note']).strip(), 80)}”" if str(r.get("note") or "").strip()
               else "") for r in reversed(reviews))
    else:
        versions = sorted(h["version"] for h in since)
        authors = ", ".join(dict.fromkeys(h["author"] for h in since))
        said = (f"version{'s' * (len(versions) != 1)} {', '.join(map(str, versions))} by "
                f"{authors}")
        what = _delete_and_undo([h.get("comment") or "" for h in
                                 sorted(since, key=lambda h: h["version"])])
        said = f"{what} ({said})" if what else f"{said} (no content changed)"
    return f"Merged over {said}; status {status}."


def _delete_and_undo(comments: list[str]) -> str:
    """"a delete and its undo" when the revisions' comments (store/lifecycle.py writes
    "deleted…" and "restored after deletion…") tell the versions were deletes and undos,
    else "": they read "(no content changed)", which said nothing of what happened."""
    said = []
    for comment in comments:
        if comment.startswith("deleted"):
            said.append("a delete")
        elif comment.startswith("restored after deletion"):
            said.append("its undo" if said and said[-1] == "a delete" else "an undo of a delete")
        else:
            return ""
    return " and ".join(said)


def check_comment(comment: str | None) -> None:
    """EditError when the comment typed with a save is over its limit (domain/limits.py):
    every save keeps its comment in history."""
    found = too_long("Comment", len((comment or "").strip()), MAX_COMMENT) or \
        direction_marks_problem("The comment", comment)
    if found:
        raise em.EditError(found)


def check_names(item: dict, saved: dict, facets) -> None:
    """Refuse a domain or subtask changed to one that reads as another already in use (told
    apart by case, a look-alike letter or dash only): "Spatial relationship" beside
    "Spatial Relationship" split one category's numbers into two rows that read alike.
    Invisible characters are the store's to refuse (domain/item_ids.name_problem).
    `facets`: the store's facets, read (a DISTINCT over every item) only when a name changed."""
    in_use = None
    for field, label in (("domain", "Domain"), ("subtask", "Subtask")):
        value = item.get(field)
        if not value or value == saved.get(field):
            continue
        in_use = in_use if in_use is not None else facets()
        if value in in_use.get(field, []):
            continue
        other = next((v for v in in_use.get(field, []) if id_key(v) == id_key(value)), None)
        if other is not None:
            raise em.EditError(f"{label}: it reads as the {field} {visible(other)!r} already "
                               f"in use (told apart only by case or look-alike letters); "
                               "choose that one, or a name that reads differently")


_PLACE = re.compile(r"\b(clue|option)s\[(\d+)\](?:\.(box)es\[(\d+)\])?(?:\.(\w+))?")


def in_words(message: str) -> str:
    """A store message with its field paths as the editor numbers things: "clues[2].boxes[1]"
    read "clue 3 box 2" (annotators count from 1 and never see the store's indexes)."""
    def words(match) -> str:
        kind, index, box, box_index, part = match.groups()
        said = f"{kind} {int(index) + 1}"
        if box:
            said += f" box {int(box_index) + 1}"
        return said + (f" {part}" if part else "")
    return _PLACE.sub(words, message)
