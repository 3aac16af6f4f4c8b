"""Multiple choice: the option letter a model chose.

Explicit markers first (statements.py): the final statement's letter, unparsed when it gives
two ("Answer: B or C"). Without a marker: the last non-empty line starting with `C.`, `C)` or
`(C)`, a line that is exactly one letter, a single `(C)` in the last line, or an option's full
text instead of its letter (a unique match). A letter inside a word or sentence never counts:
"# Answer: C\\nThis matches the blue cube." is C, not the E of "cubE." (MMR-Life's own regex
reads E). Only option labels count (A-J when no options are given). "Answer: A dog" where
"a dog" is the text of option B is B. The lines without a marker are read from the text's
prose (`clues.prose`): a clue line is never taken for the answer line.
A cut-off reply (`complete` False) is read from its whole statements only (statements.py).
"""
from __future__ import annotations

import re

from domain.extract.clues import prose
from domain.extract.statements import CUT_OFF, final, lead, lines, unwrap

DEFAULT_LABELS = "ABCDEFGHIJ"

_NOT_WORD = re.compile(r"[^\w\s]")
_ALTERNATIVE = re.compile(r"\s*[)\].]?\s*(?:,|/|&|\bor\b|\band\b)\s*[(\[]?([A-Z])(?![\w])")
_JUST_A_LETTER = re.compile(r"[(\[]?([A-Za-z])[)\].]?")
_LEADING_LETTER = re.compile(r"[(\[]?([A-Z])(?![\w])([)\].:]?)")
_LOWER_WORD_NEXT = re.compile(r"\s+[a-z]")
_FIRST_SENTENCE = re.compile(r"[.\n]")
_LINE_STARTS_WITH_LETTER = re.compile(r"[(\[]?([A-Z])(?:[)\].:](?:\s|$)|$)")
_LETTER_IN_PARENTHESES = re.compile(r"\(([A-Z])\)")
_OPTION_WORD = re.compile(r"(?i)(?:the\s+)?(?:option|choice)\s*[:#]?\s*(?=[(\[]?[A-Z](?!\w))")
""""Option C", "the choice (B)": the word before the letter ("Answer: Option C" was
unparsed, "no option letter or text", and so counted wrong)."""


def labels(options: list[dict] | None) -> list[str]:
    """The option labels in upper case; A-J when the item gives none."""
    found = [str(o.get("label", "")).strip().upper() for o in options or []]
    return [label for label in found if label] or list(DEFAULT_LABELS)


def _normal(text: str) -> str:
    """Lower case, punctuation to spaces, single spaces, no leading article."""
    words = _NOT_WORD.sub(" ", text.lower()).split()
    return " ".join(words[1:] if words[:1] in (["a"], ["an"], ["the"]) and len(words) > 1
                    else words)


def option_in(text: str, options: list[dict] | None, exact: bool) -> tuple[str | None, str]:
    """The label of the one option whose text `text` is (exact) or contains as whole words.
    An option contained in another matching option's text ("cat" in "black cat") yields."""
    said = _normal(text)
    texts = {str(o["label"]).upper(): _normal(str(o.get("text") or ""))
             for o in options or [] if o.get("label") and o.get("text")}
    hits = {label: t for label, t in texts.items() if t and (
        said == t if exact else re.search(rf"(?<!\w){re.escape(t)}(?!\w)", said))}
    hits = {label: t for label, t in hits.items()
            if not any(t != other and t in other for other in hits.values())}
    if len(hits) == 1:
        return next(iter(hits)), ""
    return None, ("ambiguous: option texts " + ", ".join(sorted(hits))) if hits else ""


def letter_reader(options: list[dict] | None, allowed: set[str] | None = None):
    """read(content) -> (letter or None, where it ends in content, has an alternative)."""
    allowed = set(labels(options)) if allowed is None else allowed

    def read(content: str):
        body = unwrap(content)
        skipped = lead(content)
        named = _OPTION_WORD.match(body)
        if named:
            body, skipped = body[named.end():], skipped + named.end()
        exact = _JUST_A_LETTER.fullmatch(body)
        if exact and exact.group(1).upper() in allowed:
            return exact.group(1).upper(), skipped + len(body), False
        m = _LEADING_LETTER.match(body)
        if m and m.group(1) in allowed:
            weak = not m.group(2) and _LOWER_WORD_NEXT.match(body, m.end())
            by_text, _ = option_in(body, options, exact=True) if weak else (None, "")
            if by_text:  # "Answer: A dog" where "a dog" is option B's text
                return by_text, skipped + len(body), False
            other = _ALTERNATIVE.match(body, m.end())
            return m.group(1), skipped + m.end(), bool(other and other.group(1) in allowed
                                                       and other.group(1) != m.group(1))
        label, _ = option_in(_FIRST_SENTENCE.split(body)[0], options, exact=True)
        return label, skipped + len(body), False

    return read


def multiple_choice(text: str, options, whole: bool, complete: bool = True
                    ) -> tuple[str | None, str]:
    """(letter or None, the rule that decided). `whole`: the text is a JSON answer field,
    the value itself is the statement; `complete` False: a cut-off reply."""
    allowed = set(labels(options))
    read = letter_reader(options, allowed)
    if whole:
        value, _, alternative = read(text)
        return (value, "letter") if value and not alternative else (
            None, "ambiguous: two letters" if value else "no option letter or text")
    decided = final(text, read, complete_only=not complete)
    if decided is not None or not complete:
        return decided or (None, CUT_OFF)
    found = lines(prose(text))
    if found:
        last = found[-1]
        m = _LINE_STARTS_WITH_LETTER.match(last)
        if m and m.group(1) in allowed:
            return m.group(1), "last line starts with the letter"
        bare = {line.strip("().[] ").upper() for line in found
                if _JUST_A_LETTER.fullmatch(line)} & allowed
        if len(bare) == 1:
            return bare.pop(), "a line that is just the letter"
        if len(bare) > 1:
            return None, "ambiguous: lines with different single letters"
        inline = set(_LETTER_IN_PARENTHESES.findall(last)) & allowed
        if len(inline) == 1:
            return inline.pop(), "a single (X) in the last line"
    for candidate, exact, rule in ((text, True, "the whole answer is an option's text"),
                                   (found[-1] if found else "", False,
                                    "the last line names one option's text")):
        label, why = option_in(candidate, options, exact)
        if label or why:
            return label, why or rule
    return None, "no option letter or text"
