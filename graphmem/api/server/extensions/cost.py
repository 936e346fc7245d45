"""Query cost, estimated before validation from fragment spreads, `first`/`limit` arguments
and list fields, so one request cannot stop the service or build an enormous answer.

The depth and alias validators walk every fragment spread: 40 fragments that each spread the
one before twice are 2^40 fields to walk, and the walk never returned (the event loop froze,
SIGTERM was ignored). Here each fragment is costed once and reused, so the estimate takes
time linear in the document; a document over the limit gets ``QUERY_TOO_COSTLY`` without
being validated or run.

The estimate is the number of values the answer could hold: a field counts 1, times the
size of each list it sits in: ``first``/``limit`` where given (a connection's own lists are
already counted by it), otherwise ``LIST_ESTIMATE`` for a list field (an episode's derived
facts, a fact's evidence: usually a handful). A selection that ``@skip`` or ``@include``
leaves out (a literal, or a variable given) costs nothing, as it returns nothing; one whose
condition is a variable not given counts (validation names what is missing).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from typing import Any

from graphql import (
    BooleanValueNode,
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    GraphQLError,
    GraphQLField,
    GraphQLList,
    GraphQLNonNull,
    GraphQLObjectType,
    GraphQLSchema,
    InlineFragmentNode,
    IntValueNode,
    OperationDefinitionNode,
    SelectionNode,
    SelectionSetNode,
    VariableNode,
)
from strawberry.extensions import SchemaExtension

from graphmem.core.errors import QueryTooCostly

LIST_ESTIMATE = 10
_SIZE_ARGUMENTS = ("first", "limit")


def estimate(schema: GraphQLSchema, document: Any, variables: Mapping[str, Any],
             page: int) -> float:
    """The largest estimated cost among the document's operations (inf for fragment cycles)."""
    fragments = {d.name.value: d for d in document.definitions
                 if isinstance(d, FragmentDefinitionNode)}
    costed: dict[str, float] = {}
    costing: set[str] = set()

    def fragment(name: str) -> float:
        if name in costing:
            return math.inf  # a fragment that spreads itself
        if name not in costed:
            definition = fragments.get(name)
            if definition is None:
                return 0.0  # validation names it
            costing.add(name)
            costed[name] = selections(definition.selection_set,
                                      _type(schema, definition.type_condition.name.value))
            costing.discard(name)
        return costed[name]

    def selections(selection_set: SelectionSetNode, parent: GraphQLObjectType | None) -> float:
        total = 0.0
        for node in selection_set.selections:
            if _left_out(node, variables):
                continue
            if isinstance(node, FragmentSpreadNode):
                total += fragment(node.name.value)
            elif isinstance(node, InlineFragmentNode):
                condition = node.type_condition
                total += selections(node.selection_set, _type(schema, condition.name.value)
                                    if condition else parent)
            elif isinstance(node, FieldNode):
                definition = parent.fields.get(node.name.value) if parent else None
                below = 0.0
                if node.selection_set is not None:
                    below = selections(node.selection_set, _object_of(definition))
                total += _size(node, definition, parent, variables, page) * (1 + below)
        return total

    operations = [d for d in document.definitions if isinstance(d, OperationDefinitionNode)]
    return max((selections(op.selection_set, _root(schema, op)) for op in operations),
               default=0.0)


def _left_out(node: SelectionNode, variables: Mapping[str, Any]) -> bool:
    """Whether ``@skip``/``@include`` leave this selection out of the answer."""
    for directive in node.directives or ():
        name = directive.name.value
        value = next((a.value for a in directive.arguments or () if a.name.value == "if"), None)
        if name not in ("skip", "include"):
            continue
        if isinstance(value, BooleanValueNode):
            condition = value.value
        elif isinstance(value, VariableNode) and isinstance(variables.get(value.name.value),
                                                            bool):
            condition = variables[value.name.value]
        else:
            continue
        if condition == (name == "skip"):
            return True
    return False


def _size(node: FieldNode, definition: GraphQLField | None, parent: GraphQLObjectType | None,
          variables: Mapping[str, Any], page: int) -> float:
    """How many values this field stands for, per value of its parent."""
    if definition is None:
        return 1.0
    for name in _SIZE_ARGUMENTS:
        if name not in definition.args:
            continue
        given = next((a.value for a in node.arguments or () if a.name.value == name), None)
        if isinstance(given, IntValueNode):
            return max(float(given.value), 1.0)
        if isinstance(given, VariableNode) and isinstance(variables.get(given.name.value), int):
            return max(float(variables[given.name.value]), 1.0)
        default = definition.args[name].default_value
        return float(default) if isinstance(default, int) else float(page)
    if _is_list(definition.type):
        connection = parent is not None and parent.name.endswith("Connection")
        return 1.0 if connection else float(LIST_ESTIMATE)
    return 1.0


def _is_list(kind: Any) -> bool:
    while isinstance(kind, GraphQLNonNull):
        kind = kind.of_type
    return isinstance(kind, GraphQLList)


def _object_of(definition: GraphQLField | None) -> GraphQLObjectType | None:
    kind: Any = definition.type if definition else None
    while isinstance(kind, GraphQLNonNull | GraphQLList):
        kind = kind.of_type
    return kind if isinstance(kind, GraphQLObjectType) else None


def _type(schema: GraphQLSchema, name: str) -> GraphQLObjectType | None:
    found = schema.get_type(name)
    return found if isinstance(found, GraphQLObjectType) else None


def _root(schema: GraphQLSchema, operation: OperationDefinitionNode) -> GraphQLObjectType | None:
    return schema.get_root_type(operation.operation)


class QueryCostLimit(SchemaExtension):
    """Refuse a document whose estimated cost exceeds ``max_cost``, before validation."""

    def __init__(self, *, max_cost: int, page: int) -> None:
        self.max_cost = max_cost
        self.page = page

    def on_validate(self) -> Iterator[None]:
        context = self.execution_context
        document = context.graphql_document
        if context.pre_execution_errors is None and document is not None:
            cost = estimate(context.schema._schema, document, context.variables or {},
                            self.page)
            if cost > self.max_cost:
                error = QueryTooCostly(
                    "the query could return too much: "
                    + ("a fragment spreads itself" if math.isinf(cost) else
                       f"about {cost:,.0f} values, over the limit of {self.max_cost:,}")
                    + "; ask for less nesting or smaller pages", limit=self.max_cost)
                context.pre_execution_errors = [GraphQLError(error.message,
                                                             original_error=error)]
        yield
