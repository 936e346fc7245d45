"""Times each GraphQL operation into ``graphmem_request_seconds``, labelled by its root fields
(``query:facts,entity``): bounded by the schema, never by what clients send. The same label
names the request's trace span, with the error codes of a failed result."""

from __future__ import annotations

import time
from collections.abc import Iterator

from graphql import OperationDefinitionNode
from strawberry.extensions import SchemaExtension

from graphmem.api.errors import code_of
from graphmem.observability import metrics, tracing


class OperationTiming(SchemaExtension):
    def on_operation(self) -> Iterator[None]:
        began = time.perf_counter()
        yield
        label = self._label()
        metrics.REQUEST_SECONDS.labels(label).observe(time.perf_counter() - began)
        if tracing.enabled():
            result = self.execution_context.result
            codes = sorted({code_of(e) for e in (result.errors or [])}) if result else []
            tracing.annotate(f"graphql {label}", {"graphmem.operation": label},
                             error=",".join(codes) or None)

    def _label(self) -> str:
        document = self.execution_context.graphql_document
        if document is None:
            return "invalid"
        for definition in document.definitions:
            if isinstance(definition, OperationDefinitionNode):
                names = sorted({s.name.value for s in definition.selection_set.selections
                                if hasattr(s, "name")})
                return f"{definition.operation.value}:{','.join(names)}"[:200]
        return "invalid"
