"""What an item id may be, and how an id that may not is shown.

An id is text without control, invisible or text-direction characters (Unicode categories
Cc, Cf, Zl and Zp: a zero-width space, a right-to-left override, ...; and the characters
drawn as nothing, BLANKS: a braille blank, a Hangul filler): they make one id look like
another, or, printed, turn the rest of the line around. The store refuses such an id
(store/validation.py), an import skips it with this reason (formats/importer.py), and every
report shows it with those characters written out (`visible`), never as they are.
"""
from __future__ import annotations

import re
import unicodedata

from .limits import MAX_ITEM_ID

HIDDEN_CATEGORIES = ("Cc", "Cf", "Zl", "Zp")
BLANKS = frozenset([0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, *range(0x180B, 0x1810), 0x2800,
                    0x3164, 0xFFA0, *range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0)])
"""Characters drawn as nothing that are no control or format character: the combining
grapheme joiner, Hangul fillers, the braille blank, variation selectors. "demo/park-season"
followed by one of them was listed three times as "demo/park-season" (the attacker review)."""


def hidden(ch: str) -> bool:
    """Is `ch` a control, invisible, line-separating or blank character?"""
    return unicodedata.category(ch) in HIDDEN_CATEGORIES or ord(ch) in BLANKS
HIDDEN_CHARACTER = "id has a control or invisible character"
SPACES_AROUND = "id has leading or trailing spaces"
NO_ID = "missing or empty id"
TOO_LONG = f"id is longer than the limit of {MAX_ITEM_ID} characters"
SHOWN_MAX = 80
"""The most of an over-long id a message shows (an id within MAX_ITEM_ID is shown whole)."""


def no_words(text) -> bool:
    """Does `text` show nothing: only spaces and characters drawn as nothing (`hidden`: a
    braille blank, a Hangul filler, a word joiner, ...)? A question or clue of a braille
    blank passed "needs its words" and went in review looking empty (a review, round 29)."""
    return all(ch.isspace() or hidden(ch) for ch in str(text or ""))


def has_hidden_characters(text: str) -> bool:
    """True if `text` holds a control character or an invisible format character."""
    return any(hidden(ch) for ch in text)


def id_problem(item_id) -> str | None:
    """Why `item_id` is no valid item id (one of the sentences above), None when it is."""
    if not isinstance(item_id, str) or not item_id.strip():
        return NO_ID
    if len(item_id) > MAX_ITEM_ID:         # first: the other checks read every character
        return TOO_LONG
    if has_hidden_characters(item_id):
        return HIDDEN_CHARACTER
    if item_id != item_id.strip():
        return SPACES_AROUND
    return None


NAME_FIELDS = ("dataset", "domain", "subtask", "reasoning_type")
"""The names items are grouped by: filters, statistics and every breakdown list them."""
HIDDEN_IN_NAME = ("may not hold control, invisible or text-direction characters (they make "
                  "one name look like another)")
DATASET_AS_PATH = ("a dataset name may not be '.' or '..', start with '.', or hold '\\' "
                   "(exports name files after it)")


MARKUP_CHARACTERS = "<>&\"'`"
"""Characters that read as markup (HTML's, a script's quotes, Markdown's code): a user name
holds none (domain/user_names.py), nor does a new id (with `\\`: NEW_ID_MARKUP)."""
NEW_ID_MARKUP = MARKUP_CHARACTERS + "\\"
"""Refused in a new id typed in the app and in a new dataset's name: "javascript:alert(1)"
became a dataset listed in every user's filters, exports and statistics."""
NAME_MARKUP = "<>`"
"""Refused in a new domain, subtask or reasoning type: `<img src=x onerror=...>` was saved
as a domain and listed in every filter and in Statistics."""
LABEL_MARKUP = NEW_ID_MARKUP + "[]"
"""Refused in a new option label: `<img src=…>` as a label was shown live in the save bar's
draft line of whoever edited that option next (an attacker's review); a label is a letter or
a short name, and Markdown's link brackets have no place in one."""


def label_problem(label: str) -> str | None:
    """Why `label` may not be a new option's label (a character that reads as markup), None
    when it may. A label stored before this rule stays (the editor checks new ones only;
    imports flag, never relabel: the gold and the history name it)."""
    found = markup_in(str(label), LABEL_MARKUP)
    return (f"an option label may not hold {shown_character(found)} (it reads as markup)"
            if found else None)


NAME_WORDS = {"dataset": "a dataset name", "domain": "a domain", "subtask": "a subtask",
              "reasoning_type": "a reasoning type"}


def shown_character(ch: str) -> str:
    """One character for a message, quoted so that it is told apart: "<", '"'."""
    return f"'{ch}'" if ch == '"' else f'"{ch}"'


def markup_in(text: str, characters: str = MARKUP_CHARACTERS) -> str | None:
    """The first of `characters` in `text` (None when there is none)."""
    return next((ch for ch in text if ch in characters), None)


