// The graph view of an entity's neighbourhood (traverse), drawn with cytoscape (npm, served
// from local files). Disputed edges are red and dashed, ended ones grey and dotted, literal
// values are drawn as their value; the same graph is listed as a table for keyboards and
// screen readers, each version with its status, validity and whether it has ended.
import { gql } from "./api.js";
import { h, put, utcInput } from "./dom.js";
import { factStatus, isEnded, notice, scrollTable, section, validity } from "./ui.js";

let loading = null;

function loadCytoscape() {
  if (window.cytoscape) return Promise.resolve(window.cytoscape);
  loading = loading || new Promise((resolve, reject) => {
    const script = h("script", { src: "/console/vendor/cytoscape.min.js" });
    script.addEventListener("load", () => resolve(window.cytoscape));
    script.addEventListener("error", () => reject(new Error("the graph library is not installed "
      + "(bin/serve installs it with npm ci)")));
    document.head.append(script);
  });
  return loading;
}

const STYLE = [
  { selector: "node", style: { label: "data(label)", "font-size": 11, "text-valign": "center",
    "text-halign": "center", "text-wrap": "ellipsis", "text-max-width": 90, width: 80, height: 80,
    "background-color": "#4c8eda", color: "#fff", "border-width": 2, "border-color": "#2870c2" } },
  { selector: "node.root", style: { "border-width": 5, "border-color": "#1b3f73" } },
  { selector: "node.value", style: { shape: "round-rectangle", width: 100, height: 36,
    "background-color": "#ffe081", "border-color": "#9f8a45", color: "#2a2c34" } },
  { selector: "edge", style: { label: "data(label)", "font-size": 10, "curve-style": "bezier",
    "target-arrow-shape": "triangle", width: 2, "line-color": "#7a8594", "target-arrow-color": "#7a8594",
    "text-background-color": "#fff", "text-background-opacity": 0.9, "text-background-padding": 2 } },
  { selector: "edge.disputed", style: { "line-color": "#c0102f", "target-arrow-color": "#c0102f",
    "line-style": "dashed", width: 4, color: "#c0102f" } },
  { selector: "edge.ended", style: { "line-color": "#b8bec6",
    "target-arrow-color": "#b8bec6", "line-style": "dotted", color: "#6b7480" } },
];

