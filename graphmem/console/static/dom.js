// Building the page without ever parsing memory content as HTML: every string becomes a text
// node (or an attribute value), so a stored "<script>" is shown as text and never runs.

export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(props || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith("on") && typeof value === "function") {
      el.addEventListener(name.slice(2).toLowerCase(), value);
    } else if (name === "class") {
      el.className = value;
    } else if (name === "value") {
      el.value = value;
    } else if (name === "checked" || name === "selected") {
      el[name] = Boolean(value);
    } else {
      el.setAttribute(name, value === true ? "" : String(value));
    }
  }
  append(el, children);
  return el;
}

export function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

export function clear(el) {
  while (el.firstChild) el.firstChild.remove();
  return el;
}

// Text a person reads for a time: "2026-05-01 09:00 UTC".
export function when(iso) {
  if (!iso) return "—";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return String(iso);
  return d.toISOString().slice(0, 16).replace("T", " ") + " UTC";
}

// A datetime-local input's value, read as UTC, to an ISO instant (or null when empty).
export function utcInput(value) {
  return value ? new Date(value + ":00Z").toISOString() : null;
}

// Element.append would print null as "null": this skips what is absent.
export function put(el, ...children) {
  return append(el, children);
}
