"""How large the text and lists people write may be: every declared limit in one place.

Why: nothing bounded an item's text, and every save is kept as a revision, so one annotator
saving a 12 MB question again and again grew the database by 72 MB in 14 s. The store
(store/validation.py, store/revisions.py, ...) refuses anything over these limits, whoever
writes it (the editor's save, an import, a restore, a script), with a message that names the
field and the limit, never the value.

The limits are generous: the published benchmarks are far below them (MMR-Life's longest
question, options inline, is 1,279 characters and its ids 7; an item has at most 10 images
and 5 options there, a handful of clues and boxes in DailyClue and VER-Bench).
"""
from __future__ import annotations

MAX_ITEM_ID = 200
"""An item id, e.g. `mmr-life/HAA_1`."""
MAX_NAME = 200
"""A dataset, domain, subtask or reasoning type."""
MAX_QUESTION = 20_000
MAX_ANSWER = 5_000
"""The gold answer."""
MAX_ALIAS = 1_000
MAX_ALIASES = 100
MAX_GT_REASONING = 50_000
MAX_CLUE_TEXT = 5_000
MAX_CLUE_REASONING = 20_000
MAX_CLUES = 100
MAX_BOXES_PER_CLUE = 100
MAX_BOXES = 1_000
"""Boxes of one item, all clues together."""
MAX_OPTIONS = 26
"""Options of an item (labelled A to Z)."""
MAX_OPTION_LABEL = 200
"""An option's label ("A"; an import keeps, and flags, whatever label its file gives)."""
MAX_OPTION_TEXT = 5_000
MAX_IMAGES = 100
"""Images of one item (MMR-Life: at most 10)."""
MAX_PROBLEMS = 100
"""Import problems of one item, each at most MAX_PROBLEM characters."""
MAX_PROBLEM = 1_000
SHOWN_RAW_LINE = 2_000
"""Characters of a malformed line's raw text (metadata.raw_line) the Annotate page's import
problems show; a longer one is cut there, its length said."""
MAX_METADATA = 1_000_000
"""An item's metadata bag, in characters of its JSON."""
MAX_COMMENT = 2_000
"""The comment a user types with a save (and the reason of a reopen or deletion)."""
MAX_REVISION_COMMENT = MAX_COMMENT + 2 * MAX_PROBLEMS * (MAX_PROBLEM + 2) + 1_000
"""A revision's whole comment: the user's, then what the save did (the import problems it
fixed and those marked resolved, ui/save_rules.revision_comment; a review's verdict and
note)."""
MAX_REVIEW_NOTE = 5_000
SHOWN_NOTE_LINES = 5
"""Lines of the latest review's note the notice above the editor shows (its blank runs as
one); a longer note ends in "…" there, whole under History and review. 5: 12 lines took
about 250 px above the editor and pushed most of the image below the fold at 1400x900."""
SHOWN_COMMENT = 200
"""Characters of a revision's comment History's table shows (its first line, wrapped): a
review's comment holds its whole note ("review: revise (Line one … line 15"), cut at the
cell's edge mid-word; a longer or many-line comment ends in "…" (the note is whole in the
review list below it)."""
MAX_DRAFT = 4_000_000
"""A draft (the editor's unsaved item, set-aside parts included), in characters of its JSON:
an item within every limit above is far smaller."""
MAX_DRAFTS_BYTES = 64_000_000
"""All of one account's drafts together, in bytes of their JSON (store/draft_budget.py):
each draft is kept at every edit, and an annotator autosaving maximal drafts of 40 items
wrote 100 MB in 7 s. An ordinary item's draft is a few KB: thousands of them fit."""
MAX_DRAFTS = 1_000
"""Drafts (items with unsaved edits) one account keeps at once: a draft is work in progress,
saved or discarded within the day; this bounds the rows the check of MAX_DRAFTS_BYTES sums
at every autosave."""

MAX_TAG = 40
"""A failure tag's name (Inspect)."""
MAX_TAG_DESCRIPTION = 200
MAX_RESPONSE_NOTE = 10_000
"""A note on a model's response (Inspect)."""
MAX_BASELINE_TEXT = 200
"""A human baseline's name or label."""
MAX_SEARCH = 200
"""The item list's search text: SQLite refused a LIKE pattern past 50,000 bytes (a server
error with a traceback per call), and a LIKE's cost grows with the pattern's length times
the text's (a 1,000-character search of an annotator's 2 MB of repetitive clue text took
30 s of a core). A phrase to find an item by is shorter."""
MAX_RUN_NAME = 120
MAX_RUN_NOTE = 4_000
MAX_JSON_ARRAY = 10_000
"""The most values one array (or object) of a request's JSON may hold (ui/body_json.py):
ten times the largest count an input may hold (MAX_BOXES; an item list page is 100 rows, a
clue table MAX_CLUES). A save whose clue table had 1,000,000 empty rows (15 MB) held the
server 13.8 s in Gradio's table reading, before any of these limits was checked."""
MAX_JSON_VALUES = 100_000
"""The most values all arrays and objects of one request's JSON may hold together: without
it, 10,000 rows of 400 empty cells each (12 MB) would cost what the million rows did."""


def too_long(what: str, length: int, limit: int) -> str | None:
    """"Question is 12,000,000 characters; the limit is 20,000", or None within the limit."""
    if length <= limit:
        return None
    return f"{what} is {length:,} characters; the limit is {limit:,}"


