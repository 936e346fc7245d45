// Switch extraction and summarisation on or off for a namespace (null keeps the current).
MERGE (p:PipelineSwitches {ns: $ns})
  ON CREATE SET p.extract = $extract_by_default, p.summarize = $summarize_by_default
SET p.extract = coalesce($extract, p.extract), p.summarize = coalesce($summarize, p.summarize),
    p.updated_at = $now, p.updated_by = $actor
RETURN p {.*} AS switches
