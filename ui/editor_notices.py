"""What the editor says about an item as it opens: the user's own draft restored, other
users' drafts (that they exist, never what they hold), the latest review to act on; and
the status a restored draft shows. Plain text: the page escapes it where it shows it.
"""
from __future__ import annotations

from domain.limits import SHOWN_NOTE_LINES
from store import NotFoundError
from ui import conflict_authors as ca
from ui import conflict_rows
from ui import editor_model as em
from ui.conflict_clues import ADDED, MINE, REMOVED
from ui.conflict_merge import changes, part_names
from ui.conflict_show import label, show
from ui import save_rules as rules
from ui import times
from ui.text import isolated, note_lines as text_lines, quoted, unescape_md


def stored_status(store, draft: dict, saved: dict) -> dict:
    """The draft's item, with the stored status unless the draft itself changed it: a
    colleague's status change since the draft was kept is shown, not hidden by it."""
    item = draft["data"]
    try:
        base = store.revision(saved["id"], draft["base_version"])
    except NotFoundError:
        return item
    if item.get("status") == base.get("status"):
        item = {**item, "status": saved.get("status")}
    return item


def review_notice(store, saved: dict) -> str:
    """The latest review, on the main screen: a request to revise (or a rejection) and
    its comment are what the annotator opening the item has to act on."""
    latest = next(iter(store.reviews(saved["id"])), None)
    if latest is None:
        return ""
    reviewed = int(latest["version"])
    since = (f" (the item has changed since: now version {saved['version']})"
             if reviewed < int(saved["version"]) and rules.content_changed(
                 saved, store.revision(saved["id"], reviewed)) else "")
    note = note_lines((latest.get("note") or "").strip())
    return (f"Latest review: {latest['verdict']} by {latest['reviewer']} on version "
            f"{latest['version']} at {times.shown(latest['created_at'])}{since}"
            + (f": “{isolated(note)}”" if note else "."))


def note_lines(note: str) -> str:
    """A review note for the notice, its line breaks kept as "\n" (notice_html shows them;
    it showed the note as one run-on line): each run of blank lines one, at most
    SHOWN_NOTE_LINES lines, a longer note ending in "…" and where it is whole."""
    lines = text_lines(note)
    if len(lines) <= SHOWN_NOTE_LINES:
        return "\n".join(lines)
    more = len(lines) - SHOWN_NOTE_LINES
    return "\n".join(lines[:SHOWN_NOTE_LINES] + [
        f"… ({more} more line{'s' * (more != 1)}: the whole note is under History and review)"])


def others_notice(others: list[dict], version: int | None = None,
                  released: bool = False) -> str:
    """A draft is its user's own: another user is told that it exists, not shown it. When
    every such draft began before the version now saved (`version`), their save is the one
    that will show differences: "if they save first" was said to one who had just saved
    first (a review). On a `released` item neither save can happen: it said "their save will
    show them the changes made since; yours saves as usual" under "Released: read-only"."""
    who = ", ".join(f"{d['user']} (since {times.shown(d['updated_at'])})" for d in others)
    if released:
        return (f"Unsaved edits of this item by {who} are kept as "
                f"{'their draft' if len(others) == 1 else 'their drafts'}, not shown here; "
                "they cannot be saved while it is released.")
    begun = [d.get("base_version") for d in others]
    if version is not None and all(b is not None and b < int(version) for b in begun):
        one = len(others) == 1
        return (f"Unsaved edits of this item by {who} are kept as "
                f"{'their draft' if one else 'their drafts'}, not shown here; "
                f"{'it began' if one else 'they began'} before version {version}, so "
                f"{'their save' if one else 'each of their saves'} will show them the "
                "changes made since; yours saves as usual.")
    return (f"Unsaved edits of this item by {who} are kept as their draft, not shown "
            "here; if they save first, your save will show the differences.")


def released_save_note(others: list[dict], was: str | None = None,
                       reviews: list[dict] = ()) -> str:
    """What a save that leaves the item released adds after "Saved … as version N": it said
    only that, while a colleague's unsaved edits of the item could no longer be saved. A
    release from a status other than verified (`was`) says what was never approved: an
    admin released an item in review, whose last approval (`reviews`, newest first) was of
    a version three edits older, without a word."""
    unreviewed = ""
    if was is not None and was not in ("verified", "released"):
        approved = next((r["version"] for r in reviews if r["verdict"] == "approve"), None)
        unreviewed = (f"; released from {was}: no approving review of what it holds"
                      + (f" (the last approval is of version {approved})" if approved else ""))
    if not others:
        return f"released (read-only{unreviewed})"
    names = ", ".join(d["user"] for d in others)
    have = "has unsaved edits" if len(others) == 1 else "have unsaved edits"
    return f"released (read-only; {names} {have} of it that cannot be saved now{unreviewed})"


