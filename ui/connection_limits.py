"""Bounds on the server's connections below the app: a deadline for a request's headers, a
minimum pace for its body, a cap on the connections of one client address, and a quiet log
when the process runs out of file descriptors anyway.

Why: Gradio starts uvicorn with its defaults (gradio/http_server.py gives uvicorn.Config
the app, host, port, log level and TLS files, nothing else), and uvicorn's h11 protocol
waits for a request's headers for as long as the client keeps the connection open: a
client that opened thousands of connections and sent each a byte now and then held a file
descriptor each until the process had none left, and logins failed for everyone (an
attacker's review). uvicorn's own options do not bound this (its keep-alive timeout is
cancelled by any byte; `limit_concurrency` answers 503 once headers have come, to everyone
alike; h11's 16 KB cap on incomplete headers bounds memory, not time), and Gradio passes
none of them through. So `install` gives the Server class Gradio starts the protocol
`BoundedH11` (ui/workarounds.py, GRADIO_UVICORN_DEFAULTS):
- a connection with no request in progress (a new one, or one kept alive after an answer)
  must send a whole request's headers within HEADER_TIMEOUT_S, else it is closed;
- a request's body must keep coming: each BODY_WINDOW_S from its headers on must bring at
  least BODY_MIN_BYTES of it or its end (domain/limits.py), else the connection is answered
  408 (if no answer has started) and closed, and the app sees the client gone (uvicorn's
  http.disconnect), never a whole body. Headers that came in time and then a body a byte
  every 10 s held a connection for good (an attacker's review). A window in which the server
  did not read (uvicorn paused reading until the app takes what came, or the client waits
  for its 100 Continue) asks nothing: the client could not send;
- a client address holds at most MAX_CONNECTIONS_PER_ADDRESS connections (a browser holds
  six per server; a room of people behind one NAT, a few each); one more is answered
  429 and closed. A proxy named in FORWARDED_ALLOW_IPS carries everyone's connections and
  is not capped: it must bound them itself (README, "Connections are bounded").
Many addresses together can still exhaust the process; a reverse proxy with header
timeouts and per-address limits in front bounds them (README).

When accept() fails for lack of descriptors, asyncio logs it with a traceback once per
connection waiting (Python 3.11 goes on looping after the error): ~6.5 MB of log a second.
`AcceptFlood` lets one such line through per ACCEPT_LOG_EVERY_S, with the count held back.
At startup the soft limit on open files is raised to the hard one (`more_descriptors`).
"""
from __future__ import annotations

import logging
import os
import resource
import time
from collections import Counter

import h11
from uvicorn.middleware.proxy_headers import _TrustedHosts
from uvicorn.protocols.http.h11_impl import H11Protocol

from domain.limits import BODY_MIN_BYTES, BODY_WINDOW_S
from ui.quiet_log import QuietLog, shown

log = QuietLog(logging.getLogger("cluelab.access"))

HEADER_TIMEOUT_S = 15.0
MAX_CONNECTIONS_PER_ADDRESS = 256
ACCEPT_LOG_EVERY_S = 10.0
ACCEPT_FAILED = "socket.accept() out of system resource"
"""asyncio's message (selector_events._accept_connection) for EMFILE, ENFILE, ENOBUFS."""
TOO_MANY_CONNECTIONS = ("Too many connections from your address ({limit} are open); close "
                        "some, or wait for them to end, and try again.\n")


BODY_TOO_SLOW = ("The request's body came too slowly (under {least:,} bytes in {window:g} s) "
                 "and was not taken; send it again.\n")


def answer(status: int, reason: str, text: str) -> bytes:
    """A whole plain-text answer that closes the connection, written past h11: the
    connection is closed right after it."""
    body = text.encode()
    return (b"HTTP/1.1 %d %s\r\ncontent-type: text/plain; charset=utf-8\r\n"
            b"content-length: %d\r\nconnection: close\r\n\r\n%s"
            % (status, reason.encode(), len(body), body))


