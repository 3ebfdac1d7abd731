"""HTTP transport: JSON in and out, problem+json errors, retries with backoff.

A call is retried (at most ``max_retries`` times) when:
- the server answers 429 or 503 (it did not act), or 409 ``idempotency_key_in_use`` (the first
  attempt of this POST is still being answered): after ``Retry-After`` when the answer has one,
  else after an exponential backoff with jitter;
- the connection fails before an answer, and the call is idempotent: GET, PUT, DELETE, or a POST,
  which always carries an ``Idempotency-Key`` (the same one on every attempt) so that the server
  answers a repeated POST with the first answer instead of acting twice.
"""

from __future__ import annotations

import email.utils
import http.client
import json
import random
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from typing import Any, Callable, Mapping, Optional

from .errors import VouchError

_IDEMPOTENT = {"GET", "HEAD", "PUT", "DELETE", "OPTIONS"}


def parse_retry_after(value: Optional[str], now: Optional[float] = None) -> Optional[float]:
    """Seconds to wait from a Retry-After header (delta-seconds or an HTTP date), or None."""
    if value is None or value.strip() == "":
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when is None:
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


class Transport:
    def __init__(
        self,
        base_url: str,
        api_key: Optional[str],
        *,
        timeout: float = 60.0,
        max_retries: int = 3,
        backoff_base: float = 0.5,
        backoff_max: float = 8.0,
        max_retry_after: float = 120.0,
        user_agent: str = "vouch-python",
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.api_key = api_key
        self.timeout = timeout
        self.max_retries = max_retries
        self.backoff_base = backoff_base
        self.backoff_max = backoff_max
        self.max_retry_after = max_retry_after
        self.user_agent = user_agent
        self._sleep = sleep
        # Redirects are not followed: the API answers none, and a redirected POST would drop
        # its body.
        self._opener = urllib.request.build_opener(_NoRedirect)

    def backoff(self, attempt: int) -> float:
        """Exponential backoff with jitter: about base * 2^attempt, capped, times [0.5, 1)."""
        ceiling = min(self.backoff_max, self.backoff_base * (2**attempt))
        return ceiling * (0.5 + random.random() / 2)

    def request(
        self,
        method: str,
        path: str,
        *,
        query: Optional[Mapping[str, Any]] = None,
        body: Any = None,
        data: Optional[bytes] = None,
        content_type: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
        idempotency_key: Optional[str] = None,
        timeout: Optional[float] = None,
        raw: bool = False,
        binary: bool = False,
    ) -> Any:
        """Sends one call (with its retries) and returns the decoded JSON answer (None for 204,
        the text when ``raw``, the bytes when ``binary``). Raises VouchError for an error answer or a failed connection."""
        url = self.base_url + path
        if query:
            pairs = [(k, _query_value(v)) for k, v in query.items() if v is not None]
            if pairs:
                url += "?" + urllib.parse.urlencode(pairs)
        send_headers = {"Accept": "application/json", "User-Agent": self.user_agent}
        if self.api_key:
            send_headers["Authorization"] = "Bearer " + self.api_key
        if body is not None:
            data = json.dumps(body, separators=(",", ":")).encode("utf-8")
            send_headers["Content-Type"] = "application/json"
        elif data is not None:
            send_headers["Content-Type"] = content_type or "application/octet-stream"
        if method == "POST":
            send_headers["Idempotency-Key"] = idempotency_key or str(uuid.uuid4())
        if headers:
            send_headers.update(headers)
        retry_on_network = method in _IDEMPOTENT or "Idempotency-Key" in send_headers

        attempt = 0
        while True:
            req = urllib.request.Request(url, data=data, method=method, headers=send_headers)
            try:
                with self._opener.open(req, timeout=timeout or self.timeout) as response:
                    status = response.status
                    payload = response.read()
                    answer_headers = response.headers
            except urllib.error.HTTPError as error:
                status = error.code
                payload = error.read()
                answer_headers = error.headers
            except (urllib.error.URLError, http.client.HTTPException, socket.timeout, OSError) as error:
                if retry_on_network and attempt < self.max_retries:
                    self._sleep(self.backoff(attempt))
                    attempt += 1
                    continue
                reason = getattr(error, "reason", error)
                raise VouchError(
                    status=0,
                    code="network_error",
                    detail=f"{method} {path}: {reason}",
                ) from error

            if _retryable(status, payload) and attempt < self.max_retries:
                wait = parse_retry_after(answer_headers.get("Retry-After"))
                if wait is None:
                    wait = self.backoff(attempt)
                if wait <= self.max_retry_after:
                    self._sleep(wait)
                    attempt += 1
                    continue
            if status >= 300:  # 3xx too: never followed (the API answers none)
                raise VouchError.from_response(status, payload, answer_headers)
            if binary:
                return payload
            if raw:
                return payload.decode("utf-8")
            if status == 204 or not payload:
                return None
            return json.loads(payload)


def _retryable(status: int, payload: bytes) -> bool:
    """429 and 503: the server did not act. 409 ``idempotency_key_in_use``: the first attempt of
    this POST is still being answered; a retry gets its answer once it is recorded."""
    if status in (429, 503):
        return True
    if status != 409:
        return False
    try:
        return json.loads(payload).get("code") == "idempotency_key_in_use"
    except (ValueError, AttributeError):
        return False


def _query_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, req, fp, code, msg, headers, newurl):  # noqa: D401
        return None
