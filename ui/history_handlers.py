"""Revision history of an item: list, diff two revisions, restore one (as a new revision)."""
from __future__ import annotations

import html
import re

from store import (ConflictError, NotFoundError, ReadOnlyError, SavingTooFastError,
                   ValidationError)
from ui import times
from ui.editor_model import EditError
from ui.text import note_lines
from ui.conflict_show import diff_label, show
from domain.limits import SHOWN_COMMENT
from domain.vocabulary import REVIEW_STATUS
from ui.editor_handlers import check_gold, same_content
from judges.direction_parts import holds_problem
from ui.media_http import preview_url

HISTORY_HEADERS = ["version", "author", "time", "comment"]
DIFF_HEADERS = ["field", "before", "after"]


OPTION_PART = re.compile(r"options\[(\d+)(?:>(\d+))?\](?:\.(\w+))?")
SHA = re.compile(r"[0-9a-f]{64}")
MOVED_AS_IT_WAS = re.compile(r"clues\[\d+>\d+\]")
"""A clue moved (Up / Down) and not changed: one line, "clue 1 moved to 2"; its whole text,
reasoning and boxes were repeated, unchanged, before and after."""


def option_named(field: str, old: dict, new: dict, before=None, after=None) -> str:
    """A diff row's field, an option (or its part) named by the option's label ("option B
    image", "option E"): it read "option 4 image" for option B (the 4th in the list), and a
    whole option added or removed "option 5" beside "option C text" (a review). `before`
    and `after` are the row's values: a whole option's own label."""
    match = OPTION_PART.fullmatch(field)
    if not match:
        return diff_label(field)
    index, now, part = int(match.group(1)), match.group(2), match.group(3)
    if part is None:
        whole = after if isinstance(after, dict) else before
        label = whole.get("label") if isinstance(whole, dict) else None
        return f"option {label}" if label else diff_label(field)
    options = (new.get("options") or []) if now is not None or index < len(
        new.get("options") or []) else (old.get("options") or [])
    at = int(now) if now is not None else index
    label = options[at].get("label") if at < len(options) else None
    return f"option {label} {part}" if label else diff_label(field)


def _image_part(field: str) -> bool:
    """Is the diff row `field` an option's image? Only there is a 64-digit hash an image: an
    option's text set to a stored image's hash showed that image (an attacker's review)."""
    match = OPTION_PART.fullmatch(field)
    return bool(match) and match.group(3) == "image"


def _option_part(field: str) -> bool:
    """Is the diff row `field` a whole option (one added or removed)?"""
    match = OPTION_PART.fullmatch(field)
    return bool(match) and match.group(3) is None


def _shown(value, images: list[str], store=None, image: bool = False,
           option: bool = False) -> str:
    """A value as the diff shows it, as HTML (its two version columns are HTML cells, every
    text escaped); an option's image as a small thumbnail (the conflict panel's:
    ui/media_http.preview_url) with its hash as its alt and title, not its 64-digit hash
    (nor "an image (1a2b3c4d)", which said nothing of what it shows)."""
    if image and isinstance(value, str) and SHA.fullmatch(value):
        url = preview_url(store, value) if store is not None else None
        name = f"an image ({value[:8]})"
        if not url:
            return html.escape(name)
        return (f'<img class="cl-history-thumb" src="{html.escape(url)}" '
                f'alt="{html.escape(name)}" title="{html.escape(value)}">')
    if option and isinstance(value, dict) and SHA.fullmatch(str(value.get("image") or "")):
        # an option added with its image read "E:  (image 05c9ed3b)", no thumbnail
        text = f"{value.get('label')}: {value.get('text') or ''}".rstrip()
        return (html.escape(text, quote=False) + " "
                + _shown(value["image"], images, store, image=True))
    return html.escape(show(value, images), quote=False)


