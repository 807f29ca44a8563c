// Games list: resume any game, start a new one.
import { api } from "./api.js";
import { el, clear, who, showError } from "./dom.js";
import { t, gameTitle } from "./i18n.js";

function when(iso) {
  if (!iso) return "";
  const d = new Date(iso);
  return isNaN(d) ? String(iso) : d.toLocaleString(document.documentElement.lang);
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
        el("h2", {}, gameTitle(g)),
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
