"""Every message the app shows is escaped once, in ui/messages.py; the code holds no other
toast. Markdown status lines show untrusted text literally and never as a link."""
from __future__ import annotations

import re
from pathlib import Path

import gradio as gr

from tests.live_server import ROOT
from ui import messages
from ui.text import escape_md

# calls of gr.Info, gr.Warning, gr.Error (or gradio.…), or those names imported from gradio
DIRECT_TOAST = re.compile(r"\b(?:gr|gradio)\s*\.\s*(?:Info|Warning|Error)\s*\("
                          r"|from\s+gradio\s+import\s+[^\n]*\b(?:Info|Warning|Error)\b")
PAYLOAD = "<form action='http://evil.example/'><input type=password name=p></form> & it's"


def test_no_module_of_the_ui_shows_a_toast_but_messages():
    offenders = []
    for path in sorted((ROOT / "ui").rglob("*.py")):
        if path.name == "messages.py":
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if DIRECT_TOAST.search(line):
                offenders.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not offenders, "toasts must go through ui.messages:\n" + "\n".join(offenders)


def test_the_check_finds_a_direct_toast(tmp_path):
    """The pattern above is no test that cannot fail: it sees each way of calling one."""
    for line in ('raise gr.Error(str(err)) from None', 'gr.Warning(message)', 'gr.Info("x")',
                 'from gradio import Error, Info'):
        assert DIRECT_TOAST.search(line), line
    assert not DIRECT_TOAST.search("raise messages.error(err) from None")
    assert not DIRECT_TOAST.search("def refusal_error(text: str) -> gr.Error:")  # a type


def test_toast_text_is_escaped_exactly_once():
    raised = messages.error(PAYLOAD)
    assert isinstance(raised, gr.Error)
    assert raised.message == ("&lt;form action='http://evil.example/'&gt;&lt;input "
                              "type=password name=p&gt;&lt;/form&gt; &amp; it's")
    assert "<" not in raised.message and "&amp;lt;" not in raised.message
    assert messages.as_toast_text(ValueError("no item 'a<b>'")) == "no item 'a&lt;b&gt;'"
    assert messages.as_toast_text(None) == ""


def test_status_lines_show_quotes_and_break_links():
    shown = messages.status("Tag 'x' at https://evil.example/a?b=1, www.evil.example, a@b.org")
    assert "&#x27;" not in shown and "'" in shown          # the Inspect bug: a quote shown
    assert "://" not in shown and "www." not in shown and "@" not in shown
    assert "<" not in escape_md("<img src=x onerror=alert(1)>")
    assert escape_md("[link](javascript:alert(1))").startswith(r"\[link\]\(")


def test_every_event_of_every_page_shows_its_failure_as_one_message(store):
    """Wired once in ui/server.build_app: no page's failing handler puts red "Error" badges
    on its outputs (a generator, which streams, is left as it is)."""
    import inspect as inspect_module

    from ui.handler_errors import WRAPPED
    from ui.server import build_app

    demo = build_app(store)
    unwrapped = [fn.api_name for fn in demo.fns.values()
                 if fn.fn is not None and not getattr(fn.fn, WRAPPED, False)
                 and not inspect_module.isgeneratorfunction(fn.fn)
                 and not inspect_module.isasyncgenfunction(fn.fn)]
    assert not unwrapped, unwrapped


def test_a_model_id_from_a_server_is_no_link_or_image_in_test_connection():
    """A server's /models list is untrusted: `[text](url)` or `![i](url)` in an id must not
    become a live link or make the browser fetch an image (ui/experiments_common.code)."""
    import markdown_it

    from ui.experiments_common import code

    hostile = "[re-authenticate](http://127.0.0.1:9/phish) ![i](http://127.0.0.1:9/t.png)"
    rendered = markdown_it.MarkdownIt("commonmark", {"html": True}).render(
        f"models: {code(hostile)}")
    assert "<a " not in rendered and "<img" not in rendered
    assert "re-authenticate" in rendered


def test_no_event_with_outputs_is_stopped_by_a_throw_in_its_page_script(store):
    """A page script (`js=`) that throws stops its event, and Gradio 6 then marks each of the
    event's outputs with a red "Error" (ui/workarounds.py, GRADIO_JS_THROW): only an event
    with no outputs may be stopped that way (the check before a chained `.success`)."""
    from ui.server import build_app

    demo = build_app(store)
    throwing = [fn.api_name for fn in demo.fns.values()
                if fn.js and ("throw" in fn.js or "cluelabGates" in fn.js) and fn.outputs]
    assert not throwing, throwing
    # the page's functions that throw are all gates (assets/clue_table.js), so the rule
    # above sees every event that calls one
    gates = [e for e in demo.fns.values() if e.js and "cluelabGates" in e.js]
    assert len(gates) >= 4
    for script in (ROOT / "assets").glob("*.js"):
        code = script.read_text()
        for at in [m.start() for m in re.finditer(r"\bthrow\b", code)
                   if not code[:m.start()].rsplit("\n", 1)[-1].lstrip().startswith("//")]:
            assert "window.cluelabGates = {" in code[:at], (script.name, at)


def test_a_scripts_error_reads_as_written_a_pages_is_escaped():
    """gradio_client reads JSON, not HTML: its refusal said `may not hold "&lt;"` (a review,
    round 28). A page's call (its origin named) gets the escaped text."""
    from types import SimpleNamespace

    from gradio.context import LocalContext
    for headers, expected in (({"x-gradio-user": "api"}, "a domain may not hold \"<\""),
                              ({"origin": "http://127.0.0.1:7860"},
                               "a domain may not hold \"&lt;\"")):
        token = LocalContext.request.set(SimpleNamespace(headers=headers))
        try:
            assert messages.error('a domain may not hold "<"').message == expected
        finally:
            LocalContext.request.reset(token)
