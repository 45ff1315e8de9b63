"""A browser table's token: unguessable, and checked before it ever reaches a store."""

from __future__ import annotations

import re
import secrets

# 24 random bytes in URL-safe base64 (``secrets.token_urlsafe(24)``): 32 characters.
TOKEN_PATTERN = r"^[A-Za-z0-9_-]{32}$"
TOKEN = re.compile(TOKEN_PATTERN)


def new_token() -> str:
    return secrets.token_urlsafe(24)


def valid_token(token: str) -> bool:
    return TOKEN.fullmatch(token) is not None