def path_parts_problem(text: str, what: str) -> str | None:
    """Why `text`, read as a path, has a part that is none (empty, '.' or '..'): "other/../
    demo/x" named a dataset "other" beside the item it read as."""
    parts = text.split("/")
    if "" in parts:
        return f"{what} has an empty part (a '/' at its start or end, or '//')"
    if "." in parts or ".." in parts:
        return f"{what} has a '.' or '..' part (it reads as a path to another place)"
    return None


def name_problem(field: str, value, stored=None) -> str | None:
    """Why `value` is no name for `field` (one of NAME_FIELDS), None when it may be; a name
    with markup or a dataset's path parts (NAME_MARKUP, NEW_ID_MARKUP) may stay only as the
    one `stored` (the item's own, from before that rule: a stored name is kept).
    Why: "Spatial Relationship\u200b" was listed beside "Spatial Relationship" as another
    domain, splitting its numbers in two rows that read alike; a dataset `..` named files."""
    if not isinstance(value, str):
        return None
    if has_hidden_characters(value):
        return HIDDEN_IN_NAME
    if field == "dataset" and (value.startswith(".") or "\\" in value):
        return DATASET_AS_PATH
    if value == stored:
        return None
    if field == "dataset" and (found := path_parts_problem(value, "the name")):
        return found
    found = markup_in(value, NEW_ID_MARKUP if field == "dataset" else NAME_MARKUP)
    if found:
        return (f"{NAME_WORDS.get(field, 'a name')} may not hold {shown_character(found)} "
                "(it reads as markup)")
    return None


def without_hidden(text: str) -> str:
    """`text` without its control and invisible characters."""
    return "".join(ch for ch in text if not hidden(ch))


def visible(text: str) -> str:
    """`text` with each control or invisible character written as its escape
    ("rtl\\u202eevil", "zero\\u200bwidth"): safe to print, and told apart from any other."""
    return "".join(
        (f"\\u{ord(ch):04x}" if ord(ch) <= 0xFFFF else f"\\U{ord(ch):08x}")
        if hidden(ch) else ch for ch in str(text))


def typed_id_refusal(item_id) -> str | None:
    """Why an id someone typed (the id box, `?item=`, a new or duplicate id, a command's
    ITEM) is refused before it is looked up, in words that never quote it ("the id is
    1,000,000 characters; ids are at most 200"); None for an id that may be looked up.
    Why: "no item with id '…'" sent back a megabyte id, its line breaks and U+202E raw."""
    text = str(item_id)
    if len(text) > MAX_ITEM_ID:
        return f"the id is {len(text):,} characters; ids are at most {MAX_ITEM_ID:,}"
    found = sorted({ord(ch) for ch in text if hidden(ch)})
    if found:
        names = ", ".join(f"U+{code:04X}" for code in found[:5])
        return (f"the id holds control, invisible or text-direction characters ({names}); "
                "ids hold none")
    return None


def new_id_refusal(item_id) -> str | None:
    """Why an id typed for a new item (New item, Duplicate) is refused: typed_id_refusal's
    reasons, a part that is none (path_parts_problem) and a character that reads as markup
    (NEW_ID_MARKUP), named; None when it may be made. Only new ids: an imported id, or one
    typed to open an item, is not held to it (existing items keep their ids)."""
    if refused := typed_id_refusal(item_id):
        return refused
    text = str(item_id)
    if found := path_parts_problem(text, "the id"):
        return found
    if found := markup_in(text, NEW_ID_MARKUP):
        return f"the id may not hold {shown_character(found)} (it reads as markup)"
    return None


def shown_id(item_id) -> str:
    """`item_id` for a message: `visible`, and an id over the limit cut to its first
    SHOWN_MAX characters and its length ("aaaa… (12,000,000 characters)"): a message never
    carries megabytes of it."""
    text = str(item_id)
    if len(text) > MAX_ITEM_ID:
        return f"{visible(text[:SHOWN_MAX])}… ({len(text):,} characters)"
    return visible(text)


LOOK_ALIKES = str.maketrans({
    # Cyrillic and Greek letters drawn like Latin ones (after case folding), and dashes and
    # hyphens drawn like "-": "demо/bus" (a Cyrillic o) or "bus\u2011stop" (a non-breaking
    # hyphen) read exactly as "demo/bus" and "bus-stop" in every list
    **dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d", "-"),
    "а": "a", "в": "b", "е": "e", "ѕ": "s", "і": "i", "ј": "j", "к": "k", "м": "m",
    "н": "h", "о": "o", "р": "p", "с": "c", "т": "t", "у": "y", "х": "x", "һ": "h",
    "ӏ": "l", "ԁ": "d", "ԛ": "q", "ԝ": "w", "ү": "y", "ё": "e",
    "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "κ": "k", "μ": "u", "ν": "v",
    "ο": "o", "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "ω": "w", "ϲ": "c", "ϳ": "j",
})


