"""What the tests share: the live server's address, fresh accounts, a webhook receiver and a
connection that drops every request (network failures)."""

from __future__ import annotations

import os
import socket
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from vouch import Client

BASE_URL = os.environ.get("VOUCH_URL", "")
ADMIN_KEY = os.environ.get("VOUCH_ADMIN_KEY", "")

ALL_SCOPES = [
    "projects:read", "projects:write", "tests:read", "tests:write",
    "webhooks:read", "webhooks:write", "events:read",
]

MODULE = """
exports.abs = (n) => (n < 0 ? -n : n);
exports.clamp = function clamp(x, lo, hi) {
  if (x < lo) return lo;
  if (x > hi) return hi;
  return x;
};
"""


def require_server() -> None:
    if not BASE_URL or not ADMIN_KEY:
        raise RuntimeError("set VOUCH_URL and VOUCH_ADMIN_KEY (scripts/test_clients.sh does)")


def admin() -> Client:
    require_server()
    return Client(BASE_URL, ADMIN_KEY)


def fresh_account(plan: str = "enterprise", scopes=None, **options) -> Client:
    """A client with the key of a new account, so that each test sees only its own records."""
    key = admin().keys.create(account="py-" + uuid.uuid4().hex[:12], plan=plan, scopes=scopes or ALL_SCOPES)
    return Client(BASE_URL, key["key"], **options)


class Receiver:
    """An HTTP server on 127.0.0.1 that answers 200 and keeps every request's headers and raw body."""

    def __init__(self) -> None:
        self.requests = []
        self._cond = threading.Condition()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                with receiver._cond:
                    receiver.requests.append((list(self.headers.items()), body))
                    receiver._cond.notify_all()
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}/hook"
        threading.Thread(target=self._server.serve_forever, daemon=True).start()

    def wait_for(self, predicate, timeout: float = 30.0):
        """The first request (headers, body) for which predicate(headers, body) holds."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                for headers, body in self.requests:
                    if predicate(headers, body):
                        return headers, body
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"no matching delivery within {timeout} s; got {len(self.requests)}")
                self._cond.wait(left)

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()


class DroppingServer:
    """Accepts connections, reads each request's head, and closes without answering."""

    def __init__(self) -> None:
        self.heads = []
        self._socket = socket.socket()
        self._socket.bind(("127.0.0.1", 0))
        self._socket.listen(16)
        self.url = f"http://127.0.0.1:{self._socket.getsockname()[1]}"
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                connection, _ = self._socket.accept()
            except OSError:
                return
            with connection:
                data = b""
                while b"\r\n\r\n" not in data:
                    chunk = connection.recv(4096)
                    if not chunk:
                        break
                    data += chunk
                self.heads.append(data.decode("latin-1"))

    def header_values(self, name: str):
        out = []
        for head in self.heads:
            for line in head.split("\r\n")[1:]:
                key, _, value = line.partition(":")
                if key.strip().lower() == name.lower():
                    out.append(value.strip())
        return out

    def close(self) -> None:
        self._socket.close()
