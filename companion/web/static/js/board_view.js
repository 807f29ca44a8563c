// A read-only picture of one game state: the board (both realms, areas, regions with armies,
// buildings and card holders), the players' resources and VP, and the tower. Used by the game
// review and the table display; it never sends anything.
import { REALMS } from "./board.js";
import { el, clear, who, cubeList } from "./dom.js";
import { t, colourName } from "./i18n.js";

function regionCell(s, realm, region) {
  const cell = s.cell(realm, region.id);
  const armies = Object.entries(cell.armies).filter(([, n]) => n > 0);
  const holder = s.holder(region.id);
  const target = s.battle && s.battle.target === region.id && s.battle.realm === realm;
  return el("div", { class: `region${target ? " target" : ""}`, "data-region": region.id, "data-realm": realm },
    el("span", { class: "rname" }, region.name || region.id),
    el("span", { class: "armies" }, armies.map(([c, n]) => el("span", { "data-colour": c, title: colourName(c) },
      el("span", { class: `swatch c-${c}`, "aria-hidden": "true" }), el("span", { class: "sr" }, `${colourName(c)} `), n))),
    cell.building || cell.portal ? el("span", { class: "bld" },
      [cell.building ? t(`building_${cell.building}`) : null, cell.portal ? t("building_portal") : null].filter(Boolean).join(" · ")) : null,
    holder ? el("span", { class: "holder" }, "🂠 ", colourName(holder)) : null);
}

/** The two realms of `board` (normalised) in state `s` (normaliseState) into `host`. */
export function renderRealms(host, board, s) {
  clear(host, REALMS.map((realm) => el("section", { class: `realm ${realm}`, "data-realm": realm },
    el("h3", {}, t(`realm_${realm}`)),
    el("div", { class: "areas" }, board.areas.filter((a) => a.regions.length).map((area) =>
      el("div", { class: "area", "data-area": area.id }, el("h4", {}, area.name || area.id),
        el("div", { class: "regions" }, area.regions.map((r) => regionCell(s, realm, r)))))))));
}

/** One row per player: VP, gold, energy, limbo (light / dark), region cards. */
export function renderPlayerTable(host, s) {
  const head = ["vp", "gold", "energy", "limbo_light", "limbo_dark", "region_cards"];
  clear(host, el("table", { class: "players-table" },
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("player")), head.map((k) => el("th", { scope: "col" }, t(k))))),
    el("tbody", {}, s.players.map((p) => el("tr", { "data-player": p.color, class: s.active === p.color ? "active" : "" },
      el("th", { scope: "row" }, who(p.color, p.name)),
      [p.vp, p.gold, p.energy, p.limbo?.light ?? 0, p.limbo?.dark ?? 0, (p.cards || []).length]
        .map((v, i) => el("td", { "data-num": head[i] }, String(v ?? "–"))))))));
}

/** Tray, tower interior (estimated) and the green supply. */
export function renderTower(host, s) {
  clear(host, el("dl", { class: "tower-now" },
    el("dt", {}, t("tray")), el("dd", { "data-tower": "tray" }, cubeList(s.tray, t("empty"))),
    el("dt", {}, t("tower_interior")), el("dd", { "data-tower": "interior" }, cubeList(s.interior, t("empty"))),
    el("dt", {}, t("green_supply")), el("dd", { "data-tower": "green" }, String(s.greenSupply ?? "–"))));
}
