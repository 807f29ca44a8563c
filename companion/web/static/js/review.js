// The game review: step or scrub through every event (the server replays the state at that
// step), every battle with its photos, camera counts, corrections and the odds kept before the
// throw, the turning points, and a VP chart. Read-only: nothing here sends a command.
import { api } from "./api.js";
import { normaliseBoard, regionName } from "./board.js";
import { renderRealms, renderPlayerTable, renderTower } from "./board_view.js";
import { draw, COLOUR_HEX, percent } from "./charts.js";
import { el, clear, who, cubeList, showError } from "./dom.js";
import { t, colourName, list, gameTitle } from "./i18n.js";
import { subscribe } from "./live.js";
import { normaliseState } from "./state.js";
import { describeEvent } from "./words.js";

const $ = (id) => document.getElementById(id);
const gameId = Number($("review").dataset.game);
const ctx = { board: null, review: null, names: new Map() };
let current = 1;
let wanted = 1;
let loading = false;

const nameOf = (c) => ctx.names.get(c) || colourName(c);
const whoIs = (c) => who(c, ctx.names.get(c));

function eventLine(event) {
  const words = describeEvent(event, ctx);
  if (event.type === "undo") return t("undone", { what: describeEvent({ type: event.undone_type, seq: event.undoes }, ctx) });
  return words;
}

/** Ask for the state at `v`; a newer request while one runs replaces it (scrubbing fast). */
async function show(v) {
  const newest = ctx.review.version;
  wanted = Math.min(Math.max(1, v), newest);
  $("step-range").value = String(wanted);
  $("step-label").textContent = t("review_step_of", { n: wanted, total: newest });
  if (loading) return;
  loading = true;
  try {
    while (true) {
      const v2 = wanted;
      const answer = await api(`/api/games/${gameId}/review/state?version=${v2}`);
      if (v2 !== wanted) continue;
      render(answer);
      break;
    }
    showError($("review-error"), null);
  } catch (err) {
    showError($("review-error"), err);
  } finally {
    loading = false;
  }
}

function render(answer) {
  current = answer.version;
  const s = normaliseState(answer.state);
  const item = ctx.review.timeline[current - 1] || {};
  clear($("step-event"), eventLine({ ...answer.event, seq: current }),
    item.undone ? ` (${t("was_undone")})` : "",
    s.round ? ` · ${t("review_round", { n: s.round })}` : "");
  renderRealms($("review-board"), ctx.board, s);
  renderPlayerTable($("review-players"), s);
  renderTower($("review-tower"), s);
  document.body.dataset.version = String(current);
  for (const card of document.querySelectorAll(".battle-card")) {
    card.classList.toggle("current", Number(card.dataset.seq) === current);
  }
}

function photo(url, alt) {
  return url ? el("a", { href: url, target: "_blank", rel: "noopener" },
    el("img", { src: url, alt, loading: "lazy", width: 320, height: 240 })) : null;
}

function outcomeWords(b) {
  if (b.winner === "attacker") return t("review_won_attacker", { who: nameOf(b.attacker) });
  if (b.winner === "defender") return t("review_won_defender", { who: nameOf(b.defender) });
  if (b.winner === "inhabitants") return t("review_won_inhabitants");
  return t("review_tie");
}

function oddsBlock(b) {
  if (!b.odds) return el("p", { class: "muted odds-none" }, t("review_no_odds"));
  return el("p", { class: "odds" },
    t("review_odds_before", { win: percent(b.odds.win), tie: percent(b.odds.tie), lose: percent(b.odds.lose) }),
    " → ", el("b", {}, outcomeWords(b)),
    b.chance_of_result !== null ? ` (${t("review_chance_of_result", { p: percent(b.chance_of_result) })})` : "");
}

function correctionList(b) {
  if (!b.corrections.length) return el("p", { class: "muted" }, b.camera ? t("review_no_corrections") : t("review_counted_by_hand"));
  return el("ul", { class: "corrections" }, b.corrections.map((c) => el("li", {},
    t("review_correction", { colour: colourName(c.color), n: c.to }),
    c.player ? [" · ", whoIs(c.player)] : "",
    " · ", c.device ? t("review_on_device", { device: c.device }) : t("review_device_unknown"))));
}

function missingNote(p) {
  const items = [...p.missing.map((w) => t(`review_photo_${w}`)), ...p.damaged.map((w) => t("review_photo_damaged", { what: t(`review_photo_${w}`) }))];
  return items.length ? el("p", { class: "notice photo-missing" }, t("review_photos_missing", { list: list(items) })) : null;
}

function battleCard(b, upsets) {
  const p = b.photos;
  return el("article", { class: `battle-card${upsets.has(b.seq) ? " upset" : ""}`, id: `battle-${b.seq}`, "data-seq": b.seq },
    el("h3", {}, t("review_round", { n: b.round ?? "–" }), " · ", whoIs(b.attacker), " → ",
      b.defender ? whoIs(b.defender) : t("review_empty_region"), " · ", regionName(ctx.board, b.target),
      b.realm ? ` (${t(`realm_${b.realm}`)})` : "",
      upsets.has(b.seq) ? el("span", { class: "badge upset-badge" }, t("review_upset")) : null),
    el("div", { class: "photos" }, photo(p.photo, t("review_photo_photo")), photo(p.empty, t("review_photo_empty")),
      !p.photo && !p.reading ? el("p", { class: "muted" }, t("review_no_photo")) : null),
    missingNote(p),
    el("dl", { class: "counts" },
      el("dt", {}, t("review_camera_counts")), el("dd", { "data-counts": "camera" }, b.camera ? cubeList(b.camera) : t("review_counted_by_hand")),
      el("dt", {}, t("review_confirmed_counts")), el("dd", { "data-counts": "confirmed" }, cubeList(b.counts))),
    correctionList(b), oddsBlock(b),
    el("button", { type: "button", class: "link", onclick: () => show(b.seq) }, t("review_show_step", { n: b.seq })));
}

