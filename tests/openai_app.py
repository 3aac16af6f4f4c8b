"""The fake OpenAI server's behaviour: an aiohttp application (run by tests/openai_server.py).

Endpoints: GET /v1/models, POST /v1/chat/completions (JSON, or SSE with "stream": true), and for
tests: GET /_health, GET /_log, DELETE /_log, POST /_config (merges behaviour keys).

A request that fails validation (openai_requests.py) or the API key gets OpenAI-style error
JSON. What happens to a valid request is its *action*, taken from the `script` (consumed in
order) or drawn from `faults` (probabilities), else "ok". Actions: "ok", an HTTP status as a
string ("429" with Retry-After, "400", "500", "502", "503", ...), "hang" (sleep `hang` seconds
first), "malformed" (invalid JSON or SSE), "missing_choices", "truncate" (finish_reason
"length"), "refuse" (message.refusal), "content_filter", "html_502" (a 502 with an HTML body),
"error_200" (status 200, an error object instead of choices), "stream_error" (an error chunk in
the stream). `error_text`, when set, is the message of every error body and the text of the
HTML one: a server's own words, which no reason may quote (runner/replies.py). Random draws are seeded by (seed,
messages digest, how often that digest was seen), so a run is reproducible whatever order
concurrent requests arrive in.

Replies, first match wins: the `reply_queue` (consumed), `replies` {substring of the last user
message: text}, then `default_reply` formatted with a {letter} hashed from the messages.
Latency is asyncio.sleep, so the server answers many requests at once.
"""
from __future__ import annotations

import asyncio
import copy
import json
import random
import time

from aiohttp import web

from tests.openai_requests import (BadRequest, digest_messages, error_body, last_user_text,
                                   prompt_size, tokens, validate)

DEFAULTS = {
    "models": ["fake-vlm", "gpt-4o-mini"], "api_key": None, "echo_key_in_errors": False,
    "latency": 0.0, "jitter": 0.0, "seed": 0, "faults": {}, "script": [],
    "retry_after": 1, "retry_after_format": "seconds", "hang": 30.0,
    "replies": {}, "reply_queue": [], "default_reply": "Answer: {letter}", "letters": "ABCDE",
    "error_text": None,
}
BEHAVIOUR_HELP = {
    "models": "model ids the server accepts and lists (GET /v1/models)",
    "api_key": "require 'Authorization: Bearer KEY' (null: any or none)",
    "echo_key_in_errors": "a 401's message quotes the key given (as some servers do)",
    "latency": "seconds before each reply",
    "jitter": "± seconds drawn around the latency",
    "seed": "seed of the random draws (faults, jitter)",
    "faults": 'action: probability, drawn per request ({"429": 0.1, "malformed": 0.05}); '
              "actions: ok, an HTTP status (429 with Retry-After, 400, 500, 502, 503, ...), "
              "hang, malformed, missing_choices, truncate, refuse, content_filter, html_502, "
              "error_200, stream_error",
    "script": "actions taken in order, one per request, before any fault is drawn",
    "retry_after": "a 429's Retry-After in seconds",
    "retry_after_format": '"seconds" or "date" (an HTTP date)',
    "hang": "seconds a 'hang' action sleeps before replying",
    "replies": '{substring of the last user message: reply text}, first match wins (a judge '
               'whose VER-Bench replies are unreadable: {"AC (answer correctness)": "no idea"})',
    "reply_queue": "reply texts used in order, before `replies` and `default_reply`",
    "default_reply": "the reply otherwise; {letter} becomes a letter of `letters` hashed from "
                     "the messages, {digest} the messages' digest",
    "letters": "the letters {letter} is drawn from",
    "error_text": "the message of every error body and the text of html_502's page",
}
"""Each behaviour key (DEFAULTS) and what it does: the server's --help lists them."""
REFUSAL = "I'm sorry, but I can't help with that."