def own_merge(comment: str, author: str) -> str:
    """A revision's comment as History shows it: a merge with a version its own author saved
    (in another tab or window) says so, as the save's message did ("by you, in another tab
    or window"): History read "merged with version 2 by ann1" beside ann1's own merge (a
    review). The stored comment stays as it is."""
    return re.sub(rf"\b(merged with|saved over) version (\d+) by {re.escape(author)}"
                  r"(?=$|[\s,;()·])",
                  r"\1 version \2 by the same account, in another tab or window", comment)


def comment_cell(comment: str) -> str:
    """A revision's comment in History's table: its first line, at most SHOWN_COMMENT
    characters, "…" where more follows (the table wraps it). A review's comment of a note of
    15 lines ran on as one line, cut mid-word at the cell's edge."""
    lines = note_lines(comment)
    first = lines[0] if lines else ""
    if len(first) > SHOWN_COMMENT:
        return first[:SHOWN_COMMENT - 1].rstrip() + "…"
    return first + (" …" if len(lines) > 1 else "")


class HistoryHandlers:
    def __init__(self, store):
        self.store = store

    def rows(self, item_id: str | None) -> list[list]:
        if not item_id:
            return []
        return [[h["version"], h["author"], times.shown_with_age(h["created_at"]),
                 comment_cell(own_merge(h.get("comment") or "", h["author"]))]
                for h in self.store.history(item_id)]

    def diff(self, item_id: str, version_a, version_b) -> list[list]:
        a, b = _version(version_a), _version(version_b)
        try:
            changes = self.store.diff(item_id, a, b)
        except NotFoundError as err:
            raise EditError(str(err)) from None
        # each side numbered by its own version's images: version 1's boxes read "image 2"
        # when version 2 had put a new image first
        old, new = self.store.revision(item_id, a), self.store.revision(item_id, b)
        before, after = old.get("images") or [], new.get("images") or []
        # every column is HTML (the two versions' show option images small): each text
        # escaped here, the field's too (a script reading the rows gets one kind of cell)
        return [[html.escape(option_named(d["field"], old, new, d["before"], d["after"]),
                             quote=False),
                 *(["", ""] if MOVED_AS_IT_WAS.fullmatch(d["field"]) else
                   [_shown(d["before"], before, self.store, _image_part(d["field"]),
                           _option_part(d["field"])),
                    _shown(d["after"], after, self.store, _image_part(d["field"]),
                           _option_part(d["field"]))])]
                for d in changes]

    def review(self, item_id: str, version: int, reviewer: str, verdict: str,
               note: str = "") -> str:
        """Record a review of `version`, the version on the reviewer's screen, and return
        the line the page shows (the version reviewed, the status it gave the item).

        Only the latest version is reviewed: when someone saved a newer one since the page
        opened, the review is refused (NewerVersion, naming it, who saved it and when) and
        nothing is recorded. A verdict on the version the reviewer had open was recorded
        beside a newer one they had not seen, its "approve" told only afterwards. The store
        refuses a review by the version's author.

        A draft takes the verdict's status only if it may leave draft by the rules a save
        applies (check_gold: its question, gold answer, clues' words): a "revise" put a
        draft with no gold answer in review. Otherwise a "revise" or "reject" is recorded,
        its note with it, the item left a draft, and the line says why; an "approve" is
        refused (an approval of what may not be verified), the note kept on the page."""
        version = _version(version)
        if found := holds_problem("the review note", note):   # the store refuses it too
            raise EditError(f"Review not recorded: {found}")
        try:
            before = self.store.get_item(item_id)
            held = stays_draft(before, version, verdict)
            if held and verdict == "approve":
                raise EditError(f"Review not recorded: version {version} of {item_id} is a "
                                f"draft that may not be verified yet ({held}). Choose revise "
                                "to send it back to its author with your note (it stays a "
                                "draft).")
            self.store.add_review(item_id, version, reviewer, verdict, note or "",
                                  latest_only=True, set_status=held is None)
            latest = self.store.get_item(item_id)
        except ConflictError as err:
            raise NewerVersion(item_id, int(version), err) from None
        except (NotFoundError, ValidationError, SavingTooFastError) as err:
            raise EditError(f"Review not recorded: {err}") from None
        line = f"Reviewed version {int(version)}: {verdict}."
        if held:
            return (f"{line} Your review and its note are recorded, but the item stays a "
                    f"draft (not {REVIEW_STATUS[verdict]}): {held}.")
        if latest["status"] != before["status"]:
            line += f" The item is now {latest['status']} (version {latest['version']})."
        return line

    def restore(self, item_id: str, version, base_version: int, user: str,
                may_release: bool = False) -> str:
        """Restore `version` as a new revision; returns the line the page shows. One who may
        not release items restores a `released` version with the item's status kept
        (store.restore), and the line says so."""
        try:
            current = self.store.get_item(item_id)
            if current["version"] == base_version and \
                    same_content(self.store.revision(item_id, _version(version)), current):
                # it made a copy of the saved item, authored by the one restoring it
                return (f"Nothing to restore: version {int(version)} is what {item_id} holds "
                        f"now (version {current['version']}).")
            new = self.store.restore(item_id, _version(version), user, base_version,
                                     may_release)
            line = f"Restored version {int(version)} as version {new}."
            wanted = self.store.revision(item_id, int(version))["status"]
            kept = self.store.revision(item_id, new)["status"]
            if wanted != kept:     # the store's reason, in its revision's comment
                comment = self.store.history(item_id, new - 1, new)[0].get("comment") or ""
                why = comment.partition("(")[2].rstrip(")") or "kept by the store"
                line += f" Its status {wanted} was not restored ({why}): it is {kept}."
            elif kept != current["status"]:   # a verified item went back to draft unsaid
                line += f" Its status is {kept} (it was {current['status']})."
            return line
        except ConflictError as err:
            raise EditError(f"not restored: item {item_id} was changed by {err.updated_by} at "
                            f"{times.shown(err.updated_at)} (version {err.current_version}); "
                            f"you edited version {err.base_version}") from None
        except SavingTooFastError as err:                              # over the hour's
            raise EditError(f"Not restored: {err}") from None
        except (NotFoundError, ReadOnlyError) as err:                   # gone, released
            raise EditError(str(err)) from None


