// "Forget…" on an entity: choose what happens to the turns that mention it, read the dry run
// (erasurePlan: the facts, turns and summaries that would go; nothing is written), then confirm
// by typing the name, and read the receipt. Both steps go through the public API.
import { gql } from "./api.js";
import { h, when } from "./dom.js";
import { announce, confirmAction, errorBox, receiptView } from "./ui.js";

const RECEIPT = "id scope requestedAt completedAt counts { kind count } remainingNodes remainingSearchable verified";
const PLAN = `query($ns: String!, $entity: String!, $mentions: MentionScope!) {
  erasurePlan(namespace: $ns, entity: $entity, mentions: $mentions) { entity names mentions
    facts { id text } factsRetracted { id text }
    turns { id occurredAt excerpt action } summaries { id excerpt } } }`;
const SCOPES = [["KEEP", "Keep them as they are"], ["REDACT", "Redact each mention, keep the rest"],
  ["ERASE", "Erase those turns"]];
const ACTIONS = { erase: "erased", redact: "mentions redacted" };

function listing(title, items) {
  const id = `plan-${title.toLowerCase().replace(/\W+/g, "-")}`;
  return h("section", { "aria-labelledby": id }, h("h3", { id }, `${title} (${items.length})`),
    items.length ? h("ul", {}, items) : h("p", {}, "None."));
}

function planView(plan) {
  return h("div", { class: "plan" },
    h("p", {}, `Mentions are its names as whole words, any case: ${plan.names.join(", ")}.`),
    listing("Facts deleted", plan.facts.map((f) => h("li", {}, f.text))),
    plan.factsRetracted.length
      ? listing("Facts retracted (their only evidence goes)", plan.factsRetracted.map((f) => h("li", {}, f.text)))
      : null,
    listing("Turns", plan.turns.map((t) => h("li", {}, h("code", {}, t.id), ` ${when(t.occurredAt)}, `,
      h("strong", {}, ACTIONS[t.action] || t.action), `: ${t.excerpt}`))),
    listing("Summaries withdrawn", plan.summaries.map((s) => h("li", {}, s.excerpt))));
}

// The dry run in a dialog, confirmed by typing the entity's name; resolves true to go ahead.
function confirmPlan(plan) {
  return new Promise((resolve) => {
    const typed = h("input", { id: "forget-confirm", type: "text", autocomplete: "off", required: true });
    const problem = h("p", { class: "error", role: "alert", hidden: true });
    const cancel = h("button", { type: "button", class: "secondary" }, "Cancel");
    const form = h("form", { class: "dialog-form", novalidate: true },
      h("h2", { id: "forget-title" }, `What forgetting ${plan.entity} takes`),
      h("p", {}, "A dry run: nothing has changed yet. This cannot be undone."), planView(plan),
      h("div", { class: "field" }, h("label", { for: "forget-confirm" }, `Type ${plan.entity} to confirm`), typed),
      problem, h("div", { class: "buttons" }, cancel, h("button", { type: "submit", class: "danger" }, "Forget")));
    const dialog = h("dialog", { "aria-labelledby": "forget-title" }, form);
    const close = (value) => { dialog.close(); dialog.remove(); resolve(value); };
    cancel.addEventListener("click", () => close(false));
    dialog.addEventListener("cancel", (event) => { event.preventDefault(); close(false); });
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      if (typed.value.trim() !== plan.entity) {
        problem.textContent = `Type ${plan.entity} exactly to confirm.`;
        problem.hidden = false;
        return;
      }
      close(true);
    });
    document.body.append(dialog);
    dialog.showModal();
    typed.focus();
  });
}

// Returns the receipt's view, or null when cancelled or refused.
export async function forgetEntity(ctx, name) {
  const chosen = await confirmAction({
    title: `Forget ${name}`,
    text: "Every fact about it is erased. Choose what happens to the past turns that mention it; "
      + "the next step shows what would go, before anything changes.",
    fields: [{ name: "mentions", label: "Turns that mention it", options: SCOPES, value: "REDACT" }],
    confirmLabel: "Show what would go",
  });
  if (!chosen) return null;
  const main = document.getElementById("main");
  const variables = { ns: ctx.ns, entity: name, mentions: chosen.mentions };
  try {
    const plan = (await gql(PLAN, variables)).erasurePlan;
    if (!(await confirmPlan(plan))) return null;
    const data = await gql(`mutation($ns: String!, $entity: String!, $mentions: MentionScope!) {
      eraseSubject(namespace: $ns, entity: $entity, mentions: $mentions) { ${RECEIPT} } }`, variables);
    announce(`${name} forgotten`);
    return receiptView(data.eraseSubject, name);
  } catch (error) {
    main.prepend(errorBox(error));
    return null;
  }
}
