// Remove a webhook and its delivery log.
OPTIONAL MATCH (w:Webhook {ns: $ns, id: $id})
OPTIONAL MATCH (d:Delivery)-[:SENT_TO]->(w)
DETACH DELETE d, w
RETURN count(DISTINCT w) AS removed
