// The statistics page's group sections: the tower (model + fairness), odds calibration, people,
// one game (VP per round, luck, BG Stats), tribes, exports. Data from /api/stats/*; charts with
// the vendored Chart.js (charts.js). "Not enough data yet" wherever the API says so.
import { api } from "./api.js";
import { COLOURS } from "./board.js";
import { COLOUR_HEX, draw, rateText, ringFor } from "./charts.js";
import { el, clear, who, showError } from "./dom.js";
import { t, plural, colourName, gameTitle, num as formatNumber } from "./i18n.js";
import { renderRoster } from "./roster.js";

const ALL = [...COLOURS, "green"];
const notEnough = (extra) => el("p", { class: "muted not-enough" }, t("stat_not_enough"), extra ? ` ${extra}` : "");
const num = (v, digits = 2) => formatNumber(v, digits);
const canvas = (id, label) => el("div", { class: "chart-box" }, el("canvas", { id, role: "img", "aria-label": label }));

// Every bias comes with its range (at the verdict's level), never a point figure alone.
function range(v) {
  const low = Math.round(Math.abs(v.bias_low) * 100), high = Math.round(Math.abs(v.bias_high) * 100);
  if (v.bias_low >= 0) return t("fair_between_more", { low, high });
  if (v.bias_high <= 0) return t("fair_between_less", { low: high, high: low });
  return t("fair_between_across", { low, high });
}

function sentence(v) {
  if (v.verdict === "not_enough_data") return t("fair_not_enough", { n: v.throws, min: 30 });
  const p = v.p_adjusted < 0.001 ? `p < ${formatNumber(0.001, 3)}` : `p = ${formatNumber(v.p_adjusted, 3, 3)}`;
  const args = { colour: colourName(v.colour), n: v.throws, p, range: v.bias_low === null ? "–" : range(v) };
  if (v.verdict === "no_sign") {
    if (v.detectable_bias !== null && v.detectable_bias <= 0.1) return t("fair_no_sign_small", { ...args, bias: Math.round(v.detectable_bias * 100) });
    if (v.nights_for_reference === 1) return t("fair_no_sign_night", args);
    if (v.nights_for_reference !== null) return t("fair_no_sign_nights", { ...args, nights: v.nights_for_reference });
    return t("fair_no_sign", { ...args, more: v.throws_for_reference ?? "–" });
  }
  return t(`fair_${v.verdict}`, args);
}

// Does the model fit this tower? The goodness-of-fit check and what it means for the figures.
function modelCheck(c) {
  if (!c) return "";
  const box = el("div", { id: "model-check", "data-fits": c.fits === null ? "" : String(c.fits) },
    el("h3", {}, t("model_check_title")), el("p", { class: "hint" }, t("model_check_hint")));
  if (!c.enough_data) { box.append(el("p", { class: "muted not-enough" }, t("model_not_enough", { n: c.throws, min: c.min_throws }))); return box; }
  const p = c.p_value < 0.001 ? `p < ${formatNumber(0.001, 3)}` : `p = ${formatNumber(c.p_value, 3, 3)}`;
  if (c.fits) { box.append(el("p", {}, t("model_fits", { p, n: c.throws }))); return box; }
  const pc = (x) => Math.round(x * 100);
  let text = t("model_misfit", { p, n: c.throws, empty: pc(c.land_empty), filled: pc(c.land_filled), fill: c.reference_fill });
  if (c.release_small !== null) text += ` ${t("model_misfit_release", { small: pc(c.release_small), big: pc(c.release_big) })}`;
  box.append(el("p", { class: "warn" }, text), el("p", {}, t("model_misfit_means")));
  return box;
}

