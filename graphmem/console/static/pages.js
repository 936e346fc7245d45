// The console's reading pages: overview, search and entities, a fact's provenance,
// conversations, conflicts, jobs and the audit log. Everything is read through GraphQL.
import { gql } from "./api.js";
import { h, clear, put, when, utcInput } from "./dom.js";
import { announce, section, scrollTable, statusBadge, factStatus, isEnded, validity, notice,
  errorBox } from "./ui.js";
import { correctFact, retractFact, resolveConflict, eraseEpisodes, retryJob } from "./actions.js";
import { forgetEntity } from "./forget.js";

export const FACT = `fragment F on Fact { id subject predicate object objectKind text confidence
  source status validFrom validTo recordedAt retractedAt forgottenAt assertedBy endedBy reason
  openConflicts }`;

function lower(value) {
  return String(value || "").toLowerCase().replace(/_/g, " ");
}

// One table of facts, each with its confidence, source, validity, status, the way to its
// provenance and the actions a believed fact has.
export function factTable(facts, ctx, refresh, caption) {
  if (!facts.length) return notice("No facts here.");
  const rows = facts.map((f) => {
    const believed = f.status === "ACTIVE" || f.status === "DISPUTED";
    return h("tr", { class: `fact fact-${f.status.toLowerCase()}${isEnded(f) ? " ended" : ""}` },
      h("td", {}, h("a", { href: ctx.href("entity", { name: f.subject }) }, f.subject), " ",
        h("span", { class: "predicate" }, f.predicate), " ",
        f.objectKind === "entity"
          ? h("a", { href: ctx.href("entity", { name: f.object }) }, f.object)
          : h("span", { class: "value", title: f.objectKind }, f.object)),
      h("td", { class: "num" }, f.confidence.toFixed(2)),
      h("td", {}, lower(f.source)),
      h("td", { class: "valid" }, validity(f)),
      h("td", { class: "status" }, factStatus(f)),
      h("td", { class: "actions" },
        h("a", { href: ctx.href("fact", { id: f.id }), "aria-label": `Why: ${f.text}` }, "Why?"),
        believed ? h("button", { type: "button", class: "secondary",
          "aria-label": `Correct: ${f.text}`,
          onclick: () => correctFact(ctx, f).then((done) => done && refresh()) }, "Correct") : null,
        believed ? h("button", { type: "button", class: "secondary",
          "aria-label": `Retract: ${f.text}`,
          onclick: () => retractFact(ctx, f).then((done) => done && refresh()) }, "Retract") : null));
  });
  return scrollTable(["Fact", "Confidence", "Source", "Valid", "Status", ""], rows, caption);
}

