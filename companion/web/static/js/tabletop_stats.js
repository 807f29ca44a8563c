// The statistics page's "Game nights" section (self-contained: stats.html loads it beside
// stats.js): per game — plays, length, shared wins; per person — wins and win rate per game,
// their Immortals games beside them, the whole night; the tabletop CSV exports; BoardGameGeek ids
// per game for "Send to BG Stats" (left out while unset).
import { api } from "./api.js";
import { el, clear, showError } from "./dom.js";
import { t } from "./i18n.js";
import { BASE } from "./tabletop_common.js";

const GAME_KEYS = { immortal_gameogami: 1, amrtaka: 1, wrath_of_the_immortals: 1 };
const show = (v) => (v === null || v === undefined ? "–" : typeof v === "number" && !Number.isInteger(v) ? v.toFixed(v < 1 ? 3 : 1) : String(v));
const title = (g) => (g.game === "generic" ? g.name : g.game === "immortals" ? t("tt_immortals") : t(`tt_game_${g.game}`));

function table(head, rows) {
  return el("div", { class: "table-scroll", tabindex: 0 }, el("table", { class: "data" },
    el("thead", {}, el("tr", {}, head.map((h, i) => el("th", { class: i ? "n" : "" }, h)))),
    el("tbody", {}, rows.map((r) => el("tr", {}, r.map((c, i) => el("td", { class: i ? "n" : "" }, c)))))));
}

function bggEditor(report, ids) {
  // Immortals' own id is the group setting above (stat_bgg_id); the others are set here.
  const inputs = report.games.filter((g) => g.game !== "immortals").map((g) => el("label", { class: "field inline" }, title(g), " ",
    el("input", { inputmode: "numeric", size: 9, "data-bgg": g.key, value: ids[g.key] ?? "" })));
  const error = el("div", { class: "error", hidden: true, role: "alert" });
  return el("form", { class: "row", id: "tt-bgg", onsubmit: async (e) => {
    e.preventDefault();
    const body = {};
    for (const input of e.target.querySelectorAll("input[data-bgg]")) {
      body[input.dataset.bgg] = input.value.trim() ? Number(input.value) : null;
    }
    try { await api(`${BASE}/bgg-ids`, { method: "PUT", body: { ids: body } }); showError(error, null); }
    catch (err) { showError(error, err); }
  } }, el("p", {}, t("tt_stats_bgg")), inputs, el("button", { type: "submit", class: "btn" }, t("tt_stats_save_bgg")), error);
}

async function render(host) {
  const [report, ids] = await Promise.all([api(`${BASE}/stats`), api(`${BASE}/bgg-ids`)]);
  const links = el("p", { class: "row" }, ["tabletop_games", "tabletop_players"].map((n) =>
    el("a", { class: "btn", href: `/api/export/${n}.csv`, download: "" }, `${n}.csv`)));
  if (!report.plays) { clear(host, el("p", { class: "muted" }, t("tt_stats_empty")), links); return; }
  clear(host,
    table([t("tt_stats_game"), t("tt_stats_plays"), t("tt_stats_average_minutes"), t("tt_stats_shared")],
      report.games.map((g) => [title(g), show(g.plays), show(g.average_minutes), show(g.shared_wins)])),
    report.people.length ? table([t("tt_stats_person"), t("tt_stats_plays"), t("tt_stats_wins"), t("tt_stats_win_rate"),
      t("tt_stats_immortals"), t("tt_stats_whole_night"), t("tt_stats_per_game")],
    report.people.map((p) => [p.name, show(p.plays), show(p.wins), show(p.win_rate),
      `${p.immortals.wins}/${p.immortals.plays}`, show(p.whole_night.win_rate),
      p.games.map((g) => `${title({ game: g.key in GAME_KEYS ? g.key : "generic", name: g.name })} ${g.wins}/${g.finished}`).join(", ") || "–"])) : null,
    links, bggEditor(report, ids));
}

const host = document.getElementById("tabletop-section-body");
if (host) {
  render(host).then(() => { document.body.dataset.tabletopReady = "yes"; })
    .catch((err) => clear(host, el("p", { class: "error", role: "alert" }, err.message)));
}