# Undo delete lives in the page that deleted (ui/annotate_lifecycle.py, just_deleted): after
# a reload it is gone, and restoring is an admin's (ui/access.py, restore_deleted_item; the
# command line's `item restore` runs on the server's database). The delete's question and
# its message said "Undo delete … brings it back" with no limit (annfix20b).
AFTER_RELOAD = "after a reload only an admin can restore it"


def restore_ways(item_id: str) -> str:
    """How an admin restores a deleted item, as the delete's messages name it."""
    return (f" (Item menu → Deleted items (admin) → Restore, or `python app.py item restore "
            f"{item_id}`)")


def delete_question(others: list[dict], item_id: str) -> str:
    """The question Delete asks (assets/confirm.js), naming the item (after a delete the
    next item opens at once: "this item" did not say which one a second Delete took), with
    the colleagues' unsaved drafts of the item: it did not say that they had any. Deleting
    keeps them (store/lifecycle.py marks the item deleted, its drafts stay): they cannot be
    saved while it is deleted, and are there again when it is restored."""
    question = (f"Delete item {item_id}? Undo delete (in the Item menu) brings it back, with "
                f"your unsaved edits of it if any, while this page is open; {AFTER_RELOAD}"
                f"{restore_ways(item_id)}.")
    if not others:
        return question
    names = ", ".join(d["user"] for d in others)
    have = "has an unsaved draft" if len(others) == 1 else "have unsaved drafts"
    return (f"{question}\n\n{len(others)} colleague{'s' * (len(others) != 1)} ({names}) "
            f"{have} of it. Deleting keeps {'it' if len(others) == 1 else 'them'}, but "
            "they cannot be saved while the item is deleted; they are back if it is restored.")


def draft_notice(store, draft: dict, saved: dict, user: str) -> str:
    """Plain text (the page escapes it where it shows it). The versions saved since the
    draft's are named with their authors, "you" for the user's own: after one's own delete
    and its undo it said "saved by ann … saving will show the differences first", a
    colleague's change to weigh, when nothing of the content had changed."""
    # the comment box is filled from the draft too: said, as it was emptied unsaid
    with_comment = " and its revision comment" if (draft.get("comment") or "").strip() else ""
    text = f"Restored your unsaved draft{with_comment} from {times.shown(draft['updated_at'])}."
    base, now = draft["base_version"], saved["version"]
    if base == now:
        return text
    try:
        unchanged = not rules.content_changed(saved, store.revision(saved["id"], base))
    except NotFoundError:
        unchanged = False
    if unchanged:
        since = store.history(saved["id"], base, now)[::-1]
        done = []           # "you deleted the item and undid the delete"
        for i, h in enumerate(since):
            same = i and h["author"] == since[i - 1]["author"]
            done.append(("" if same else _who(h["author"], user) + " ") + _what(h["comment"]))
        done = " and ".join(done) or "it was saved again"
        return (f"{text} It is based on version {base}; since then {done} (now version "
                f"{now}), which changed none of its content: saving keeps your edits.")
    return (f"{text} It is based on version {base}, but the item is now at version {now} "
            f"(saved by {_who(saved.get('updated_by'), user, ', in another tab or window')} "
            f"at {times.shown(saved.get('updated_at'))}){_parts_since(store, saved, base, user)}"
            ": saving will show the differences first.")


def _parts_since(store, saved: dict, base: int, user: str, most: int = 6) -> str:
    """'; since your draft's version, ann changed images': the parts the versions since
    changed, which the draft shows as they were (an image a colleague added read "no image
    yet" under the restored draft, unsaid); '' when they cannot be read."""
    try:
        versions = [(h["author"], store.revision(saved["id"], h["version"]))
                    for h in store.history(saved["id"], base, saved["version"])[::-1]]
        authors = ca.part_authors(store.revision(saved["id"], base), versions, user)
    except NotFoundError:
        return ""
    if not authors:
        return ""
    by: dict[str, list[str]] = {}
    for part, who in authors.items():
        by.setdefault(" and ".join(who), []).append(part)
    said = "; ".join(f"{who} changed {', '.join(parts[:most])}"
                     f"{f' and {len(parts) - most} more' if len(parts) > most else ''}"
                     for who, parts in by.items())
    return (f"; since your draft's version, {said} (your draft shows "
            f"{'that part as it was' if len(authors) == 1 else 'those parts as they were'})")