export async function overview(main, params, ctx) {
  const data = await gql(`query($ns: String!) {
    memoryStats(namespace: $ns) { sessions episodes entities believedFacts factVersions summaries
      staleSummaries openConflicts pendingEmbeddings queuedJobs failedJobs oldestJobAt }
    conflicts(namespace: $ns, status: OPEN, first: 5) { nodes { id subject predicate createdAt
      candidates { id object } } }
    jobs(namespace: $ns, state: FAILED, first: 5) { nodes { id kind attempts error createdAt } }
    sessions(namespace: $ns, first: 5) { nodes { sessionId episodes lastAt } }
  }`, { ns: ctx.ns });
  const s = data.memoryStats;
  const stat = (label, value, attention) => h("div", { class: attention ? "stat attention" : "stat" },
    h("dt", {}, label), h("dd", {}, String(value)));
  put(main, h("h1", {}, `Overview of ${ctx.ns}`),
    h("dl", { class: "stats" },
      stat("Conversations", s.sessions), stat("Episodes", s.episodes),
      stat("Entities", s.entities), stat("Facts believed", s.believedFacts),
      stat("Fact versions (history)", s.factVersions), stat("Summaries", s.summaries),
      stat("Stale summaries", s.staleSummaries, s.staleSummaries > 0),
      stat("Open conflicts", s.openConflicts, s.openConflicts > 0),
      stat("Waiting to be embedded", s.pendingEmbeddings),
      stat("Jobs queued", s.queuedJobs), stat("Jobs failed", s.failedJobs, s.failedJobs > 0)),
    section("Open conflicts", data.conflicts.nodes.length
      ? h("ul", {}, data.conflicts.nodes.map((c) => h("li", {},
          h("a", { href: ctx.href("conflicts") }, `${c.subject} ${lower(c.predicate)}: `
            + c.candidates.map((x) => x.object).join(" or ")), ` (since ${when(c.createdAt)})`)))
      : notice("None: nothing waits for a decision.")),
    section("Failed jobs", data.jobs.nodes.length
      ? h("ul", {}, data.jobs.nodes.map((j) => h("li", {}, `${lower(j.kind)} after ${j.attempts} `
          + `attempts: ${j.error || "no error recorded"} `, h("a", { href: ctx.href("jobs") }, "Jobs"))))
      : notice("None.")),
    section("Recent activity", data.sessions.nodes.length
      ? h("ul", {}, data.sessions.nodes.map((x) => h("li", {},
          h("a", { href: ctx.href("session", { id: x.sessionId }) }, x.sessionId),
          `: ${x.episodes} episodes, latest ${when(x.lastAt)}`)))
      : notice("No conversations recorded yet.")));
  if (ctx.viewer.admin) {
    const audit = await gql(`query($ns: String!) { auditLog(namespace: $ns, first: 8) {
      nodes { at operation actor outcome } } }`, { ns: ctx.ns });
    put(main, section("Latest changes (audit log)", audit.auditLog.nodes.length
      ? h("ul", {}, audit.auditLog.nodes.map((e) => h("li", {},
          `${when(e.at)} ${e.operation} by ${e.actor}: ${e.outcome}`)))
      : notice("No changes recorded.")));
  }
}

export async function entities(main, params, ctx) {
  const q = params.get("q") || "";
  const query = h("input", { id: "q", type: "search", value: q, autocomplete: "off" });
  const search = h("form", { role: "search", class: "inline" },
    h("label", { for: "q" }, "Search memory"), query,
    h("button", { type: "submit", class: "primary" }, "Search"));
  search.addEventListener("submit", (e) => { e.preventDefault(); ctx.go("entities", { q: query.value }); });
  const name = h("input", { id: "entity-name", type: "text", autocomplete: "off" });
  const open = h("form", { class: "inline" }, h("label", { for: "entity-name" }, "Open an entity"),
    name, h("button", { type: "submit", class: "secondary" }, "Open"));
  open.addEventListener("submit", (e) => { e.preventDefault(); ctx.go("entity", { name: name.value }); });
  put(main, h("h1", {}, "Entities and facts"), search, open);
  const results = h("div", { id: "results" });
  put(main, results);
  if (q) {
    const data = await gql(`query($ns: String!, $q: String!) { search(namespace: $ns, query: $q,
      limit: 20) { hits { kind score entity { name type aliases } fact { id text subject status }
      episode { id sessionId actor occurredAt content } summary { id sessionId text stale } } } }`,
      { ns: ctx.ns, q });
    put(results, section(`Results for “${q}”`, data.search.hits.length
      ? h("ol", { class: "hits" }, data.search.hits.map((hit) => h("li", {}, hitView(hit, ctx))))
      : notice("Nothing matched.")));
    return;
  }
  const refresh = ctx.reload;
  const data = await gql(`query($ns: String!) { facts(namespace: $ns, first: 50) { nodes { ...F } } }
    ${FACT}`, { ns: ctx.ns });
  put(results, section("Current facts", factTable(data.facts.nodes, ctx, refresh, "Current facts")));
}

function hitView(hit, ctx) {
  const kind = h("span", { class: "kind" }, lower(hit.kind));
  if (hit.entity) {
    return [kind, h("a", { href: ctx.href("entity", { name: hit.entity.name }) }, hit.entity.name),
      hit.entity.aliases.length ? ` (also ${hit.entity.aliases.join(", ")})` : ""];
  }
  if (hit.fact) {
    return [kind, h("a", { href: ctx.href("fact", { id: hit.fact.id }) }, hit.fact.text), " ",
      statusBadge(hit.fact.status)];
  }
  if (hit.episode) {
    const e = hit.episode;
    return [kind, h("span", { class: "meta" }, `${e.actor || "?"}, ${when(e.occurredAt)}, `),
      e.sessionId ? h("a", { href: ctx.href("session", { id: e.sessionId }) }, e.sessionId) : "",
      h("p", { class: "content" }, e.content)];
  }
  if (hit.summary) {
    return [kind, hit.summary.sessionId
      ? h("a", { href: ctx.href("session", { id: hit.summary.sessionId }) }, hit.summary.sessionId)
      : "", h("p", { class: "content" }, hit.summary.text)];
  }
  return kind;
}

