// The night recap: every game of one evening (Immortals and the game-night log) — who played,
// who won, how long, the final-table photos, a few facts — and the share links (one HTML file,
// a PNG card). Read-only.
import { api } from "./api.js";
import { el, clear, showError } from "./dom.js";
import { t, LANG, list } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const asked = $("recap").dataset.night;

// A list parameter (the players a game is named after) is joined in the page's language.
const fact = (f) => t(f.key, Object.fromEntries(Object.entries(f.params).map(([k, v]) => [k, Array.isArray(v) ? list(v) : v])));
const titleOf = (g) => g.title ?? list(g.title_names || []);

function gameCard(g) {
  const winners = g.players.filter((p) => p.winner).map((p) => p.name);
  const link = g.kind === "immortals" ? `/games/${g.id}/review` : `/night/games/${g.id}`;
  return el("article", { class: "panel recap-game", "data-kind": g.kind, "data-id": g.id },
    el("h2", {}, el("a", { href: link }, titleOf(g)), titleOf(g) !== g.name ? el("small", {}, ` (${g.name})`) : null),
    el("p", { class: "muted" }, g.minutes !== null ? t("recap_minutes", { n: g.minutes }) : t("recap_not_finished"),
      winners.length ? [" · ", t("recap_won_by", { names: list(winners) })] : ""),
    el("table", { class: "recap-players" }, el("tbody", {}, g.players.map((p) => el("tr", { class: p.winner ? "winner" : "" },
      el("td", {}, p.name), el("td", {}, p.score ?? "–"), el("td", {}, p.winner ? `★ ${t("recap_winner")}` : ""))))),
    g.photo !== null ? el("img", { class: "table-photo", src: `/api/tabletop/games/${g.id}/photo`, alt: t("recap_table_photo"), loading: "lazy" }) : null,
    g.battles.length ? el("p", {}, el("a", { href: link }, t("recap_battles_of", { n: g.battles.length }))) : null);
}

async function init() {
  try {
    const nights = await api("/api/recap");
    const night = asked || nights[0]?.night;
    const select = $("recap-night");
    clear(select, nights.map((n) => el("option", { value: n.night, selected: n.night === night }, `${n.night} (${n.games})`)));
    select.addEventListener("change", () => { location.href = `/recap/${select.value}`; });
    if (!night) { clear($("recap-facts"), el("li", {}, t("recap_no_nights"))); document.body.dataset.ready = "yes"; return; }
    const recap = await api(`/api/recap/${night}`);
    $("recap-title").textContent = t("recap_card_title", { night: recap.night });
    clear($("recap-facts"), recap.facts.length ? recap.facts.map((f) => el("li", {}, fact(f))) : el("li", { class: "muted" }, t("recap_no_facts")));
    clear($("recap-games"), recap.games.map(gameCard));
    $("share-html").href = `/api/recap/${night}/share.html?lang=${LANG}`;
    $("share-card").href = `/api/recap/${night}/card.png?lang=${LANG}`;
    document.body.dataset.ready = "yes";
  } catch (err) {
    showError($("recap-error"), err);
    document.body.dataset.ready = "error";
  }
}

init();