export async function renderTower(host) {
  const r = await api("/api/stats/tower");
  const m = r.model;
  if (!r.enough_data) { clear(host, notEnough(t("stat_tower_needs"))); return; }
  const colours = ALL.filter((c) => m.colours[c]);
  const iv = rateText;
  const fair = r.fairness.colours;
  clear(host,
    el("p", { id: "tower-basis" }, plural("stat_tower_basis", m.battles, { throws: m.throws })),
    el("p", { class: "hint" }, t("stat_tower_hint")),
    canvas("chart-fairness", t("stat_chart_fairness")),
    el("div", { class: "table-scroll", tabindex: 0 }, el("table", { class: "data", id: "tower-table" },
      el("thead", {}, el("tr", {}, el("th", {}), el("th", {}, t("stat_land")), el("th", {}, t("stat_release")),
        el("th", { class: "n" }, t("stat_throws")), el("th", {}, t("stat_fairness")))),
      el("tbody", {}, colours.map((c) => el("tr", { "data-row": c },
        el("td", {}, who(c)), el("td", {}, iv(m.colours[c].land)), el("td", {}, iv(m.colours[c].release)),
        el("td", { class: "n" }, String(m.colours[c].throws)),
        el("td", { "data-fair": fair[c]?.verdict || "" }, fair[c] ? sentence(fair[c]) : "–")))))),
    el("p", { class: "hint", id: "fair-level" }, t("fair_interval_note", { level: formatNumber((r.fairness.interval_level ?? 0.95) * 100, 1) })),
    modelCheck(r.fairness.model_check));
  const land = colours.map((c) => m.colours[c].land);
  draw("chart-fairness", {
    type: "bar",
    data: {
      labels: colours.map(colourName),
      datasets: [
        { type: "bar", label: t("stat_interval"), data: land.map((x) => (x ? [x.low * 100, x.high * 100] : null)),
          backgroundColor: colours.map((c) => `${COLOUR_HEX[c]}66`), borderColor: colours.map((c) => COLOUR_HEX[c]), borderWidth: 1,
          order: 2 }, // drawn first: Chart.js puts a lower order on top
        { type: "line", label: t("stat_land"), data: land.map((x) => (x ? x.estimate * 100 : null)), showLine: false,
          // The point sits on its own colour's bar: drawn above it (the see-through bar used to cover
          // it), with a ring chosen from that colour's lightness (black on black was not seen); not
          // clipped, so a point at 100 % is a whole disc.
          pointRadius: 6, pointBorderWidth: 3, pointBackgroundColor: colours.map((c) => COLOUR_HEX[c]),
          pointBorderColor: colours.map((c) => ringFor(COLOUR_HEX[c])), borderColor: "#000", clip: false, order: 0 },
        { type: "line", label: t("stat_all_colours"), data: colours.map(() => (m.pooled?.land?.estimate ?? 0) * 100),
          pointRadius: 0, borderDash: [6, 4], borderColor: "#666", order: 1 },
      ],
    },
    options: { scales: { y: { min: 0, max: 100, title: { display: true, text: t("stat_land_axis") } } } },
  });
}

export async function renderOdds(host, settings, onSettings) {
  const r = await api("/api/stats/odds");
  const toggle = el("label", { class: "field inline" },
    el("input", { type: "checkbox", id: "odds-enabled", checked: settings.odds, onchange: async (e) => {
      await onSettings({ odds: e.target.checked });
    } }), " ", t("stat_odds_setting"));
  const parts = [toggle, el("p", { class: "hint" }, t("stat_odds_hint"))];
  if (!r.enough_data) parts.push(notEnough(t("stat_odds_needs")));
  else {
    parts.push(el("p", { id: "odds-basis" }, plural("stat_odds_basis", r.battles)), canvas("chart-calibration", t("stat_chart_calibration")));
  }
  clear(host, parts);
  if (!r.enough_data) return;
  draw("chart-calibration", {
    type: "scatter",
    data: { datasets: [
      { label: t("stat_calibration_bins"), data: r.calibration.map((b) => ({ x: b.predicted * 100, y: b.won * 100, n: b.battles, low: b.low, high: b.high })),
        pointRadius: r.calibration.map((b) => Math.min(14, 3 + Math.sqrt(b.battles))), backgroundColor: "#1e63c4aa" },
      { label: t("stat_calibration_ideal"), data: [{ x: 0, y: 0 }, { x: 100, y: 100 }], type: "line", borderColor: "#888", borderDash: [6, 4], pointRadius: 0 },
    ] },
    options: {
      scales: { x: { min: 0, max: 100, title: { display: true, text: t("stat_predicted") } }, y: { min: 0, max: 100, title: { display: true, text: t("stat_observed") } } },
      plugins: { tooltip: { callbacks: { label: (c) => (c.raw.n ? plural("stat_calibration_tip", c.raw.n, { p: Math.round(c.raw.x), w: Math.round(c.raw.y), lo: Math.round(c.raw.low * 100), hi: Math.round(c.raw.high * 100) }) : "") } } },
    },
  });
}