export async function entity(main, params, ctx) {
  const name = params.get("name") || "";
  const history = params.get("history") === "1";
  const validAt = params.get("validAt") || "";
  const asOf = params.get("asOf") || "";
  const data = await gql(`query($ns: String!, $name: String!, $validAt: DateTime, $asOf: DateTime,
      $history: Boolean!) {
    entity(namespace: $ns, name: $name) { name type aliases }
    out: facts(namespace: $ns, where: {subject: $name}, validAt: $validAt, asOf: $asOf,
      includeHistory: $history, first: 200) { nodes { ...F } }
    in: facts(namespace: $ns, where: {object: $name}, validAt: $validAt, asOf: $asOf,
      includeHistory: $history, first: 200) { nodes { ...F } }
  } ${FACT}`, { ns: ctx.ns, name, history, validAt: utcInput(validAt), asOf: utcInput(asOf) });
  if (!data.entity) {
    put(main, h("h1", {}, name), notice(`No entity named “${name}” in ${ctx.ns}.`));
    return;
  }
  const e = data.entity;
  const keep = { name: e.name };
  const historyBox = h("input", { id: "history", type: "checkbox", checked: history });
  const valid = h("input", { id: "valid-at", type: "datetime-local", value: validAt });
  const believed = h("input", { id: "as-of", type: "datetime-local", value: asOf });
  const controls = h("form", { class: "controls", "aria-label": "Time travel" },
    h("div", { class: "check" }, historyBox, h("label", { for: "history" }, "Show history (every version)")),
    h("div", { class: "field" }, h("label", { for: "valid-at" }, "True in the world at (UTC)"), valid),
    h("div", { class: "field" }, h("label", { for: "as-of" }, "As memory believed at (UTC)"), believed),
    h("div", { class: "buttons" }, h("button", { type: "submit", class: "primary" }, "Apply"),
      h("a", { href: ctx.href("entity", keep) }, "Now")));
  const apply = () => ctx.go("entity", { ...keep, ...(historyBox.checked ? { history: "1" } : {}),
    ...(valid.value ? { validAt: valid.value } : {}), ...(believed.value ? { asOf: believed.value } : {}) });
  controls.addEventListener("submit", (event) => { event.preventDefault(); apply(); });
  historyBox.addEventListener("change", apply);
  const refresh = ctx.reload;
  const forget = h("button", { type: "button", class: "danger" }, "Forget…");
  forget.addEventListener("click", async () => {
    const receipt = await forgetEntity(ctx, e.name);
    if (receipt) { put(main, h("h1", {}, e.name), receipt); receipt.focus(); }
  });
  put(main, h("h1", {}, e.name),
    h("p", { class: "meta" }, e.type ? `${e.type}. ` : "",
      e.aliases.length ? `Also known as ${e.aliases.join(", ")}. ` : "",
      h("a", { href: ctx.href("graph", { name: e.name }) }, "Graph of its neighbourhood"), " ", forget),
    controls,
    section(history ? "Facts about it (history)" : "What memory believes about it",
      factTable(data.out.nodes, ctx, refresh, `Facts about ${e.name}`)),
    section("Facts pointing at it", factTable(data.in.nodes, ctx, refresh, `Facts pointing at ${e.name}`)));
}

