// Which memories are here
// Each namespace is one isolated memory (usually one end user). Pick one and set it with
// :param ns => 'your/namespace' before the next slides.
MATCH (s:Session)
RETURN s.ns AS namespace, count(s) AS sessions
ORDER BY sessions DESC
LIMIT 25
