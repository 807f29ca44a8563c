// The scoring screen (each player's breakdown) and the end screen (winner and tie-break).
import { el, who } from "./dom.js";
import { confirmButton } from "./forms.js";
import { t } from "./i18n.js";

const label = (key) => t(`score_${key}`);

/** Each player's breakdown of one scored round: {round, order, players: {colour: breakdown}}. */
export function breakdownTable(ctx, score) {
  const rows = (score.order || Object.keys(score.players || {})).map((c) => [c, score.players?.[c] || {}]);
  if (!rows.length) return el("p", { class: "muted" }, t("no_breakdown"));
  const areaVp = (b) => (b.areas || []).reduce((a, x) => a + (x.vp || 0), 0);
  const cols = [["regions", (b) => b.regions], ["region_vp", (b) => b.region_vp], ["shrines", (b) => b.shrines],
    ["capitals", (b) => b.capitals], ["area_vp", areaVp], ["total", (b) => b.total]];
  // The same warning usually concerns everyone (e.g. areas not entered): say it once.
  const warnings = [...new Set(rows.flatMap(([, b]) => b.warnings || []))];
  // Wide: a table. Narrow (a phone, the side panel): each player's row is a card of
  // "label value" pairs (app.css, a container query on .score-wrap) — every column is seen
  // without sideways scrolling. The roles keep it a table for screen readers either way.
  return el("div", { class: "score-wrap" },
    el("table", { class: "data score-table", "data-round": score.round, role: "table" },
      el("thead", {}, el("tr", { role: "row" }, el("th", { role: "columnheader" }, t("player")),
        cols.map(([k]) => el("th", { class: "n", role: "columnheader" }, label(k))),
        el("th", { class: "n", role: "columnheader" }, t("score_vp")))),
      el("tbody", {}, rows.map(([c, b]) => el("tr", { "data-player": c, role: "row" },
        el("td", { role: "cell" }, who(c, ctx.state.player(c)?.name)),
        cols.map(([k, f]) => el("td", { class: "n", "data-col": k, "data-label": label(k), role: "cell" }, f(b) ?? "–")),
        el("td", { class: "n", "data-col": "vp", "data-label": t("score_vp"), role: "cell" }, ctx.state.player(c)?.vp ?? "–"))))),
    warnings.length ? el("ul", { class: "hint" }, warnings.map((w) => el("li", {}, w))) : null);
}

export function scoringPanel(ctx) {
  const s = ctx.state;
  return el("div", { id: "scoring" },
    el("h2", {}, t("scoring_title", { round: s.round ?? "" })),
    el("p", { class: "hint" }, t("scoring_hint")),
    confirmButton(ctx, t("score_round"), { type: "score_round" }, { yes: t("confirm_score_round"),
      question: () => [t("confirm_scoring", { round: s.round ?? "" }), t("confirm_undo_hint")] }));
}

/** The last scoring, shown at the start of the next round and on the end screen. */
export function lastScoring(ctx) {
  const score = ctx.state.lastScore;
  return score ? el("section", { class: "panel", id: "last-scoring" },
    el("h3", {}, t("scoring_of_round", { round: score.round })), breakdownTable(ctx, score)) : null;
}

function tieBreak(s) {
  if (s.shared || s.winners.length > 1) return t("tiebreak_shared");
  const [first, second] = s.standings;
  if (first && second && first.vp === second.vp) return t("tiebreak_armies");
  return t("tiebreak_vp");
}

export function endPanel(ctx) {
  const s = ctx.state;
  return el("div", { id: "end-screen" },
    el("h2", {}, t("game_over")),
    el("p", { class: "winner", id: "winner" }, s.winners.length > 1 ? t("shared_victory") : t("winner_is"), " ",
      s.winners.map((c, i) => [i ? ", " : "", who(c, s.player(c)?.name)])),
    el("p", { class: "hint", id: "tie-break" }, tieBreak(s)),
    el("div", { class: "table-scroll", tabindex: 0 }, el("table", { class: "data", id: "standings" },
      el("thead", {}, el("tr", {}, el("th", {}, "#"), el("th", {}, t("player")), el("th", { class: "n" }, t("vp")), el("th", { class: "n" }, t("armies_on_board")))),
      el("tbody", {}, s.standings.map((r, i) => el("tr", { "data-player": r.color },
        el("td", {}, r.rank ?? i + 1), el("td", {}, who(r.color, s.player(r.color)?.name)),
        el("td", { class: "n" }, r.vp ?? "–"), el("td", { class: "n" }, r.armies ?? "–")))))),
    lastScoring(ctx),
    el("p", { class: "row" }, el("a", { class: "btn", href: `/api/games/${ctx.id}/export.json`, download: true }, t("export_game")),
      el("a", { class: "btn", href: "/" }, t("nav_games"))));
}