def id_key(text: str) -> str:
    """What a reader takes an id (or a dataset name) for: NFKC, case-folded, spaces as one
    and none around "/", look-alike letters and dashes as the Latin ones they are drawn like
    (LOOK_ALIKES)."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())
    # spaces: a run of them reads as one, and none beside a "/" ("demo/ x" was made beside
    # "demo/x", a domain "Spatial  Relationship" beside "Spatial Relationship": round 29)
    spaced = re.sub(r"\s*/\s*", "/", re.sub(r"\s+", " ", folded))
    return spaced.translate(LOOK_ALIKES)


def look_alike(new_id: str, existing) -> str | None:
    """The id of `existing` that `new_id` would read as (told apart only by case or look-
    alike characters), or whose dataset's name its dataset's reads as; None when none."""
    key, dataset = id_key(new_id), new_id.split("/", 1)[0]
    for other in existing:
        if other == new_id:
            continue
        if id_key(other) == key:
            return other
        theirs = other.split("/", 1)[0]
        if "/" in other and "/" in new_id and theirs != dataset and \
                id_key(theirs) == id_key(dataset):
            return other
    return None


def dataset_from_file(path) -> str:
    """A dataset name from a file's name, for the lines of the file that name none (a
    malformed line, a line without id or dataset): the characters a dataset name may not
    hold (name_problem) made "-". Why: "Q&A set.jsonl" gave its malformed line the dataset
    "Q&A set", which the store refused, and the line was dropped, its cause unsaid."""
    from pathlib import PurePath
    stem = without_hidden(PurePath(str(path)).stem)
    name = "".join("-" if ch in NEW_ID_MARKUP or ch == "/" else ch for ch in stem)
    name = name.strip().lstrip(".").strip() or "import"
    return name if name not in (".", "..") else "import"


DIRECTION_MARKS = frozenset(range(0x202A, 0x202F)) | frozenset(range(0x2066, 0x206A)) | \
    {0x200E, 0x200F, 0x061C}
"""Text-direction controls (embeddings, overrides, isolates, marks): in a comment "fixed typo
\u202egnp.exe" was listed in History as "fixed typo exe.png"."""


INVISIBLE_CONTROLS = frozenset(c for c in range(0x20) if c not in (0x09, 0x0A, 0x0D)) | \
    frozenset(range(0x7F, 0xA0)) | {0xFEFF, 0x2028, 0x2029, 0x200B, 0x180E} | \
    frozenset(range(0x2060, 0x2065))
"""Control characters drawn as nothing: C0 controls but tab, line feed and carriage return,
DEL, C1 controls (U+0080-U+009F, U+0085 among them), the byte-order mark U+FEFF, the line
and paragraph separators U+2028/U+2029, the zero-width space U+200B, the word joiner and
invisible operators U+2060-U+2064 and the Mongolian vowel separator U+180E. "Should the bins
go\u0000 out tonight?" was saved from the Annotate page: SQLite's text functions stop at
the NUL (a search for "out tonight" found nothing), the TSV export wrote it raw, and
History's diff showed before and after alike. The zero-width joiners U+200C/U+200D stay
allowed: Persian, Indic scripts and emoji need them."""
REFUSED_MARKS = DIRECTION_MARKS | INVISIBLE_CONTROLS
"""The characters a text typed into the app may not hold (DIRECTION_MARKS and
INVISIBLE_CONTROLS): the one set the editor's save, review notes, comments, run labels and
tag notes check, and the import flags (judges/direction_parts.py, formats/direction_flags.py)."""


def marks_named(codes) -> str:
    """"a text-direction control", "invisible control characters", "text-direction and
    invisible control characters": what the characters `codes` (code points) are."""
    codes = set(codes)
    controls, direction = codes & INVISIBLE_CONTROLS, codes - INVISIBLE_CONTROLS
    if controls and direction:
        return "text-direction and invisible control characters"
    if controls:
        return ("an invisible control character" if len(controls) == 1
                else "invisible control characters")
    return "a text-direction control" if len(direction) == 1 else "text-direction controls"


def direction_marks_problem(what: str, text) -> str | None:
    """Why a free text (a revision comment, a review note) is refused for its text-direction
    controls or invisible control characters (REFUSED_MARKS), naming them and never quoting
    the text; None when it holds none. Line breaks and tabs stay allowed: a note may have
    several lines."""
    found = sorted({ord(ch) for ch in str(text or "") if ord(ch) in REFUSED_MARKS})
    if not found:
        return None
    names = ", ".join(f"U+{code:04X}" for code in found[:5])
    if not set(found) & INVISIBLE_CONTROLS:
        return (f"{what} holds text-direction characters ({names}), which make it read as "
                "other text; remove them")
    return (f"{what} holds {marks_named(found)} ({names}), unseen on the page; remove "
            f"{'it' if len(found) == 1 else 'them'}")


def without_direction_marks(name: str) -> str:
    """A file's name as it is shown back and as a path derived from it is made: its
    text-direction controls (DIRECTION_MARKS) removed. "evil<U+202E>txt.jsonl" read
    "evillnosj.txt" in the import report, in History's "import jsonl …" and in the upload's
    temporary path; now "eviltxt.jsonl". A name of controls alone is "upload"."""
    kept = "".join(ch for ch in str(name) if ord(ch) not in DIRECTION_MARKS)
    return kept if kept.strip(" .") else "upload"

