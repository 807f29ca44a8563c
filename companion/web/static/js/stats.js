// Statistics: whatever the store computes, shown as readable tables (keys translated when known).
import { api } from "./api.js";
import { el, clear, showError } from "./dom.js";
import { t } from "./i18n.js";

const label = (key) => (t(`stat_${key}`) === `stat_${key}` ? key.replaceAll("_", " ") : t(`stat_${key}`));

function table(rows) {
  const keys = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  return el("table", { class: "data" },
    el("thead", {}, el("tr", {}, keys.map((k) => el("th", {}, label(k))))),
    el("tbody", {}, rows.map((r) => el("tr", {}, keys.map((k) => {
      const v = r[k];
      return el("td", { class: typeof v === "number" ? "n" : "" }, v === null || v === undefined ? "–" : typeof v === "object" ? JSON.stringify(v) : String(v));
    })))));
}

function render(value, depth = 2) {
  if (Array.isArray(value)) {
    if (value.length && value.every((v) => v && typeof v === "object" && !Array.isArray(v))) return table(value);
    return el("p", {}, value.join(", ") || "–");
  }
  if (value && typeof value === "object") {
    const entries = Object.entries(value);
    const flat = entries.every(([, v]) => v === null || typeof v !== "object");
    if (flat) return table(entries.map(([k, v]) => ({ [t("stat_item")]: label(k), [t("stat_value")]: v })));
    if (entries.every(([, v]) => v && typeof v === "object" && !Array.isArray(v) && Object.values(v).every((x) => x === null || typeof x !== "object")))
      return table(entries.map(([k, v]) => ({ [t("stat_item")]: label(k), ...v })));
    return el("div", {}, entries.map(([k, v]) => el("section", { class: "panel" }, el(`h${depth}`, {}, label(k)), render(v, Math.min(depth + 1, 4)))));
  }
  return el("p", {}, value === null || value === undefined ? "–" : String(value));
}

async function load() {
  try { clear(document.getElementById("stats"), render(await api("/api/stats"))); }
  catch (err) { showError(document.getElementById("stats-error"), err); }
}
load();