function renderBattles(review) {
  const upsets = new Set(review.turning_points.upsets);
  clear($("battles"), review.battles.length ? review.battles.map((b) => battleCard(b, upsets)) : el("p", { class: "muted" }, t("review_no_battles")));
}

function renderTurningPoints(review) {
  const tp = review.turning_points;
  const bySeq = new Map(review.battles.map((b) => [b.seq, b]));
  const items = [];
  for (const seq of tp.upsets) {
    const b = bySeq.get(seq);
    items.push(el("li", { "data-turning": "upset" }, el("a", { href: `#battle-${seq}` },
      t("review_tp_upset", { who: nameOf(b.attacker), region: regionName(ctx.board, b.target), round: b.round ?? "–",
        p: percent(b.chance_of_result), what: outcomeWords(b) }))));
  }
  for (const lc of tp.lead_changes) {
    items.push(el("li", { "data-turning": "lead" }, t("review_tp_lead", { round: lc.round, who: list(lc.to.map(nameOf)), vp: lc.vp })));
  }
  for (const st of tp.tower_stays) {
    items.push(el("li", { "data-turning": "tower" }, t("review_tp_tower", { colour: colourName(st.color), n: st.throws, from: st.from_round, to: st.to_round })));
  }
  clear($("turning-points"), items.length ? [el("ul", {}, items), tp.tower_stays.length ? el("p", { class: "muted" }, t("review_tower_note")) : null]
    : el("p", { class: "muted" }, t("review_no_turning_points")));
}

function renderChart(review) {
  const rounds = review.vp_chart.map((p) => p.round);
  if (!rounds.length) { clear($("vp-table"), el("p", { class: "muted" }, t("review_no_rounds"))); return; }
  draw("vp-chart", {
    type: "line",
    data: { labels: rounds.map((r) => t("review_round", { n: r })),
      datasets: review.players.map((p) => ({ label: p.name || colourName(p.color), data: review.vp_chart.map((pt) => pt.vp[p.color] ?? 0),
        borderColor: COLOUR_HEX[p.color], backgroundColor: COLOUR_HEX[p.color], borderWidth: 3, tension: 0 })) },
    options: { scales: { y: { beginAtZero: true, ticks: { precision: 0 }, title: { display: true, text: t("vp") } } } },
  });
  // The same numbers as a table: colour is never the only cue, and screen readers get them.
  clear($("vp-table"), el("table", { class: "vp-table" },
    el("thead", {}, el("tr", {}, el("th", {}, t("player")), rounds.map((r) => el("th", { scope: "col" }, String(r))))),
    el("tbody", {}, review.players.map((p) => el("tr", { "data-player": p.color }, el("th", { scope: "row" }, whoIs(p.color)),
      review.vp_chart.map((pt) => el("td", {}, String(pt.vp[p.color] ?? 0))))))));
}

function keys(e) {
  if (e.target.closest("input, textarea, select")) return; // the slider moves by itself
  const moves = { ArrowLeft: -1, ArrowRight: 1, ArrowDown: -1, ArrowUp: 1 };
  if (e.key in moves) { e.preventDefault(); show(wanted + moves[e.key]); }
  else if (e.key === "Home") { e.preventDefault(); show(1); }
  else if (e.key === "End") { e.preventDefault(); show(ctx.review.version); }
}

/** A running game moved on: take the new steps in; a reader at the last step follows along. */
async function grow() {
  const atEnd = wanted === ctx.review.version;
  const review = await api(`/api/games/${gameId}/review`);
  take(review);
  if (atEnd) await show(review.version);
}

function take(review) {
  ctx.review = review;
  $("step-range").max = String(review.version);
  renderChart(review);
  renderTurningPoints(review);
  renderBattles(review);
}

async function init() {
  try {
    const review = await api(`/api/games/${gameId}/review`);
    ctx.review = review;
    ctx.board = normaliseBoard(review.board);
    ctx.names = new Map(review.players.map((p) => [p.color, p.name]));
    $("review-title").textContent = t("review_title_of", { title: gameTitle(review) });
    const range = $("step-range");
    range.addEventListener("input", () => show(Number(range.value)));
    $("step-first").addEventListener("click", () => show(1));
    $("step-prev").addEventListener("click", () => show(wanted - 1));
    $("step-next").addEventListener("click", () => show(wanted + 1));
    $("step-last").addEventListener("click", () => show(review.version));
    document.addEventListener("keydown", keys);
    take(review);
    if (review.status !== "finished") subscribe(gameId, { state: (d) => { if (d.version > ctx.review.version) grow().catch(() => {}); } });
    const start = Number(new URLSearchParams(location.search).get("step")) || review.version;
    await show(start);
    document.body.dataset.ready = "yes";
  } catch (err) {
    showError($("review-error"), err);
    document.body.dataset.ready = "error";
  }
}

init();
