"""Prompt templates: which ones a run needs, their stored versions, and the run's prompt texts.

Templates live in the database, versioned; the files in assets/prompts/ are only the
defaults, stored as version 1 the first time a name is used. A run records the version of
every template it uses and renders from exactly those versions, so editing a template later
changes new runs (and their config id) but never what a resumed run sends. Filling a
template's `{{name}}` placeholders is `domain.templates.render`, shared with the judges.
"""
from __future__ import annotations

from pathlib import Path

from domain.templates import TemplateError, render
from domain.vocabulary import ANSWER_TYPES

ASSETS = Path(__file__).resolve().parent.parent / "assets" / "prompts"


def default_text(name: str) -> str:
    path = ASSETS / f"{name}.txt"
    if not path.is_file():
        raise TemplateError(f"no default prompt template {path}")
    return path.read_text(encoding="utf-8")


def default_names() -> list[str]:
    return sorted(p.stem for p in ASSETS.glob("*.txt"))


def template_names(setting: str, clue_source: str, answer_types: set[str],
                   clue_pass_setting: str | None = None) -> list[str]:
    """The templates a run uses: its setting's system prompt (and the first pass's, for
    clues=self), the user layout, the clue templates when clues are injected, and the answer
    format of every answer type among its items."""
    names = {f"system_{setting}", "user"}
    if clue_source == "self" and clue_pass_setting:
        names.add(f"system_{clue_pass_setting}")
    if clue_source != "none":
        names.update({"system_clues", "clues_block"})
    for answer_type in answer_types:
        names.add(f"answer_{answer_type if answer_type in ANSWER_TYPES else 'open'}")
    return sorted(names)


def ensure_versions(store, names: list[str]) -> dict[str, int]:
    """Latest stored version of each template, storing the asset default as version 1 for
    names the database does not know yet."""
    return {name: store.ensure_prompt_template(name, default_text(name))["version"]
            for name in names}


class PromptSet:
    """The texts of one run's template versions, loaded once, rendered per item."""

    def __init__(self, texts: dict[str, str]):
        self.texts = texts
        self._systems: dict[tuple[str, str, bool], str] = {}

    @classmethod
    def load(cls, store, versions: dict[str, int]) -> "PromptSet":
        return cls({name: store.prompt_template(name, version)["text"]
                    for name, version in versions.items()})

    def _text(self, name: str) -> str:
        if name not in self.texts:
            raise TemplateError(f"the run did not record template {name!r}")
        return self.texts[name]

    def answer_spec(self, answer_type: str) -> str:
        kind = answer_type if answer_type in ANSWER_TYPES else "open"
        return render(self._text(f"answer_{kind}"), {})

    def system(self, setting: str, answer_type: str, with_clues: bool) -> str:
        """The system prompt; rendered once per setting x answer type x clues (every item
        of a run shares a handful of them)."""
        memo = (setting, answer_type, with_clues)
        text = self._systems.get(memo)
        if text is None:
            text = render(self._text(f"system_{setting}"),
                          {"answer_spec": self.answer_spec(answer_type)})
            if with_clues:
                text += "\n\n" + render(self._text("system_clues"), {})
            self._systems[memo] = text
        return text

    def user(self, question: str, options: str = "", clues: list[str] | None = None,
             images: str = "") -> str:
        block = ""
        if clues is not None:
            block = render(self._text("clues_block"), {"clues": format_clues(clues)})
        return render(self._text("user"), {"question": question.strip(), "options": options,
                                           "clues": block, "images": images})


def format_clues(clues: list[str]) -> str:
    return "\n".join(f"{n}. {' '.join(text.split())}" for n, text in enumerate(clues, 1))


def format_options(options: list[dict], option_images: dict[str, int],
                   images_shown: bool) -> str:
    """Text options as "A. text"; image options point at their labelled image number, or
    say the image is not shown (text_only mode)."""
    if not options:
        return ""
    lines = ["Options:"]
    for option in options:
        label = option["label"]
        if option.get("image"):
            where = (f"Image {option_images[label]}" if images_shown and label in option_images
                     else "(an image, not shown)")
            text = f"{option['text'].strip()} ({where})" if option.get("text") else where
        else:
            text = option.get("text", "").strip()
        lines.append(f"{label}. {text}")
    return "\n".join(lines)