export async function graphPage(main, params, ctx) {
  const name = params.get("name") || "";
  const depth = Math.min(3, Math.max(1, Number(params.get("depth") || 1)));
  const predicates = (params.get("predicates") || "").split(",").map((p) => p.trim()).filter(Boolean);
  const history = params.get("history") === "1";
  const validAt = params.get("validAt") || "";
  const data = await gql(`query($ns: String!, $from: String!, $depth: Int!, $predicates: [String!],
      $history: Boolean!, $validAt: DateTime) {
    traverse(namespace: $ns, from: $from, depth: $depth, predicates: $predicates,
      includeHistory: $history, validAt: $validAt, limit: 200) {
      root { id name } nodes { id kind name type depth }
      edges { fromId toId fact { id predicate status text confidence validFrom validTo retractedAt
        forgottenAt } } truncated } }`,
  { ns: ctx.ns, from: name, depth, predicates: predicates.length ? predicates : null, history,
    validAt: utcInput(validAt) });
  const t = data.traverse;
  const depthSelect = h("select", { id: "depth" }, [1, 2, 3].map((d) =>
    h("option", { value: String(d), selected: d === depth }, String(d))));
  const predicateInput = h("input", { id: "predicates", type: "text", value: predicates.join(", "),
    placeholder: "works_at, lives_in", autocomplete: "off" });
  const historyBox = h("input", { id: "graph-history", type: "checkbox", checked: history });
  const valid = h("input", { id: "graph-valid-at", type: "datetime-local", value: validAt });
  const controls = h("form", { class: "controls", "aria-label": "Graph options" },
    h("div", { class: "field" }, h("label", { for: "depth" }, "Depth"), depthSelect),
    h("div", { class: "field" }, h("label", { for: "predicates" }, "Only predicates"), predicateInput),
    h("div", { class: "field" }, h("label", { for: "graph-valid-at" }, "True at (UTC)"), valid),
    h("div", { class: "check" }, historyBox, h("label", { for: "graph-history" }, "Include ended facts")),
    h("div", { class: "buttons" }, h("button", { type: "submit", class: "primary" }, "Show")));
  controls.addEventListener("submit", (event) => {
    event.preventDefault();
    ctx.go("graph", { name, depth: depthSelect.value, ...(predicateInput.value.trim()
      ? { predicates: predicateInput.value } : {}), ...(historyBox.checked ? { history: "1" } : {}),
    ...(valid.value ? { validAt: valid.value } : {}) });
  });
  const byId = Object.fromEntries(t.nodes.map((n) => [n.id, n]));
  const canvas = h("div", { id: "graph", class: "graph", role: "img",
    "aria-label": `Graph of ${t.root.name}'s neighbourhood: ${t.nodes.length} nodes and `
      + `${t.edges.length} facts, listed in the table below` });
  put(main, h("h1", {}, `Graph around ${t.root.name}`),
    h("p", {}, h("a", { href: ctx.href("entity", { name: t.root.name }) }, `Facts about ${t.root.name}`),
      " · Click an entity to centre on it, a fact to see why memory believes it."),
    controls,
    h("p", { class: "legend" }, h("span", { class: "key key-entity" }, "entity"),
      h("span", { class: "key key-value" }, "value"), h("span", { class: "key key-disputed" }, "disputed"),
      h("span", { class: "key key-ended" }, "ended (history)")),
    t.truncated ? notice("The neighbourhood is larger than 200 nodes: showing the nearest.") : null,
    canvas,
    section("The same graph as a list", t.edges.length
      ? scrollTable(["From", "Fact", "To", "Valid", "Status"], t.edges.map((e) => h("tr",
        { class: `fact fact-${e.fact.status.toLowerCase()}${isEnded(e.fact) ? " ended" : ""}` },
        h("td", {}, byId[e.fromId] ? byId[e.fromId].name : "?"),
        h("td", {}, h("a", { href: ctx.href("fact", { id: e.fact.id }) }, e.fact.predicate)),
        h("td", {}, byId[e.toId] ? byId[e.toId].name : "?"),
        h("td", { class: "valid" }, validity(e.fact)), h("td", { class: "status" }, factStatus(e.fact)))),
      "Facts in the graph") : notice("No facts around it with these options.")));
  const cytoscape = await loadCytoscape();
  return () => draw(cytoscape, canvas, t, ctx, depth);
}

function draw(cytoscape, canvas, t, ctx, depth) {
  const cy = cytoscape({
    container: canvas,
    elements: [
      ...t.nodes.map((n) => ({ data: { id: n.id, label: n.name, kind: n.kind },
        classes: [n.kind, n.id === t.root.id ? "root" : ""].join(" ") })),
      ...t.edges.map((e) => ({ data: { id: e.fact.id, source: e.fromId, target: e.toId,
        label: e.fact.predicate, fact: e.fact.id },
      classes: [e.fact.status.toLowerCase(), isEnded(e.fact) ? "ended" : ""].join(" ") })),
    ],
    style: STYLE,
    layout: { name: "cose", animate: false, padding: 30, nodeRepulsion: () => 9000 },
  });
  cy.on("tap", "node.entity", (event) => ctx.go("graph", { name: event.target.data("label"),
    depth: String(depth) }));
  cy.on("tap", "edge", (event) => ctx.go("fact", { id: event.target.data("fact") }));
  canvas.dataset.nodes = String(cy.nodes().length);  // what was drawn, for tests and people
  canvas.dataset.edges = String(cy.edges().length);
  canvas.dataset.disputed = String(cy.edges(".disputed").length);
  canvas.dataset.ended = String(cy.edges(".ended").length);
}
