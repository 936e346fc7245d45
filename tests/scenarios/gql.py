"""The GraphQL calls the scenarios make that the client facade has no method for, sent
through the ``Memory``'s own request loop (same key, retries and typed errors)."""

from __future__ import annotations

import re
from typing import Any

from graphmem_client import AsyncMemory
from graphmem_client._operations import Call, Steps


async def graphql(memory: AsyncMemory, document: str, **variables: Any) -> dict[str, Any]:
    """Run ``document`` (one named operation taking ``$namespace``) in the memory's
    namespace."""
    name = re.match(r"\s*(?:query|mutation)\s+(\w+)", document)
    assert name, "name the operation"

    def steps() -> Steps[dict[str, Any]]:
        data = yield Call(document, name.group(1), {"namespace": memory.namespace,
                                                   **variables})
        return data

    return await memory.run(steps())
