"""Sending one request: images to data URLs, the HTTP call with classified retries, and the
reply turned into a response row (status, extraction, tokens, cost).

The engine decides what to send and when, and records what comes back; this module only
knows how one request goes out and what its outcome means. A failure that condemns the
endpoint rather than the item (bad key, nothing listening, unknown model) is raised as
`EndpointDown`, so the engine stops the run and leaves the item pending.
"""
from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import os

from domain.geometry import fit_within

from runner.client import ChatClient, RequestFailed, encode_json
from runner.costs import cost, estimate_prompt_parts
from runner.endpoints import explain_failure
from runner.limiter import AdaptiveLimiter
from runner.messages import ImageEncoder, image_refs, materialise
from runner.outcomes import (asked_scale, cache_row, from_failure, from_reply,
                             is_endpoint_failure, reply_fields)
from runner.retry import RetryPolicy, call_with_retries
from runner.work import Request


BODY_MEMORY = 16
"""Encoded messages remembered (the samples and repeats of an item are dispatched together)."""


class EndpointDown(Exception):
    """No request to this endpoint can succeed now; the message says why and what to check."""


class Sender:
    def __init__(self, store, run_id: str, config: dict, execution, items: dict[str, dict],
                 api_key: str | None, concurrency: int, price: dict | None, on_attempt,
                 on_send=None):
        self.store, self.run_id, self.config, self.items = store, run_id, config, items
        self.stream = execution.stream
        self.price = price
        self.on_attempt, self.on_send = on_attempt, on_send
        self.client = ChatClient(config["endpoint"]["base_url"], api_key,
                                 timeout=execution.request_timeout, max_connections=concurrency)
        self.limiter = AdaptiveLimiter(concurrency)
        self.policy = RetryPolicy(max_attempts=execution.max_attempts,
                                  base_delay=execution.retry_base_delay)
        self.encoder = ImageEncoder(store)
        self.pool = concurrent.futures.ThreadPoolExecutor(min(4, os.cpu_count() or 1),
                                                          thread_name_prefix="encode")
        self._encoding: dict = {}                 # ImageRef -> future of its data URL
        self._sizes: dict[str, tuple[int, int]] = {}
        self._originals: dict[str, tuple[int, int]] = {}
        self._bodies: collections.OrderedDict[str, bytes] = collections.OrderedDict()
        self._body_head = b'{"model":' + encode_json(config["endpoint"]["model"]) + \
            b',"messages":'

    async def close(self) -> None:
        await self.client.close()
        self.pool.shutdown(wait=False, cancel_futures=True)

    async def exchange(self, request: Request):
        """Send one request: (ChatResult, attempt events), or the response row of a request
        that could not be made or failed for good. Raises EndpointDown. outcome() turns
        either into what is recorded."""
        work_id, key = request.work["id"], request.key
        try:
            payload = await self._payload(request)
        except Exception as error:  # unreadable image file, decoding failure
            return from_failure(work_id, f"could not build the request: "
                                         f"{type(error).__name__}: {error}", cache_key=key)
        events: list[dict] = []

        def on_attempt(event: dict) -> None:
            events.append(event)
            self.on_attempt(event)

        try:
            result = await call_with_retries(self.client, payload, self.policy, self.limiter,
                                             on_attempt, stream=self.stream,
                                             request_id=f"{self.run_id}/{work_id}",
                                             on_send=self.on_send)
        except RequestFailed as failure:
            if is_endpoint_failure(failure):
                raise EndpointDown(explain_failure(failure, self.config["endpoint"])) from None
            return from_failure(work_id, failure.reason, attempts=len(events),
                                rate_limited=_count_429(events), cache_key=key,
                                latency=events[-1]["latency"] if events else None)
        return result, events

    def outcome(self, request: Request, exchanged) -> tuple[dict, dict | None]:
        """What exchange() gave as (response row, cache entry or None)."""
        if isinstance(exchanged, dict):  # the failure's row
            return exchanged, None
        result, events = exchanged
        row = self._reply_row(request, reply_fields(result), attempts=len(events),
                              rate_limited=_count_429(events))
        row["estimated_text_tokens"], row["estimated_image_tokens"] = \
            estimate_prompt_parts(request.messages, self._original_sizes(request.messages))
        return row, cache_row(request.key, result)

    def cached_row(self, request: Request, entry: dict) -> dict:
        """The response row of a reply taken from the cache: free, naming the run that made
        it (the cache entry's run_id; '' when unknown), with no latency of its own (the
        original call's time was not measured now: the views show it as cached)."""
        return self._reply_row(request, {**entry, "latency": None},
                               cached_from=entry.get("run_id") or "")

    def _reply_row(self, request: Request, reply: dict, cached_from: str | None = None,
                   attempts: int = 0, rate_limited: int = 0) -> dict:
        """The response row of a reply, live or (`cached_from` given) from the cache."""
        item = self.items[request.item_id]
        return from_reply(request.work["id"], reply, item["answer_type"], item["options"],
                          cached_from=cached_from, cache_key=request.key,
                          price_cost=cost(self.price, reply.get("prompt_tokens"),
                                          reply.get("completion_tokens")),
                          attempts=attempts, rate_limited=rate_limited,
                          image_size=self._seen_size(item), phase=request.work["phase"],
                          box_convention=self.config.get("box_convention") or "auto",
                          asked_scale=asked_scale(request.messages))

    def _original_sizes(self, messages: list[dict]) -> dict[str, tuple[int, int]]:
        """{sha: (width, height)} of the stored images the messages refer to: what the
        a-priori estimate recorded beside the reported usage starts from (costs.py)."""
        for ref in image_refs(messages):
            if ref.sha not in self._originals:
                info = self.store.image_info(ref.sha)
                self._originals[ref.sha] = (info["width"], info["height"])
        return self._originals

    def _seen_size(self, item: dict) -> tuple[int, int] | None:
        """(width, height) of the item's first image as sent (after downscaling): what the
        model's pixel boxes refer to."""
        if not item["images"] or self.config["image_mode"] == "text_only":
            return None
        sha = item["images"][0]
        if sha not in self._sizes:
            info = self.store.image_info(sha)
            self._sizes[sha] = fit_within(info["width"], info["height"],
                                          self.config.get("image_max_pixels"))
        return self._sizes[sha]

    async def _payload(self, request: Request) -> dict | bytes:
        """The request body. The messages of an item are encoded to JSON once for all its
        samples and repeats; the body is the bytes json.dumps would give for {"model",
        "messages", **params}. A stream (chat_stream adds keys) gets the payload as a dict."""
        params = request.params
        if self.stream or request.digest is None or "model" in params or "messages" in params:
            return {"model": self.config["endpoint"]["model"],
                    "messages": await self._materialise(request.messages), **params}
        messages = self._bodies.get(request.digest)
        if messages is None:
            messages = encode_json(await self._materialise(request.messages))
            self._bodies[request.digest] = messages
            if len(self._bodies) > BODY_MEMORY:
                self._bodies.popitem(last=False)
        return self._body_head + messages + (b"," + encode_json(params)[1:] if params else b"}")

    async def _materialise(self, messages: list[dict]) -> list[dict]:
        refs = list(dict.fromkeys(image_refs(messages)))
        if all(self.encoder.remembers(ref) for ref in refs):  # the common case: no await
            return materialise(messages, self.encoder)
        urls = await asyncio.gather(*(self._data_url(ref) for ref in refs))
        return materialise(messages, dict(zip(refs, urls)))

    async def _data_url(self, ref) -> str:
        """An image's data URL: remembered, being encoded for another request (the samples
        of an item are dispatched together), or encoded now in a worker thread."""
        if self.encoder.remembers(ref):
            return self.encoder.data_url(ref)
        pending = self._encoding.get(ref)
        if pending is None:
            pending = asyncio.get_running_loop().run_in_executor(self.pool,
                                                                 self.encoder.data_url, ref)
            self._encoding[ref] = pending
            pending.add_done_callback(lambda _: self._encoding.pop(ref, None))
        return await asyncio.shield(pending)  # one request's cancel must not cancel others


def _count_429(events: list[dict]) -> int:
    return sum(1 for e in events if e.get("status") == 429)