def stays_draft(item: dict, version: int, verdict: str) -> str | None:
    """Why the draft `item` may not take `verdict`'s status (a save's refusal of that
    status: check_gold, the one place of the rules to leave draft), or None: it may, or
    it is no draft, or `version` is not its latest (the review is refused for that)."""
    if item.get("status") != "draft" or int(item["version"]) != version or \
            verdict not in REVIEW_STATUS:
        return None
    try:
        check_gold({**item, "status": REVIEW_STATUS[verdict]}, "draft")
    except EditError as err:
        return str(err).rstrip(".")
    return None


class NewerVersion(EditError):
    """A review of a version someone saved over since the reviewer's page opened it."""

    def __init__(self, item_id: str, version: int, err: ConflictError):
        self.item_id, self.reviewed, self.latest = item_id, version, int(err.current_version)
        super().__init__(
            f"Review not recorded: version {self.latest} of {item_id} was saved by "
            f"{err.updated_by} at {times.shown(err.updated_at)}, after you opened version "
            f"{version}. A review is of the version saved now: open version {self.latest} "
            "(the button under Submit review), see what changed, then review it.")


MAX_VERSION = 2 ** 31 - 1
"""Past any version an item reaches: 1e308 or 2**63 made SQLite's integer binding fail with
an OverflowError (a server error and a traceback per call)."""


def _version(value) -> int:
    try:
        number = int(value)
        whole = float(value) == number
    except (TypeError, ValueError, OverflowError):
        whole = False
    if not whole:       # 1.5 was taken as 1 (int) or, rounded by the page's box, as 2
        raise EditError(f"'{str(value)[:40]}' is not a version number (a whole number)")
    if not 1 <= number <= MAX_VERSION:
        raise EditError(f"no item has a version {'below 1' if number < 1 else 'that high'}")
    return number
