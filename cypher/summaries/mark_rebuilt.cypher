// Stale summaries a rebuild replaced (a session's, or the namespace's higher levels): the
// sweep leaves them alone from now on. They stay, stale, as history.
MATCH (m:Summary {ns: $ns})
WHERE m.stale AND m.rebuilt_at IS NULL
  AND (($session_id IS NOT NULL AND m.level = 1 AND m.session_id = $session_id)
       OR ($session_id IS NULL AND (m.level >= 2 OR m.session_id IS NULL)))
SET m.rebuilt_at = $now
RETURN count(m) AS rebuilt