export async function renderPeople(host, onChange) {
  const r = await api("/api/stats/people");
  const rosterHost = el("div", { id: "roster" });
  const h2hHost = el("div", { id: "head-to-head" });
  const withGames = r.people.filter((p) => p.games);
  const tribes = (p) => ["light", "dark"].map((realm) => p.favourite_tribes[realm].map((x) => `${x.tribe} (${x.games})`).join(", ")).filter(Boolean).join(" · ") || "–";
  const pick = el("select", { id: "h2h-person", onchange: () => showH2H(Number(pick.value)) },
    withGames.map((p) => el("option", { value: p.id }, p.name)));
  function showH2H(id) {
    const p = r.people.find((x) => x.id === id);
    if (!p || !p.head_to_head.length) { clear(h2hHost, notEnough()); return; }
    clear(h2hHost, el("table", { class: "data" },
      el("thead", {}, el("tr", {}, el("th", {}), el("th", { class: "n" }, t("stat_ahead")), el("th", { class: "n" }, t("stat_level")), el("th", { class: "n" }, t("stat_behind")))),
      el("tbody", {}, p.head_to_head.map((h) => el("tr", {}, el("td", {}, h.name), el("td", { class: "n" }, String(h.ahead)), el("td", { class: "n" }, String(h.level)), el("td", { class: "n" }, String(h.behind)))))));
  }
  clear(host,
    rosterHost,
    r.people.length ? el("div", { class: "table-scroll", tabindex: 0 }, el("table", { class: "data", id: "people-table" },
      el("thead", {}, el("tr", {}, ["", "stat_games", "stat_wins", "stat_average_vp", "stat_luck", "stat_favourite_tribes"].map((k) => el("th", {}, k ? t(k) : "")))),
      el("tbody", {}, r.people.map((p) => el("tr", { "data-person": p.id },
        el("td", {}, p.name), el("td", { class: "n" }, String(p.games)), el("td", { class: "n" }, num(p.wins)),
        el("td", { class: "n" }, num(p.average_vp)), el("td", { class: "n", "data-luck": p.luck ?? "" }, p.luck === null ? "–" : (p.luck > 0 ? "+" : "") + num(p.luck)),
        el("td", {}, tribes(p)))))))
      : null,
    r.enough_data ? el("div", {}, el("h3", {}, t("stat_head_to_head")), pick, h2hHost) : notEnough(t("stat_people_needs")),
    withGames.length ? canvas("chart-people", t("stat_chart_people")) : null);
  if (withGames.length) showH2H(withGames[0].id);
  if (withGames.length) {
    draw("chart-people", {
      type: "bar",
      data: { labels: withGames.map((p) => p.name), datasets: [
        { label: t("stat_win_rate"), data: withGames.map((p) => (p.win_rate === null ? null : p.win_rate * 100)), backgroundColor: "#1e63c499", yAxisID: "y" },
        { label: t("stat_luck"), data: withGames.map((p) => p.luck), backgroundColor: "#f2c20099", yAxisID: "luck" },
      ] },
      options: { scales: { y: { min: 0, max: 100, position: "left", title: { display: true, text: t("stat_win_rate") } },
        luck: { position: "right", grid: { drawOnChartArea: false }, title: { display: true, text: t("stat_luck_axis") } } } },
    });
  }
  await renderRoster(rosterHost, onChange);
}

