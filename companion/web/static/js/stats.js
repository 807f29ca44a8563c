// Statistics (store.stats): game counts, then one scope at a time (finished / unfinished / all).
// Scalars of a section go into one small table, dicts of rows into tables, colours with names.
import { api } from "./api.js";
import { COLOURS, asList } from "./board.js";
import { el, clear, who, showError } from "./dom.js";
import { t } from "./i18n.js";

const label = (key) => (t(`stat_${key}`) === `stat_${key}` ? key.replaceAll("_", " ") : t(`stat_${key}`));
const isScalar = (v) => v === null || typeof v !== "object";
const show = (v) => (v === null || v === undefined ? "–" : typeof v === "number" && !Number.isInteger(v) ? v.toFixed(2) : String(v));
let names = new Map(); // tribe id → name from the owner's board data
const rowName = (key) => (COLOURS.includes(key) || key === "green" ? who(key) : names.get(key) ?? label(key));

function kvTable(entries) {
  return el("table", { class: "data kv-table" }, el("tbody", {}, entries.map(([k, v]) =>
    el("tr", {}, el("th", {}, label(k)), el("td", { class: "n", "data-stat": k }, show(v))))));
}

function rowsTable(obj) {
  const keys = [...new Set(Object.values(obj).flatMap((r) => Object.keys(r)))];
  return el("div", { class: "table-scroll" }, el("table", { class: "data" },
    el("thead", {}, el("tr", {}, el("th", {}), keys.map((k) => el("th", { class: "n" }, label(k))))),
    el("tbody", {}, Object.entries(obj).map(([name, r]) => el("tr", { "data-row": name },
      el("td", {}, rowName(name)), keys.map((k) => el("td", { class: "n" }, show(r[k]))))))));
}

function section(obj, depth) {
  const entries = Object.entries(obj || {});
  const scalars = entries.filter(([, v]) => isScalar(v));
  const nested = entries.filter(([, v]) => !isScalar(v));
  const parts = scalars.length ? [kvTable(scalars)] : [];
  for (const [key, value] of nested) {
    const rows = Object.values(value);
    const body = Array.isArray(value) ? el("p", {}, value.map(show).join(", ") || "–")
      : rows.length && rows.every((r) => r && typeof r === "object" && Object.values(r).every(isScalar)) ? rowsTable(value)
        : !rows.length ? el("p", { class: "muted" }, "–") : section(value, Math.min(depth + 1, 4));
    parts.push(el("section", { class: "stat-section" }, el(`h${depth}`, {}, label(key)), body));
  }
  return el("div", {}, parts);
}

let data = null;
let scope = "all";

function render() {
  const host = document.getElementById("stats");
  const counts = data.games || {};
  const scopes = ["finished", "unfinished", "all"].filter((s) => s in data);
  clear(host,
    el("div", { class: "row" }, Object.entries(counts).map(([k, v]) =>
      el("div", { class: "chip", "data-count": k }, label(`games_${k}`), " ", el("b", {}, show(v))))),
    el("div", { class: "row", role: "group", "aria-label": t("stat_scope") }, scopes.map((s) =>
      el("button", { type: "button", class: "btn", "data-scope": s, "aria-pressed": s === scope ? "true" : "false",
        onclick: () => { scope = s; render(); } }, label(`scope_${s}`)))),
    el("section", { class: "panel", id: "stats-scope" }, section(data[scope], 2)));
}

async function load() {
  try {
    const [stats, board] = await Promise.all([api("/api/stats"), api("/api/board").catch(() => ({}))]);
    data = stats;
    names = new Map(asList(board.tribes).map((x) => [x.id, x.name]));
    scope = data.games?.finished ? "finished" : "all";
    render();
  } catch (err) { showError(document.getElementById("stats-error"), err); }
}
load();