class FakeOpenAI:
    """The server's state: behaviour, request log, script position, digest counters."""

    def __init__(self, behaviour: dict):
        self.behaviour = {**copy.deepcopy(DEFAULTS), **behaviour}
        self.log: list[dict] = []
        self.seen: dict[str, int] = {}

    def app(self) -> web.Application:
        app = web.Application(client_max_size=256 * 1024 * 1024)
        app.add_routes([web.get("/_health", self.health), web.get("/_log", self.get_log),
                        web.delete("/_log", self.reset_log), web.post("/_config", self.config),
                        web.get("/v1/models", self.models),
                        web.post("/v1/chat/completions", self.chat)])
        return app

    # -- control endpoints ---------------------------------------------------------------------
    async def health(self, request):
        return web.json_response({"ok": True})

    async def get_log(self, request):
        return web.json_response(self.log)

    async def reset_log(self, request):
        self.log.clear()
        self.seen.clear()
        return web.json_response({"ok": True})

    async def config(self, request):
        changes = await request.json()
        if changes.pop("reset", False):  # back to DEFAULTS before applying the changes
            self.behaviour = copy.deepcopy(DEFAULTS)
        self.behaviour.update(changes)
        self.seen.clear()
        return web.json_response(self.behaviour)

    # -- the API --------------------------------------------------------------------------------
    def _auth_error(self, request) -> web.Response | None:
        key = self.behaviour["api_key"]
        if not key:
            return None
        given = request.headers.get("Authorization", "")
        if given == f"Bearer {key}":
            return None
        shown = given.removeprefix("Bearer ") if self.behaviour["echo_key_in_errors"] else "***"
        message = self.behaviour["error_text"] or f"Incorrect API key provided: {shown}."
        return web.json_response(error_body(message, code="invalid_api_key"), status=401)

    async def models(self, request):
        self.log.append({"path": request.path, "time": time.time(), "status": None})
        failure = self._auth_error(request)
        self.log[-1]["status"] = failure.status if failure else 200
        return failure or web.json_response({"object": "list", "data": [
            {"id": m, "object": "model", "created": 0, "owned_by": "cluelab-tests"}
            for m in self.behaviour["models"]]})

    async def chat(self, request):
        entry = {"path": request.path, "time": time.time(), "model": None, "digest": None,
                 "seed": None, "request_id": request.headers.get("X-Request-Id"),
                 "stream": False, "action": None, "status": None}
        self.log.append(entry)
        response = self._auth_error(request)
        if response is None:
            try:
                body = json.loads(await request.read())
            except ValueError:
                body = None
                response = web.json_response(error_body(
                    "We could not parse the JSON body of your request."), status=400)
        if response is None:
            try:
                validate(body, self.behaviour["models"])
            except BadRequest as bad:
                response = web.json_response(error_body(str(bad), param=bad.param,
                                                        code=bad.code), status=bad.status)
            if isinstance(body, dict):
                entry.update(model=body.get("model"), seed=body.get("seed"),
                             stream=body.get("stream") is True)
        if response is None:
            entry["digest"] = digest_messages(body["messages"])
            response = await self._act(request, body, entry)
        entry["status"] = response.status
        return response

    def _next_action(self, digest: str) -> tuple[str, random.Random]:
        b = self.behaviour
        nth = self.seen[digest] = self.seen.get(digest, 0) + 1
        rng = random.Random(f"{b['seed']}:{digest}:{nth}")
        if b["script"]:
            return str(b["script"].pop(0)), rng
        draw, total = rng.random(), 0.0
        for action, probability in sorted(b["faults"].items()):
            total += probability
            if draw < total:
                return str(action), rng
        return "ok", rng

    async def _act(self, request, body: dict, entry: dict) -> web.StreamResponse:
        b = self.behaviour
        action, rng = self._next_action(entry["digest"])
        entry["action"] = action
        if action.isdigit():
            return self._status_response(int(action))
        if action == "html_502":
            return web.Response(text=f"<html><body>{b['error_text']}</body></html>", status=502,
                                content_type="text/html")
        if action == "error_200":
            return web.json_response(error_body(b["error_text"] or "Failed.", kind="server_error"))
        if action == "hang":
            await asyncio.sleep(b["hang"])
        await asyncio.sleep(max(0.0, b["latency"] + b["jitter"] * (2 * rng.random() - 1)))
        if action == "malformed" and not body.get("stream"):
            return web.Response(text='{"id": "chatcmpl-broken", "choices": [', status=200,
                                content_type="application/json")
        choice, usage = self._choice(body, entry["digest"], action)
        if body.get("stream"):
            return await self._stream(request, body, choice, usage, action)
        reply = {"id": f"chatcmpl-{entry['digest'][:12]}", "object": "chat.completion",
                 "created": int(time.time()), "model": body["model"],
                 "system_fingerprint": "fp_cluelab", "usage": usage}
        if action != "missing_choices":
            reply["choices"] = [{**choice, "index": i} for i in range(body.get("n") or 1)]
        return web.json_response(reply)

    def _status_response(self, status: int) -> web.Response:
        headers = {}
        if status == 429:
            after = self.behaviour["retry_after"]
            headers["Retry-After"] = (time.strftime("%a, %d %b %Y %H:%M:%S GMT",
                                                    time.gmtime(time.time() + after))
                                      if self.behaviour["retry_after_format"] == "date"
                                      else f"{after:g}")
            body = error_body("Rate limit reached for requests. Please try again later.",
                              kind="requests", code="rate_limit_exceeded")
        elif status >= 500:
            body = error_body("The server had an error while processing your request.",
                              kind="server_error")
        else:
            body = error_body(f"Scripted error {status}.")
        if self.behaviour["error_text"]:
            body["error"]["message"] = self.behaviour["error_text"]
        return web.json_response(body, status=status, headers=headers)

    def _reply_text(self, body: dict, digest: str) -> str:
        b = self.behaviour
        if b["reply_queue"]:
            return b["reply_queue"].pop(0)
        question = last_user_text(body["messages"])
        for needle, text in b["replies"].items():
            if needle in question:
                return text
        letters = b["letters"]
        letter = letters[int(digest[:8], 16) % len(letters)]
        # plain replacement, not str.format: replies are often JSON, full of braces
        return b["default_reply"].replace("{letter}", letter).replace("{digest}", digest[:8])

    def _choice(self, body: dict, digest: str, action: str) -> tuple[dict, dict]:
        text, finish, refusal = self._reply_text(body, digest), "stop", None
        limit = body.get("max_completion_tokens") or body.get("max_tokens")
        if action == "truncate" or (limit and tokens(len(text)) > limit):
            text = text[: (limit * 4 if limit and action != "truncate" else len(text) // 2)]
            finish = "length"
        elif action == "refuse":
            text, refusal = None, REFUSAL
        elif action == "content_filter":
            text, finish = "", "content_filter"
        prompt_chars, images = prompt_size(body["messages"])
        completion = tokens(len(text or refusal or ""))
        usage = {"prompt_tokens": tokens(prompt_chars) + 85 * images,
                 "completion_tokens": completion}
        usage["total_tokens"] = usage["prompt_tokens"] + completion
        message = {"role": "assistant", "content": text, "refusal": refusal}
        return {"message": message, "logprobs": None, "finish_reason": finish}, usage

    async def _stream(self, request, body, choice, usage, action) -> web.StreamResponse:
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream",
                                               "Cache-Control": "no-cache"})
        await response.prepare(request)
        base = {"id": "chatcmpl-stream", "object": "chat.completion.chunk",
                "created": int(time.time()), "model": body["model"]}

        async def send(data: dict | str) -> None:
            text = data if isinstance(data, str) else json.dumps(data)
            await response.write(f"data: {text}\n\n".encode())

        if action == "malformed":
            await send('{"id": "chatcmpl-stream", "choices": [{"delta": {"content": "An')
            await response.write_eof()
            return response
        if action == "stream_error":
            await send(error_body(self.behaviour["error_text"] or "Failed.", kind="server_error"))
            await response.write_eof()
            return response
        message = choice["message"]
        if action != "missing_choices":
            await send({**base, "choices": [{"index": 0, "delta": {"role": "assistant",
                                                                  "content": ""},
                                             "finish_reason": None}]})
            text = message["content"] or ""
            pieces = [text[i:i + 16] for i in range(0, len(text), 16)]
            for piece in pieces:
                await send({**base, "choices": [{"index": 0, "delta": {"content": piece},
                                                 "finish_reason": None}]})
            if message["refusal"]:
                await send({**base, "choices": [{"index": 0, "delta": {
                    "refusal": message["refusal"]}, "finish_reason": None}]})
            await send({**base, "choices": [{"index": 0, "delta": {},
                                             "finish_reason": choice["finish_reason"]}]})
        if (body.get("stream_options") or {}).get("include_usage"):
            await send({**base, "choices": [], "usage": usage})
        await send("[DONE]")
        await response.write_eof()
        return response
