"""The audit trail as a strawberry extension (mutations are recorded after they run) and
the admin-only ``auditLog`` query."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from datetime import datetime

import strawberry
from graphql import FieldNode, OperationDefinitionNode, OperationType, VariableNode
from strawberry.extensions import SchemaExtension

from graphmem.api.arguments import AfterArg, FirstArg, NamespaceArg
from graphmem.api.context import Context, Info
from graphmem.api.errors import code_of
from graphmem.api.pagination import Connection, to_connection
from graphmem.core.errors import Forbidden, GraphmemError
from graphmem.core.pagination import page_size
from graphmem.governance import audit as domain
from graphmem.governance.erasure import digest
from graphmem.observability import metrics
from graphmem.observability.logs import request_id

log = logging.getLogger(__name__)


class AuditTrail(SchemaExtension):
    async def on_execute(self) -> AsyncIterator[None]:
        yield
        ctx = self.execution_context.context
        document = self.execution_context.graphql_document
        if not isinstance(ctx, Context) or document is None:
            return
        variables = self.execution_context.variables or {}
        result = self.execution_context.result
        errors = {str(e.path[0]): code_of(e) for e in (result.errors or []) if e.path} \
            if result else {}
        events = []
        for definition in document.definitions:
            if not (isinstance(definition, OperationDefinitionNode)
                    and definition.operation is OperationType.MUTATION):
                continue
            for field in definition.selection_set.selections:
                if not isinstance(field, FieldNode):
                    continue
                ns = _namespace(field, variables)
                key = (field.alias or field.name).value
                outcome = str(errors.get(key, "ok"))
                if ns is not None and field.name.value == "eraseNamespace" and outcome == "ok":
                    ns = await digest(ctx.db, ns)  # the erased namespace is named nowhere
                if ns is not None:
                    events.append({"ns": ns, "operation": field.name.value,
                                   "actor": ctx.principal.name, "key_id": ctx.principal.key_id,
                                   "outcome": outcome,
                                   "request_id": request_id.get()})
        try:
            await domain.record(ctx.db, events)
        except GraphmemError as exc:  # Neo4j went away after the operation: say so loudly,
            # but do not turn the operation's own answer (often its own retryable error) into
            # an untyped one
            metrics.AUDIT_WRITE_FAILURES.inc(len(events))
            log.error("audit events not written (%s): %d event(s) lost", exc.code, len(events))


def _namespace(field: FieldNode, variables: dict[str, object]) -> str | None:
    for argument in field.arguments or ():
        if argument.name.value == "namespace":
            value = argument.value
            raw = variables.get(value.name.value) if isinstance(value, VariableNode) \
                else getattr(value, "value", None)
            return raw if isinstance(raw, str) else None
    return None


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


async def audit_log(info: Info, namespace: NamespaceArg, first: FirstArg = 50,
                    after: AfterArg = None) -> Connection[AuditEvent]:
    ctx = info.context
    ns = ctx.namespace(namespace)
    if not ctx.principal.admin:
        raise Forbidden("the audit log is for admin keys")
    found = await domain.page(ctx.db, ns, page_size(first, ctx.settings.max_page), after)
    return to_connection(found, lambda e: AuditEvent(
        id=strawberry.ID(e.id), at=e.at, operation=e.operation, actor=e.actor,
        key_id=e.key_id, outcome=e.outcome, request_id=e.request_id))
