"""Unsubscribe tokens: HMAC-signed with VEDETTE_SECRET_KEY, so the link works without logging in.

A token names one user and one purpose and never expires (an unsubscribe link in an
old mail must still work); it grants nothing but turning that user's mail off.
"""

from __future__ import annotations

import base64
import hashlib
import hmac

PURPOSE = b"vedette-unsubscribe-v1"


def _sig(secret: str, user_id: int) -> str:
    mac = hmac.new(secret.encode(), PURPOSE + b":" + str(user_id).encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac).decode().rstrip("=")


def unsubscribe_token(secret: str, user_id: int) -> str:
    return f"{user_id}.{_sig(secret, user_id)}"


def read_unsubscribe_token(secret: str, token: str) -> int | None:
    """The user id the token was made for, or None when it is not one of ours."""
    if not token or len(token) > 120:
        return None
    uid_text, _, sig = token.partition(".")
    if not uid_text.isdigit() or not sig:
        return None
    user_id = int(uid_text)
    if not hmac.compare_digest(sig.encode(), _sig(secret, user_id).encode()):
        return None
    return user_id
