"""Nobody holds the server's connections (ui/connection_limits.py, ui/stream_caps.py): with
real sockets against a real server under a login, slow headers are cut off, one address
holds a bounded number of connections, one account a bounded number of open streams, and a
process out of file descriptors logs the failed accepts quietly."""
from __future__ import annotations

import resource
import socket
import time
import uuid

import httpx
import pytest

from tests.live_server import start_ui_server
from ui.connection_limits import ACCEPT_FAILED
from ui.stream_caps import TOO_MANY

PASSWORD = "conn-limits-pw"
LIMITS = {"CLUELAB_HEADER_TIMEOUT_S": "2", "CLUELAB_CONNECTIONS_PER_ADDRESS": "40",
          "CLUELAB_MAX_OPEN_STREAMS": "8"}


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
