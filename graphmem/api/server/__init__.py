"""What serves the GraphQL schema, whatever its topics: ``/graphql`` over HTTP and a WebSocket,
the gate every request passes, the per-operation context, the pieces resolvers are written
with (arguments, fields, inputs, pagination), and the schema's extensions (``extensions/``,
one a module, as strawberry keeps its own)."""
