"""Call a running app's events the way its page does: log in, join the queue, read the stream.

Raw HTTP (httpx) rather than gradio_client: the access sweep calls every event of the app,
documented or not, with the inputs the page would send at its start (each input
component's value in /config), and needs each event's first answer, not its result.
"""
from __future__ import annotations

import json
import time
import uuid
from contextlib import contextmanager

import httpx
import pytest

from ui.access import NOT_ALLOWED


class QueueCaller:
    """One browser session on the app at `url`, logged in as `auth` (name, password) if given."""

    def __init__(self, url: str, auth: tuple[str, str] | None = None):
        self.url = url
        self.http = httpx.Client(base_url=url, timeout=30, follow_redirects=False)
        if auth:
            reply = self.http.post("/login", data={"username": auth[0], "password": auth[1]})
            assert reply.status_code == 200, f"login of {auth[0]} failed: {reply.status_code}"

    def config(self) -> dict:
        reply = self.http.get("/config")
        reply.raise_for_status()
        return reply.json()

    def get(self, path: str) -> httpx.Response:
        return self.http.get(path)

    def answers(self, config: dict, only: set[str] | None = None,
                timeout: float = 240, data=None) -> dict[str, dict | str]:
        """{api_name: its first answer} for every event of `config` (or those in `only`),
        each called once with the page's initial input values (or `data(dependency)`): the
        queue's first process_generating or process_completed message (a refusal at the
        queue's door stands for a failed one: msg "http 403"), or "http <status>" if the queue
        would not take the call otherwise, or "no answer" after `timeout` seconds."""
        values = {c["id"]: c.get("props", {}).get("value") for c in config["components"]}
        data = data or (lambda dep: [values.get(i) for i in dep["inputs"]])
        session = uuid.uuid4().hex
        pending, answers = {}, {}
        for dep in config["dependencies"]:
            if only is not None and dep["api_name"] not in only:
                continue
            body = {"data": data(dep), "fn_index": dep["id"],
                    "session_hash": session, "event_data": None, "trigger_id": None}
            reply = self.http.post("/gradio_api/queue/join", json=body)
            if refused_at_join(reply):
                answers[dep["api_name"]] = {"msg": "http 403", "success": False,
                                            "output": {"error": reply.json()["detail"]},
                                            "logs": []}
            elif reply.status_code != 200:
                answers[dep["api_name"]] = f"http {reply.status_code}"
            else:
                pending[reply.json()["event_id"]] = dep["api_name"]
        if pending:
            self._read_stream(session, pending, answers, timeout)
        return answers

    def join_many(self, config: dict, api_name: str, n: int) -> tuple[str, list[str]]:
        """Queue the event `api_name` `n` times in one new session, without reading its
        answers (they stay queued for a while): (session hash, event ids)."""
        values = {c["id"]: c.get("props", {}).get("value") for c in config["components"]}
        dep = next(d for d in config["dependencies"] if d["api_name"] == api_name)
        session, ids = uuid.uuid4().hex, []
        for _ in range(n):
            reply = self.http.post("/gradio_api/queue/join", json={
                "data": [values.get(i) for i in dep["inputs"]], "fn_index": dep["id"],
                "session_hash": session, "event_data": None, "trigger_id": None})
            reply.raise_for_status()
            ids.append(reply.json()["event_id"])
        return session, ids

    def _read_stream(self, session, pending, answers, timeout) -> None:
        deadline = time.monotonic() + timeout
        logs: dict[str, list[str]] = {}     # the toasts of each event (level aside)
        with self.http.stream("GET", "/gradio_api/queue/data",
                              params={"session_hash": session}, timeout=timeout) as stream:
            for line in stream.iter_lines():
                if not line.startswith("data:"):
                    continue
                message = json.loads(line[5:])
                name = pending.get(message.get("event_id"))
                if name and message.get("msg") == "log":
                    logs.setdefault(message["event_id"], []).append(message.get("log") or "")
                if name and message.get("msg") in ("process_completed", "process_generating"):
                    answers[name] = {**message, "logs": logs.get(message["event_id"], [])}
                    del pending[message["event_id"]]
                if not pending or time.monotonic() > deadline:
                    break
        for name in pending.values():
            answers[name] = "no answer"


def refused_at_join(reply: httpx.Response) -> bool:
    """A join the access table refused at the queue's door (ui/queue_door.py): a 403 whose
    message is the refusal; read as the failed event it stands for."""
    return reply.status_code == 403 and NOT_ALLOWED in reply.json().get("detail", "")


def error_text(answer: dict | str) -> str:
    """The error message of an answer ("" if the event did not fail)."""
    if not isinstance(answer, dict) or answer.get("success") is not False:
        return ""
    output = answer.get("output")
    return (output.get("error") or "") if isinstance(output, dict) else ""


def refusal_text(answer: dict | str) -> str:
    """The access table's refusal in an answer, "" if none. A refusal is a failure for every
    client (ui/gradio_hooks.py): the event's error, never a success with a warning."""
    text = error_text(answer)
    return text if NOT_ALLOWED in text else ""


def verdict(answer: dict | str) -> str:
    """"refused" (the access table's refusal: a failure naming it), "allowed" (the event ran:
    a result, a handler's own error or a first streamed output), or the failure to call it."""
    if not isinstance(answer, dict):
        return answer
    return "refused" if refusal_text(answer) else "allowed"


@contextmanager
def refused_at_the_door(text: str):
    """A gradio_client call the access table refuses at the queue's door (ui/queue_door.py):
    gradio_client raises its 403 as an HTTPStatusError, the refusal in the answer's body."""
    with pytest.raises(httpx.HTTPStatusError) as refused:
        yield
    answer = refused.value.response
    assert answer.status_code == 403 and text in answer.json()["detail"], answer.text
