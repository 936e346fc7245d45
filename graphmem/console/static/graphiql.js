// GraphiQL from local files (React 18 and GraphiQL 3 from npm, see package-lock.json), opening
// ready: the API key typed above goes into every request (schema introspection included, so
// docs and autocomplete work on the first screen). The key is kept in memory; "keep for this
// tab" puts it in sessionStorage (the console's place), never in localStorage.
(function () {
  "use strict";
  const STORE = "graphmem.console.key";
  const EXAMPLES = [
    ["record", `# Record what was said (idempotent by externalId).
mutation Record($ns: String!) {
  recordEpisodes(namespace: $ns, episodes: [
    {externalId: "m1", sessionId: "chat-1", kind: USER_MESSAGE, actor: "user",
     content: "I just started at Acme Robotics", occurredAt: "2026-05-01T09:00:00Z"}
  ]) { created duplicates episodes { id seq } }
}`],
    ["assert", `# Assert a fact with its evidence (the episode's externalId).
mutation Assert($ns: String!) {
  assertFacts(namespace: $ns, facts: [
    {subject: "Dana", predicate: "works_at", object: "Acme Robotics",
     source: USER_STATEMENT, confidence: 0.95, evidence: ["m1"]}
  ]) { outcome fact { id text relationshipType } }
}`],
    ["recall", `# What an agent reads for one turn, within a token budget.
query Recall($ns: String!) {
  recall(namespace: $ns, query: "Where does Dana work?", sessionId: "chat-1", tokenBudget: 500) {
    pieces { layer text tokens } tokensUsed plan { layer ran reason }
  }
}`],
    ["provenance", `# Why does memory believe it? Paste a fact id from the assert tab's answer.
query Why($ns: String!, $fact: ID!) {
  provenance(namespace: $ns, factId: $fact) {
    fact { text source confidence assertedBy recordedAt }
    evidence { sessionId actor occurredAt content }
    citedBy { text } supersedes { text } supersededBy { text }
  }
}`],
  ];
  const NS = JSON.stringify({ ns: "demo/alice" }, null, 2);
  const WITH_FACT = JSON.stringify({ ns: "demo/alice", fact: "fact_…" }, null, 2);
  const keyInput = document.getElementById("key");
  const keep = document.getElementById("keep");
  const status = document.getElementById("key-status");
  const root = ReactDOM.createRoot(document.getElementById("graphiql"));
  let key = sessionStorage.getItem(STORE) || "";
  // GraphiQL's own state (tabs, queries) lives in this page's memory, not in localStorage:
  // nothing of a session, key or memory content outlives the page.
  const memory = new Map();
  const storage = {
    getItem: (name) => (memory.has(name) ? memory.get(name) : null),
    setItem: (name, value) => { memory.set(name, String(value)); },
    removeItem: (name) => { memory.delete(name); },
    clear: () => { memory.clear(); },
    get length() { return memory.size; },
  };
  keyInput.value = key;
  keep.checked = Boolean(key);

  function fetcher(currentKey) {
    return GraphiQL.createFetcher({
      url: "/graphql",
      headers: currentKey ? { Authorization: "Bearer " + currentKey } : {},
    });
  }

  function render() {
    if (!key) {
      status.textContent = "Type an API key above: GraphiQL loads the schema with it (docs, "
        + "autocomplete), then runs the example operations in its tabs.";
      return;
    }
    status.textContent = "";
    memory.clear();  // a new key starts from the examples (GraphiQL re-reads its state)
    root.render(React.createElement(GraphiQL, {
      key: key,  // a new key remounts GraphiQL, which introspects again
      fetcher: fetcher(key),
      defaultTabs: EXAMPLES.map(([name, query]) => ({
        query, variables: name === "provenance" ? WITH_FACT : NS })),
      variables: NS,  // the first tab's (GraphiQL fills the editor from this prop)
      defaultEditorToolsVisibility: "variables",
      shouldPersistHeaders: false,
      storage: storage,
      visiblePlugin: "Documentation Explorer",
    }));
  }

  document.getElementById("key-form").addEventListener("submit", function (event) {
    event.preventDefault();
    key = keyInput.value.trim();
    if (keep.checked && key) sessionStorage.setItem(STORE, key);
    else sessionStorage.removeItem(STORE);
    render();
  });
  render();
}());
