// Verification for an erased session: its node, summaries, episodes and the facts taken only
// from them, none left.
RETURN COUNT { MATCH (s:Session {ns: $ns, session_id: $session_id}) }
       + COUNT { MATCH (m:Summary {ns: $ns, session_id: $session_id}) }
       + COUNT { MATCH (e:Episode {ns: $ns}) WHERE e.id IN $ids }
       + COUNT { MATCH (f:Fact {ns: $ns}) WHERE f.id IN $facts } AS nodes
