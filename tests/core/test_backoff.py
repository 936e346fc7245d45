"""The retry delay shared by the job queue and webhook deliveries."""

from __future__ import annotations

from graphmem.core.backoff import backoff


def test_backoff_doubles_up_to_the_cap() -> None:
    delays = [backoff(n, 2.0, 30.0).total_seconds() for n in range(1, 7)]
    assert 1.0 <= delays[0] <= 2.0 and 8.0 <= delays[3] <= 16.0
    assert all(15.0 <= d <= 30.0 for d in delays[4:])
    # Jittered: attempts that failed together (a webhook's deliveries) spread out.
    assert len({backoff(3, 2.0, 30.0) for _ in range(20)}) > 1
