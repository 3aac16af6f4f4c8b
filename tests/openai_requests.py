"""Requests to the fake OpenAI server (tests/openai_server.py): checked as OpenAI checks them,
and read for what the server needs from a valid one.

`validate` raises BadRequest with OpenAI's status, message, `param` and `code` for a wrong
model id, roles, content parts, image data URLs, sampling ranges, or stream options. Images are
checked by their data-URL header and the first and last base64 bytes only, and `digest_messages`
fingerprints long image URLs instead of hashing every byte: 64 concurrent requests at 200 ms
must not make the server the bottleneck of a benchmark.
"""
from __future__ import annotations

import binascii
import hashlib
import re

ROLES = {"system", "developer", "user", "assistant", "tool"}
DATA_URL = re.compile(r"data:image/(png|jpeg|webp|gif);base64,")
MAGIC = (b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff", b"RIFF", b"GIF87a", b"GIF89a")


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


def _parts(content) -> list[dict]:
    """A message's content as a list of parts (a string is one text part)."""
    return [{"type": "text", "text": content}] if isinstance(content, str) else content or []


def digest_messages(messages: list) -> str:
    """sha256 over roles and contents, identifying a request in the log.

    Image URLs longer than 8 KB are fingerprinted by their length and their first and last 4 KB
    (which hold the image header and, for PNG and JPEG, the final checksums and markers) instead
    of all their bytes: hashing every 100 KB image costs more than the rest of a request.
    """
    h = hashlib.sha256()
    for message in messages:
        h.update(message["role"].encode())
        for part in _parts(message.get("content")):
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
    """A token estimate: four characters a token, at least one."""
    return max(1, (chars + 3) // 4)


def prompt_size(messages: list) -> tuple[int, int]:
    """(characters of text, number of images) in the messages."""
    chars, images = 0, 0
    for message in messages:
        for part in _parts(message.get("content") or ""):
            if part["type"] == "text":
                chars += len(part["text"])
            else:
                images += 1
    return chars, images
