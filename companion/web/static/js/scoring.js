// The scoring screen (each player's breakdown) and the end screen (winner and tie-break).
import { el, clear, who } from "./dom.js";
import { commandButton } from "./forms.js";
import { t, colourName } from "./i18n.js";
import { asList } from "./board.js";

const label = (key) => (t(`score_${key}`) === `score_${key}` ? key.replaceAll("_", " ") : t(`score_${key}`));

/** A table of per-player breakdowns: {colour: {regions: 2, shrines: 1, …, total}} or a list. */
export function breakdownTable(ctx, breakdown) {
  const rows = asList(breakdown).map((r) => ({ ...r, color: r.color ?? r.player ?? r.id }));
  if (!rows.length) return el("p", { class: "muted" }, t("no_breakdown"));
  const keys = [...new Set(rows.flatMap((r) => Object.keys(r)))].filter((k) => !["id", "color", "player", "name"].includes(k)
    && rows.some((r) => typeof r[k] === "number"));
  return el("table", { class: "data", id: "score-table" },
    el("thead", {}, el("tr", {}, el("th", {}, t("player")), keys.map((k) => el("th", { class: "n" }, label(k))))),
    el("tbody", {}, rows.map((r) => el("tr", { "data-player": r.color },
      el("td", {}, who(r.color, ctx.state.player(r.color)?.name)),
      keys.map((k) => el("td", { class: "n" }, r[k] ?? "–"))))));
}

function lastBreakdown(ctx) {
  const ev = ctx.lastEvent;
  if (ev && ev.type === "round_scored") return ev.breakdown ?? ev.scores;
  const s = ctx.state.scoring;
  if (!s) return null;
  return s.breakdown ?? s.players ?? s;
}

export function scoringPanel(ctx) {
  const s = ctx.state;
  return el("div", { id: "scoring" },
    el("h2", {}, t("scoring_title", { round: s.round ?? "" })),
    el("p", { class: "hint" }, t("scoring_hint")),
    commandButton(ctx, t("score_round"), { type: "score_round" }, { primary: true }));
}

/** Shown above the next round's screen until somebody acts: what the last scoring gave. */
export function lastScoring(ctx) {
  const b = lastBreakdown(ctx);
  return b ? el("section", { class: "panel", id: "last-scoring" }, el("h3", {}, t("last_scoring")), breakdownTable(ctx, b)) : null;
}

export function endPanel(ctx) {
  const s = ctx.state;
  const winners = (Array.isArray(s.winner) ? s.winner : [s.winner]).filter(Boolean);
  const standings = asList(s.standings).map((r) => ({ ...r, color: r.color ?? r.player ?? r.id }));
  const tiebreak = s.raw.tie_break ?? s.raw.tiebreak ?? null;
  return el("div", { id: "end-screen" },
    el("h2", {}, t("game_over")),
    el("p", { class: "winner", id: "winner" }, winners.length > 1 ? t("shared_victory") : t("winner_is"), " ",
      winners.map((c, i) => [i ? ", " : "", who(c, s.player(c)?.name)])),
    tiebreak ? el("p", { class: "hint", id: "tie-break" }, typeof tiebreak === "string" ? tiebreak : t(`tiebreak_${tiebreak.rule ?? tiebreak}`)) : null,
    standings.length ? el("table", { class: "data", id: "standings" },
      el("thead", {}, el("tr", {}, el("th", {}, "#"), el("th", {}, t("player")), el("th", { class: "n" }, t("vp")), el("th", { class: "n" }, t("armies_on_board")))),
      el("tbody", {}, standings.map((r, i) => el("tr", { "data-player": r.color },
        el("td", {}, r.rank ?? i + 1), el("td", {}, who(r.color, s.player(r.color)?.name)),
        el("td", { class: "n" }, r.vp ?? s.player(r.color)?.vp ?? "–"), el("td", { class: "n" }, r.armies ?? r.armies_on_board ?? "–"))))) : null,
    lastScoring(ctx),
    el("p", {}, el("a", { class: "btn", href: `/api/games/${ctx.id}/export.json`, download: true }, t("export_game")), " ",
      el("a", { class: "btn", href: "/" }, t("nav_games"))));
}

export { clear, colourName };