export async function fact(main, params, ctx) {
  const id = params.get("id");
  const data = await gql(`query($ns: String!, $id: ID!) { provenance(namespace: $ns, factId: $id) {
    fact { ...F revises { id text }
      supersedes { fact { id text } strategy reason at actor }
      supersededBy { fact { id text } strategy reason at actor }
      resolution { outcome strategy reason at actor } }
    evidence { id sessionId actor kind occurredAt content }
    heldElsewhere { id held saidAt }
    citedBy { id sessionId text stale createdAt } } } ${FACT}`, { ns: ctx.ns, id });
  const p = data.provenance;
  const f = p.fact;
  const refresh = ctx.reload;
  const chain = (label, links) => links.length ? h("ul", {}, links.map((s) => h("li", {}, `${label} `,
    h("a", { href: ctx.href("fact", { id: s.fact.id }) }, s.fact.text),
    ` — ${s.strategy}${s.reason ? `: ${s.reason}` : ""}, by ${s.actor || "?"} at ${when(s.at)}`))) : null;
  put(main, h("h1", {}, f.text),
    h("p", {}, factStatus(f), " ", h("a", { href: ctx.href("entity", { name: f.subject }) },
      `All facts about ${f.subject}`)),
    factTable([f], ctx, refresh, "This fact"),
    h("dl", { class: "pairs" },
      h("dt", {}, "Recorded"), h("dd", {}, `${when(f.recordedAt)} by ${f.assertedBy || "?"}`),
      f.retractedAt ? [h("dt", {}, "Belief ended"), h("dd", {}, `${when(f.retractedAt)} by `
        + `${f.endedBy || "?"}${f.reason ? `: ${f.reason}` : ""}`)] : null,
      f.resolution ? [h("dt", {}, "Conflict resolution"), h("dd", {}, `${lower(f.resolution.outcome)}`
        + ` (${f.resolution.strategy})${f.resolution.reason ? `: ${f.resolution.reason}` : ""}`)] : null,
      h("dt", {}, "Fact id"), h("dd", {}, h("code", {}, f.id))),
    section("Evidence: the turns that say so", p.evidence.length
      ? h("ol", { class: "episodes" }, p.evidence.map((e) => h("li", {},
          h("p", { class: "meta" }, `${e.actor || "?"} (${lower(e.kind)}), ${when(e.occurredAt)}, session `,
            e.sessionId ? h("a", { href: ctx.href("session", { id: e.sessionId }) }, e.sessionId) : "none"),
          h("p", { class: "content" }, e.content))))
      : p.heldElsewhere.length ? null : notice("No evidence episodes: it was asserted without any."),
      // Federated memory: turns another device holds; only a reference to each is here.
      p.heldElsewhere.length ? h("ul", {}, p.heldElsewhere.map((t) => h("li", {},
        `Turn ${t.id}, said ${when(t.saidAt)}: ${t.held}`))) : null),
    section("Summaries citing it", p.citedBy.length
      ? h("ul", {}, p.citedBy.map((s) => h("li", {}, s.stale ? "[stale] " : "", s.text)))
      : notice("No summary cites it.")),
    section("Supersession chain", f.supersedes.length || f.supersededBy.length || f.revises
      ? [chain("Replaced", f.supersedes), chain("Replaced by", f.supersededBy),
         f.revises ? h("p", {}, "Revises ", h("a", { href: ctx.href("fact", { id: f.revises.id }) },
           f.revises.text)) : null]
      : notice("It replaced nothing and nothing replaced it.")));
}

export async function conversations(main, params, ctx) {
  const data = await gql(`query($ns: String!, $after: String) { sessions(namespace: $ns, first: 50,
    after: $after) { nodes { sessionId episodes firstAt lastAt } pageInfo { hasNextPage endCursor } } }`,
    { ns: ctx.ns, after: params.get("after") });
  const list = data.sessions;
  put(main, h("h1", {}, "Conversations"), list.nodes.length
    ? scrollTable(["Session", "Episodes", "First", "Latest"], list.nodes.map((s) => h("tr", {},
        h("td", {}, h("a", { href: ctx.href("session", { id: s.sessionId }) }, s.sessionId)),
        h("td", { class: "num" }, String(s.episodes)), h("td", {}, when(s.firstAt)),
        h("td", {}, when(s.lastAt)))), "Conversations, most recent first")
    : notice("No conversations recorded yet."),
    list.pageInfo.hasNextPage ? h("a", { href: ctx.href("conversations",
      { after: list.pageInfo.endCursor }) }, "Older conversations") : null);
}

