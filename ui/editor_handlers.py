"""Load, collect, save and draft an item: the editor's handlers, free of Gradio.

The editor keeps a *work* dict per browser session:
`{"item": working copy, "saved": item as last loaded from the store, "image_index": int,
"draft_seen": revision of the draft restored on load (store/drafts.py), or None}`.
Form widgets hold the text fields; `work["item"]` holds what has no widget of its own
(images, option images, boxes on images not on screen). Every handler that needs the
current item first *collects* it from the widgets, so nothing typed is lost between events.
"""
from __future__ import annotations

import copy

from store.item_limits import over_limit
from store import (ConflictError, DraftConflict, NotFoundError, ReleaseRefusedError, StoreError,
                   ValidationError, diff_items)
from domain.item_ids import typed_id_refusal
from judges.direction_parts import introduced_problem
from judges.gold_check import gold_problems
from judges.past_draft import clueless_release, missing_gold, missing_question, textless_clues
from ui import answer_form as af
from ui import conflict_authors as ca
from ui import conflict_merge as cm
from ui import conflict_rows as cr
from ui.conflict_marks import marked_rows
from ui.media_http import preview_url
from ui import editor_notices as notices
from ui import editor_model as em
from ui import save_rules as rules
from ui import times
from ui.text import escape_md

FIELDS = ("question", "answer_type", "answer", "aliases", "gt_reasoning", "domain",
          "subtask", "reasoning_type", "status", "options", "clues", *af.ANSWER_FIELDS)
FREE_TEXT = ("question", "gt_reasoning")   # may be emptied (a status or type may not)
RELEASED_NOTICE = ("Released: read-only. An admin can reopen it with a reason. Until then it "
                   "can be neither edited nor deleted.")
FIELD_NAMES = {"question": "Question", "answer": "Gold answer", "options": "Options", "aliases": "Accepted aliases",
               "clues": "Clues"}


DRAFT_KEPT = "unsaved edits (draft kept)"
# a revision comment typed with no edit of the item (EditorHandlers._comment_kept)
COMMENT_KEPT = "unsaved edits: a revision comment (draft kept)"
CHANGED_SINCE_PANEL = ("Your edits changed since the comparison: check it again, then Save "
                       "merged.")


class DraftSetAside(DraftConflict):
    """An edit of a version opened with the user's draft set aside (load_for_review): the
    draft, unseen in this tab, is not replaced unasked (the tab choice: open it or keep this
    tab's edits)."""


