// A namespace's webhooks, oldest first (never their secrets).
MATCH (w:Webhook {ns: $ns})
WITH w ORDER BY w.created_at, w.id LIMIT 100
RETURN collect(w {.id, .ns, .url, .kinds, .created_at}) AS rows
