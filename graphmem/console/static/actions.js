// Everything that changes memory, each behind a confirmation, each through the public API
// (so each lands in the audit log under the signed-in key).
import { gql } from "./api.js";
import { h, put, when } from "./dom.js";
import { announce, confirmAction, errorBox, notice, receiptView, scrollTable, section } from "./ui.js";

const RECEIPT = "id scope requestedAt completedAt counts { kind count } remainingNodes remainingSearchable verified";

async function run(action, success) {
  try {
    const result = await action();
    announce(success);
    return result;
  } catch (error) {
    document.getElementById("main").prepend(errorBox(error));
    return null;
  }
}

// A literal object is corrected with a value of its own datatype; an entity by name.
function correction(fact, text) {
  switch (fact.objectKind) {
    case "entity": return { object: text };
    case "number": return { value: { number: Number(text) } };
    case "boolean": return { value: { boolean: text.toLowerCase() === "true" } };
    case "date": return { value: { date: text } };
    default: return { value: { string: text } };
  }
}

export async function correctFact(ctx, fact) {
  const values = await confirmAction({
    title: "Correct a fact",
    text: `“${fact.text}” will be superseded by the corrected value (source: user correction, same `
      + "validity). The old version stays in the history.",
    fields: [{ name: "object", label: `New ${fact.predicate.replace(/_/g, " ")}`, value: fact.object, required: true },
      { name: "reason", label: "Reason", required: true }],
    confirmLabel: "Correct",
  });
  if (!values) return false;
  const result = await run(() => gql(`mutation($ns: String!, $id: ID!, $reason: String!, $object: String,
    $value: LiteralInput) { correctFact(namespace: $ns, factId: $id, reason: $reason, object: $object,
    value: $value) { outcome fact { id text } } }`,
    { ns: ctx.ns, id: fact.id, reason: values.reason, ...correction(fact, values.object) }),
    "Fact corrected");
  return Boolean(result);
}

export async function retractFact(ctx, fact) {
  const values = await confirmAction({
    title: "Retract a fact",
    text: `Memory will stop believing “${fact.text}”. It stays in the history, with who and why.`,
    fields: [{ name: "reason", label: "Reason", required: true }],
    confirmLabel: "Retract", danger: true,
  });
  if (!values) return false;
  return Boolean(await run(() => gql(`mutation($ns: String!, $id: ID!, $reason: String!) {
    retractFact(namespace: $ns, factId: $id, reason: $reason) { id status } }`,
    { ns: ctx.ns, id: fact.id, reason: values.reason }), "Fact retracted"));
}

export async function resolveConflict(ctx, conflict, winner) {
  const values = await confirmAction({
    title: "Resolve the conflict",
    text: `Keep “${winner.text}”; the other candidates end as superseded (kept in the history).`,
    fields: [{ name: "reason", label: "Reason", required: true }],
    confirmLabel: "Resolve",
  });
  if (!values) return false;
  return Boolean(await run(() => gql(`mutation($ns: String!, $id: ID!, $keep: ID!, $reason: String!) {
    resolveConflict(namespace: $ns, conflictId: $id, keep: $keep, reason: $reason) { id status } }`,
    { ns: ctx.ns, id: conflict.id, keep: winner.id, reason: values.reason }), "Conflict resolved"));
}

export async function retryJob(ctx, job) {
  const values = await confirmAction({ title: "Retry the job", text: `Run this ${job.kind.toLowerCase()} job again.`,
    confirmLabel: "Retry" });
  if (!values) return false;
  return Boolean(await run(() => gql(`mutation($ns: String!, $id: ID!) { retryJob(namespace: $ns, id: $id)
    { id state } }`, { ns: ctx.ns, id: job.id }), "Job queued again"));
}

// Returns the receipt's view, or null when cancelled or refused.
export async function eraseEpisodes(ctx, ids) {
  const values = await confirmAction({
    title: `Erase ${ids.length} episode${ids.length === 1 ? "" : "s"}`,
    text: "They are deleted for good: summaries covering them turn stale, facts whose only evidence "
      + "they were are retracted. This cannot be undone.",
    fields: [{ name: "confirm", label: "Type ERASE to confirm", required: true, mustEqual: "ERASE" }],
    confirmLabel: "Erase", danger: true,
  });
  if (!values) return null;
  const data = await run(() => gql(`mutation($ns: String!, $ids: [String!]!) {
    eraseEpisodes(namespace: $ns, ids: $ids) { ${RECEIPT} } }`, { ns: ctx.ns, ids }), "Episodes erased");
  return data ? receiptView(data.eraseEpisodes, `${ids.length} episode(s)`) : null;
}

const KINDS = ["USER_MESSAGE", "AGENT_MESSAGE", "TOOL_CALL", "TOOL_RESULT", "OBSERVATION", "ERROR", "DOCUMENT"];
const SENSITIVITIES = ["PUBLIC", "PERSONAL", "SENSITIVE", "HEALTH", "FINANCIAL"];
const label = (x) => x ? x.toLowerCase().replace(/_/g, " ") : "any";

