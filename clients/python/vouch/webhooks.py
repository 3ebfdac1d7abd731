"""Verifies a webhook delivery from its raw body and headers.

Two signature schemes come on every delivery, and each one present must verify:
- the contract's: ``x-service-signature`` = lowercase hex HMAC-SHA256 over ``<ts>.<body>``,
  keyed by the whole secret string, ``ts`` = ``x-service-timestamp`` (and, during the 24 h after
  a rotation, ``x-service-signature-previous`` with the previous secret);
- Standard Webhooks: ``webhook-signature`` = space-separated ``v1,<base64 HMAC-SHA256>`` over
  ``<webhook-id>.<webhook-timestamp>.<body>``, keyed by the base64-decoded part of the secret
  after ``whsec_``.
Timestamps older or newer than ``tolerance`` seconds are refused (replays). Signatures are
compared in constant time.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import time
from typing import Any, Iterable, Mapping, Optional, Sequence, Union

DEFAULT_TOLERANCE_SECONDS = 300


class WebhookVerificationError(ValueError):
    """The delivery is not authentic: a missing header, a stale timestamp or a wrong signature."""


def _lower_headers(headers: Any) -> dict:
    items: Iterable = headers.items() if hasattr(headers, "items") else headers
    out = {}
    for name, value in items:
        if isinstance(value, (list, tuple)):
            value = ",".join(value) if name.lower() != "webhook-signature" else " ".join(value)
        out[name.lower()] = value
    return out


def _check_timestamp(value: Optional[str], tolerance: float, now: float) -> None:
    if value is None or not value.strip().isdigit():
        raise WebhookVerificationError("the timestamp header is missing or not unix seconds")
    if abs(now - int(value)) > tolerance:
        raise WebhookVerificationError("the timestamp is outside the tolerance")


def _standard_key(secret: str) -> bytes:
    encoded = secret[len("whsec_"):] if secret.startswith("whsec_") else secret
    try:
        return base64.b64decode(encoded, validate=True)
    except (binascii.Error, ValueError) as error:
        raise WebhookVerificationError("the secret is not a whsec_ base64 secret") from error


def verify_webhook(
    secret: Union[str, Sequence[str]],
    headers: Any,
    body: Union[bytes, str],
    *,
    tolerance: float = DEFAULT_TOLERANCE_SECONDS,
    now: Optional[float] = None,
) -> dict:
    """Returns the delivered event ``{id, type, created, data}`` when the delivery is authentic,
    else raises WebhookVerificationError.

    ``secret`` is the webhook's ``whsec_…`` secret, or several (old and new during a rotation).
    ``headers`` is a mapping or a list of pairs, names in any case. ``body`` is the raw body as
    received: verify before parsing, never a re-serialised JSON.
    """
    secrets = [secret] if isinstance(secret, str) else list(secret)
    if not secrets:
        raise WebhookVerificationError("no secret given")
    raw = body.encode("utf-8") if isinstance(body, str) else bytes(body)
    h = _lower_headers(headers)
    current = time.time() if now is None else now
    schemes = 0

    if "webhook-signature" in h:
        schemes += 1
        msg_id, ts = h.get("webhook-id"), h.get("webhook-timestamp")
        if not msg_id:
            raise WebhookVerificationError("webhook-id is missing")
        _check_timestamp(ts, tolerance, current)
        signed = f"{msg_id}.{ts}.".encode("utf-8") + raw
        expected = [
            base64.b64encode(hmac.new(_standard_key(s), signed, hashlib.sha256).digest())
            for s in secrets
        ]
        matched = False
        for token in h["webhook-signature"].split():
            version, _, signature = token.partition(",")
            if version != "v1":
                continue
            for candidate in expected:
                matched |= hmac.compare_digest(candidate, signature.encode("utf-8"))
        if not matched:
            raise WebhookVerificationError("no webhook-signature matches")

    if "x-service-signature" in h:
        schemes += 1
        ts = h.get("x-service-timestamp")
        _check_timestamp(ts, tolerance, current)
        signed = f"{ts}.".encode("utf-8") + raw
        expected = [
            hmac.new(s.encode("utf-8"), signed, hashlib.sha256).hexdigest().encode("ascii")
            for s in secrets
        ]
        received = [h["x-service-signature"]]
        if h.get("x-service-signature-previous"):
            received.append(h["x-service-signature-previous"])
        matched = False
        for signature in received:
            for candidate in expected:
                matched |= hmac.compare_digest(candidate, signature.strip().lower().encode("utf-8"))
        if not matched:
            raise WebhookVerificationError("x-service-signature does not match")

    if schemes == 0:
        raise WebhookVerificationError("no signature header (webhook-signature, x-service-signature)")
    try:
        return json.loads(raw)
    except ValueError as error:
        raise WebhookVerificationError("the body is not JSON") from error
