"""The benchmark's own rules, as pure functions: what runner/, judges/, scoring/ and ui/ agree on.

- vocabulary.py  the answer types and item statuses (defined here only)
- extract/       reading a model's reply: its answer, its clues, their boxes
- templates.py   filling a prompt template's `{{name}}` placeholders
- geometry.py    box conventions, and the one rule that maps a model's box back to
                 original-image pixels (used by the grounded score and the Inspect overlay)
- judge_ids.py   who judged: the stored judge id ("llm:x", "panel:a+b") parsed and formatted
- numbers.py     a numeric gold, alias or answer read as one number with its unit or currency
- places.py      countries and their regions by name (pycountry): which part of "Bavaria,
                 Germany" is the country, do two names mean one region

No I/O, no network, no Gradio, no OpenCV: a judge or a test imports this without pulling in
the runner's HTTP client or the image code. ("domain" as in domain model; an item's `domain`
field, its topic, is something else.)
"""