export async function erasePage(main, params, ctx) {
  put(main, h("h1", {}, "Erase and retention"));
  const receiptSlot = h("div", {});
  put(main, receiptSlot);
  const show = (receipt) => {
    receiptSlot.replaceChildren(receipt);
    receipt.focus();
  };

  const entityName = h("input", { id: "erase-entity", type: "text", autocomplete: "off", required: true,
    value: params.get("entity") || "" });
  const withEpisodes = h("input", { id: "erase-with-episodes", type: "checkbox" });
  const entityForm = h("form", {}, h("div", { class: "field" },
    h("label", { for: "erase-entity" }, "Entity"), entityName),
    h("div", { class: "check" }, withEpisodes, h("label", { for: "erase-with-episodes" },
      "Also erase the episodes that evidence its facts")),
    h("div", { class: "buttons" }, h("button", { type: "submit", class: "danger" }, "Erase entity…")));
  entityForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    const name = entityName.value.trim();
    if (!name) return;
    const ok = await confirmAction({ title: `Erase ${name}`, danger: true, confirmLabel: "Erase",
      text: `Every fact about ${name} (either end, history included), its aliases and merges are `
        + `deleted${withEpisodes.checked ? ", with the episodes evidencing them" : ""}. This cannot be undone.`,
      fields: [{ name: "confirm", label: `Type ${name} to confirm`, required: true, mustEqual: name }] });
    if (!ok) return;
    const data = await run(() => gql(`mutation($ns: String!, $entity: String!, $episodes: Boolean!) {
      eraseSubject(namespace: $ns, entity: $entity, episodes: $episodes) { ${RECEIPT} } }`,
      { ns: ctx.ns, entity: name, episodes: withEpisodes.checked }), `${name} erased`);
    if (data) show(receiptView(data.eraseSubject, name));
  });

  const nsForm = h("form", {}, h("p", {}, `Everything ${ctx.ns} holds: episodes, facts, entities, `
    + "summaries, policies. The audit trail stays, naming it only by a keyed digest."),
    h("div", { class: "buttons" }, h("button", { type: "submit", class: "danger" }, "Erase namespace…")));
  nsForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    const ok = await confirmAction({ title: `Erase the namespace ${ctx.ns}`, danger: true,
      confirmLabel: "Erase everything", text: "All of this memory is deleted. This cannot be undone.",
      fields: [{ name: "confirm", label: `Type ${ctx.ns} to confirm`, required: true, mustEqual: ctx.ns }] });
    if (!ok) return;
    const data = await run(() => gql(`mutation($ns: String!) { eraseNamespace(namespace: $ns, confirm: $ns)
      { ${RECEIPT} } }`, { ns: ctx.ns }), `${ctx.ns} erased`);
    if (data) show(receiptView(data.eraseNamespace, ctx.ns));
  });

  put(main, section("Erase an entity", entityForm), section("Erase the whole namespace", nsForm));
  await retention(main, ctx);
}

async function retention(main, ctx) {
  const data = await gql(`query($ns: String!) { retentionPolicies(namespace: $ns) { kind sensitivity
    maxAgeDays action updatedAt updatedBy } }`, { ns: ctx.ns });
  const refresh = ctx.reload;
  const rows = data.retentionPolicies.map((p) => h("tr", {}, h("td", {}, label(p.kind)),
    h("td", {}, label(p.sensitivity)), h("td", { class: "num" }, String(p.maxAgeDays)),
    h("td", {}, label(p.action)), h("td", {}, `${when(p.updatedAt)} by ${p.updatedBy || "?"}`),
    h("td", {}, h("button", { type: "button", class: "secondary", onclick: async () => {
      const ok = await confirmAction({ title: "Remove the policy", confirmLabel: "Remove",
        text: `Stop expiring ${label(p.kind)} episodes of ${label(p.sensitivity)} sensitivity.` });
      if (ok && await run(() => gql(`mutation($ns: String!, $kind: EpisodeKind, $s: Sensitivity) {
        removeRetentionPolicy(namespace: $ns, kind: $kind, sensitivity: $s) }`,
        { ns: ctx.ns, kind: p.kind, s: p.sensitivity }), "Policy removed")) refresh();
    } }, "Remove"))));
  const select = (id, text, values) => h("div", { class: "field" }, h("label", { for: id }, text),
    h("select", { id }, h("option", { value: "" }, "any"), values.map((v) => h("option", { value: v }, label(v)))));
  const form = h("form", { class: "controls" },
    select("ret-kind", "Kind", KINDS), select("ret-sensitivity", "Sensitivity", SENSITIVITIES),
    h("div", { class: "field" }, h("label", { for: "ret-days" }, "Keep for (days)"),
      h("input", { id: "ret-days", type: "number", min: "0.01", step: "any", required: true, value: "30" })),
    h("div", { class: "field" }, h("label", { for: "ret-action" }, "Then"),
      h("select", { id: "ret-action" }, h("option", { value: "DELETE" }, "delete"),
        h("option", { value: "REDACT" }, "redact"))),
    h("div", { class: "buttons" }, h("button", { type: "submit", class: "primary" }, "Set policy…")));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const value = (id) => form.querySelector(`#${id}`).value || null;
    const policy = { kind: value("ret-kind"), sensitivity: value("ret-sensitivity"),
      maxAgeDays: Number(value("ret-days")), action: value("ret-action") };
    const ok = await confirmAction({ title: "Set a retention policy", confirmLabel: "Set policy",
      text: `${label(policy.action)} ${label(policy.kind)} episodes of ${label(policy.sensitivity)} `
        + `sensitivity once they are ${policy.maxAgeDays} days old (the worker sweeps regularly).` });
    if (ok && await run(() => gql(`mutation($ns: String!, $p: RetentionPolicyInput!) {
      setRetentionPolicy(namespace: $ns, policy: $p) { maxAgeDays } }`, { ns: ctx.ns, p: policy }),
      "Policy set")) refresh();
  });
  put(main, section("Retention policies", rows.length
    ? scrollTable(["Kind", "Sensitivity", "Days", "Action", "Set", ""], rows, "Retention policies")
    : notice("No retention policies: episodes are kept until erased."), form));
}
