"""The two-tab choice once the other tab's draft is gone (ui/annotate_drafts.py).

One account, one item in two tabs: tab 2's edit was refused as a draft because tab 1 had
changed it, and tab 2 was offered "Open the other tab's draft" / "Keep this tab's edits".
Tab 1 then saved (its save drops the draft) or discarded. "Open the other tab's draft"
opened the item again: there being no draft, the saved version, and tab 2's typed edits
were gone, unsaid (the confirm had named the other tab's edits as replacing them).

Now, when the draft offered is gone, opening it never throws this tab's edits away: they
are kept as the account's draft (a Save then shows the conflict panel as usual, the item
being at a newer version), and the line says the other draft is gone and why. The same
happens when the tab comes back into view while the choice is shown (#draft-recheck,
assets/draft_choice_stay.js), before the user clicks anything.
"""
from __future__ import annotations

import gradio as gr

from ui import editor_notices as notices
from ui import messages
from ui.session import browser_session, user_of

# the line of a two-tab choice (annotate_drafts.draft_conflict_offer): "… Open it or keep
# this tab's edits …"
CHOICE_MARK = "Open it or keep this tab"


def offered(line) -> bool:
    """Does the save bar's draft line (as the page sends it back) ask the two-tab choice?"""
    return CHOICE_MARK in str(line or "").replace("\\", "")


def gone_why(editor, request, work) -> str | None:
    """Why the draft the choice offers is gone, or None while there is one. The draft kept
    now may be this tab's own: its edits' autosave, sent before the other tab saved, ran
    after (it found no draft to conflict with), the choice still shown."""
    if not work or work.get("released_draft"):
        return None
    return notices.draft_gone_why(editor.store, work, user_of(request),
                                  own=browser_session(request))


def moot(editor, request, work) -> bool:
    """Is the draft kept this tab's own (the choice, if still shown, has nothing to offer)?"""
    if not work or not browser_session(request):
        return False
    draft = editor.store.get_draft(user_of(request), work["item"]["id"])
    return bool(draft) and draft.get("session") == browser_session(request)


def kept_instead(kept: tuple, why: str) -> tuple:
    """(the draft line, the tab-choice row hidden) after this tab's edits were kept in place
    of the draft that is gone: `kept` is annotate_drafts.autosaved's (line, row)."""
    line, said = kept[0], f"The other tab's draft is gone ({why})."
    if isinstance(line, str) and "(draft kept)" in line:
        said += " This tab's edits are kept as your draft; Save shows what changed first."
        return f"{line} {messages.status(said)}", gr.update(visible=False)
    if line == "":
        return messages.status(f"{said} This tab has no unsaved edits."), gr.update(visible=False)
    said += " This tab's edits are on this page only: edit on to keep them as a draft, or Save."
    why_not = f" {line}" if isinstance(line, str) and line.startswith("Not kept") else ""
    return messages.status(said) + why_not, gr.update(visible=False)
