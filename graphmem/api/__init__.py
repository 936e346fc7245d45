"""The GraphQL layer: a thin translation from GraphQL types to the domain modules."""
