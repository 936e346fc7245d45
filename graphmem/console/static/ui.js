// Pieces every page uses: messages, the confirmation dialog, fact rows, erasure receipts.
import { h, when } from "./dom.js";

export function announce(text) {
  const status = document.getElementById("status");
  status.textContent = "";
  // A change the screen reader hears (polite), after the DOM settles.
  setTimeout(() => { status.textContent = text; }, 30);
}

export function errorBox(error) {
  return h("div", { class: "error", role: "alert" },
    h("strong", {}, "Could not do that. "), error.message || String(error));
}

export function notice(text) {
  return h("p", { class: "notice", role: "status" }, text);
}

export function section(title, ...children) {
  const id = "s-" + title.toLowerCase().replace(/[^a-z0-9]+/g, "-");
  return h("section", { "aria-labelledby": id }, h("h2", { id }, title), ...children);
}

// A table that scrolls within itself when wide; at phone width each row is stacked, every
// cell labelled with its column's header (data-label, shown by console.css).
export function scrollTable(headers, rows, caption) {
  for (const row of rows) {
    [...row.children].forEach((cell, i) => { if (headers[i]) cell.dataset.label = headers[i]; });
  }
  return h("div", { class: "scroll", tabindex: "0", role: "region", "aria-label": caption },
    h("table", {},
      h("caption", { class: "visually-hidden" }, caption),
      h("thead", {}, h("tr", {}, headers.map((x) => h("th", { scope: "col" }, x)))),
      h("tbody", {}, rows)));
}

export function statusBadge(status) {
  const s = String(status || "").toLowerCase();
  return h("span", { class: `badge badge-${s}` }, s);
}

// A fact version no longer holds when belief in it ended (superseded, retracted) or when its
// validity ended before now.
export function isEnded(fact) {
  return Boolean(fact.retractedAt) || (Boolean(fact.validTo) && new Date(fact.validTo) <= new Date());
}

// The status the API gives, and what it does not say: a believed version whose validity is
// over is ended; a forgotten one may not be asserted again.
export function factStatus(fact) {
  const believed = fact.status === "ACTIVE" || fact.status === "DISPUTED";
  return [statusBadge(fact.status),
    believed && isEnded(fact) ? h("span", { class: "badge badge-ended" }, "ended") : null,
    fact.forgottenAt ? h("span", { class: "badge badge-forgotten" }, "forgotten") : null];
}

// Asks before anything changes memory. Resolves to the fields' values, or null (cancelled).
export function confirmAction({ title, text, fields = [], confirmLabel = "Confirm", danger = false }) {
  return new Promise((resolve) => {
    const inputs = {};
    const problem = h("p", { class: "error", role: "alert", hidden: true });
    const body = fields.map((f) => {
      const id = `f-${f.name}`;
      let input;
      if (f.options) {
        input = h("select", { id, name: f.name },
          f.options.map(([value, label]) => h("option", { value, selected: value === f.value }, label)));
      } else {
        input = h("input", { id, name: f.name, type: f.type || "text", value: f.value || "",
          required: f.required, autocomplete: "off", step: f.step, min: f.min,
          "aria-describedby": f.help ? `${id}-help` : null });
      }
      inputs[f.name] = input;
      return h("div", { class: "field" }, h("label", { for: id }, f.label), input,
        f.help ? h("small", { id: `${id}-help` }, f.help) : null);
    });
    const cancel = h("button", { type: "button", class: "secondary" }, "Cancel");
    const ok = h("button", { type: "submit", class: danger ? "danger" : "primary" }, confirmLabel);
    const form = h("form", { class: "dialog-form", novalidate: true }, h("h2", { id: "dialog-title" }, title),
      h("p", {}, text), body, problem, h("div", { class: "buttons" }, cancel, ok));
    const dialog = h("dialog", { "aria-labelledby": "dialog-title" }, form);
    const close = (value) => { dialog.close(); dialog.remove(); resolve(value); };
    cancel.addEventListener("click", () => close(null));
    dialog.addEventListener("cancel", (event) => { event.preventDefault(); close(null); });
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const values = Object.fromEntries(Object.entries(inputs).map(([k, el]) => [k, el.value.trim()]));
      for (const f of fields) {
        if (f.required && !values[f.name]) return showProblem(`${f.label} is required.`);
        if (f.mustEqual !== undefined && values[f.name] !== f.mustEqual) {
          return showProblem(`Type ${f.mustEqual} exactly to confirm.`);
        }
      }
      close(values);
    });
    function showProblem(text) {
      problem.textContent = text;
      problem.hidden = false;
    }
    document.body.append(dialog);
    dialog.showModal();
    (fields.length ? inputs[fields[0].name] : cancel).focus();
  });
}

// True in the world from → until; "now" only while it still holds. A version memory stopped
// believing (retractedAt) ends there when it had no end of its own, and says so either way.
export function validity(fact) {
  const from = fact.validFrom ? when(fact.validFrom) : "always";
  const stopped = fact.retractedAt
    ? `${String(fact.status).toLowerCase()} ${when(fact.retractedAt)}` : null;
  if (!fact.validTo) return `${from} → ${stopped || "now"}`;
  return `${from} → ${when(fact.validTo)}${stopped ? `, ${stopped}` : ""}`;
}

export function receiptView(receipt, what) {
  const counts = receipt.counts.filter((c) => c.count > 0);
  return h("section", { class: "receipt", "aria-labelledby": "receipt-title", tabindex: "-1" },
    h("h2", { id: "receipt-title" }, `Erasure receipt: ${what}`),
    h("p", {}, receipt.verified
      ? h("strong", { class: "ok" }, "Verified: nothing of it remains.")
      : h("strong", { class: "bad" }, "Not verified: something remains (see below).")),
    h("dl", { class: "pairs" },
      h("dt", {}, "Receipt"), h("dd", {}, h("code", {}, receipt.id)),
      h("dt", {}, "Scope"), h("dd", {}, receipt.scope),
      h("dt", {}, "Completed"), h("dd", {}, when(receipt.completedAt)),
      h("dt", {}, "Nodes remaining"), h("dd", {}, String(receipt.remainingNodes)),
      h("dt", {}, "Still searchable"), h("dd", {}, String(receipt.remainingSearchable))),
    counts.length
      ? scrollTable(["Erased", "Count"], counts.map((c) => h("tr", {}, h("td", {}, c.kind),
          h("td", {}, String(c.count)))), "What was erased")
      : h("p", {}, "Nothing matched, so nothing was erased."));
}
