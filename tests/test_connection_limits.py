"""Nobody holds the server's connections (ui/connection_limits.py, ui/stream_caps.py): with
real sockets against a real server under a login, slow headers are cut off, so is a body
that trickles (a slow but steady one passes), one address holds a bounded number of
connections, one account a bounded number of open streams, and a process out of file
descriptors logs the failed accepts quietly."""
from __future__ import annotations

import asyncio
import os
import resource
import socket
import time
import uuid

import httpx
import pytest

from tests.live_server import start_ui_server
from ui import route_answers
from ui.connection_limits import ACCEPT_FAILED
from ui.stream_caps import TOO_MANY

PASSWORD = "conn-limits-pw"
LIMITS = {"CLUELAB_HEADER_TIMEOUT_S": "2", "CLUELAB_CONNECTIONS_PER_ADDRESS": "40",
          "CLUELAB_MAX_OPEN_STREAMS": "8",
          "CLUELAB_BODY_WINDOW_S": "2", "CLUELAB_BODY_MIN_BYTES": "4096"}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = start_ui_server(tmp_path_factory.mktemp("conn-limits"),
                          {"pat": "participant", "ann": "annotator"}, PASSWORD, env=LIMITS)
    yield srv
    srv.stop()


def connect(server) -> socket.socket:
    return socket.create_connection(("127.0.0.1", server.port), timeout=10)


def cookie_of(server, name: str) -> str:
    http = httpx.Client(base_url=server.url)
    assert http.post("/login", data={"username": name, "password": PASSWORD}).status_code == 200
    return "; ".join(f"{k}={v}" for k, v in http.cookies.items())


def get(server, path: str, cookie: str) -> tuple[socket.socket, bytes]:
    """A GET on a socket of its own, and its answer's first bytes (status line, headers)."""
    sock = connect(server)
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
                 f"Cookie: {cookie}\r\n\r\n".encode())
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(4096)
        if not chunk:
            break
        head += chunk
    return sock, head


def closed_within(sock: socket.socket, seconds: float, trickle: bool) -> bool:
    """Does the server close `sock` within `seconds` (sending it a header byte every 0.3 s
    if `trickle`)?"""
    sock.settimeout(0.3)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if sock.recv(4096) == b"":
                return True
        except socket.timeout:
            pass
        except OSError:
            return True
        if trickle:
            try:
                sock.sendall(b"a")
            except OSError:
                return True
    return False


def test_headers_sent_a_byte_at_a_time_are_cut_off(server):
    sock = connect(server)
    sock.sendall(f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nX-Slow: ".encode())
    assert closed_within(sock, 6, trickle=True)          # its deadline: 2 s
    sock.close()
    # a kept-alive connection gets the same deadline for its next request
    sock, head = get(server, "/gradio_api/login_check", "")
    assert head.startswith(b"HTTP/1.1 ")
    sock.sendall(b"GET / HTTP/1.1\r\n")
    assert closed_within(sock, 6, trickle=True)
    sock.close()


def post_head(server, path: str, length: int, cookie: str = "",
              kind: str = "application/x-www-form-urlencoded") -> socket.socket:
    """A POST whose headers are sent whole, announcing a body of `length` bytes."""
    sock = connect(server)
    sock.sendall(f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
                 f"Cookie: {cookie}\r\nContent-Type: {kind}\r\n"
                 f"Content-Length: {length}\r\n\r\n".encode())
    return sock


def dripped(sock: socket.socket, seconds: float) -> tuple[bool, bytes]:
    """Send `sock` a body byte every 0.3 s for up to `seconds`: (closed by the server,
    what it answered)."""
    sock.settimeout(0.3)
    answer = b""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            chunk = sock.recv(4096)
            if chunk == b"":
                return True, answer
            answer += chunk
        except socket.timeout:
            pass
        except OSError:
            return True, answer
        try:
            sock.sendall(b"x")
        except OSError:
            return True, answer
    return False, answer


def test_a_body_that_trickles_is_cut_off(server):
    # anonymous: a login of 60,000 bytes, a byte at a time (windows of 2 s here, 30 s live)
    sock = post_head(server, "/login", 60_000)
    started = time.monotonic()
    closed, answer = dripped(sock, 8)
    assert closed and time.monotonic() - started < 5
    assert answer.startswith(b"HTTP/1.1 408") and b"came too slowly" in answer, answer
    sock.close()
    # a participant's queue join likewise
    sock = post_head(server, "/gradio_api/queue/join", 60_000, cookie_of(server, "pat"),
                     "application/json")
    sock.sendall(b'{"fn_index": 0, "data": [], "session_hash": "')
    closed, answer = dripped(sock, 8)
    assert closed and answer.startswith(b"HTTP/1.1 408"), answer
    sock.close()


def multipart(size: int) -> tuple[bytes, str]:
    boundary = uuid.uuid4().hex
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"files\"; "
            f"filename=\"slow.png\"\r\nContent-Type: image/png\r\n\r\n").encode() + \
        os.urandom(size) + f"\r\n--{boundary}--\r\n".encode()
    return body, f"multipart/form-data; boundary={boundary}"


