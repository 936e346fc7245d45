"""Finding memory: search, the layered recall, embeddings, time expressions."""
