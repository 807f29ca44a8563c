// The table display: a read-only page for a TV beside the table. It follows one game (or, at
// /display, whichever game is being played) over the live stream, without a touch: the board,
// whose turn, the battle in progress with its photo and result as soon as it is counted, and
// the round scores. It never asks for the PIN and never sends a command (the battle preview it
// asks for changes nothing).
import { api, getGame } from "./api.js";
import { normaliseBoard, regionName } from "./board.js";
import { renderRealms } from "./board_view.js";
import { el, clear, who, cubeList, showError } from "./dom.js";
import { t, colourName, gameTitle } from "./i18n.js";
import { subscribe } from "./live.js";
import { normaliseState } from "./state.js";
import { battleSentences } from "./words.js";

const $ = (id) => document.getElementById(id);
const fixed = Number($("display").dataset.game) || null;
let gameId = fixed;
let board = null;
let lastPhoto = null;
let refreshing = null;
let again = false; // a change arrived while reading: read once more after this one

async function pickGame() {
  const games = await api("/api/games");
  const active = games.filter((g) => g.status === "active").sort((a, b) => (a.updated_at < b.updated_at ? 1 : -1));
  return (active[0] || games.sort((a, b) => (a.updated_at < b.updated_at ? 1 : -1))[0] || {}).id ?? null;
}

function phaseWords(s) {
  if (s.finished) return t("phase_finished");
  const key = `phase_${s.phase}`;
  return t(key) === key ? s.phase : t(key);
}

function nameOf(s, c) { return s.player(c)?.name || colourName(c); }

async function renderBattle(s) {
  const box = $("display-battle");
  const b = s.battle;
  if (!b) { box.hidden = true; return; }
  box.hidden = false;
  clear($("display-battle-who"), who(b.attacker, nameOf(s, b.attacker)), " → ",
    b.defender ? who(b.defender, nameOf(s, b.defender)) : t("review_empty_region"), " · ", regionName(board, b.target));
  const reading = s.reading;
  const img = $("display-photo");
  if (reading?.id) {
    const url = `/api/readings/${reading.id}/photo.jpg`;
    if (img.getAttribute("src") !== url) img.src = url;
    img.hidden = false;
    lastPhoto = url;
  } else {
    img.hidden = true;
  }
  if (reading && Object.keys(reading.counts || {}).length) {
    clear($("display-counts"), cubeList(reading.counts));
    try {
      const preview = await api(`/api/games/${gameId}/battle/preview`, { method: "POST", body: { counts: reading.counts } });
      clear($("display-result"), battleSentences(preview.result, b, reading.counts, board).map((line) => el("li", {}, line)));
    } catch { clear($("display-result")); }
  } else {
    clear($("display-counts"), t("display_waiting_throw"));
    clear($("display-result"));
  }
}

function renderScores(s) {
  const rounds = s.scores.map((sc) => sc.round);
  clear($("display-scores"), el("table", { class: "display-scores" },
    el("thead", {}, el("tr", {}, el("th", {}, t("player")), rounds.map((r) => el("th", { scope: "col" }, t("review_round", { n: r }))),
      el("th", { scope: "col" }, t("vp")))),
    el("tbody", {}, s.players.map((p) => el("tr", { "data-player": p.color, class: s.active === p.color ? "active" : "" },
      el("th", { scope: "row" }, who(p.color, p.name)),
      s.scores.map((sc) => el("td", {}, String(sc.players?.[p.color]?.total ?? "–"))),
      el("td", { class: "vp-now" }, String(p.vp)))))));
}

async function refresh() {
  if (refreshing) { again = true; return refreshing; }
  refreshing = (async () => {
    try {
      if (!fixed) {
        const picked = await pickGame();
        if (picked !== gameId) { gameId = picked; board = null; }
      }
      $("display-waiting").hidden = Boolean(gameId);
      if (!gameId) { document.body.dataset.ready = "yes"; return; }
      const answer = await getGame(gameId);
      const s = normaliseState(answer.state);
      if (!board) board = normaliseBoard(answer.state.board);
      $("display-title").textContent = gameTitle({ title: answer.state.title, players: answer.state.players });
      $("display-round").textContent = t("display_round_of", { n: s.round ?? 0, total: s.rounds ?? "–" });
      $("display-phase").textContent = phaseWords(s);
      clear($("display-turn"), s.finished ? t("display_over") : s.active ? [t("display_turn"), " ", who(s.active, nameOf(s, s.active))] : "");
      renderRealms($("display-board"), board, s);
      renderScores(s);
      await renderBattle(s);
      document.body.dataset.version = String(s.version);
      document.body.dataset.game = String(gameId);
      document.body.dataset.ready = "yes";
      showError($("display-error"), null);
    } catch (err) {
      showError($("display-error"), err);
    } finally {
      refreshing = null;
      if (again) { again = false; refresh(); }
    }
  })();
  return refreshing;
}

subscribe(fixed, {
  state: (data) => {
    if (data.news) $("display-news").textContent = typeof data.news === "string" ? t("news_said", { news: data.news }) : "";
    if (data.game === gameId || !fixed) refresh();
  },
  reading: (data) => { if (data.game === gameId) refresh(); },
  reconnected: refresh,
});
refresh();
