"""Re-encrypting episodes under the current key: after a new key is put first in
GRAPHMEM_ENCRYPTION_KEYS (keep the old ones listed until this has run), or to seal episodes
written before encryption was switched on. Batches, so any size of database is fine."""

from __future__ import annotations

import json
from collections.abc import Callable

from graphmem.core.errors import ConfigError
from graphmem.core.namespaces import Namespace
from graphmem.db.database import Database
from graphmem.episodes.store import Episode
from graphmem.security import encryption, namespace_keys

BATCH = 500


async def rotate(db: Database, progress: Callable[[int], None] | None = None,
                 ns: Namespace | None = None) -> int:
    """Seal every episode (of ``ns``, or all) under the current key; how many were."""
    keyring = encryption.active(db)
    if keyring is None:
        raise ConfigError("GRAPHMEM_ENCRYPTION_KEYS is not set: nothing to encrypt with")
    current = keyring.current_prefix
    total = 0
    while rows := await db.read("episodes/encryption/pending", ns=ns, current=current, limit=BATCH):
        sealed = []
        for ns_of_row in sorted({row["episode"]["ns"] for row in rows}):
            await namespace_keys.prepare(db, ns_of_row, create=True)  # its own key, if so set
        for row in rows:
            stored = row["episode"]
            episode = Episode.from_row(stored, db)
            context = encryption.reveal(db, stored.get("context"), episode.namespace)
            sealed.append({
                "id": episode.id, "ns": episode.namespace,
                "content": keyring.seal(episode.content, episode.namespace),
                "metadata": keyring.seal(json.dumps(episode.metadata, sort_keys=True,
                                                    ensure_ascii=False), episode.namespace),
                "context": keyring.seal(context, episode.namespace) if context else None,
                "content_hash": episode.as_new().content_hash(keyring)})
        await db.write("episodes/encryption/store", rows=sealed)
        total += len(sealed)
        if progress is not None:
            progress(len(sealed))
    return total