def _who(author: str | None, user: str, own: str = "") -> str:
    return f"you{own}" if author == user else str(author)


def _what(comment: str | None) -> str:
    """What a revision that changed no content did, from its comment (store/lifecycle)."""
    comment = comment or ""
    if comment.startswith("restored after deletion: undo of own delete"):
        return "undid the delete"
    if comment.startswith("restored after deletion"):
        return "restored it"
    if comment.startswith("deleted"):
        return "deleted the item"
    return "saved a version"


def other_tab_draft_notice(draft: dict) -> str:
    """After a save in this tab, when another tab's draft of the item was kept (its edits
    are not in what was saved): the form shows what was saved, and says where those are."""
    return (f"Another tab or window keeps unsaved edits of this item (its draft from "
            f"{times.shown(draft['updated_at'])}, on version {draft['base_version']}): "
            "they are not in this save. Go on there, or open them here with a reload.")


def draft_aside_notice(draft: dict, saved: dict) -> str:
    """A version opened for a review while the user keeps a draft of the item: the form
    showed the draft under "Open version 3", and the review said "Reviewed version 3" of a
    version never seen. The draft is kept, not shown, and the review is of what is shown."""
    return (f"Version {saved['version']} as saved, the version a review is of. Your unsaved "
            f"draft of this item (from {times.shown(draft['updated_at'])}, on version "
            f"{draft['base_version']}) is kept, not shown: open the item again to go on with "
            "it.")


def edited_parts(base: dict, item: dict) -> list[tuple[str, str]]:
    """(part, its value in `item`) for each part of `item` that differs from `base`, named
    as the conflict panel names them ("question", "GT reasoning", "clue 2", "option C"); the
    clues added by their numbers: "clue 3 added", "clues 3 and 4 added" (it said "clues
    added" of one clue)."""
    return [(added_name(item, ours) if key == ADDED[MINE] else own_name(row[0]), row[3])
            for row, (key, _, _, ours) in zip(conflict_rows.rows(base, base, item),
                                              changes(base, base, item))]


def added_name(item: dict, added: list) -> str:
    """"clue 3 added", "clues 3 and 4 added": the clues `added` by their numbers in `item`."""
    clues = em.content_only(item).get("clues") or []
    numbers = [str(clues.index(c) + 1) for c in added or [] if c in clues]
    if len(numbers) != len(added or []) or not numbers:
        return f"{len(added or [])} clue{'s' * (len(added or []) != 1)} added"
    return f"clue{'s' * (len(numbers) != 1)} {said_parts(numbers)} added"


REMOVED_BY_YOU = " (you removed it)"


def own_name(name: str) -> str:
    """A part as one's own edits name it: "clue 2 removed", not the panel's "clue 2 (you
    removed it)", which read "unsaved edits of clue 2 (you removed it) (draft kept)"."""
    name = OWN_NAMES.get(name, name)
    return name[:-len(REMOVED_BY_YOU)] + " removed" if name.endswith(REMOVED_BY_YOU) else name


def edits_said(names: list[str]) -> str:
    """The save bar's "unsaved edits …" after its first two words: "of question and GT
    reasoning", ": clue 2 removed", "of question; clue 3 added" (a part removed or added
    is not an edit "of" it)."""
    gone = [n for n in names if n.endswith((" removed", " added")) or " box " in f" {n} "]
    kept = [n for n in names if n not in gone]
    said = f" of {said_parts(kept)}" if kept else ""
    if gone:
        said += f"{';' if kept else ':'} {said_parts(gone)}"
    return said


# the panel's names said of one's own edits alone ("your edits of answer, clues you added")
OWN_NAMES = {"answer": "gold answer", "clues you added": "clues added"}


CLUE_PARTS = (("text", "its text"), ("reasoning", "its reasoning"), ("boxes", "its boxes"))


def quoted_edits(base: dict, item: dict) -> list[str]:
    """Each part of `item` edited since `base` with its value, to copy ("Question: “…”."). Of
    a clue, only what was edited, each quoted apart: an edited clue's text was quoted
    together with its untouched reasoning and box coordinates, in one pair of quotes."""
    images = item.get("images") or []
    named = part_names(base, base, item)
    out = []
    for key, _, was, now in changes(base, base, item):
        name = own_name(named.get(key) or label(key))
        name = name[:1].upper() + name[1:]
        if now == REMOVED:
            out.append(f"{name}.")
        elif isinstance(was, dict) and isinstance(now, dict) and "boxes" in now:
            edits = [f"{said} “{show(now.get(field), images) if field == 'boxes' else now.get(field) or ''}”"
                     for field, said in CLUE_PARTS if was.get(field) != now.get(field)]
            out.append(f"{name}: {'; '.join(edits)}.")
        else:
            out.append(f"{name}: “{show(now, images)}”.")
    return out


