"""Filling a prompt template: the run's prompts and the judges' prompts share this one rule.

Placeholders are `{{name}}`: unlike `str.format` or `string.Template` they cannot collide
with the JSON braces of the structured setting or the `$country,admin1$` answer format.
Where templates are stored and which versions a run uses is the runner's business
(`runner.prompts`).
"""
from __future__ import annotations

import re

_PLACEHOLDER = re.compile(r"\{\{(\w+)\}\}")


class TemplateError(ValueError):
    """A template uses a placeholder nobody fills, or the default file is missing."""


def render(template: str, values: dict[str, str]) -> str:
    """Fill `{{name}}` placeholders; drop the blank lines empty sections leave behind."""
    def fill(match: re.Match) -> str:
        name = match.group(1)
        if name not in values:
            raise TemplateError(f"template placeholder {{{{{name}}}}} has no value; "
                                f"available: {', '.join(sorted(values))}")
        return values[name] or ""

    text = _PLACEHOLDER.sub(fill, template)
    text = re.sub(r"[ \t]+\n", "\n", text)
    return re.sub(r"\n{3,}", "\n\n", text).strip()