export async function session(main, params, ctx) {
  const sid = params.get("id");
  const data = await gql(`query($ns: String!, $sid: String!) {
    summary(namespace: $ns, sessionId: $sid) { id text coversFrom coversTo stale createdAt producer level }
    episodes(namespace: $ns, where: {sessionId: $sid}, first: 200) { nodes { id externalId seq kind
      actor content occurredAt redactedAt summaries { id } derivedFacts { id text status validFrom
      validTo retractedAt forgottenAt revises { id } } }
      pageInfo { hasNextPage } } }`, { ns: ctx.ns, sid });
  const summary = data.summary;
  const episodes = data.episodes.nodes;
  const chosen = new Set();
  const eraseButton = h("button", { type: "button", class: "danger", disabled: true }, "Erase selected episodes");
  eraseButton.addEventListener("click", async () => {
    const receipt = await eraseEpisodes(ctx, [...chosen]);
    if (receipt) {
      await session(clear(main), params, ctx);
      main.prepend(receipt);
      receipt.focus();
      announce("Episodes erased; the receipt is shown above the conversation");
    }
  });
  put(main, h("h1", {}, `Conversation ${sid}`),
    section("Summary", summary ? [
      h("p", { class: "content" }, summary.text),
      h("p", { class: "meta" }, summary.stale ? h("strong", { class: "bad" }, "Stale: something it covers "
        + "changed. ") : "", `Covers ${when(summary.coversFrom)} to ${when(summary.coversTo)}; `
        + `level ${summary.level}, written ${when(summary.createdAt)} by ${summary.producer || "?"}. `
        + "Episodes it covers are marked below.")] : notice("No summary of this conversation yet.")),
    section("Episodes, in order", episodes.length ? [h("ol", { class: "episodes" }, episodes.map((e) => {
      const box = h("input", { type: "checkbox", id: `pick-${e.id}` });
      box.addEventListener("change", () => {
        if (box.checked) chosen.add(e.id); else chosen.delete(e.id);
        eraseButton.disabled = chosen.size === 0;
      });
      const covered = summary && e.summaries.some((s) => s.id === summary.id);
      return h("li", { class: "episode", id: `ep-${e.id}` },
        h("p", { class: "meta" }, h("strong", {}, e.actor || "?"), ` · ${lower(e.kind)} · ${when(e.occurredAt)}`,
          covered ? h("span", { class: "badge badge-covered" }, "in summary") : null,
          e.redactedAt ? h("span", { class: "badge badge-retracted" }, "redacted") : null),
        h("p", { class: "content" }, e.content),
        e.derivedFacts.length ? [h("p", { class: "meta" }, "Facts from it:"),
          h("ul", { class: "facts" }, latestVersions(e.derivedFacts).map((f) => h("li",
            { class: isEnded(f) ? "ended" : null },
            h("a", { href: ctx.href("fact", { id: f.id }) }, f.text), " ", factStatus(f), " ",
            h("span", { class: "meta" }, validity(f)))))] : null,
        h("div", { class: "check" }, box, h("label", { for: `pick-${e.id}` }, "Select for erasure")));
    })), data.episodes.pageInfo.hasNextPage ? notice("Showing the first 200 episodes.") : null,
    h("div", { class: "buttons" }, eraseButton)] : notice("No episodes left in it.")));
}

// Each fact a turn gave, once: a version another of them revises (narrowed to what it kept of
// its validity) is shown as that newer version, whose provenance links back to it.
function latestVersions(facts) {
  const revised = new Set(facts.filter((f) => f.revises).map((f) => f.revises.id));
  const seen = new Set();
  return facts.filter((f) => !revised.has(f.id) && !seen.has(f.id) && seen.add(f.id));
}

