"""Times each GraphQL operation into ``graphmem_request_seconds``, labelled by its root field
(``query:facts``). A label is made only of the schema's own names, so what clients send cannot
grow the series: an operation of several root fields is ``query:several`` (their combinations
would not be bounded), and one whose root names a field the schema does not have, or a
fragment, or a document that did not parse, is ``invalid`` (2,000 invalid documents with
made-up field names had made 2,000 series: /metrics went from 169 KB to 7.8 MB). The same
label names the request's trace span, with the error codes of a failed result."""

from __future__ import annotations

import time
from collections.abc import Iterator

from graphql import FieldNode, GraphQLSchema, OperationDefinitionNode
from strawberry.extensions import SchemaExtension

from graphmem.api.server.extensions.errors import code_of
from graphmem.observability import metrics

INVALID = "invalid"
_META = frozenset({"__typename", "__schema", "__type"})  # introspection: in every schema


class OperationTiming(SchemaExtension):
    def on_operation(self) -> Iterator[None]:
        began = time.perf_counter()
        yield
        label = self._label()
        metrics.REQUEST_SECONDS.labels(label).observe(time.perf_counter() - began)
        context = self.execution_context.context  # none: the schema run outside a request
        tracing = context.db.tracing if context is not None else None
        if tracing is not None and tracing.enabled:
            result = self.execution_context.result
            codes = sorted({code_of(e) for e in (result.errors or [])}) if result else []
            tracing.annotate(f"graphql {label}", {"graphmem.operation": label},
                             error=",".join(codes) or None)

    def _label(self) -> str:
        document = self.execution_context.graphql_document
        if document is None:
            return INVALID
        operations = [d for d in document.definitions if isinstance(d, OperationDefinitionNode)]
        if len(operations) != 1:  # several need an operation name: strawberry picks by it
            operations = [d for d in operations if d.name is not None
                          and d.name.value == self.execution_context.operation_name]
        return label_of(self.execution_context.schema._schema, operations[0]) \
            if len(operations) == 1 else INVALID


def label_of(schema: GraphQLSchema, operation: OperationDefinitionNode) -> str:
    """``<operation type>:<root field>``, ``:several``, or ``invalid``: schema names only."""
    root = schema.get_root_type(operation.operation)
    names: set[str] = set()
    for selection in operation.selection_set.selections:
        if not isinstance(selection, FieldNode):
            return INVALID  # a fragment's name is the client's
        name = selection.name.value
        if root is None or (name not in root.fields and name not in _META):
            return INVALID
        names.add(name)
    if not names:
        return INVALID
    return f"{operation.operation.value}:{names.pop() if len(names) == 1 else 'several'}"
