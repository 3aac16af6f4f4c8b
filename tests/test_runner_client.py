"""runner.client / retry / limiter against the real fake OpenAI server (another process)."""
import asyncio
import base64
import socket
import time

import pytest

from runner.client import ChatClient, RequestFailed, parse_retry_after
from runner.limiter import AdaptiveLimiter, LimiterClosed
from runner.retry import RetryPolicy, call_with_retries
from tests.openai_server import start_server

FAST = RetryPolicy(max_attempts=4, base_delay=0.01, max_delay=0.05, jitter=0.1)
SECRET = "sk-test-DO-NOT-LEAK-1234567890"


@pytest.fixture(scope="module")
def server():
    handle = start_server()
    yield handle
    handle.stop()


@pytest.fixture
def fake(server):
    """The module's server, back to its defaults and with an empty log."""
    server.configure(reset=True)
    server.reset_log()
    return server


def payload(question: str = "Which shape is blue? A. sphere B. cone C. cube", image=None,
            **extra) -> dict:
    content = [{"type": "text", "text": question}]
    if image:
        content.append({"type": "image_url", "image_url": {
            "url": "data:image/png;base64," + base64.b64encode(image).decode()}})
    return {"model": "fake-vlm", "messages": [
        {"role": "system", "content": "Answer with a letter."},
        {"role": "user", "content": content}], "temperature": 0.5, "top_p": 0.5, "seed": 17,
        **extra}


def run(coroutine):
    return asyncio.run(coroutine)


async def with_client(url, action, api_key=None, timeout=5.0):
    client = ChatClient(url, api_key, timeout=timeout, max_connections=64)
    try:
        return await action(client)
    finally:
        await client.close()


def failure_of(url, body, api_key=None, timeout=5.0) -> RequestFailed:
    async def attempt(client):
        with pytest.raises(RequestFailed) as caught:
            await client.chat(body)
        return caught.value
    return run(with_client(url, attempt, api_key, timeout))


def test_success_with_an_image(fake, make_png):
    result = run(with_client(fake.url, lambda c: c.chat(payload(image=make_png()),
                                                        request_id="run1/item7/0")))
    assert result.text.startswith("Answer: ") and result.text[-1] in "ABCDE"
    assert result.finish_reason == "stop" and result.refusal is None
    assert result.prompt_tokens > 85 and result.completion_tokens >= 1 and result.latency > 0
    [seen] = fake.requests()
    assert (seen["model"], seen["seed"], seen["request_id"], seen["status"]) == (
        "fake-vlm", 17, "run1/item7/0", 200)


def test_streaming_assembles_the_same_reply_with_usage(fake):
    plain = run(with_client(fake.url, lambda c: c.chat(payload())))
    fake.configure(default_reply="Reasoning about the colours first. Answer: {letter}")
    streamed = run(with_client(fake.url, lambda c: c.chat_stream(payload())))
    assert streamed.text == f"Reasoning about the colours first. Answer: {plain.text[-1]}"
    assert streamed.finish_reason == "stop" and streamed.completion_tokens > 1
    assert fake.requests()[-1]["stream"] is True


def test_list_models(fake):
    assert run(with_client(fake.url, lambda c: c.list_models())) == ["fake-vlm", "gpt-4o-mini"]


def test_429_waits_at_least_retry_after_and_shrinks_the_limiter(fake):
    fake.configure(script=["429"], retry_after=0.4)
    events, limiter = [], AdaptiveLimiter(8)
    result = run(with_client(fake.url, lambda c: call_with_retries(
        c, payload(), FAST, limiter, events.append)))
    first, second = fake.requests()
    assert second["time"] - first["time"] >= 0.4
    assert [e["status"] for e in events] == [429, 200]
    assert events[0]["retryable"] and events[0]["delay"] >= 0.4
    assert result.text.startswith("Answer: ") and limiter.current == 4


def test_retry_after_as_http_date_and_seconds():
    assert parse_retry_after("2") == 2.0 and parse_retry_after("0.25") == 0.25
    assert parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT", now=1445412470.0) == 10.0
    assert parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT", now=1445412490.0) == 0.0
    assert parse_retry_after("soon") is None and parse_retry_after(None) is None


def test_500_then_success_is_retried(fake):
    fake.configure(script=["500", "503"])
    events = []
    result = run(with_client(fake.url, lambda c: call_with_retries(
        c, payload(), FAST, None, events.append)))
    assert [r["status"] for r in fake.requests()] == [500, 503, 200]
    assert [e["status"] for e in events] == [500, 503, 200] and result.text
    assert all(e["delay"] > 0 for e in events[:2]) and events[2]["delay"] is None


