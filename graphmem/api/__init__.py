"""The GraphQL layer: a thin translation from GraphQL types to the domain modules.

A module per topic (episodes, facts, search, erasure, ...) holds that topic's types and
resolvers and declares its own root fields, as ``Query``, ``Mutation`` and ``Subscription``
classes, their resolvers ``scoped`` (given the namespace checked); ``schema`` merges them
into the schema. ``server/`` is what serves it: HTTP and
WebSocket transport, the gate, the per-operation context, what resolvers are written with,
and the schema's extensions. It imports no topic module."""
