// The console's shell: sign-in, the namespace picker, navigation and the hash router.
import { ApiError, currentKey, gql, rememberKey } from "./api.js";
import { h, clear } from "./dom.js";
import { errorBox, announce } from "./ui.js";
import * as pages from "./pages.js";
import * as actions from "./actions.js";
import { graphPage } from "./graph.js";

const VIEWER = "query($first: Int!) { viewer(first: $first) { name admin grants namespaces } }";
const LISTED = 200;  // namespaces the picker lists (viewer's first)
const main = document.getElementById("main");
const top = document.getElementById("top");
const state = { viewer: null, ns: null };

const ROUTES = {
  overview: ["Overview", pages.overview],
  entities: ["Entities & facts", pages.entities],
  conversations: ["Conversations", pages.conversations],
  conflicts: ["Conflicts", pages.conflicts],
  erase: ["Erase & retention", actions.erasePage],
  jobs: ["Jobs", pages.jobs],
  audit: ["Audit log", pages.audit],
  entity: ["Entity", pages.entity],
  graph: ["Graph", graphPage],
  fact: ["Fact", pages.fact],
  session: ["Conversation", pages.session],
};
const NAV = ["overview", "entities", "conversations", "conflicts", "erase", "jobs", "audit"];

// "#/entity?ns=demo%2Falice&name=Alice" -> ["entity", URLSearchParams]
function parseHash() {
  const [path, query] = location.hash.replace(/^#\/?/, "").split("?");
  return [path || "overview", new URLSearchParams(query || "")];
}

export function href(page, params = {}) {
  const all = new URLSearchParams({ ns: state.ns || "", ...params });
  return `#/${page}?${all}`;
}

export function go(page, params = {}) {
  const target = href(page, params);
  if (location.hash === target) route();
  else location.hash = target;
}

// Where a key lands on signing in: a key that is no admin and reads exactly one namespace
// lands in it; an admin key (every namespace is someone's) or one reading several chooses.
function landing(viewer) {
  return !viewer.admin && viewer.namespaces.length === 1 ? viewer.namespaces[0] : null;
}

function signIn(message) {
  // Signing out draws this form and then changes the address, which routes here again: keep
  // the form on screen, or the first characters of a key typed meanwhile are lost.
  if (!message && main.querySelector("form.signin")) return;
  top.hidden = true;
  const key = h("input", { id: "key", type: "password", autocomplete: "off", required: true,
    spellcheck: "false", "aria-describedby": "key-help" });
  const problem = message ? errorBox({ message }) : null;
  const form = h("form", { class: "signin", "aria-labelledby": "signin-title" },
    h("h1", { id: "signin-title" }, "graphmem console"),
    h("p", {}, "See what memory holds, why it believes it, fix it, resolve conflicts and erase. "
      + "Everything you do goes through graphmem's GraphQL API with your key: the same grants "
      + "and the same audit log as any client."),
    problem,
    h("div", { class: "field" }, h("label", { for: "key" }, "API key"), key,
      h("small", { id: "key-help" }, "Kept in this browser tab only (sessionStorage), until "
        + "you sign out or close the tab. `bin/serve` prints a local admin key; "
        + "`graphmem keys create NAME -n NAMESPACE` makes a narrower one.")),
    h("div", { class: "buttons" }, h("button", { type: "submit", class: "primary" }, "Sign in")));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const data = await gql(VIEWER, { first: LISTED }, key.value.trim());
      rememberKey(key.value.trim());
      state.viewer = data.viewer;
      announce(`Signed in as ${data.viewer.name}`);
      if (!location.hash || location.hash === "#" || location.hash.startsWith("#/signin")) {
        const ns = landing(data.viewer);
        location.hash = ns ? `#/overview?ns=${encodeURIComponent(ns)}` : "#/overview";
      } else {
        route();
      }
    } catch (error) {
      signIn(error.message);
    }
  });
  clear(main).append(form);
  key.focus();
}

function signOut() {
  rememberKey(null);
  state.viewer = null;
  state.ns = null;
  location.hash = "#/signin";
  signIn();
}