def said_parts(names: list[str]) -> str:
    """"question", "question and GT reasoning", "question, aliases and clue 2"."""
    return " and ".join(filter(None, [", ".join(names[:-1]), names[-1]])) if names else ""


def draft_base(store, draft: dict, saved: dict) -> dict:
    """The version a draft was begun on (the saved item when that version is gone)."""
    try:
        return store.revision(saved["id"], draft["base_version"])
    except NotFoundError:
        return saved


def released_draft_notice(store, draft: dict, saved: dict) -> tuple[str, str]:
    """(the notice, the parts named) of the user's draft of a released item: not put into
    the form (it showed the draft's question as if released, under "saving keeps your
    edits" beside a disabled Save); said, with its edits to copy, and Discard draft drops
    it."""
    base = draft_base(store, draft, saved)
    names = said_parts([name for name, _ in edited_parts(base, draft["data"])]) or "no part"
    values = " ".join(quoted_edits(base, draft["data"]))
    return (f"You have unsaved edits of this item ({names}; your draft from "
            f"{times.shown(draft['updated_at'])}, on version {draft['base_version']}) that "
            "cannot be saved while it is released; the form shows the released version. "
            f"{values} Copy what you need from here; Discard draft drops them."
            .replace("  ", " ")), names


DRAFT_KEPT_MARK = "(draft kept)"


def draft_gone_line(store, work: dict | None, user: str, line: str | None) -> str | None:
    """The save bar's draft `line` once the draft it says is kept is gone, or None while it
    is there (or the line says none): another tab or window of the account saved the item
    (its save drops the draft both showed) or discarded it. The line said "(draft kept)"
    until this tab's next edit; ↻ Refresh and a return to the tab read it again
    (ui/annotate_wiring.py, assets/draft_choice_stay.js). The edits are still on the page."""
    if not work or DRAFT_KEPT_MARK not in str(line or "") or work.get("released_draft"):
        return None
    why = draft_gone_why(store, work, user)
    if why is None:
        return None
    # the line as the page sends it back (Markdown source, escaped by kept_line): plain
    # text again, escaped once by the caller (messages.status)
    edits = unescape_md(str(line).split(DRAFT_KEPT_MARK)[0]).strip()
    return (f"{edits} on this page only: the draft is gone ({why}). Edit on to keep them as "
            "a draft again, or Save.")


def draft_gone_why(store, work: dict, user: str, own: str | None = None) -> str | None:
    """Why the user's draft of the item `work` shows is gone ("version 3 was saved by you
    in another tab or window at …", "it was discarded in another tab or window"), or None
    while there is one (or the item is gone). With `own` (a browser session), a draft that
    session wrote since counts as gone too: it is not the other tab's."""
    item_id = work["item"]["id"]
    draft = store.get_draft(user, item_id)
    if draft and (own is None or draft.get("session") != own):
        return None
    try:
        now = store.get_item(item_id)
    except NotFoundError:
        return None
    base = work.get("base_version")
    if base is not None and int(now["version"]) > int(base):
        return (f"version {now['version']} was saved by "
                f"{_who(now.get('updated_by'), user, ', in another tab or window')} at "
                f"{times.shown(now.get('updated_at'))}")
    return "it was discarded in another tab or window"


def unassigned_said(base: dict, boxes: list[dict]) -> list[str]:
    """The boxes set aside for a label naming no clue (editor_model.merge_annotator_boxes),
    each as what happened: "box of clue 2 relabelled “x”, no such clue" when `base` had it
    on clue 2 (it said "a new box without a clue"), else "a new box labelled “x”, no such
    clue" ("a new box without a clue" when unlabelled)."""
    def where(box: dict) -> tuple:
        return (box.get("image"), *(round(float(box[k])) for k in ("x0", "y0", "x1", "y1")))
    clue_of = {where(b): n for n, c in enumerate(base.get("clues") or [], start=1)
               for b in c.get("boxes") or []}
    out = []
    for box in boxes:
        name = str(box.get("label") or "").strip()
        was = f"box of clue {clue_of[where(box)]}" if where(box) in clue_of else "a new box"
        new = was == "a new box"
        out.append(f"{was} {'labelled' if new else 'relabelled'} {quoted(name, marks='“”')}, "
                   "no such clue"
                   if name else "a new box without a clue" if new else f"{was} unlabelled")
    return out