class EditorHandlers:
    def __init__(self, store):
        self.store = store
        # (browser tab, item id) -> the version that tab saved last: see autosave
        self.saved_here: dict[tuple[str, str], int] = {}

    # ---- loading -------------------------------------------------------------------
    def load(self, item_id: str, user: str, apply_draft: bool = True) -> dict:
        """The work dict for an item, with the user's draft applied when there is one (not
        with `apply_draft` False: the item as saved, the draft only said)."""
        item_id = (item_id or "").strip()
        if not item_id:
            raise em.EditError("no item id given")
        if refused := typed_id_refusal(item_id):   # never sent back: it may be a megabyte
            raise em.EditError(f"no item opened: {refused}")
        try:
            saved = self.store.get_item(item_id)
        except NotFoundError as err:
            deleted = "was deleted" in str(err)  # say so: the id is taken, the item hidden
            raise em.EditError(times.in_message(err) if deleted
                               else f"no item with id '{item_id}'") from None
        work = {"item": copy.deepcopy(saved), "saved": saved, "image_index": 0,
                "base_version": saved["version"], "notice": "", "draft_seen": None,
                "read_only": saved.get("status") == "released"}
        draft = self.store.get_draft(user, item_id)
        if draft and apply_draft and work["read_only"]:
            # a released item shows what was released: the draft is said, not shown, and
            # only Discard draft acts on it (work["released_draft"]: nothing else drops it)
            work["draft_seen"], work["released_draft"] = draft["revision"], True
            work["notice"], work["released_parts"] = notices.released_draft_notice(
                self.store, draft, saved)
        elif draft and not apply_draft:
            work["notice"] = notices.other_tab_draft_notice(draft)
        elif draft:
            work["item"] = notices.stored_status(self.store, draft, saved)
            work["base_version"] = draft["base_version"]
            work["draft_seen"] = draft["revision"]
            work["notice"] = notices.draft_notice(self.store, draft, saved, user)
            # into the comment box as the item opens (annotate_render), once
            work["draft_comment"] = draft.get("comment") or ""
        work["own_notice"], work["review_notice"] = (work["notice"],
                                                     notices.review_notice(self.store, saved))
        work.update(self.notice_now(work, user))
        # a box of no size (one being drawn when the draft was kept) is no box: see em.drawn
        # nor is a box whose clue was never picked (a draft kept before keep_draft left it out)
        work["item"]["_unassigned"] = [b for b in work["item"].get("_unassigned", [])
                                       if em.drawn(b) and not em.unpicked(b)]
        return work

    def load_for_review(self, item_id: str, user: str) -> dict:
        """The item as saved, never the user's draft, which is set aside (`draft_aside`: its
        revision, kept from this tab's edits until the user chooses: keep_draft) and said:
        a review is of the version shown."""
        work = self.load(item_id, user, apply_draft=False)
        draft = self.store.get_draft(user, work["item"]["id"])
        if draft:
            work["draft_aside"] = draft["revision"]
            work["own_notice"] = notices.draft_aside_notice(draft, work["saved"])
            work.update(self.notice_now(work, user))
        return work

    def notice_now(self, work: dict, user: str) -> dict:
        """{"notice", "delete_question"} of `work` with the colleagues' drafts as the store
        holds them now: a colleague's draft said at the open stayed said after they saved
        (↻ Refresh reads them again: ui/annotate_wiring.py)."""
        others = self.store.others_drafts(work["item"]["id"], user)
        version = (work.get("saved") or {}).get("version")
        return {"delete_question": notices.delete_question(others, work["item"]["id"]),
                "delete_named": sorted(d["user"] for d in others),
                "notice": " ".join(filter(None, [
                    work.get("own_notice", ""),
                    notices.others_notice(others, version, bool(work.get("read_only")))
                    if others else "",
                    work.get("review_notice", "")]))}

    def told_now(self, work: dict, user: str) -> tuple[dict, dict | None]:
        """(`work` with its notice as the store holds the colleagues' drafts now, the item
        as saved now; None when it is gone): for a page that learns the item changed without
        opening it again (a save refused by a conflict, one with nothing to save). bob's
        "Unsaved edits … by bob" stayed in alice's tab after he had saved, the conflict
        panel open under it."""
        try:
            current = self.store.get_item(work["item"]["id"])
        except NotFoundError:
            return work, None
        return {**work, **self.notice_now({**work, "saved": current}, user)}, current

    def without_restored_notice(self, work: dict, user: str) -> dict:
        """`work` without "Restored your unsaved draft …" once that draft is gone (a save
        with nothing to save dropped it: the line stayed over an item with no draft);
        `work` itself while the draft is there, or none was restored."""
        if work.get("draft_seen") is None or not work.get("own_notice") or \
                self.store.get_draft(user, work["item"]["id"]):
            return work
        work = {**work, "own_notice": ""}
        return {**work, **self.notice_now(work, user)}

    # ---- form <-> item -------------------------------------------------------------
    def collect(self, work: dict, form: dict, annot_boxes: list | None) -> dict:
        """The working copy as the widgets show it now."""
        return self.collect_switched(work, form, annot_boxes)[0]

    def collect_switched(self, work: dict, form: dict, annot_boxes: list | None
                         ) -> tuple[dict, str]:
        """(the working copy as the widgets show it now; what switching its type converted
        or set aside, "" when nothing or no switch).

        A form whose type is not the working copy's is one the page did not switch (the
        list changed, the form did not): its controls are those of the working copy's type.
        They are read as that type, then the item goes through the switch itself
        (answer_form.switch_type): a save wrote yes_no with the gold box's "Red" dropped,
        unsaid. The new type's own control counts when it holds something else than the
        page drew for it: a caller (a script) that gave the new type's gold."""
        old, new = work["item"].get("answer_type"), form.get("answer_type")
        if not new or new == old:
            return self._collected(work, form, annot_boxes), ""
        if af.control_given(new, old, form, af.widget_values(work["item"])):
            return self._collected(work, form, annot_boxes, switch_to=new), ""
        item = self._collected(work, {**form, "answer_type": old}, annot_boxes)
        return af.switch_type(item, new)

    def _collected(self, work: dict, form: dict, annot_boxes: list | None,
                   switch_to: str | None = None) -> dict:
        """The working copy as the widgets show it, the form's controls being those of the
        copy's type, or (`switch_to`) of that type, the copy switched to it first."""
        item = copy.deepcopy(work["item"])
        # the options table as shown belongs to the type shown with it: read it before a
        # switch, which then sets those options aside (or brings the set-aside ones back)
        item = em.apply_option_rows(item, form.get("options"))
        if switch_to:
            item = af.switch_type(item, switch_to)[0]
        for key in ("question", "answer_type", "gt_reasoning", "status"):
            if key in form and form[key] is not None and (form[key] or key in FREE_TEXT):
                item[key] = form[key]       # a status or type of '' is none given: kept
        item["answer"] = af.read_answer(item.get("answer_type"), form, item.get("answer") or "")
        if item.get("answer_type") == "multiple_choice":
            item["answer"] = af.as_option_label(item["answer"], item.get("options") or [])
        for key in ("domain", "subtask", "reasoning_type"):
            if key in form:
                item[key] = (form[key] or "").strip() or None
        if "aliases" in form:
            item["aliases"] = em.split_aliases(form["aliases"])
        n_old = len(item.get("clues", []))
        annot_boxes = em.relabel_for_rows(annot_boxes, form.get("clues"), n_old)
        item = em.apply_clue_rows(item, form.get("clues"))
        sha = current_image(work)
        size = self.store.image_sizes([sha]).get(sha) if sha and annot_boxes else None
        return em.merge_annotator_boxes(item, sha, annot_boxes, size)

    @staticmethod
    def form_values(item: dict) -> dict:
        return {
            "question": item.get("question", ""), "answer_type": item.get("answer_type"),
            "answer": item.get("answer", ""), "aliases": "\n".join(item.get("aliases", [])),
            "gt_reasoning": item.get("gt_reasoning", ""), "domain": item.get("domain") or "",
            "subtask": item.get("subtask") or "", "reasoning_type": item.get("reasoning_type") or "",
            "status": item.get("status"), "options": em.option_rows(item),
            "clues": em.clue_rows(item), **af.widget_values(item),
        }

    # ---- drafts --------------------------------------------------------------------
    def autosave(self, work: dict | None, form: dict, annot_boxes: list | None, user: str,
                 session: str | None = None, force: bool = False,
                 comment: str | None = None) -> str:
        """Keep a draft per user and item; drop it again when the edits are undone.
        Raises store.DraftConflict when another tab wrote the draft since this one saw it
        (unless `force`: the user chose to keep this tab's edits). None (nothing kept, the
        save bar left alone) for an autosave of keys typed before a save in the same tab
        that reaches the server after it: it kept half a word as a draft of the old
        version, and the save bar's "Saved … version 2" gave way to "draft kept"."""
        if not work:
            return ""
        if work["base_version"] < self.saved_here.get((session, work["item"]["id"]), 0):
            return None     # sent before this tab's save, which has these edits: see below
        try:
            item = self.collect(work, form, annot_boxes)
        except em.EditError:
            return "unsaved edits (not yet valid)"
        return self.keep_draft(work, item, user, session, force, comment)

    def keep_draft(self, work: dict, item: dict, user: str, session: str | None = None,
                   force: bool = False, comment: str | None = None) -> str:
        """Store `item` (the collected working copy) as the user's draft, or drop the draft
        when it equals the saved item; returns the line the save bar shows. `comment`: the
        revision comment as typed, kept with the draft (None: the one kept stays).
        A new box whose clue was never picked (its picker still open) is not kept: a
        reload brought it back as a box labelled "(pick a clue)" (editor_model.unpicked)."""
        if work.get("released_draft"):
            return ""       # the draft of a released item, not shown: only Discard drops it
        item = em.without_unpicked(item)
        if self.unchanged(work, item) and (said := self._comment_kept(work, item, user,
                                                                     session, force, comment)):
            return said
        if self.unchanged(work, item):
            # nothing of this tab's to keep: a draft another tab wrote since stays theirs
            # (asking which to keep put "Not kept as a draft" and the choice over the
            # "Saved … version 2" of this tab's save, which the box redraw autosaved after)
            if force:
                self.store.delete_draft(user, item["id"], session, work.get("draft_seen"), True)
            else:
                self.drop_own_draft(work, user, session)
            return ""
        if self._saved_since(work, item):
            self.drop_own_draft(work, user, session)
            return ""
        self._store_draft(work, item, user, session, force, comment)
        return self.kept_line(work, item)

    def _comment_kept(self, work: dict, item: dict, user: str, session: str | None,
                      force: bool, comment: str | None) -> str:
        """A revision comment typed with no edit of the item is kept as a draft of the item as
        saved, with the comment (it was dropped as "a draft of nothing", and lost at a
        reload); the save bar's line (COMMENT_KEPT), or "" when there is no comment to keep
        (`comment` None: the one kept with this tab's draft, if any; another tab's stays)."""
        if comment is None:
            kept = self.store.get_draft(user, item["id"]) or {}
            own = kept.get("session") in (None, session) or \
                kept.get("revision") == work.get("draft_seen")
            comment = (kept.get("comment") or "") if own else ""
        if not comment.strip():
            return ""
        self._store_draft(work, item, user, session, force, comment)
        return COMMENT_KEPT

    def _store_draft(self, work: dict, item: dict, user: str, session: str | None,
                     force: bool, comment: str | None) -> None:
        """Write `item` as the user's draft, through the two-tab check (DraftConflict, its
        parts named) and past no draft this tab set aside unshown (DraftSetAside)."""
        try:
            if not force and (aside := self._aside(work, user)):
                raise DraftSetAside(item["id"], aside["updated_at"], aside["revision"])
            self.store.save_draft(user, item["id"], work["base_version"], item, session,
                                  work.get("draft_seen"), force, comment)
        except DraftConflict as err:
            raise self.named_conflict(err, work, item, user)

    def named_conflict(self, err: DraftConflict, work: dict, item: dict,
                       user: str) -> DraftConflict:
        """`err` with the parts each side of the two-tab choice edited (`mine`: this tab's
        `item`; `theirs`: the draft kept), so that its questions name what each choice
        drops: "The other tab's unsaved edits are replaced" named none (a review)."""
        saved = work["saved"]
        base = saved if work["base_version"] == saved["version"] else self._base(work, saved)
        err.mine = notices.said_parts([n for n, _ in notices.edited_parts(base, item)])
        draft = self.store.get_draft(user, item["id"])
        err.theirs = notices.said_parts([n for n, _ in notices.edited_parts(
            notices.draft_base(self.store, draft, saved), draft["data"])]) if draft else ""
        return err

    def kept_line(self, work: dict, item: dict) -> str:
        """The save bar's draft line, naming the parts edited since the version the edits
        began on: Discard draft and Reload saved version ask about them by name
        (assets/confirm.js reads them here)."""
        saved = work["saved"]
        base = saved if work["base_version"] == saved["version"] else self._base(work, saved)
        names = [name for name, _ in notices.edited_parts(base, item)]
        # it said only "unsaved edits", then "a new box without a clue" of a relabelled one
        names += notices.unassigned_said(base, [box for box in item.get("_unassigned") or []
                                                if em.drawn(box)])
        # a Markdown line: the names escaped (an option label is the annotator's text)
        said = notices.edits_said([escape_md(name) for name in names])
        return f"unsaved edits{said} (draft kept)" if said else DRAFT_KEPT

    def _saved_since(self, work: dict, item: dict) -> bool:
        """Are these edits the item as saved after the version this event knew? An autosave
        of the last keys typed can reach the server after the save they went into (Ctrl+S
        straight from the field): it kept them as a draft of the old version, and the save
        bar's "version 2" gave way to "unsaved edits (draft kept)" that were not."""
        try:
            latest = self.store.get_item(item["id"])
        except NotFoundError:
            return False
        return latest["version"] > work["base_version"] and same_content(item, latest)

    def draft_state(self, work: dict) -> str:
        """The save bar's draft line for an item as it opens: a restored draft is unsaved
        edits until saved (the line said nothing after a reload had brought a draft back)."""
        if not self.unchanged(work, work["item"]):
            return self.kept_line(work, work["item"])
        return COMMENT_KEPT if (work.get("draft_comment") or "").strip() else ""

    def discard_draft(self, work: dict, user: str, session: str | None = None) -> dict:
        """Drop the draft this session shows (another tab's newer one raises DraftConflict)
        and load the saved item."""
        self.store.delete_draft(user, work["item"]["id"], session, work.get("draft_seen"))
        return self.load(work["item"]["id"], user)

    def reload_saved(self, work: dict, user: str, session: str | None) -> dict:
        """The saved item in place of this tab's edits (the conflict panel's reload): this
        tab's draft goes, another tab's stays theirs, said, not shown (it was deleted
        unasked, whichever tab had written it)."""
        self.drop_own_draft(work, user, session)
        return self.load(work["item"]["id"], user, apply_draft=False)

    def drop_own_draft(self, work: dict, user: str, session: str | None) -> None:
        """After a save (or a restore) in this tab: drop the draft this tab wrote or saw,
        but keep one another tab wrote since. Its edits are not in what was saved: dropped,
        they were lost at that tab's next reload (a Save with nothing to save did it too).
        A draft set aside (load_for_review) stays too: this tab never showed it; so does
        the draft of a released item (only Discard draft drops it)."""
        if self._aside(work, user) or work.get("released_draft"):
            return
        try:
            self.store.delete_draft(user, work["item"]["id"], session, work.get("draft_seen"))
        except DraftConflict:
            pass

    def _aside(self, work: dict, user: str) -> dict | None:
        """The user's draft this tab set aside unshown (load_for_review), while it is still
        the one stored; else None."""
        if work.get("draft_aside") is None:
            return None
        draft = self.store.get_draft(user, work["item"]["id"])
        return draft if draft and draft["revision"] == work["draft_aside"] else None

    def _kept_after_conflict(self, work: dict, item: dict, user: str,
                             session: str | None) -> tuple[str, DraftConflict | None]:
        """Keep the edits of a save refused by a conflict as the user's draft, through the
        same check as every draft write (store/drafts.py): written without its session, it
        replaced the draft another tab of the account had chosen to keep, unasked, and that
        tab's next edit replaced it back. (The sentence saying whether they were kept, the
        DraftConflict when another tab's draft stays: the page offers the tab choice.)"""
        try:
            if aside := self._aside(work, user):
                raise DraftSetAside(item["id"], aside["updated_at"], aside["revision"])
            self.store.save_draft(user, item["id"], work["base_version"],
                                  em.without_unpicked(item), session, work.get("draft_seen"))
        except DraftConflict as err:
            err = self.named_conflict(err, work, item, user)
            return ("Your edits are on this page only, not kept as a draft: another tab or "
                    f"window changed this item's draft at {times.shown(err.updated_at)}; "
                    "open it or keep this tab's edits (above the save bar)."), err
        except StoreError as err:
            why = str(err).rstrip(".")
            return f"Your edits are on this page only, not kept as a draft: {why}.", None
        return "Your edits are kept as a draft.", None

    # ---- saving --------------------------------------------------------------------
    def save(self, work: dict, form: dict, annot_boxes: list | None, comment: str,
             user: str, base_version: int | None = None,
             take_saved: list[str] | tuple = (), may_release: bool = False,
             ticked: list[str] | tuple = (), session: str | None = None) -> tuple[dict, dict]:
        """Save the collected item; returns (work, outcome).

        outcome["kind"] is "saved", "unchanged" (nothing differs from the version opened, or,
        merged, from the version saved: no new version), "conflict", "invalid" or
        "release_refused" (the item would become
        `released` and `may_release` is false: store/items.check_status, which sees the
        status stored now). On a conflict the edits are kept as a draft and outcome carries who changed the item, when, the parts each side changed (`diff`)
        and those both changed (`both`). `base_version` (after a conflict: the version saved
        meanwhile) saves my edits merged into that version (ui/conflict_merge): their
        changes to parts I left alone are kept, and of the parts both changed, those named
        in `take_saved` are theirs. `ticked`: the import problems ticked to mark resolved,
        marked by this save as their button would. `session`: the browser tab saving (the
        draft another tab keeps stays: drop_own_draft). What else a save does (import problems,
        the status of a verified item, the revision comment) is ui/save_rules.
        """
        if not work:
            return work, {"kind": "invalid", "message": "open an item first"}
        merged, basis, dropped = None, work["saved"], ""
        try:
            item, switched = self.collect_switched(work, form, annot_boxes)
            if switched:
                return self._switched_unsaved(work, item, user, session, switched)
            item = rules.apply_ticked(item, ticked)
            mine = item
            if base_version is not None and (again := self._panel_changed(
                    work, as_compared(mine), base_version, user, session,
                    take_saved)):
                return again
            if base_version is not None:
                item, merged, basis, dropped = self._merged(work, item, base_version,
                                                            take_saved, user)
            check_edits(item, work["saved"].get("status"))
            rules.check_names(item, work["saved"], self.store.facets)
            rules.check_comment(comment)
            if refused := introduced_problem(item, basis):     # those it brings in only
                raise em.EditError(refused)
        except em.EditError as err:
            return work, {"kind": "invalid", "message": str(err)}
        if base_version is None and self.unchanged(work, item):
            self.drop_own_draft(work, user, session)      # a draft of nothing
            return work, self._nothing_to_save(work["saved"])
        if merged and same_content(item, basis):
            # merged into the version saved, the edits add nothing to it: no copy of it; the
            # message names the edits of mine theirs replaced (it said only "Nothing to save")
            self.drop_own_draft(work, user, session)
            base = self._base(work, basis)
            keys = None if same_content(mine, base) else cm.replaced(base, basis, mine)
            replaced = None if keys is None else list(keys)
            since = self._since(basis["id"], work["base_version"], basis["version"])
            lost = cr.only_lost_boxes(base, basis, mine, " and ".join(
                ca.part_authors(base, since, user).get("images")
                or ca.names(self._authors(work, merged), user)))
            by = ca.replaced_by(base, since, user, keys) if keys and since else \
                ca.changed_by(self._authors(work, merged), user)
            return self._reloaded(work, user), self._nothing_to_save(basis, replaced, by, lost)
        item, fixed, resolved = rules.settle_problems(item)
        # a conflict panel compares the status as the user had it (`as_compared`): the one
        # this save gives it hid a colleague's verified → in_review (the same on both sides)
        compared = item
        item, note = rules.status_after(item, basis)
        comment = rules.revision_comment(comment, merged, fixed, resolved, merged and (
            f"{user}'s", merged[6] or ca.theirs_named(self._authors(work, merged), user)),
            merged[7] if merged else "")
        base = work["base_version"] if base_version is None else base_version
        try:
            version = self.store.save_item(em.strip_editor_fields(item), base, user, comment,
                                           may_release)
        except ConflictError as err:
            theirs = self.store.get_item(item["id"])
            base = self._base(work, theirs)
            if base_version is None and not rules.content_changed(theirs, base):
                # the versions saved since changed no content (a delete and its undo, a
                # review's status): a conflict with nothing to choose; saved merged at once,
                # and the message says over what (rules.merged_over)
                fresh, outcome = self.save(work, form, annot_boxes, comment, user,
                                           err.current_version, (), may_release, ticked, session)
                return fresh, self._said_merged_over(outcome, item["id"], work["base_version"])
            return self._conflict(work, compared, err.current_version, err.updated_by,
                                  err.updated_at, user, session, ticked=take_saved,
                                  compared_with=base_version)
        except ReleaseRefusedError as err:
            return work, {"kind": "release_refused", "message": str(err)}
        except (ValidationError, StoreError) as err:
            return work, {"kind": "invalid",
                          "message": rules.in_words(times.in_message(err))}
        self.drop_own_draft(work, user, session)
        if session:
            self.saved_here[(session, item["id"])] = version
        # Save merged said only "Saved … as version 3"; the revision's comment said more
        # the versions merged over as the stored comment names them ("versions 2 (alice)
        # and 3 (alice)"): the message named the last one only (a review, round 19)
        over = (merged[7] or f"version {merged[0]} by "
                f"{ca.changed_by(self._authors(work, merged), user)}") if merged else ""
        with_them = (f"Merged with {over}{rules.merge_choices(merged[2], merged[4])}."
                     if merged else "")
        saved_as = f"Saved {item['id']} as version {version}"
        if item.get("status") == "released":
            saved_as += ", " + notices.released_save_note(
                self.store.others_drafts(item["id"], user), basis.get("status"),
                self.store.reviews(item["id"]))
        return self._reloaded(work, user), {
            "kind": "saved", "version": version, "merged_note": with_them,
            "saved_line": f"{saved_as}.", "message": " ".join(filter(None, [
                f"{saved_as}.", with_them, dropped, note,
                af.left_out_note(item), rules.no_gold_note(item), rules.textless_clue_note(item),
                rules.marked_only_note(item)]))}

    def _conflict(self, work: dict, item: dict, current_version: int, updated_by: str,
                  updated_at: str, user: str, session: str | None, changed: bool = False,
                  ticked=(), compared_with: int | None = None) -> tuple[dict, dict]:
        """A save refused by a conflict: the edits (`item`) kept as the user's draft, and the
        outcome the conflict panel shows; `work` notes what that panel showed
        (`conflict_rows.panel_seen`: a Save merged of edits changed since is not saved, see
        `_panel_changed`). `changed`: the panel shown again because the edits changed since
        it was shown (the choices `ticked` still offered stay ticked). `compared_with`: the
        version a Save merged compared with, when a newer one was saved meanwhile (the panel
        was rebuilt over it without a word that a new version had arrived)."""
        theirs = self.store.get_item(item["id"])
        base = self._base(work, theirs)
        kept, draft_conflict = self._kept_after_conflict(work, item, user, session)
        work = {**work, "item": item, "panel_seen": cr.panel_seen(base, theirs, item)}
        since = self._since(item["id"], work["base_version"], current_version)
        authors = [a for a, _ in since] or [updated_by]
        how = {"other_tab": set(authors) == {user},
               "authors": ca.part_authors(base, since, user),
               "everyone": ca.names(authors, user)}
        how["renamed"] = cr.brought_back(base, theirs, item, self._earlier(
            item["id"], work["base_version"]))
        how["lost"] = cr.lost_boxes(base, theirs, item, " and ".join(
            how["authors"].get("images") or how["everyone"]))
        both = cm.both_changed(base, theirs, item)
        # the authors of the versions saved after the one compared with (`since` runs to
        # current_version, one entry a version)
        newer = since[max(0, len(since) - (current_version - compared_with)):] if compared_with else []
        said = (f"Not saved. {CHANGED_SINCE_PANEL} {kept}" if changed else
                f"Not saved: while you compared with version {compared_with}, "
                f"{ca.changed_by([a for a, _ in newer] or [updated_by], user)} saved "
                f"version {current_version} at {times.shown(updated_at)}; the comparison "
                f"below now includes it: check it again, then Save merged. {kept}"
                if compared_with else
                f"Not saved: {item['id']} was changed by {ca.changed_by(authors, user)} at "
                f"{times.shown(updated_at)} (now version {current_version}); you edited "
                f"version {work['base_version']}. {kept} "
                "Save merged keeps their changes to what you did not change.")
        return work, {
            "kind": "conflict", "current_version": current_version,
            "draft_conflict": draft_conflict, "changed": changed,
            "by": " and ".join(ca.choosers(how["authors"], [
                k for keys in cm.choice_keys(base, theirs, item).values() for k in keys]))
            or ca.whose(authors, user),
            "saved_heading": ca.saved_heading(authors, current_version, user),
            "take_from": ca.take_from(authors, current_version, user),
            "message": said,
            "diff": cr.rows(base, theirs, item, **how),
            "table": self.conflict_table(base, theirs, item, **how),
            "both": both, "ticked": [c for c in ticked or () if c in both],
        }

    def _panel_changed(self, work: dict, item: dict, version: int, user: str,
                       session: str | None, take_saved) -> tuple[dict, dict] | None:
        """The conflict panel shown again (`_conflict`, changed) when a Save merged comes with
        edits (`item`, as a save would store them) whose comparison with version `version` is
        not the one the panel showed when the choices were made; None when it is (or no panel
        was noted: a script merging at once). bob ticked "question" (take alice's), typed the
        question again, and Save merged dropped his new text with his draft; a question only
        alice had changed ("theirs kept", no checkbox), then typed by bob, was saved over
        hers unasked (a review)."""
        seen = work.get("panel_seen")
        if seen is None:
            return None
        theirs = self.store.get_item(item["id"])
        if theirs["version"] != version or \
                cr.panel_seen(self._base(work, theirs), theirs, item) == seen:
            return None     # (moved on since: the save is refused as a conflict again)
        return self._conflict(work, item, version, theirs.get("updated_by"),
                              theirs.get("updated_at"), user, session, True, take_saved)

    def _switched_unsaved(self, work: dict, item: dict, user: str, session: str | None,
                          note: str) -> tuple[dict, dict]:
        """A save whose type the form had not followed: not saved. The item is switched as
        the Answer type list would have switched it, kept as the draft and shown, with what
        the switch converted or set aside: the user sees the new type's form first."""
        old = af.type_name(work["item"].get("answer_type"))
        work = {**work, "item": item}
        try:
            self.keep_draft(work, item, user, session)
        except StoreError:      # not kept as a draft: the page shows the edits all the same
            pass
        return work, {"kind": "switched", "message": (
            f"Not saved: the answer type says {af.type_name(item.get('answer_type'))} but the "
            f"form still showed the {old} answer; it is switched now. {note} Check the "
            "answer, then save again.")}

    def _said_merged_over(self, outcome: dict, item_id: str, base_version: int) -> dict:
        """A save merged at once: its message with what it was merged over after "Saved …"."""
        if outcome["kind"] != "saved":
            return outcome
        saved = outcome.get("saved_line") or f"Saved {item_id} as version {outcome['version']}."
        over = rules.merged_over(
            [r for r in self.store.reviews(item_id) if r["version"] >= base_version],
            self.store.history(item_id, base_version, outcome["version"] - 1),
            self.store.get_item(item_id)["status"])
        message = outcome["message"].replace(f" {outcome.get('merged_note')}", "", 1) \
            if outcome.get("merged_note") else outcome["message"]
        return {**outcome, "message": message.replace(saved, f"{saved} {over}", 1)}

    def _reloaded(self, work: dict, user: str) -> dict:
        """The work of the item as now saved, on the image this session showed. A draft still
        there is another tab's (drop_own_draft kept it): said, not shown (the form showed it
        right after "Saved", this tab's own edit gone from the screen)."""
        fresh = self.load_for_review(work["item"]["id"], user) if self._aside(work, user) \
            else self.load(work["item"]["id"], user, apply_draft=False)    # (said as hers)
        # on the image this tab showed, while the item still has it (a merge with a version
        # that removed an image left image 4 of 3 open: an empty canvas)
        fresh["image_index"] = min(work.get("image_index", 0),
                                   max(0, len(fresh["item"].get("images") or []) - 1))
        return fresh

    @staticmethod
    def _nothing_to_save(saved: dict, replaced: list[str] | None = None, by: str = "",
                         lost: str = "") -> dict:
        """"Nothing to save"; after a merge that kept none of my edits, with those of them
        replaced by theirs (`replaced`, by `by`) or that they had made them already, or
        (`lost`) that they were only boxes on an image they removed."""
        said = f"Nothing to save: {saved['id']} is as saved (version {saved['version']})."
        if lost:
            said = f"Nothing to save. {lost} {saved['id']} is as saved (version {saved['version']})."
        elif replaced:
            said += (f" Your edits of {', '.join(replaced)} were replaced by version "
                     f"{saved['version']}, saved by {by}.")
        elif replaced is not None:
            said += f" Your edits are those saved by {by}."
        return {"kind": "unchanged", "message": said}

    @staticmethod
    def unchanged(work: dict, item: dict) -> bool:
        """Is the collected `item` the version this session opened, and that version the
        latest it knows of? (A switch of type and back, say.)"""
        return same_content(item, work["saved"]) and \
            work["base_version"] == work["saved"]["version"]

    def edits_refusal(self, work: dict | None, form: dict, annot_boxes: list | None) -> str:
        """Why a save of these edits would be refused by the editor's own rules (a gold that
        is no number, a box with no clue, ...), "" when they pass: a refusal shown in the
        save bar goes as soon as an edit fixes it (it stayed until the next save)."""
        if not work:
            return "open an item first"
        try:
            check_edits(self.collect(work, form, annot_boxes), work["saved"].get("status"))
        except em.EditError as err:
            return str(err)
        return ""

    def compare_with_saved(self, work: dict, form: dict, annot_boxes: list | None) -> list[list]:
        """Field-by-field: the saved (possibly someone else's) version against yours, as the
        panel shows it (`conflict_table`)."""
        item = self.collect(work, form, annot_boxes)
        theirs = self.store.get_item(item["id"])
        return self.conflict_table(self._base(work, theirs), theirs, item)

    def reloaded_rows(self, work: dict) -> list[list]:
        """The conflict table once the saved version replaced these edits (`work`, before
        the reload): what each side had, nothing said kept of mine."""
        theirs = self.store.get_item(work["item"]["id"])
        return self.conflict_table(self._base(work, theirs), theirs, work["item"],
                                   reloaded=True)

    def conflict_table(self, base: dict, theirs: dict, item: dict, **how) -> list[list[str]]:
        """The conflict panel's table (ui/conflict_rows.rows, `how` its words) as HTML: the
        words that differ marked, an option's two images shown small on each side."""
        images = [tuple(preview_url(self.store, sha) if sha else None for sha in pair)
                  for pair in cr.row_images(base, theirs, item)]
        return marked_rows(cr.rows(base, theirs, item, **how), images,
                           cr.row_sides(base, theirs, item))

    def _authors(self, work: dict, merged: tuple) -> list[str]:
        """The authors of the versions a merge was made over: those after the version these
        edits started from, up to the one merged with (`merged`: its version, its author)."""
        found = [h["author"] for h in reversed(self.store.history(
            work["item"]["id"], work["base_version"], merged[0]))]
        return found or [merged[1]]

    def _since(self, item_id: str, base_version: int, head: int) -> list[tuple[str, dict]]:
        """[(author, item)] of the versions saved after `base_version` up to `head`, in
        order: who made the changes a conflict is about (ui/conflict_authors). Only those
        are read (store history's `after`, `upto`), not the item's whole history."""
        return [(h["author"], self.store.revision(item_id, h["version"]))
                for h in reversed(self.store.history(item_id, base_version, head))]

    def _earlier(self, item_id: str, base_version: int, most: int = 20) -> list[dict]:
        """The last `most` versions before `base_version`: where a clue the versions since
        brought back was before (ui/conflict_merge.brought_back)."""
        return [self.store.revision(item_id, v)
                for v in range(max(1, base_version - most), base_version)]

    def _base(self, work: dict, saved: dict) -> dict:
        """The version these edits started from (the saved one if it is gone)."""
        try:
            return self.store.revision(saved["id"], work["base_version"])
        except NotFoundError:
            return saved

    def _merged(self, work: dict, item: dict, version: int, take_saved, user: str) -> tuple:
        """(my edits merged into the saved version `version`, (that version, its author),
        that version, what the message says besides: the parts it combined, my options it
        relabelled, my boxes on an image they removed it dropped); unmerged
        when the item has moved on since (the save is then refused as a conflict again, with
        a fresh diff)."""
        saved = self.store.get_item(item["id"])
        if saved["version"] != version:
            return item, None, work["saved"], ""
        base = self._base(work, saved)
        refused = cm.refused_choice(base, saved, item, take_saved or ())
        if refused:
            raise em.EditError(refused)
        merged, lost = cm.without_lost_boxes(cm.merge(base, saved, item, take_saved))
        authors = self._authors(work, (version, saved.get("updated_by")))
        note = (f"{lost} box{'es' * (lost != 1)} on an image {ca.whose(authors, user)} removed "
                f"{'were' if lost != 1 else 'was'} dropped.") if lost else ""
        taken, kept, keys = cm.choices_made(base, saved, item, take_saved)
        since = self._since(item["id"], work["base_version"], version)
        over = [(h["version"], h["author"]) for h in reversed(self.store.history(
            item["id"], work["base_version"], version))]
        # whose the combined changes were: my other tab's, one colleague's, or several's
        other_tab = True if set(authors) == {user} else "them" if len(set(authors)) > 1 \
            else False
        said = rules.merge_notes(cm.combined(base, saved, item, other_tab, take_saved or ()),
                                 cm.relabelled(base, saved, item), item, merged,
                                 other_tab is True)
        return merged, (version, saved.get("updated_by"), taken,
                        rules.content_changed(saved, base), kept, lost,
                        ca.whose_parts(base, since, user, keys) if since else {},
                        ca.versions_named(over, user) if len(over) > 1 else ""), saved, \
            " ".join(filter(None, [said, note]))


