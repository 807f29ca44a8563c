// Games list: resume any game, start a new one.
import { api } from "./api.js";
import { el, clear, who, showError } from "./dom.js";
import { t, colourName, list as listOf } from "./i18n.js";

function when(iso) {
  if (!iso) return "";
  const d = new Date(iso);
  return isNaN(d) ? String(iso) : d.toLocaleString(document.documentElement.lang);
}

/** The store names a game without a title after its players, in English ("Ana, Ben and Cleo",
 *  companion.store.rules.game_title); such a title is said again in the page's language. */
function title(g) {
  const players = (g.players || []).map((p) => (typeof p === "string" ? { color: p, name: "" } : p));
  const stored = players.map((p) => p.name || p.color);
  const english = stored.length > 1 ? `${stored.slice(0, -1).join(", ")} and ${stored[stored.length - 1]}` : stored[0];
  if (g.title && g.title !== english) return g.title;
  return players.length ? listOf(players.map((p) => p.name || colourName(p.color))) : `${t("game")} ${g.id}`;
}

function playerList(players) {
  return (players || []).map((p) => (typeof p === "string" ? who(p) : who(p.color, p.name)));
}

async function load() {
  const list = document.getElementById("games-list");
  try {
    const games = await api("/api/games");
    document.getElementById("games-empty").hidden = games.length > 0;
    clear(list, games.map((g) => el("li", { "data-game-id": g.id },
      el("a", { class: "resume", href: `/games/${g.id}` },
        el("h2", {}, title(g)),
        el("div", { class: "row" }, playerList(g.players)),
        el("div", {}, g.status === "finished" || g.winner
          ? t("game_over_winner", { winner: (Array.isArray(g.winner) ? g.winner : [g.winner]).filter(Boolean).map((c) => t(`color_${c}`)).join(", ") || "–" })
          : t("game_round", { round: g.round ?? "–" })),
        el("div", { class: "muted" }, t("last_change", { when: when(g.updated_at || g.created_at) }))),
      el("a", { class: "btn", href: `/games/${g.id}` }, g.status === "finished" ? t("view") : t("resume")))));
  } catch (err) {
    showError(document.getElementById("games-error"), err);
  }
}
load();
