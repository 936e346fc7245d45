// Verification for an erased session: its node, summaries, episodes and the facts taken only
// from them, none left; nor any other turn of the session (one recorded while it closed).
RETURN COUNT { MATCH (s:Session {ns: $ns, session_id: $session_id}) }
       + COUNT { MATCH (m:Summary {ns: $ns, session_id: $session_id}) }
       + COUNT { MATCH (e:Episode {ns: $ns}) WHERE e.id IN $ids }
       + COUNT { MATCH (e:Episode {ns: $ns, session_id: $session_id}) WHERE NOT e.id IN $ids }
       + COUNT { MATCH (f:Fact {ns: $ns}) WHERE f.id IN $facts } AS nodes
