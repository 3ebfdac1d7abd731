"""The one error type of the client: an API problem (RFC 9457) or a failed call."""

from __future__ import annotations

import json
from typing import Any, List, Mapping, Optional


class VouchError(Exception):
    """An error answer of the API, with its problem+json fields, or a call that got no answer.

    ``status`` is the HTTP status (0 when no answer came: ``code`` is then ``network_error``, or
    ``wait_timeout`` from ``wait_for_results``). ``errors`` lists ``{"field", "message"}`` for
    invalid requests; ``request_id`` is the server's ``X-Request-Id`` (quote it in bug reports);
    ``retry_after`` is the ``Retry-After`` of a 429 or 503, in seconds.
    """

    def __init__(
        self,
        status: int,
        code: str,
        detail: str = "",
        *,
        errors: Optional[List[Mapping[str, str]]] = None,
        request_id: Optional[str] = None,
        title: Optional[str] = None,
        type: Optional[str] = None,
        retry_after: Optional[float] = None,
        body: Any = None,
    ) -> None:
        super().__init__(f"{status} {code}: {detail}" if status else f"{code}: {detail}")
        self.status = status
        self.code = code
        self.detail = detail
        self.errors = list(errors or [])
        self.request_id = request_id
        self.title = title
        self.type = type
        self.retry_after = retry_after
        self.body = body

    @classmethod
    def from_response(cls, status: int, payload: bytes, headers: Mapping[str, str]) -> "VouchError":
        from ._transport import parse_retry_after

        body: Any = None
        try:
            body = json.loads(payload) if payload else None
        except ValueError:
            body = payload.decode("utf-8", "replace")
        problem = body if isinstance(body, dict) else {}
        return cls(
            status=status,
            code=problem.get("code") or f"http_{status}",
            detail=problem.get("detail") or (body if isinstance(body, str) else ""),
            errors=problem.get("errors"),
            request_id=problem.get("requestId") or headers.get("X-Request-Id"),
            title=problem.get("title"),
            type=problem.get("type"),
            retry_after=parse_retry_after(headers.get("Retry-After")),
            body=body,
        )
