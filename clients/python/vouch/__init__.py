"""Vouch API client: ``from vouch import Client, verify_webhook``."""

from .client import OPERATIONS, Client
from .errors import VouchError
from .webhooks import WebhookVerificationError, verify_webhook

__all__ = ["Client", "VouchError", "verify_webhook", "WebhookVerificationError", "OPERATIONS"]
__version__ = "0.1.0"
