"""A real OpenAI-compatible chat server for tests and benchmarks (aiohttp, its own process).

    python tests/openai_server.py --port 8765 [--latency 0.2] [--jitter 0.05] [--seed 1]
                                  [--api-key KEY] [--models a,b] [--config '{"faults": ...}']

or, from Python, `start_server(**behaviour)` -> ServerHandle (a free port, waits until ready).

Endpoints: GET /v1/models, POST /v1/chat/completions (JSON, or SSE with "stream": true), and for
tests: GET /_health, GET /_log, DELETE /_log, POST /_config (merges behaviour keys).

It validates requests the way OpenAI does (model id, roles, content parts, image data URLs,
sampling ranges, the API key) and answers OpenAI-style error JSON otherwise. What happens to a
valid request is its *action*, taken from the `script` (consumed in order) or drawn from `faults`
(probabilities), else "ok". Actions: "ok", an HTTP status as a string ("429" with Retry-After,
"400", "500", "502", "503", ...), "hang" (sleep `hang` seconds first), "malformed" (invalid JSON
or SSE), "missing_choices", "truncate" (finish_reason "length"), "refuse" (message.refusal),
"content_filter". Random draws are seeded by (seed, messages digest, how often that digest was
seen), so a run is reproducible whatever order concurrent requests arrive in.

Replies, first match wins: the `reply_queue` (consumed), `replies` {substring of the last user
message: text}, then `default_reply` formatted with a {letter} hashed from the messages.
Latency is asyncio.sleep and per-request work is kept small (images are checked by their data-URL
header and the first and last base64 bytes only) so 64 concurrent requests at 200 ms do not make
this server the bottleneck.
"""
from __future__ import annotations

import argparse
import asyncio
import binascii
import copy
import hashlib
import json
import logging
import random
import re
import time

from aiohttp import web

