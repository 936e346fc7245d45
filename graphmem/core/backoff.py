"""How long a failed attempt waits before the next one: the job queue's retries and webhook
deliveries both back off this way."""

from __future__ import annotations

import random
from datetime import timedelta


def backoff(attempt: int, base_s: float, cap_s: float) -> timedelta:
    """Exponential (``base_s`` doubling from the first attempt, at most ``cap_s``) with full
    jitter in its upper half, so attempts that failed together do not retry together."""
    ceiling = min(cap_s, base_s * 2 ** max(0, attempt - 1))
    return timedelta(seconds=random.uniform(ceiling / 2, ceiling))
