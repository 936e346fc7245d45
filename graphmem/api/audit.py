"""The admin-only ``auditLog`` query: the trail the audit extension writes
(``server/extensions/audit.py``)."""

from __future__ import annotations

from datetime import datetime

import strawberry

from graphmem.api.server.arguments import AfterArg, FirstArg
from graphmem.api.server.context import Context
from graphmem.api.server.pagination import Connection, to_connection
from graphmem.api.server.scope import scoped
from graphmem.core.errors import Forbidden
from graphmem.core.namespaces import Namespace
from graphmem.core.pagination import page_size
from graphmem.governance import audit as domain


@strawberry.type(description="One memory-changing operation: who, what, when, outcome — "
                             "never the content.")
class AuditEvent:
    id: strawberry.ID = strawberry.field(description="`audit_…`.")
    at: datetime = strawberry.field(description="When it ran.")
    operation: str = strawberry.field(description="The mutation, e.g. assertFacts.")
    actor: str = strawberry.field(description="The API key's name.")
    key_id: str = strawberry.field(description="The API key's id.")
    outcome: str = strawberry.field(description="`ok`, or the error code it ended with.")
    request_id: str | None = strawberry.field(description="The request id (logs carry it).")


@scoped
async def audit_log(ctx: Context, ns: Namespace, first: FirstArg = 50,
                    after: AfterArg = None) -> Connection[AuditEvent]:
    if not ctx.principal.admin:
        raise Forbidden("the audit log is for admin keys")
    found = await domain.page(ctx.db, ns, page_size(first, ctx.settings.max_page), after)
    return to_connection(found, lambda e: AuditEvent(
        id=strawberry.ID(e.id), at=e.at, operation=e.operation, actor=e.actor,
        key_id=e.key_id, outcome=e.outcome, request_id=e.request_id))


@strawberry.type
class Query:
    audit_log: Connection[AuditEvent] = strawberry.field(
        resolver=audit_log,
        description="Memory-changing operations in a namespace, newest first (admin keys).")