def too_many(whose: str, what: str, count: int, limit: int) -> str | None:
    """"The item has 120 clues; the limit is 100", or None within the limit."""
    if count <= limit:
        return None
    return f"{whose} has {count:,} {what}; the limit is {limit:,}"

MAX_OPEN_STREAMS = 64
"""Answers that stay open (a page's heartbeat, its event messages, an event's result read by
a script, an upload's progress) of one account at once (ui/stream_caps.py); a page holds one
or two, so a dozen tabs hold at most ~24."""

MAX_HISTORY_PER_HOUR = 200_000_000
"""Bytes of item history (revisions: a whole snapshot of the item per save, restore,
duplicate, deletion) one account may add in any hour (store/save_budget.py). Every
revision is kept, so saves of maximal items (~4 MB each) filled a disk at ~50 GB an hour;
now at most ~200 MB (about 50 such saves). An ordinary item is a few KB: a save every two
seconds all hour adds ~20 MB."""
HISTORY_WINDOW_S = 3600

MAX_UPLOAD_FILES_PER_HOUR = 1_000
"""Files one account may upload in any hour (ui/upload_limits.py), whatever their size: one
annotator's 101 uploads of 1,000 tiny files each put 101,000 files in the upload folder in
42 s (the byte quota let them). An import is one file (a ZIP), a new item at most MAX_IMAGES
images, and a person adding images adds a few a minute: a few hundred an hour."""
UPLOAD_FILES_WINDOW_S = 3600


def history_wait_s(recent: list[tuple[float, int]], now: float,
                   limit: int = MAX_HISTORY_PER_HOUR,
                   window_s: float = HISTORY_WINDOW_S) -> float | None:
    """Seconds until an account may add history (or uploads) again, None if it may now.
    `recent`: the (time, bytes or files) of its revisions of the last `window_s`, oldest
    first; it may while they total under `limit`, and again once enough of them are older
    than the window."""
    total = sum(size for _, size in recent)
    for at, size in recent:
        if total < limit:
            break
        total -= size
        if total < limit:
            return max(0.0, at + window_s - now)
    return None

BODY_WINDOW_S = 30.0
BODY_MIN_BYTES = 64 * 1024
"""A request's body must keep coming (ui/connection_limits.py): each BODY_WINDOW_S after its
headers must bring at least BODY_MIN_BYTES of it, or the rest of it, else the connection
is answered 408 and closed. A body trickled in a byte every 10 s held its connection for
good, and 255 of them all of one address's connections. The minimum is ~2.2 KB/s (17
kbit/s): a 1 Mbit/s uplink brings ~3.7 MB a window (a 500 MB ZIP passes in ~70 minutes),
a 256 kbit/s one ~15 times the minimum (each of six uploads at once ~2.4 times); a body of
at most 64 KB (a login) must be whole within one window. A window in which the server itself
did not read (the app had not taken what came, or the client waits for its 100 Continue)
asks nothing."""

MAX_LIVE_SESSIONS = 30
"""Sessions of Gradio's queue one account may have the server hold at once
(ui/session_caps.py). Gradio keeps ~0.95 MB for each session an event ran in (its copy of
the pages' component configs and gr.State values: 300 fresh sessions of load_item, or of
search_items or stats, grew the server's RSS by 280-290 MB), and kept one for every fresh
session_hash a client joined the queue with: an annotator's script could make 10,000 of
them (~10 GB). A tab or window holds one session and a reload or a click on the top bar
starts another; at the cap, the closed ones (SESSION_GRACE_S after their last use, their
results read) are released first: a person needs 30 tabs open at once to meet it. Counted
until SESSION_IDLE_S, closed tabs locked a user out after ~30 page loads in 3 minutes (a
review)."""
SESSION_GRACE_S = 2
"""Seconds after its last use (an event pushed, its heartbeat ended) before a session with
no heartbeat open, no event queued or running and every result read (a closed or reloaded
tab, a script's finished call) is released at the cap: long enough for a page's reload to
open its new heartbeat, short enough that page loads never pile up."""
SESSION_IDLE_S = 180
"""Seconds after which a session with results nobody read (a client that joins the queue
and never reads its messages: the memory attack) stops counting towards MAX_LIVE_SESSIONS
and its state is released, once its account reaches the cap. A page's heartbeat stays open
while it is open; a session a result call (POST /gradio_api/call/<api>) made is used for
that call only and is released as soon as its result was read."""
STATE_SESSIONS = 2_000
"""Sessions Gradio keeps state for at most, all accounts together (its state_session_capacity,
10,000 by default: ~10 GB at ~0.95 MB each); beyond it Gradio forgets the least recently used
one. 2,000 (~1.9 GB) is the number of sessions whose messages Gradio's queue keeps anyway
(its LRU of pending messages), and room for 66 accounts at MAX_LIVE_SESSIONS at once; an
account's closed sessions are released when it reaches its cap, so the oldest ones Gradio
forgets are those of tabs closed long ago."""
LOGIN_IDLE_S = 12 * 3600
"""Seconds a login lasts unused (no request brings its cookie: every tab of it closed) before
it ends and its browser is asked to log in again (ui/login_route.py). An open page's
heartbeat uses it, so a tab left open does not end it; LOGIN_MAX_AGE_S does. A reviewer
found logins lasting until logout, a password change or `user disable`: a token taken from
a browser served its thief for ever."""
LOGIN_MAX_AGE_S = 7 * 24 * 3600
"""Seconds a login lasts at most, used or not, before its browser logs in again."""
