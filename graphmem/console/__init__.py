"""``/console``: the memory console for people, and GraphiQL, both served from local files.

The console is a client of the public GraphQL API with the key the person types (same
grants, same audit, no back door): this package only serves its pages and the pinned
browser libraries under strict security headers; it reads no memory itself.
"""