export async function renderGame(host, games, settings) {
  if (!games.length) { clear(host, notEnough()); return; }
  const select = el("select", { id: "game-pick", "aria-labelledby": "game-h", onchange: () => show(Number(select.value)) },
    games.slice(0, 300).map((g) => el("option", { value: g.id }, `${g.id}: ${gameTitle(g)}`))); // the latest 300
  const body = el("div", { id: "game-stats" });
  clear(host, select, body);
  async function show(id) {
    try {
      const [r, seats, roster, bg] = await Promise.all([api(`/api/stats/games/${id}`), api(`/api/games/${id}/people`),
        api("/api/people"), api(`/api/games/${id}/bgstats`)]);
      const link = async (colour, value) => {
        await api(`/api/games/${id}/people`, { method: "PUT", body: { people: { [colour]: value ? Number(value) : null } } });
        show(id);
      };
      clear(body,
        r.enough_data ? canvas("chart-vp", t("stat_chart_vp")) : notEnough(t("stat_vp_needs")),
        el("table", { class: "data", id: "game-players" },
          el("thead", {}, el("tr", {}, el("th", {}), el("th", {}, t("roster_person")), el("th", { class: "n" }, "VP"), el("th", { class: "n" }, t("stat_luck")))),
          el("tbody", {}, r.players.map((p) => el("tr", { "data-row": p.color },
            el("td", {}, who(p.color, p.name)),
            el("td", {}, el("select", { "data-link": p.color, "aria-label": t("roster_person"), onchange: (e) => link(p.color, e.target.value) },
              el("option", { value: "" }, t("roster_none")),
              roster.map((q) => el("option", { value: q.id, selected: seats.seats.find((s) => s.color === p.color)?.person?.id === q.id }, q.name)))),
            el("td", { class: "n" }, num(p.vp)),
            el("td", { class: "n" }, p.luck.luck === null ? "–" : `${p.luck.luck > 0 ? "+" : ""}${num(p.luck.luck)} (${p.luck.won}/${num(p.luck.expected)})`))))),
        el("p", { class: "row" },
          el("a", { class: "btn", id: "bgstats-link", href: bg.url, target: "_blank", rel: "noopener" }, t("stat_bgstats")),
          settings.bgg_id ? null : el("span", { class: "hint" }, t("stat_bgstats_no_id"))));
      if (!r.enough_data) return;
      draw("chart-vp", {
        type: "line",
        data: { labels: r.rounds.map((x) => `${t("round")} ${x.round}`), datasets: r.players.map((p) => ({
          label: p.name || colourName(p.color), data: r.rounds.map((x) => x.vp[p.color] ?? null),
          borderColor: COLOUR_HEX[p.color], backgroundColor: COLOUR_HEX[p.color], tension: 0.2 })) },
        options: { scales: { y: { beginAtZero: true, title: { display: true, text: t("vp_axis") } } } },
      });
    } catch (err) { clear(body, el("p", { class: "error" }, err.message)); }
  }
  show(games[0].id);
}

export function renderTribes(host, stats, names) {
  const fin = stats.finished || {};
  const rows = ["light", "dark"].flatMap((realm) => Object.entries((fin.tribes || {})[realm] || {}).map(([id, x]) => ({ realm, id, ...x })));
  if (!rows.length) { clear(host, notEnough(t("stat_tribes_needs"))); return; }
  clear(host, canvas("chart-tribes", t("stat_chart_tribes")));
  draw("chart-tribes", {
    type: "bar",
    data: { labels: rows.map((r) => `${names.get(r.id) ?? r.id} (${r.wins}/${r.games})`),
      datasets: [{ label: t("stat_win_rate"), data: rows.map((r) => (r.games ? (100 * r.wins) / r.games : null)),
        backgroundColor: rows.map((r) => (r.realm === "light" ? "#f2c20099" : "#7b3fa899")) }] },
    options: { indexAxis: "y", scales: { x: { min: 0, max: 100, title: { display: true, text: t("stat_win_rate") } } } },
  });
}

export function renderExports(host, settings, onSettings) {
  const bgg = el("input", { id: "bgg-id", inputmode: "numeric", value: settings.bgg_id ?? "", size: 10 });
  const error = el("div", { class: "error", hidden: true, role: "alert" });
  clear(host,
    el("p", { class: "row" }, ["games", "seats", "rounds", "battles"].map((n) =>
      el("a", { class: "btn", href: `/api/export/${n}.csv`, download: "" }, `${n}.csv`)),
      el("a", { class: "btn", href: "/api/export/all.json", download: "" }, "all.json")),
    el("form", { class: "row", onsubmit: async (e) => {
      e.preventDefault();
      try { await onSettings({ bgg_id: bgg.value.trim() ? Number(bgg.value) : null }); showError(error, null); }
      catch (err) { showError(error, err); }
    } }, el("label", { class: "field inline" }, t("stat_bgg_id"), " ", bgg), el("button", { type: "submit", class: "btn" }, t("save"))),
    el("p", { class: "hint" }, t("stat_bgg_hint")), error);
}