@pytest.mark.parametrize("body,status", [
    (payload(), 400),  # scripted
    ({**payload(), "messages": [{"role": "robot", "content": "hi"}]}, 400),
    ({**payload(), "temperature": 2.5}, 400),
    ({**payload(), "model": "no-such-model"}, 404),
])
def test_client_errors_fail_at_once(fake, body, status):
    if body == payload():
        fake.configure(script=["400"])
    events = []
    with pytest.raises(RequestFailed) as caught:
        run(with_client(fake.url, lambda c: call_with_retries(c, body, FAST, None,
                                                              events.append)))
    assert caught.value.status == status and not caught.value.retryable
    assert len(fake.requests()) == 1 and len(events) == 1 and events[0]["delay"] is None


def test_server_validates_images_like_openai(fake, make_png):
    bad = payload(image=make_png())
    bad["messages"][1]["content"][1]["image_url"]["url"] = "data:image/png;base64,###notbase64"
    assert failure_of(fake.url, bad).status == 400
    remote = payload()
    remote["messages"][1]["content"].append(
        {"type": "image_url", "image_url": {"url": "https://example.org/cat.png"}})
    assert run(with_client(fake.url, lambda c: c.chat(remote))).text
    assistant_image = payload(image=make_png())
    assistant_image["messages"][1]["role"] = "assistant"
    # the server's own explanation is not quoted, only its error class (runner/replies.py)
    refused = failure_of(fake.url, assistant_image)
    assert refused.status == 400 and refused.reason.endswith("(invalid_request_error)")
    assert "only allowed" not in refused.reason


def test_timeout_is_retryable(fake):
    fake.configure(script=["hang"], hang=3)
    failure = failure_of(fake.url, payload(), timeout=0.3)
    assert failure.retryable and failure.status is None
    assert "timed out" in failure.reason and fake.url in failure.reason


@pytest.mark.parametrize("action", ["malformed", "missing_choices"])
@pytest.mark.parametrize("stream", [False, True])
def test_malformed_bodies_are_retryable(fake, action, stream):
    fake.configure(script=[action])

    async def attempt(client):
        with pytest.raises(RequestFailed) as caught:
            await (client.chat_stream if stream else client.chat)(payload())
        return caught.value
    failure = run(with_client(fake.url, attempt))
    assert failure.retryable and failure.status is None and "malformed" in failure.reason


