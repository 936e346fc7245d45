"""Where syncing stands: on a device, the cursor its next pull starts after (kept with each
page it wrote) and what its last acknowledged push held; on the shared side, the namespace's
last sequence number (peer ``SHARED``). A cursor names a sequence number and the last
(label, key) read within it."""

from __future__ import annotations

import base64
import binascii
import json
from datetime import UTC, datetime

from graphmem.core.errors import InvalidInput
from graphmem.core.namespaces import Namespace
from graphmem.db.database import Database, Tx

SHARED = "*"  # the peer a shared service's own sequence is kept under
DONE = "~"  # a cursor's label after every label: the whole sequence number was read


async def pulled_up_to(db: Database, ns: Namespace, peer: str) -> str:
    """The cursor a device's next pull from ``peer`` starts after."""
    row = (await db.read("portability/federation/state", ns=ns, peer=peer))[0]
    return cursor_of(int(row["seq"]), row["pulled_label"] or DONE, row["pulled_key"] or "")


async def last_sequence(db: Database, ns: Namespace) -> int:
    """The shared namespace's last sequence number (0: nothing pushed yet)."""
    return int((await db.read("portability/federation/state", ns=ns, peer=SHARED))[0]["seq"])


async def last_sequence_in(tx: Tx, ns: Namespace) -> int:
    """The same, inside a transaction that may move it on."""
    return int((await tx.run("portability/federation/state", ns=ns, peer=SHARED))[0]["seq"])


async def advance(tx: Tx, ns: Namespace, peer: str, seq: int, label: str = DONE,
                  key: str = "") -> None:
    """Move the sync state with ``peer`` on, in the transaction of what it records (a pulled
    page, a push's stamps, an erasure's tombstones)."""
    await tx.run("portability/federation/advance", ns=ns, peer=peer, seq=seq, label=label,
                 key=key, now=datetime.now(UTC))


async def pushed(db: Database, ns: Namespace, peer: str) -> dict[str, str]:
    """What the device's last acknowledged push to ``peer`` held: node name -> digest."""
    row = (await db.read("portability/federation/pushed", ns=ns, peer=peer))[0]
    return dict(zip(row["names"], row["digests"], strict=True))


async def acknowledge(db: Database, ns: Namespace, peer: str, digests: dict[str, str]) -> None:
    """The shared side took a push: ``digests`` (the namespace's nodes now) is what the next
    push compares against."""
    names = sorted(digests)
    await db.write("portability/federation/acknowledge", ns=ns, peer=peer, names=names,
                   digests=[digests[name] for name in names], now=datetime.now(UTC))


def cursor_of(seq: int, label: str, key: str | None) -> str:
    text = json.dumps([seq, label, key or ""], separators=(",", ":"))
    return base64.urlsafe_b64encode(text.encode()).decode()


def parse_cursor(cursor: str) -> tuple[int, str, str]:
    try:
        seq, label, key = json.loads(base64.urlsafe_b64decode(cursor.encode()))
        if isinstance(seq, int) and isinstance(label, str) and isinstance(key, str):
            return seq, label, key
    except (ValueError, TypeError, binascii.Error):
        pass
    raise InvalidInput("not a sync cursor", field="after")