class BoundedH11(H11Protocol):
    """uvicorn's h11 protocol with a deadline for headers, a pace for bodies and a cap per
    address (the settings are class attributes, set by `install`)."""

    header_timeout_s = HEADER_TIMEOUT_S
    body_window_s = BODY_WINDOW_S
    body_min_bytes = BODY_MIN_BYTES
    per_address = MAX_CONNECTIONS_PER_ADDRESS
    uncapped = ()                   # the trusted proxies (uvicorn's _TrustedHosts), if any
    address = None                  # the client address counted, while it is
    deadline = None
    body_watch = None               # the end of the body's window, while its body comes
    body_bytes = 0                  # bytes received in the window
    body_excused = False            # the server did not read during some of the window

    def connection_made(self, transport) -> None:
        super().connection_made(transport)
        address = (self.client or ("",))[0]
        counts = self.server_state.__dict__.setdefault("cluelab_per_address", Counter())
        if address not in self.uncapped and counts[address] >= self.per_address:
            log.warning(("connections", address), f"refused a connection from "
                        f"{shown(address)}: {self.per_address} of its connections are open")
            transport.write(answer(429, "Too Many Requests",
                                   TOO_MANY_CONNECTIONS.format(limit=self.per_address)))
            transport.close()
            return
        counts[address] += 1
        self.address = address
        self._await_headers()

    def connection_lost(self, exc) -> None:
        self._release()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        self.body_bytes += len(data)
        super().data_received(data)

    def handle_events(self) -> None:
        scope = self.scope
        super().handle_events()
        if self.flow is not None and self.flow.read_paused:
            self.body_excused = True
        if self.scope is not scope:                                     # headers came
            if self.deadline is not None:
                self.deadline.cancel()
                self.deadline = None
            if self.conn.their_state is h11.SEND_BODY and not self.transport.is_closing():
                self._watch_body(len(self.cycle.body) if self.cycle else 0)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if self.cycle is None or self.cycle.response_complete:      # idle: the next request's
            self._await_headers()

    def handle_websocket_upgrade(self, event) -> None:
        self._release()             # the WebSocket protocol holds the connection from here
        super().handle_websocket_upgrade(event)

    def _await_headers(self) -> None:
        if self.deadline is not None:
            self.deadline.cancel()
        if not self.transport.is_closing():
            self.deadline = self.loop.call_later(self.header_timeout_s, self._headers_late)

    def _headers_late(self) -> None:
        self.deadline = None
        if not self.transport.is_closing():
            try:
                self.conn.send(h11.ConnectionClosed())
            except h11.LocalProtocolError:
                pass
            self.transport.close()

    def _watch_body(self, already: int = 0) -> None:
        """Start a window of the body's: it must bring body_min_bytes or the body's end
        (`already`: bytes of it that came with the headers)."""
        if self.body_watch is not None:
            self.body_watch.cancel()
        self.body_bytes = already
        self.body_excused = self.flow.read_paused or \
            bool(self.cycle and self.cycle.waiting_for_100_continue)
        self.body_watch = self.loop.call_later(self.body_window_s, self._body_window_over)

    def _body_window_over(self) -> None:
        self.body_watch = None
        if self.transport.is_closing() or self.conn.their_state is not h11.SEND_BODY:
            return                              # closed, or the body is whole
        if self.body_excused or self.flow.read_paused or self.body_bytes >= self.body_min_bytes:
            return self._watch_body()
        log.warning(("slow body", self.address), f"closed a connection from "
                    f"{shown((self.client or ('',))[0])}: its request's body came too slowly")
        cycle = self.cycle
        if cycle is not None and not cycle.response_started:
            text = BODY_TOO_SLOW.format(least=self.body_min_bytes, window=self.body_window_s)
            self.transport.write(answer(408, "Request Timeout", text))
        if cycle is not None and not cycle.response_complete:
            cycle.disconnected = True           # the app's receive: http.disconnect
            cycle.message_event.set()
        self.transport.close()

    def _release(self) -> None:
        if self.deadline is not None:
            self.deadline.cancel()
            self.deadline = None
        if self.body_watch is not None:
            self.body_watch.cancel()
            self.body_watch = None
        if self.address is not None:
            counts = self.server_state.__dict__["cluelab_per_address"]
            counts[self.address] -= 1
            if counts[self.address] <= 0:
                del counts[self.address]
            self.address = None


class AcceptFlood(logging.Filter):
    """On the `asyncio` logger: one "out of system resource" line per `every_s`, saying how
    many were held back; every other line passes."""

    def __init__(self, every_s: float = ACCEPT_LOG_EVERY_S):
        super().__init__()
        self.every_s = every_s
        self.last = None
        self.held = 0

    def filter(self, record: logging.LogRecord) -> bool:
        if not str(record.msg).startswith(ACCEPT_FAILED):
            return True
        now = time.monotonic()
        if self.last is not None and now - self.last < self.every_s:
            self.held += 1
            return False
        if self.held:
            record.msg = f"{record.msg}\n(and {self.held} more like it since the last one)"
        record.exc_info = None      # the traceback is the same each time: accept() failed
        self.last, self.held = now, 0
        return True


def more_descriptors() -> None:
    """Raise the soft limit on open files to the hard one (often 1,024 of 500,000+)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard > soft:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        except (ValueError, OSError):
            pass


def install(trusted_proxies: str = "") -> None:
    """Serve with BoundedH11 (settings from the environment: CLUELAB_HEADER_TIMEOUT_S,
    CLUELAB_BODY_WINDOW_S, CLUELAB_BODY_MIN_BYTES, CLUELAB_CONNECTIONS_PER_ADDRESS), the
    proxies of `trusted_proxies` (the operator's FORWARDED_ALLOW_IPS) uncapped, and AcceptFlood on asyncio's log."""
    import gradio.http_server as http_server

    BoundedH11.header_timeout_s = float(os.environ.get("CLUELAB_HEADER_TIMEOUT_S") or
                                        HEADER_TIMEOUT_S)
    BoundedH11.body_window_s = float(os.environ.get("CLUELAB_BODY_WINDOW_S") or BODY_WINDOW_S)
    BoundedH11.body_min_bytes = int(os.environ.get("CLUELAB_BODY_MIN_BYTES") or BODY_MIN_BYTES)
    BoundedH11.per_address = int(os.environ.get("CLUELAB_CONNECTIONS_PER_ADDRESS") or
                                 MAX_CONNECTIONS_PER_ADDRESS)
    BoundedH11.uncapped = _TrustedHosts(trusted_proxies) if trusted_proxies.strip() else ()
    if not getattr(http_server.Server, "bounded", False):
        class BoundedServer(http_server.Server):
            bounded = True

            def __init__(self, config, *args, **kwargs):
                config.http = BoundedH11
                super().__init__(config, *args, **kwargs)
        http_server.Server = BoundedServer
    asyncio_log = logging.getLogger("asyncio")
    if not any(isinstance(f, AcceptFlood) for f in asyncio_log.filters):
        asyncio_log.addFilter(AcceptFlood())
    more_descriptors()