def test_truncation_and_refusal_come_back_as_results(fake):
    reply = "The cube is blue. Answer: C"
    fake.configure(script=["truncate", "refuse"], default_reply=reply)
    truncated = run(with_client(fake.url, lambda c: c.chat(payload())))
    refused = run(with_client(fake.url, lambda c: c.chat(payload())))
    assert truncated.finish_reason == "length" and truncated.text == reply[:len(reply) // 2]
    assert refused.text == "" and refused.refusal


def test_dead_endpoint_names_the_url_not_the_key():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed again when the block ends: nobody listens
    url = f"http://127.0.0.1:{port}/v1"
    events = []
    with pytest.raises(RequestFailed) as caught:
        run(with_client(url, lambda c: call_with_retries(
            c, payload(), RetryPolicy(max_attempts=2, base_delay=0.01), None, events.append),
            api_key=SECRET))
    failure = caught.value
    assert failure.retryable and failure.status is None and len(events) == 2
    assert "cannot connect" in failure.reason and url in failure.reason
    assert SECRET not in failure.reason + repr(failure) + str(failure.args)


def test_api_key_is_required_and_never_in_exceptions(fake):
    fake.configure(api_key=SECRET, echo_key_in_errors=True)
    assert failure_of(fake.url, payload()).status == 401
    wrong = SECRET[::-1]
    failure = failure_of(fake.url, payload(), api_key=wrong)  # the server echoes the key given
    assert failure.status == 401 and not failure.retryable
    assert wrong not in failure.reason + repr(failure) + str(failure.args)
    assert failure.reason == f"HTTP 401 from {fake.url}/chat/completions (invalid_api_key)"
    assert run(with_client(fake.url, lambda c: c.chat(payload()), api_key=SECRET)).text
    assert SECRET not in repr(ChatClient(fake.url, SECRET))
    fake.configure(script=["hang"], hang=2)
    timeout = failure_of(fake.url, payload(), api_key=SECRET, timeout=0.2)
    assert SECRET not in timeout.reason + repr(timeout)


def test_fault_draws_are_deterministic_whatever_the_order(fake):
    fake.configure(faults={"500": 0.5}, seed=3)
    bodies = [payload(f"question {i}") for i in range(12)]

    async def send_all(client, order):
        for body in order:
            try:
                await client.chat(body)
            except RequestFailed:
                pass

    def actions():
        return {r["digest"]: r["action"] for r in fake.requests()}
    run(with_client(fake.url, lambda c: send_all(c, bodies)))
    first = actions()
    fake.reset_log()
    run(with_client(fake.url, lambda c: send_all(c, bodies[::-1])))
    assert actions() == first and set(first.values()) == {"ok", "500"}


def test_64_concurrent_requests_overlap(fake):
    fake.configure(latency=0.2)
    limiter = AdaptiveLimiter(64)

    async def burst(client):
        started = time.monotonic()
        await asyncio.gather(*(call_with_retries(client, payload(f"question {i}"), FAST,
                                                 limiter) for i in range(64)))
        return time.monotonic() - started
    assert run(with_client(fake.url, burst)) < 0.2 * 3
    assert len(fake.requests()) == 64 and limiter.in_flight == 0


# -- the limiter and the policy on their own ----------------------------------------------------

def test_limiter_halves_on_429_not_below_one_and_grows_back():
    limiter = AdaptiveLimiter(8, success_window=3, shrink_cooldown=0)
    limiter.on_rate_limited(None)
    assert limiter.current == 4
    for _ in range(5):
        limiter.on_rate_limited(None)
    assert limiter.current == 1
    for _ in range(3 * 7 + 2):
        limiter.on_success()
    assert limiter.current == 8, "one slot back per window of successes, up to the max"
    cooled = AdaptiveLimiter(8, shrink_cooldown=60)
    for _ in range(10):
        cooled.on_rate_limited(None)
    assert cooled.current == 4, "a burst of 429s is one signal"


def test_limiter_bounds_concurrency_and_pauses_for_retry_after():
    async def scenario():
        limiter = AdaptiveLimiter(3)
        running = peak = 0

        async def job():
            nonlocal running, peak
            async with limiter:
                running += 1
                peak = max(peak, running)
                await asyncio.sleep(0.01)
                running -= 1
        await asyncio.gather(*(job() for _ in range(20)))
        limiter.on_rate_limited(0.25)
        started = time.monotonic()
        async with limiter:
            waited = time.monotonic() - started
        return peak, waited, limiter.current, limiter.in_flight
    peak, waited, current, in_flight = run(scenario())
    assert peak == 3 and waited >= 0.24 and current == 1 and in_flight == 0


def test_cancelled_waiters_give_their_slot_back():
    async def scenario():
        limiter = AdaptiveLimiter(1)
        await limiter.acquire()
        waiter = asyncio.ensure_future(limiter.acquire())
        await asyncio.sleep(0)
        waiter.cancel()
        limiter.release()
        await asyncio.wait_for(limiter.acquire(), 1)  # not stuck behind the cancelled one
        limiter.release()
        return limiter.in_flight
    assert run(scenario()) == 0


def test_a_closed_limiter_grants_no_slot_to_its_waiters_nor_to_anyone_later():
    """A stopping run closes its limiter: the request holding the slot keeps it, the ones
    queued for a slot are refused (never sent), and so is any later acquire."""
    async def scenario():
        limiter = AdaptiveLimiter(1)
        await limiter.acquire()
        queued = [asyncio.ensure_future(limiter.acquire()) for _ in range(3)]
        await asyncio.sleep(0)
        limiter.close()
        outcomes = await asyncio.gather(*queued, return_exceptions=True)
        held = limiter.in_flight
        limiter.release()
        with pytest.raises(LimiterClosed):
            await limiter.acquire()
        return [type(o).__name__ for o in outcomes], held, limiter.in_flight
    assert run(scenario()) == (["LimiterClosed"] * 3, 1, 0)


def test_backoff_grows_with_jitter_and_is_capped():
    policy = RetryPolicy(base_delay=0.5, max_delay=3.0, jitter=0.25)
    assert 0.375 <= policy.backoff(1) <= 0.625 and 0.75 <= policy.backoff(2) <= 1.25
    assert policy.backoff(10) == 3.0
    assert policy.delay(1, retry_after=7.0) == 7.0, "Retry-After is a floor"