function header(page) {
  const v = state.viewer;
  const picker = h("select", { id: "ns-picker" },
    state.ns ? null : h("option", { value: "", selected: true }, "Choose…"),
    v.namespaces.map((ns) => h("option", { value: ns, selected: ns === state.ns }, ns)),
    state.ns && !v.namespaces.includes(state.ns)
      ? h("option", { value: state.ns, selected: true }, state.ns) : null);
  picker.addEventListener("change", () => {
    if (!picker.value) return;
    state.ns = picker.value;
    go(NAV.includes(page) ? page : "overview");
  });
  const other = h("input", { id: "ns-other", type: "text", placeholder: "acme/user-42",
    autocomplete: "off", "aria-label": "Another namespace" });
  const otherForm = h("form", { class: "ns-other" }, other,
    h("button", { type: "submit", class: "secondary" }, "Open"));
  otherForm.addEventListener("submit", (event) => {
    event.preventDefault();
    if (other.value.trim()) { state.ns = other.value.trim(); go("overview"); }
  });
  const prefixGrant = v.admin || v.grants.some((g) => g === "*" || g.endsWith("/*"));
  const nav = h("nav", { "aria-label": "Sections" }, h("ul", {},
    NAV.filter((p) => p !== "audit" || v.admin).map((p) => h("li", {},
      h("a", { href: href(p), "aria-current": p === page ? "page" : null }, ROUTES[p][0])))));
  clear(top).append(
    h("div", { class: "bar" },
      h("a", { class: "brand", href: href("overview") }, "graphmem"),
      h("div", { class: "ns" },
        h("label", { for: "ns-picker" }, "Namespace"),
        v.namespaces.length || state.ns ? picker : h("span", {}, "none yet"),
        prefixGrant ? otherForm : null),
      h("div", { class: "who" },
        h("span", {}, "Key: ", h("strong", {}, v.name), v.admin ? " (admin)" : ""),
        h("a", { href: "/graphql", target: "_blank", rel: "noopener" }, "GraphiQL"),
        h("button", { type: "button", class: "secondary", onclick: signOut }, "Sign out"))),
    nav);
  top.hidden = false;
}

// No namespace chosen: the console opens none by itself (see landing).
function chooseNamespace(viewer) {
  if (!viewer.namespaces.length) {
    return [h("h1", {}, "No namespace yet"),
      h("p", {}, "This key may read no namespace that holds memory yet. Type one above, or "
        + "record episodes in a namespace it is granted.")];
  }
  const count = viewer.namespaces.length < LISTED ? viewer.namespaces.length : `${LISTED} or more`;
  const whose = viewer.admin ? " (it is an admin key: every namespace is someone's memory)" : "";
  return [h("h1", {}, "Choose a namespace"),
    h("p", {}, `This key reads ${count} namespaces${whose}. The console opens none by itself: `
      + "pick one here or above."),
    h("ul", { class: "namespaces" }, viewer.namespaces.map((ns) => h("li", {},
      h("a", { href: href("overview", { ns }) }, ns))))];
}

let routing = 0;  // the latest navigation: an older one still loading must not draw

async function route() {
  const token = ++routing;
  const address = location.hash;
  const key = currentKey();
  if (!key) return signIn();
  if (!state.viewer) {
    try {
      state.viewer = (await gql(VIEWER, { first: LISTED })).viewer;
    } catch (error) {
      if (error instanceof ApiError && error.code === "UNAUTHENTICATED") rememberKey(null);
      return signIn(error.message);
    }
  }
  const [page, params] = parseHash();
  if (page === "signin") return signIn();
  state.ns = params.get("ns") || state.ns || landing(state.viewer);
  const [title, render] = ROUTES[page] || ROUTES.overview;
  header(page);
  document.title = `${title} · ${state.ns || ""} · graphmem console`;
  if (!state.ns) {
    main.removeAttribute("aria-busy");
    clear(main).append(...chooseNamespace(state.viewer));
    main.dataset.shown = address;
    return;
  }
  main.setAttribute("aria-busy", "true");
  // Each page draws into a detached view, shown whole when its reads are done; a page may
  // return what to do once it is on screen (the graph needs its container's size).
  const view = h("div", { class: "view" });
  let shown = null;
  try {
    // reload: draw this page again after a change, unless the person has moved on meanwhile.
    const reload = () => { if (location.hash === address) route(); };
    shown = await render(view, params, { ns: state.ns, viewer: state.viewer, go, href, reload });
  } catch (error) {
    view.append(errorBox(error));
  }
  if (token !== routing) return;
  main.removeAttribute("aria-busy");
  main.replaceChildren(view);
  if (typeof shown === "function") await shown();
  main.dataset.shown = address;  // drawn: what a test (or a script) waits for
  if (!main.contains(document.activeElement)) main.focus({ preventScroll: true });
}

window.addEventListener("hashchange", route);
route();
