// Statistics: first what only this companion can tell the group (its tower, its odds, its people,
// each game's course — stats_charts.js), then the plain tables (store.stats): game counts and one
// scope at a time (finished / unfinished / all). Scalars of a section go into one small table,
// dicts of rows into tables, colours with names.
import { api } from "./api.js";
import { renderExports, renderGame, renderOdds, renderPeople, renderTower, renderTribes } from "./stats_charts.js";
import { COLOURS, labelled } from "./board.js";
import { el, clear, who, showError } from "./dom.js";
import { t, num } from "./i18n.js";

const label = (key) => (t(`stat_${key}`) === `stat_${key}` ? key.replaceAll("_", " ") : t(`stat_${key}`));
const isScalar = (v) => v === null || typeof v !== "object";
const show = (v) => (typeof v === "number" ? num(v, 2) : v === null || v === undefined ? "–" : String(v));
let names = new Map(); // tribe id → name from the owner's board data
const rowName = (key) => (COLOURS.includes(key) || key === "green" ? who(key) : names.get(key) ?? label(key));

function kvTable(entries) {
  return el("table", { class: "data kv-table" }, el("tbody", {}, entries.map(([k, v]) =>
    el("tr", {}, el("th", {}, label(k)), el("td", { class: "n", "data-stat": k }, show(v))))));
}

function rowsTable(obj) {
  const keys = [...new Set(Object.values(obj).flatMap((r) => Object.keys(r)))];
  return el("div", { class: "table-scroll", tabindex: 0 }, el("table", { class: "data" },
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
    parts.push(el("section", { class: "stat-section", tabindex: 0 }, el(`h${depth}`, {}, label(key)), body));
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

let settings = { odds: false, bgg_id: null, location: null };
const $ = (id) => document.getElementById(id);

/** One section failing (say, an old server) must not blank the others. */
async function part(id, fn) {
  try { await fn($(id)); } catch (err) { clear($(id), el("p", { class: "error", role: "alert" }, err.message)); }
}

async function changeSettings(changes) {
  settings = await api("/api/settings", { method: "PUT", body: changes });
  await Promise.all([part("odds-section-body", (h) => renderOdds(h, settings, changeSettings)),
    part("exports-section-body", (h) => renderExports(h, settings, changeSettings))]);
}

async function loadPeople() {
  await part("people-section-body", (h) => renderPeople(h, loadPeople));
}

async function load() {
  try {
    const [stats, board, s, games] = await Promise.all([api("/api/stats"), api("/api/board").catch(() => ({})),
      api("/api/settings"), api("/api/games")]);
    data = stats;
    settings = s;
    names = new Map(labelled(board).tribes.map((x) => [x.id, x.name])); // "Lichtvolk 3 (noch ohne Namen)", never an id
    scope = data.games?.finished ? "finished" : "all";
    render();
    await Promise.all([
      part("tower-section-body", renderTower),
      part("odds-section-body", (h) => renderOdds(h, settings, changeSettings)),
      loadPeople(),
      part("game-section-body", (h) => renderGame(h, games, settings)),
      part("tribes-section-body", (h) => renderTribes(h, stats, names)),
      part("exports-section-body", (h) => renderExports(h, settings, changeSettings)),
    ]);
    document.body.dataset.statsReady = "yes";
  } catch (err) { showError(document.getElementById("stats-error"), err); }
}
load();