def check_edits(item: dict, was: str | None = None) -> None:
    """The rules a save applies to the edits themselves (not to the comment, the status
    rights or the version saved meanwhile): raises EditError. `was`: the saved status."""
    em.check_saveable(item)
    # sizes first: a 3,000-digit alias was refused as "no number the scorer can read", the
    # store's own reason (its limit) said only in the draft line
    found = over_limit(item)
    if found:
        raise em.EditError(found[1])
    check_gold(item, was)


def check_gold(item: dict, was: str | None = None) -> None:
    """Refuse a gold answer, options or boxes that break the rules imports flag
    (judges.gold_check), or an empty or placeholder question, an empty gold or a clue without
    text on an item past draft (missing_question, missing_gold, textless_clues), or an item
    released without a clue (clueless_release: not of one released already, `was`, which its
    own refusal, read-only, says), with one line per field: "Gold answer: ...; Clues: ..."."""
    clueless = clueless_release(item) if was != "released" else None
    problems = [p for p in [missing_question(item), missing_gold(item), textless_clues(item),
                            clueless, *gold_problems(item)] if p]
    if problems:
        by_field: dict[str, list[str]] = {}
        gold = str(item.get("answer") or "").strip()
        for problem in problems:
            message = problem.message if problem.field != "answer" else \
                af.in_builder_words(problem.message, gold)
            if problem.kind == "gold answer is not a number":
                message = af.unreadable_number(gold)
            if problem.kind == "numeric alias without a number":
                message = af.unreadable_alias(problem.value)
            by_field.setdefault(problem.field, []).append(message)
        raise em.EditError("; ".join(field_line(field, messages)
                                     for field, messages in by_field.items()))


def field_line(field: str, messages: list[str]) -> str:
    """"Gold answer: …" for one field's problems, without the field's name when the words
    name it already ("the gold answer '3,14159' is no number…")."""
    said, name = " · ".join(messages), FIELD_NAMES.get(field, field)
    named = said.lower().removeprefix("the ").startswith(name.lower())
    return said if named else f"{name}: {said}"     # not "Gold answer: gold answer is not …"


def as_compared(item: dict) -> dict:
    """`item` as a conflict panel compares it (save, after its ConflictError): the import
    problems settled, the status as the user has it (not the one the save would give it:
    a colleague's edit that put a verified item back in review was not listed, that
    change made on both sides)."""
    return rules.settle_problems(item)[0]


def current_image(work: dict) -> str | None:
    images = work["item"].get("images", [])
    index = work.get("image_index", 0)
    return images[index] if 0 <= index < len(images) else None


def same_content(a: dict, b: dict) -> bool:
    return not diff_items(em.content_only(a), em.content_only(b)) and not a.get("_unassigned")
