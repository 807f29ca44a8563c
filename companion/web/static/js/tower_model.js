// On the tower page: how this tower behaves, fitted from the logged throws (the statistics page
// has the full story). Added beside the camera check; never touches it.
import { api } from "./api.js";
import { el, who } from "./dom.js";
import { t, plural } from "./i18n.js";
import { rateText as iv } from "./charts.js";

async function show() {
  const main = document.getElementById("main");
  if (!main) return;
  const box = el("section", { class: "panel", id: "tower-model" }, el("h2", {}, t("stat_tower_title")));
  main.append(box);
  try {
    const r = await api("/api/stats/tower");
    if (!r.enough_data) { box.append(el("p", { class: "muted not-enough" }, t("stat_not_enough"), " ", t("stat_tower_needs"))); return; }
    const m = r.model;
    box.append(el("p", {}, plural("stat_tower_basis", m.battles, { throws: m.throws })),
      el("table", { class: "data" },
        el("thead", {}, el("tr", {}, el("th", {}), el("th", {}, t("stat_land")), el("th", {}, t("stat_release")))),
        el("tbody", {}, Object.entries(m.colours).map(([c, f]) => el("tr", { "data-row": c },
          el("td", {}, who(c)), el("td", {}, iv(f.land)), el("td", {}, iv(f.release)))))),
      el("p", {}, el("a", { href: "/stats#tower-section" }, t("nav_stats"))));
  } catch (err) { box.append(el("p", { class: "error" }, err.message)); }
}
show();
