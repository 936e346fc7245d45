"""Per-key rate limiting: a token bucket per API key, in this process.

Each key may burst to ``per_minute`` requests and refills at that rate; beyond it requests
get 429 with ``Retry-After`` before any GraphQL runs. Per process: behind several service
processes each enforces its share of the setting (``GRAPHMEM_PROCESSES``), which holds the
total when a balancer spreads a key's requests evenly; an exact shared limit belongs in
front of them.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field


@dataclass
class _Bucket:
    tokens: float
    updated: float


@dataclass
class RateLimiter:
    per_minute: int  # 0 disables
    _buckets: dict[str, _Bucket] = field(default_factory=dict)

    def allow(self, key: str, now: float | None = None) -> float:
        """0 when the request may go ahead, else the seconds to wait before retrying."""
        if self.per_minute <= 0:
            return 0.0
        now = time.monotonic() if now is None else now
        rate = self.per_minute / 60.0
        bucket = self._buckets.setdefault(key, _Bucket(float(self.per_minute), now))
        bucket.tokens = min(float(self.per_minute), bucket.tokens + (now - bucket.updated) * rate)
        bucket.updated = now
        if bucket.tokens >= 1:
            bucket.tokens -= 1
            return 0.0
        return (1 - bucket.tokens) / rate