DEFAULTS = {
    "models": ["fake-vlm", "gpt-4o-mini"], "api_key": None, "echo_key_in_errors": False,
    "latency": 0.0, "jitter": 0.0, "seed": 0, "faults": {}, "script": [],
    "retry_after": 1, "retry_after_format": "seconds", "hang": 30.0,
    "replies": {}, "reply_queue": [], "default_reply": "Answer: {letter}", "letters": "ABCDE",
}
ROLES = {"system", "developer", "user", "assistant", "tool"}
DATA_URL = re.compile(r"data:image/(png|jpeg|webp|gif);base64,")
MAGIC = (b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff", b"RIFF", b"GIF87a", b"GIF89a")
REFUSAL = "I'm sorry, but I can't help with that."


class BadRequest(Exception):
    def __init__(self, message: str, status: int = 400, param: str | None = None,
                 code: str | None = None):
        super().__init__(message)
        self.status, self.param, self.code = status, param, code


def error_body(message: str, kind: str = "invalid_request_error", param=None, code=None) -> dict:
    return {"error": {"message": message, "type": kind, "param": param, "code": code}}


def _number(body: dict, key: str, low: float, high: float) -> None:
    value = body.get(key)
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
        raise BadRequest(f"{value!r} is not a valid value for '{key}': expected a number "
                         f"from {low:g} to {high:g}.", param=key)


def _check_image_url(url, where: str) -> None:
    if not isinstance(url, str):
        raise BadRequest(f"Invalid type for '{where}.url': expected a string.", param=where)
    if url.startswith(("http://", "https://")):
        return
    header = DATA_URL.match(url)
    if not header:
        raise BadRequest("Invalid image URL: expected an http(s) URL or a base64 data URL of "
                         "image/png, image/jpeg, image/webp or image/gif.", param=where,
                         code="invalid_image_url")
    data = url[header.end():]
    try:  # the first and last bytes only: a full decode of every image would cost the benchmark
        if not data or len(data) % 4:
            raise ValueError("length")
        head = binascii.a2b_base64(data[:1024], strict_mode=True)
        binascii.a2b_base64(data[-1024:], strict_mode=True)  # aligned: both lengths % 4 == 0
        if not head.startswith(MAGIC):
            raise ValueError("magic")
    except (ValueError, binascii.Error):
        raise BadRequest("You uploaded an unsupported image. Please make sure your image is "
                         "valid base64 of a PNG, JPEG, WEBP or GIF.", param=where,
                         code="invalid_image_format") from None


def _check_content(content, role: str, where: str) -> None:
    if isinstance(content, str):
        return
    if content is None and role == "assistant":
        return
    if not isinstance(content, list) or not content:
        raise BadRequest(f"Invalid value for '{where}.content': expected a string or a "
                         "non-empty array of content parts.", param=f"{where}.content")
    for j, part in enumerate(content):
        at = f"{where}.content[{j}]"
        kind = part.get("type") if isinstance(part, dict) else None
        if kind == "text":
            if not isinstance(part.get("text"), str):
                raise BadRequest(f"Missing required parameter: '{at}.text'.", param=f"{at}.text")
        elif kind == "image_url":
            if role != "user":
                raise BadRequest(f"Image URLs are only allowed for messages with role 'user', "
                                 f"but this message with role '{role}' contains an image URL.",
                                 param=at)
            image = part.get("image_url")
            if not isinstance(image, dict):
                raise BadRequest(f"Missing required parameter: '{at}.image_url'.", param=at)
            _check_image_url(image.get("url"), f"{at}.image_url")
        else:
            raise BadRequest(f"Invalid value: {kind!r}. Supported values are: 'text' and "
                             "'image_url'.", param=f"{at}.type")


def validate(body, models: list[str]) -> None:
    """Raise BadRequest as OpenAI would for this chat completion body."""
    if not isinstance(body, dict):
        raise BadRequest("The request body must be a JSON object.")
    model = body.get("model")
    if not isinstance(model, str) or not model:
        raise BadRequest("You must provide a model parameter.", param="model")
    if model not in models:
        raise BadRequest(f"The model `{model}` does not exist or you do not have access to it.",
                         status=404, code="model_not_found")
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        raise BadRequest("'messages' must be a non-empty array.", param="messages")
    for i, message in enumerate(messages):
        where = f"messages[{i}]"
        role = message.get("role") if isinstance(message, dict) else None
        if role not in ROLES:
            raise BadRequest(f"Invalid value: {role!r}. Supported values are: 'system', "
                             "'developer', 'user', 'assistant' and 'tool'.", param=f"{where}.role")
        _check_content(message.get("content"), role, where)
    _number(body, "temperature", 0, 2)
    _number(body, "top_p", 0, 1)
    for key in ("max_tokens", "max_completion_tokens", "n"):
        value = body.get(key)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                  or value < 1):
            raise BadRequest(f"Invalid '{key}': integer below minimum value 1.", param=key)
    if body.get("seed") is not None and (isinstance(body["seed"], bool)
                                         or not isinstance(body["seed"], int)):
        raise BadRequest("Invalid type for 'seed': expected an integer.", param="seed")
    if body.get("stream_options") is not None and body.get("stream") is not True:
        raise BadRequest("The 'stream_options' parameter is only allowed when 'stream' is "
                         "enabled.", param="stream_options")


def digest_messages(messages: list) -> str:
    """sha256 over roles and contents, identifying a request in the log.

    Image URLs longer than 8 KB are fingerprinted by their length and their first and last 4 KB
    (which hold the image header and, for PNG and JPEG, the final checksums and markers) instead
    of all their bytes: hashing every 100 KB image costs more than the rest of a request.
    """
    h = hashlib.sha256()
    for message in messages:
        h.update(message["role"].encode())
        content = message.get("content")
        for part in ([{"type": "text", "text": content}] if isinstance(content, str)
                     else content or ()):
            text = part.get("text") if part["type"] == "text" else part["image_url"]["url"]
            if len(text) > 8192:
                text = f"{len(text)}:{text[:4096]}{text[-4096:]}"
            h.update(b"\x00" + text.encode())
    return h.hexdigest()