export async function conflicts(main, params, ctx) {
  const data = await gql(`query($ns: String!) {
    open: conflicts(namespace: $ns, status: OPEN, first: 50) { nodes { id subject predicate createdAt
      candidates { ...F evidence { id content } } } }
    resolved: conflicts(namespace: $ns, status: RESOLVED, first: 20) { nodes { id subject predicate
      resolvedAt resolvedBy reason kept candidates { id object } } } } ${FACT}`, { ns: ctx.ns });
  put(main, h("h1", {}, "Conflicts"));
  const refresh = ctx.reload;
  put(main, section("Open: which is right?", data.open.nodes.length ? data.open.nodes.map((c) => {
    const legendId = `c-${c.id}`;
    const radios = c.candidates.map((f, i) => h("div", { class: "check" },
      h("input", { type: "radio", name: `keep-${c.id}`, id: `keep-${f.id}`, value: f.id, checked: i === 0 }),
      h("label", { for: `keep-${f.id}` }, h("strong", {}, f.object),
        ` — confidence ${f.confidence.toFixed(2)}, ${lower(f.source)}, recorded ${when(f.recordedAt)}`,
        f.evidence.length ? `, said: “${f.evidence[0].content}”` : "")));
    const form = h("form", { class: "conflict" },
      h("fieldset", { "aria-labelledby": legendId },
        h("legend", { id: legendId }, `${c.subject} ${lower(c.predicate)}`), radios,
        h("div", { class: "buttons" }, h("button", { type: "submit", class: "primary" }, "Resolve…"))));
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const keep = form.querySelector("input[type=radio]:checked").value;
      const winner = c.candidates.find((f) => f.id === keep);
      if (await resolveConflict(ctx, c, winner)) refresh();
    });
    return form;
  }) : notice("No open conflicts.")),
  section("Resolved", data.resolved.nodes.length ? h("ul", {}, data.resolved.nodes.map((c) => {
    const kept = c.candidates.find((f) => f.id === c.kept);
    return h("li", {}, `${c.subject} ${lower(c.predicate)}: kept ${kept ? kept.object : "?"}`
      + ` (${when(c.resolvedAt)}, by ${c.resolvedBy || "?"}${c.reason ? `: ${c.reason}` : ""})`);
  })) : notice("None yet.")));
}

export async function jobs(main, params, ctx) {
  const data = await gql(`query($ns: String!) { jobs(namespace: $ns, first: 50) { nodes { id kind state
    attempts createdAt finishedAt error episodes facts summaries producer } }
    pipelines(namespace: $ns) { extract summarize } }`, { ns: ctx.ns });
  const refresh = ctx.reload;
  put(main, h("h1", {}, "Jobs"),
    h("p", {}, `Extraction is ${data.pipelines.extract ? "on" : "off"}, summaries are `
      + `${data.pipelines.summarize ? "on" : "off"} for this namespace.`),
    data.jobs.nodes.length ? scrollTable(["Kind", "State", "Attempts", "Queued", "Finished", "Result", ""],
      data.jobs.nodes.map((j) => h("tr", {}, h("td", {}, lower(j.kind)), h("td", {}, statusBadge(j.state)),
        h("td", { class: "num" }, String(j.attempts)), h("td", {}, when(j.createdAt)),
        h("td", {}, when(j.finishedAt)),
        h("td", {}, j.error ? `Error: ${j.error}` : `${j.episodes} episodes, ${j.facts ?? 0} facts, `
          + `${j.summaries ?? 0} summaries`),
        h("td", {}, j.state === "FAILED" ? h("button", { type: "button", class: "secondary",
          onclick: () => retryJob(ctx, j).then((done) => done && refresh()) }, "Retry") : null))),
      "Pipeline jobs, newest first") : notice("No jobs."));
}

export async function audit(main, params, ctx) {
  put(main, h("h1", {}, "Audit log"));
  if (!ctx.viewer.admin) {
    put(main, errorBox({ message: "The audit log is for admin keys." }));
    return;
  }
  const data = await gql(`query($ns: String!) { auditLog(namespace: $ns, first: 100) {
    nodes { at operation actor keyId outcome requestId } } }`, { ns: ctx.ns });
  put(main, h("p", {}, "Every change to this namespace's memory: who, what, when and how it ended "
    + "(never the content)."), data.auditLog.nodes.length
    ? scrollTable(["When", "Operation", "Key", "Outcome", "Request"], data.auditLog.nodes.map((e) =>
        h("tr", {}, h("td", {}, when(e.at)), h("td", {}, e.operation), h("td", {}, `${e.actor} (${e.keyId})`),
          h("td", {}, e.outcome), h("td", {}, h("code", {}, e.requestId || "")))), "Audit events, newest first")
    : notice("No changes recorded."));
}
