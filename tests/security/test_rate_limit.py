"""Per-key token buckets: bursts up to the limit, refills over time, keys are independent."""

from __future__ import annotations

import httpx
import pytest

from graphmem.api.server.gate import Gate, http_refusal
from graphmem.core.config import Settings
from graphmem.core.errors import RateLimited
from graphmem.db.database import Database
from graphmem.security.auth import Principal, create_key
from graphmem.security.rate_limit import RateLimiter


def test_bucket_bursts_then_waits_then_refills() -> None:
    limiter = RateLimiter(per_minute=3)
    assert [limiter.allow("k", now=0.0) for _ in range(3)] == [0.0, 0.0, 0.0]
    assert limiter.allow("k", now=0.0) == 20.0  # one token every 20 s
    assert limiter.allow("other", now=0.0) == 0.0
    assert limiter.allow("k", now=20.0) == 0.0
    assert RateLimiter(per_minute=0).allow("k") == 0.0  # disabled


def test_each_moment_refills_once() -> None:
    """A bucket refills from its last request, not again from its first: a second's tokens
    are spent once."""
    limiter = RateLimiter(per_minute=60)  # one a second
    assert all(limiter.allow("k", now=0.0) == 0.0 for _ in range(60))
    assert limiter.allow("k", now=1.0) == 0.0  # the second's one token
    assert limiter.allow("k", now=1.5) == pytest.approx(0.5)  # half of the next is there
    assert limiter.allow("k", now=2.0) == 0.0


async def test_over_the_limit_is_429_before_graphql(client: httpx.AsyncClient, db: Database,
                                                    app: object) -> None:
    token = await create_key(db, "limited", grants=["limited/*"], admin=False)
    gate = app.state.gate  # type: ignore[attr-defined]
    original = gate.limiter
    gate.limiter = RateLimiter(per_minute=2)
    try:
        codes = [(await client.post("/graphql", json={"query": "{ __typename }"},
                                    headers={"Authorization": f"Bearer {token}"})).status_code
                 for _ in range(3)]
        limited = await client.post("/graphql", json={"query": "{ __typename }"},
                                    headers={"Authorization": f"Bearer {token}"})
    finally:
        gate.limiter = original
    assert codes == [200, 200, 429]
    assert limited.json()["errors"][0]["extensions"]["code"] == "RATE_LIMITED"
    assert int(limited.headers["retry-after"]) >= 1


def test_retry_after_is_a_whole_second_at_least_however_fast_the_refill() -> None:
    """At 6,000 a minute the next token is at most 10 ms away: Retry-After still says 1,
    never 0 (a client told 0 retries at once, and is refused again)."""
    gate = Gate(Settings(rate_limit_per_minute=6_000, processes=1))
    key = Principal("k1", "fast", ("a",), False)
    with pytest.raises(RateLimited) as refused:
        for _ in range(1_000_000):  # the burst, spent far faster than it refills
            gate.charge(key)
    assert refused.value.retry_after == 1 and refused.value.details["retryAfter"] == 1
    assert http_refusal(refused.value) == (429, {"Retry-After": "1"})