def last_user_text(messages: list) -> str:
    for message in reversed(messages):
        if message["role"] == "user":
            content = message.get("content")
            if isinstance(content, str):
                return content
            return "\n".join(p["text"] for p in content if p["type"] == "text")
    return ""


def tokens(chars: int) -> int:
    return max(1, (chars + 3) // 4)


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
        return web.json_response(error_body(f"Incorrect API key provided: {shown}.",
                                            code="invalid_api_key"), status=401)

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
        prompt_chars, images = 0, 0
        for message in body["messages"]:
            content = message.get("content") or ""
            for part in [{"type": "text", "text": content}] if isinstance(content, str) \
                    else content:
                if part["type"] == "text":
                    prompt_chars += len(part["text"])
                else:
                    images += 1
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


# -- running it --------------------------------------------------------------------------------

class ServerHandle:
    """A running server process: .url ("http://127.0.0.1:P/v1"), control over HTTP, .stop()."""

    def __init__(self, process, port: int):
        self.process, self.port = process, port
        self.root = f"http://127.0.0.1:{port}"
        self.url = self.root + "/v1"

    def _call(self, method: str, path: str, payload: dict | None = None):
        import urllib.request
        data = None if payload is None else json.dumps(payload).encode()
        request = urllib.request.Request(self.root + path, data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.loads(response.read())

    def configure(self, **behaviour) -> dict:
        """Merge behaviour keys (see DEFAULTS; reset=True starts from DEFAULTS again);
        returns the whole behaviour now in force."""
        return self._call("POST", "/_config", behaviour)

    def requests(self) -> list[dict]:
        """Every request received so far: path, time, model, digest, seed, request_id, stream,
        action, status."""
        return self._call("GET", "/_log")

    def reset_log(self) -> None:
        self._call("DELETE", "/_log")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(5)
            except Exception:
                self.process.kill()
                self.process.wait(5)

    def __enter__(self) -> "ServerHandle":
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


def free_port() -> int:
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(**behaviour) -> ServerHandle:
    """Spawn the server on a free port with these behaviour keys and wait until it answers."""
    import subprocess
    import sys
    import tempfile
    import urllib.request
    port = free_port()
    errors = tempfile.TemporaryFile()  # a file, not a pipe: nobody has to keep reading it
    process = subprocess.Popen([sys.executable, __file__, "--port", str(port),
                                "--config", json.dumps(behaviour)],
                               stdout=subprocess.DEVNULL, stderr=errors)
    handle = ServerHandle(process, port)
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        if process.poll() is not None:
            errors.seek(0)
            raise RuntimeError(f"fake OpenAI server exited: {errors.read().decode()}")
        try:
            with urllib.request.urlopen(handle.root + "/_health", timeout=1):
                return handle
        except OSError:
            time.sleep(0.05)
    handle.stop()
    raise RuntimeError("fake OpenAI server did not start within 15 s")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--latency", type=float, help="seconds before each reply")
    parser.add_argument("--jitter", type=float, help="± seconds added to the latency")
    parser.add_argument("--seed", type=int)
    parser.add_argument("--api-key", help="require 'Authorization: Bearer KEY'")
    parser.add_argument("--models", help="comma-separated model ids")
    parser.add_argument("--config", default="{}", help="behaviour keys as a JSON object")
    parser.add_argument("--access-log", action="store_true", help="log every request (slow)")
    args = parser.parse_args(argv)
    behaviour = json.loads(args.config)
    for key in ("latency", "jitter", "seed", "api_key"):
        if getattr(args, key) is not None:
            behaviour[key] = getattr(args, key)
    if args.models:
        behaviour["models"] = args.models.split(",")
    if args.access_log:
        logging.basicConfig(level=logging.INFO)
    web.run_app(FakeOpenAI(behaviour).app(), host=args.host, port=args.port, print=None,
                access_log=logging.getLogger("aiohttp.access") if args.access_log else None)


if __name__ == "__main__":
    main()
