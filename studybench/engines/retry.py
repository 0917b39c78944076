"""Retry timing shared by every HTTP engine (OpenAI-compatible, Anthropic Messages).

A retried request waits an exponential backoff with full jitter (so a fleet of clients that
failed together does not retry together), or what the server's ``Retry-After`` asks for when
that is longer, but never longer than the request timeout: a proxy asking for an hour must
not stall a run for an hour.
"""

from __future__ import annotations

import email.utils
import random
import time
from collections.abc import Mapping

MAX_ERROR_CHARS = 2000
"""The longest error text an engine stores (provider error pages can be megabytes)."""


def retry_after_s(headers: Mapping[str, str] | None, *, now: float | None = None) -> float | None:
    """The wait a ``Retry-After`` header asks for (delta seconds or HTTP date), else None."""
    if not headers:
        return None
    value = headers.get("retry-after") or headers.get("Retry-After")
    if not value:
        return None
    value = value.strip()
    try:
        return max(float(value), 0.0)
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when is None:
        return None
    return max(when.timestamp() - (time.time() if now is None else now), 0.0)


def retry_delay(
    attempt: int,
    *,
    base_s: float,
    cap_s: float,
    timeout_s: float,
    headers: Mapping[str, str] | None = None,
) -> float:
    """Seconds to wait before retry ``attempt`` (0-based): jittered backoff, or the server's
    ``Retry-After`` when longer, bounded by ``timeout_s``."""
    backoff = random.uniform(0, min(cap_s, base_s * 2**attempt))
    asked = retry_after_s(headers)
    if asked is not None:
        return min(max(asked, backoff), timeout_s)
    return backoff
