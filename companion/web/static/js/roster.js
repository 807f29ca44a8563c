// The roster of people on the statistics page: add, rename, merge (the API does the checking).
import { api } from "./api.js";
import { el, clear, showError } from "./dom.js";
import { t } from "./i18n.js";

export async function renderRoster(host, onChange) {
  const people = await api("/api/people");
  const error = el("div", { class: "error", hidden: true, role: "alert", id: "roster-error" });
  const act = async (fn) => {
    try { await fn(); showError(error, null); await onChange(); }
    catch (err) { showError(error, err); }
  };
  const nameInput = el("input", { id: "roster-name", maxlength: 60, autocomplete: "off", placeholder: t("roster_name") });
  const shortInput = el("input", { id: "roster-short", maxlength: 12, autocomplete: "off", placeholder: t("roster_short_name"), size: 6 });
  const addForm = el("form", { class: "row", id: "roster-add", onsubmit: (e) => {
    e.preventDefault();
    act(() => api("/api/people", { method: "POST", body: { name: nameInput.value, short_name: shortInput.value || null } }));
  } }, nameInput, shortInput, el("button", { type: "submit", class: "btn primary" }, t("roster_add")));
  const rows = people.map((p) => {
    const rename = el("input", { value: p.name, maxlength: 60, "aria-label": t("roster_rename"), "data-rename": p.id });
    const into = el("select", { "aria-label": t("roster_merge_into"), "data-merge": p.id },
      el("option", { value: "" }, t("roster_merge_into")),
      people.filter((q) => q.id !== p.id).map((q) => el("option", { value: q.id }, q.name)));
    return el("tr", { "data-person": p.id },
      el("td", {}, rename),
      el("td", { class: "n" }, String(p.games)),
      el("td", {}, el("button", { type: "button", class: "btn", onclick: () =>
        act(() => api(`/api/people/${p.id}`, { method: "PATCH", body: { name: rename.value } })) }, t("roster_rename"))),
      el("td", {}, into, el("button", { type: "button", class: "btn", onclick: () => {
        if (!into.value) return;
        act(() => api(`/api/people/${p.id}/merge`, { method: "POST", body: { into: Number(into.value) } }));
      } }, t("roster_merge"))));
  });
  clear(host, el("p", { class: "hint" }, t("roster_hint")), addForm, error,
    people.length ? el("div", { class: "table-scroll", tabindex: 0 }, el("table", { class: "data", id: "roster-table" },
      el("thead", {}, el("tr", {}, el("th", {}, t("roster_name")), el("th", { class: "n" }, t("stat_games")), el("th", {}), el("th", {}))),
      el("tbody", {}, rows)))
      : el("p", { class: "muted" }, t("roster_empty")));
}
