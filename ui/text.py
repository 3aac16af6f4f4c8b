"""Escaping for untrusted text (imported files, model output) shown in Markdown or HTML.

Gradio renders Markdown components as HTML; anything that did not come from our own code
goes through these helpers so that `<script>`, `<img onerror=…>` and `javascript:` links
are shown as text and never run. Toasts and status messages go through `ui.messages`, which
uses these. Each helper escapes once: give them plain text, never text already escaped.
"""
from __future__ import annotations

import html
import re
import unicodedata

from domain.item_ids import DIRECTION_MARKS, REFUSED_MARKS

# One pass over the text: HTML's characters become entities, Markdown's get a backslash,
# and `:` and `@` become entities so that no URL or e-mail address in the text is
# auto-linked (GFM links `https://…`, `www.…` and `a@b.c` found in plain text). Quotes stay
# as they are: in Markdown text they are text, and their entity's `#` got a backslash once,
# which showed `&#x27;` on screen.
# `~` becomes an entity too: GFM renderers (Gradio's among them) strike through text between
# single tildes, and some leave the backslash of `\~` on screen.
_MD_ENTITIES = {"&": "&amp;", "<": "&lt;", ">": "&gt;", ":": "&#58;", "@": "&#64;",
                "~": "&#126;"}
TILDE = "&#126;"     # "about" in our own Markdown text ("~16,671 tokens"), never struck through
_MD_SPECIAL = re.compile(r"[&<>:@\\`*_{}\[\]()#+\-.!|~]")


def escape_html(text) -> str:
    return html.escape("" if text is None else str(text), quote=True)


def escape_md(text) -> str:
    """Text that Markdown shows literally and never as a link: HTML escaped, Markdown syntax
    backslashed, URLs and addresses broken up (see _MD_ENTITIES)."""
    return _MD_SPECIAL.sub(lambda m: _MD_ENTITIES.get(m.group()) or "\\" + m.group(),
                           "" if text is None else str(text))


_MD_ESCAPED = re.compile(r"&(?:amp|lt|gt|#58|#64|#126);|\\([&<>:@\\`*_{}\[\]()#+\-.!|~])")
_MD_UNESCAPED = {v: k for k, v in _MD_ENTITIES.items()}


def unescape_md(source) -> str:
    """The text `escape_md` made `source` from: a Markdown line the page sends back (the save
    bar's draft line, which a later event quotes) becomes plain text again, to be escaped
    once more on its way out (it is the browser's, so it is never sent back as it came)."""
    return _MD_ESCAPED.sub(lambda m: m.group(1) or _MD_UNESCAPED[m.group()],
                           "" if source is None else str(source))


def note_lines(note) -> list[str]:
    """A note's lines as shown (the notice above the editor, the review list): each ended
    without its trailing spaces, each run of blank lines one, none at either end."""
    lines: list[str] = []
    for line in ("" if note is None else str(note)).strip().splitlines():
        line = line.rstrip()
        if line or (lines and lines[-1]):
            lines.append(line)
    return lines


def short(text, limit: int = 90) -> str:
    text = " ".join(("" if text is None else str(text)).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


FSI, PDI = "\u2068", "\u2069"
"""First-strong isolate and pop directional isolate: text between them is laid out on its
own, in Markdown, HTML and a plain confirm dialog alike, and nothing in it reorders the
words around it."""
_OVERRIDES = {chr(code) for code in DIRECTION_MARKS} - {FSI, PDI}


def quoted(text, limit: int | None = None, marks: str = '""') -> str:
    """User text (a clue's, an option's, a note) as a message quotes it, in `marks`: on one
    line, cut at `limit` characters with "…", `isolated`. Why: "Removed clue 1 "tiny cat
    \u202eevil…" showed the rest of the message mirrored ("…ti sgnirb tfard")."""
    return f"{marks[0]}{isolated(' '.join(('' if text is None else str(text)).split()), limit)}" \
        f"{marks[-1]}"


def isolated(text, limit: int | None = None) -> str:
    """`text` (cut at `limit` characters with "…") without its text-direction controls
    (domain.item_ids.DIRECTION_MARKS) and, when it held one or holds right-to-left letters,
    in an isolate (FSI … PDI): Hebrew or Arabic words no longer move the quote marks and
    numbers around them, and nothing in the text reaches past it. Line breaks stay."""
    text = "" if text is None else str(text)
    kept = "".join(ch for ch in text if ord(ch) not in DIRECTION_MARKS)
    if limit is not None and len(kept) > limit:
        kept = kept[:limit] + "…"
    if any(ord(ch) in DIRECTION_MARKS for ch in text) or \
            any(unicodedata.bidirectional(ch) in ("R", "AL") for ch in kept):
        kept = FSI + kept + PDI
    return kept


def marks_shown(text) -> str:
    """`text` as received with each text-direction control or invisible control character
    (REFUSED_MARKS) written as its code, "⟨U+202E⟩", and everything else kept. Why:
    Inspect's "Model output (as received)" showed a reply stored as "reasoning \u202eC
    :rewsnA\u202c" as "… Answer: C"; a view of text as received shows the controls a view
    elsewhere strips (`isolated`). History's diff of a question imported with a NUL showed
    before and after alike; it reads "go⟨U+0000⟩ out" now."""
    return "".join(f"\u27e8U+{ord(ch):04X}\u27e9" if ord(ch) in REFUSED_MARKS else ch
                   for ch in ("" if text is None else str(text)))


def without_overrides(message) -> str:
    """A message without the text-direction controls that reach past their text
    (embeddings, overrides, marks, the isolates other than FSI … PDI, which `quoted`
    writes): our own words hold none, so one is user text quoted raw, which would reverse
    the words after it. ui.messages passes every toast and status line through it."""
    return "".join(ch for ch in str(message) if ch not in _OVERRIDES)


def draw_cell(repeat, sample) -> str:
    """A response's repeat and sample in a list's "draw" column: "r0 s1", as Compare names
    them (the lists' "r/s" column with "0/1" cells was read as a fraction)."""
    return f"r{repeat} s{sample}"


def sentences(parts: list[str]) -> str:
    """'judge x, samples rule majority vote. Over 3 repeats (n 5): …': each part a sentence,
    capitalised, one full stop between two ("majority vote. over 3 repeats" read as a typo,
    and a part ending in its own full stop made two)."""
    parts = [part.rstrip(".") for part in parts]
    return ". ".join(part if k == 0 else part[:1].upper() + part[1:]
                     for k, part in enumerate(parts)) + ("." if len(parts) > 1 else "")