def test_a_slow_but_steady_upload_passes(server):
    # 2 KB every 0.25 s (~8 KB/s, twice the minimum here) for ~6 s: three windows
    body, kind = multipart(48_000)
    sock = post_head(server, "/gradio_api/upload", len(body), cookie_of(server, "ann"), kind)
    for at in range(0, len(body), 2048):
        sock.sendall(body[at:at + 2048])
        time.sleep(0.25)
    sock.settimeout(10)
    answer = sock.recv(65536)
    assert answer.startswith(b"HTTP/1.1 200") and b"slow.png" in answer, answer[:300]
    sock.close()


def test_a_normal_upload_passes(server):
    http = httpx.Client(base_url=server.url)
    assert http.post("/login", data={"username": "ann", "password": PASSWORD}).is_success
    sent = http.post("/gradio_api/upload", files={"files": ("big.png", os.urandom(3_000_000))})
    assert sent.status_code == 200 and "big.png" in sent.text


def test_a_body_cut_off_reaches_no_handler_as_a_whole_one():
    def receive_of(*messages):
        queue = list(messages)

        async def receive():
            return queue.pop(0)
        return receive
    part = {"type": "http.request", "body": b"username=pat&password=pw", "more_body": True}
    gone = {"type": "http.disconnect"}
    assert asyncio.run(route_answers.read_body(receive_of(part, gone))) is \
        route_answers.CUT_OFF
    scope = {"type": "http", "method": "POST", "headers": [(b"content-length", b"900")]}
    assert asyncio.run(route_answers.limited(scope, receive_of(part, gone),
                                             "/gradio_api/queue/join")) is route_answers.CUT_OFF


def test_one_address_holds_a_bounded_number_of_connections(server):
    held = [connect(server) for _ in range(40)]
    extra = connect(server)
    extra.settimeout(5)
    answer = extra.recv(4096)
    assert answer.startswith(b"HTTP/1.1 429") and b"Too many connections" in answer
    for sock in held + [extra]:
        sock.close()
    time.sleep(0.5)
    sock, head = get(server, "/gradio_api/login_check", "")
    assert head.startswith(b"HTTP/1.1 401")            # answered: not logged in
    sock.close()


def test_one_account_holds_a_bounded_number_of_streams(server):
    pat, ann = cookie_of(server, "pat"), cookie_of(server, "ann")
    streams = []
    for _ in range(8):
        sock, head = get(server, f"/gradio_api/heartbeat/{uuid.uuid4().hex}", pat)
        assert head.startswith(b"HTTP/1.1 200"), head[:200]
        streams.append(sock)
    sock, head = get(server, f"/gradio_api/heartbeat/{uuid.uuid4().hex}", pat)
    assert head.startswith(b"HTTP/1.1 429")
    assert TOO_MANY.format(limit=8).encode() in head + sock.recv(4096)
    sock.close()
    # the message stream counts too; another account is not held back
    sock, head = get(server, f"/gradio_api/queue/data?session_hash={uuid.uuid4().hex}", pat)
    assert head.startswith(b"HTTP/1.1 200") or head.startswith(b"HTTP/1.1 429")
    sock.close()
    other, head = get(server, f"/gradio_api/heartbeat/{uuid.uuid4().hex}", ann)
    assert head.startswith(b"HTTP/1.1 200")
    other.close()
    # a stream that ends gives its place back
    streams.pop().close()
    time.sleep(1.5)
    sock, head = get(server, f"/gradio_api/heartbeat/{uuid.uuid4().hex}", pat)
    assert head.startswith(b"HTTP/1.1 200"), head[:200]
    for sock in streams + [sock]:
        sock.close()


def few_files():
    resource.setrlimit(resource.RLIMIT_NOFILE, (400, 400))


def test_running_out_of_files_is_logged_quietly(tmp_path):
    srv = start_ui_server(tmp_path, {"pat": "participant"}, PASSWORD, preexec_fn=few_files,
                          env={"CLUELAB_CONNECTIONS_PER_ADDRESS": "100000"})
    held = []
    try:
        for _ in range(600):
            try:
                held.append(socket.create_connection(("127.0.0.1", srv.port), timeout=2))
            except OSError:
                break
        time.sleep(3)
        lines = srv.log.read_text(errors="replace").count(ACCEPT_FAILED)
        assert 1 <= lines <= 2, lines
    finally:
        for sock in held:
            sock.close()
        srv.stop()
