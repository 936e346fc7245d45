"""``GET /export?namespace=NS[&decrypt=true]``: a namespace's whole memory in the export
format (docs/export-format.md), streamed from one consistent read in constant memory, for
admin keys, and audited (operation ``export``). A stream, not a job: nothing is left on any
server's disk, and it works behind any balancer; ``graphmem import`` reads what it sends."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator

from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from graphmem.api.server.gate import Gate, http_refusal
from graphmem.core.config import Settings
from graphmem.core.errors import Forbidden, GraphmemError
from graphmem.core.namespaces import Namespace, parse_namespace
from graphmem.db.database import Database
from graphmem.governance import audit
from graphmem.observability.logs import request_id
from graphmem.portability.exporting import export
from graphmem.portability.format import line
from graphmem.security.auth import Principal


def export_route(settings: Settings, gate: Gate) -> Route:
    async def endpoint(request: Request) -> Response:
        db: Database = request.app.state.runtime.db
        try:
            principal, ns = await _allowed(request, db, gate)
        except GraphmemError as exc:
            status, headers = http_refusal(exc)
            return JSONResponse({"errors": [{"message": exc.message,
                                             "extensions": {"code": exc.code}}]}, status,
                                headers=headers)
        decrypt = request.query_params.get("decrypt", "false").lower() == "true"
        await audit.record(db, [{"ns": ns, "operation": "export", "actor": principal.name,
                                 "key_id": principal.key_id, "outcome": "ok",
                                 "request_id": request_id.get()}])
        name = re.sub(r"[^A-Za-z0-9._-]", "_", ns)
        return StreamingResponse(_lines(db, ns, decrypt), media_type="application/x-ndjson",
                                 headers={"Content-Disposition":
                                          f'attachment; filename="{name}.jsonl"'})

    return Route("/export", endpoint, methods=["GET"])


async def _allowed(request: Request, db: Database, gate: Gate,
                   ) -> tuple[Principal, Namespace]:
    principal = await gate.admit(db, request.headers.get("authorization"))
    ns = principal.authorize(parse_namespace(request.query_params.get("namespace", "")))
    if not principal.admin:
        raise Forbidden("exports are for admin keys")
    return principal, ns


async def _lines(db: Database, ns: Namespace, decrypt: bool) -> AsyncIterator[bytes]:
    async for record in export(db, ns, decrypt):
        yield line(record).encode()
