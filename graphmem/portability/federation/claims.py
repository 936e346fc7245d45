"""One sync of a namespace at a time: a device's sync claims the namespace on the device's
Neo4j, renews the claim at every page and gives it up when it ends; a holder that died lets
go after ``LEASE_S``."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from graphmem.core.errors import ConcurrentChange
from graphmem.core.namespaces import Namespace
from graphmem.db.database import Database

LEASE_S = 900  # how long a device's sync holds its namespace unrenewed (renewed every page)


async def claim(db: Database, ns: Namespace, peer: str, holder: str) -> None:
    """Take the right to sync ``ns`` with ``peer`` for ``holder`` (or renew it): no two syncs
    of one namespace run at once, in one process or several. ConcurrentChange (retryable)
    while another holds it."""
    now = datetime.now(UTC)
    row = (await db.write("portability/federation/claim", ns=ns, peer=peer, holder=holder,
                          now=now, until=now + timedelta(seconds=LEASE_S)))[0]
    if not row["free"]:
        raise ConcurrentChange("another sync of this namespace is running; try again when it "
                               "ends", namespace=ns)


async def release(db: Database, ns: Namespace, peer: str, holder: str) -> None:
    """A sync that ended, done or failed, lets the next one run."""
    await db.write("portability/federation/release", ns=ns, peer=peer, holder=holder)
