// A webhook: where a namespace's events of some kinds are POSTed, and the secret that signs them.
CREATE (w:Webhook {id: $id, ns: $ns, url: $url, kinds: $kinds, secret: $secret,
                   created_at: $now})
RETURN w {.id, .ns, .url, .kinds, .created_at} AS webhook
