"""What the service serves over plain HTTP beside ``/graphql``: the memory console for people
and GraphiQL, both served from local files; the export stream (``exports``); the Neo4j
Browser guide (``browser_guide``).

The console is a client of the public GraphQL API with the key the person types (same
grants, same audit, no back door): its pages and the pinned browser libraries are served
under strict security headers, and they read no memory themselves. The export stream
passes the same gate as ``/graphql`` and is for admin keys.
"""
