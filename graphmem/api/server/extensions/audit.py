"""The audit trail as a strawberry extension: every mutation field is recorded, in its own
transaction when it can be (the ``auditLog`` query reads it: ``api/audit.py``)."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass, replace
from functools import partial

from graphql import (
    DocumentNode,
    FieldNode,
    OperationDefinitionNode,
    OperationType,
    VariableNode,
)
from strawberry.extensions import SchemaExtension

from graphmem.api.server.context import Context
from graphmem.api.server.extensions.errors import code_of
from graphmem.core.errors import GraphmemError
from graphmem.db import rider
from graphmem.governance import audit as domain
from graphmem.governance.erasure import digest
from graphmem.observability import metrics
from graphmem.observability.logs import request_id

log = logging.getLogger(__name__)


class AuditTrail(SchemaExtension):
    """One audit event per mutation field. A request with one mutation field (what agents
    send) writes its event in the mutation's own transaction: the change and its record
    commit together, in one commit. Otherwise the events are written after the operation:
    several fields, a mutation that committed nothing (a refusal, a failure), and the
    erasure of a namespace, which must not be named in the log. A mutation that committed a
    transaction and then failed leaves two events: ``ok`` for what committed, and its error."""

    async def on_execute(self) -> AsyncIterator[None]:
        ctx = self.execution_context.context
        document = self.execution_context.graphql_document
        if not isinstance(ctx, Context) or document is None:
            yield
            return
        fields = _mutation_fields(document, self.execution_context.variables or {})
        if len(fields) == 1 and fields[0].operation != "eraseNamespace":
            with rider.riding(partial(domain.record_in,
                                      events=[fields[0].event(ctx, "ok")])) as riding:
                yield
            recorded = fields[0].key if riding.committed else None
        else:
            yield
            recorded = None
        result = self.execution_context.result
        errors = {str(e.path[0]): code_of(e) for e in (result.errors or []) if e.path} \
            if result else {}
        events = []
        for field in fields:
            outcome = str(errors.get(field.key, "ok"))
            if field.key == recorded and outcome == "ok":
                continue
            if field.operation == "eraseNamespace" and outcome == "ok":
                # the erased namespace is named nowhere
                field = replace(field, ns=await digest(ctx.db, field.ns))
            events.append(field.event(ctx, outcome))
        if not events:
            return
        try:
            await domain.record(ctx.db, events)
        except GraphmemError as exc:  # Neo4j went away after the operation: say so loudly,
            # but do not turn the operation's own answer (often its own retryable error) into
            # an untyped one
            metrics.AUDIT_WRITE_FAILURES.inc(len(events))
            log.error("audit events not written (%s): %d event(s) lost", exc.code, len(events))


@dataclass(frozen=True)
class _MutationField:
    key: str  # its alias, or its name: how errors point at it
    operation: str
    ns: str

    def event(self, ctx: Context, outcome: str) -> dict[str, str | None]:
        return {"ns": self.ns, "operation": self.operation, "actor": ctx.principal.name,
                "key_id": ctx.principal.key_id, "outcome": outcome,
                "request_id": request_id.get()}


def _mutation_fields(document: DocumentNode,
                     variables: dict[str, object]) -> list[_MutationField]:
    """The root fields of the document's mutations that name a namespace."""
    found = []
    for definition in document.definitions:
        if not (isinstance(definition, OperationDefinitionNode)
                and definition.operation is OperationType.MUTATION):
            continue
        for field in definition.selection_set.selections:
            if isinstance(field, FieldNode) and (ns := _namespace(field, variables)) is not None:
                found.append(_MutationField((field.alias or field.name).value,
                                            field.name.value, ns))
    return found


def _namespace(field: FieldNode, variables: dict[str, object]) -> str | None:
    for argument in field.arguments or ():
        if argument.name.value == "namespace":
            value = argument.value
            raw = variables.get(value.name.value) if isinstance(value, VariableNode) \
                else getattr(value, "value", None)
            return raw if isinstance(raw, str) else None
    return None
