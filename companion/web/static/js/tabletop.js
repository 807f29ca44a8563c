// The game-night page: the evening's games (every kind), and "log a game" — a picker of the
// built-in games and any other game. Score sheets (Game-O-Gami, any game) are logged with their
// result in one go; live trackers (Amrtaka, Wrath) start here and are played on their own page.
import { api } from "./api.js";
import { subscribe } from "./live.js";
import { el, clear, showError } from "./dom.js";
import { t, gameTitle as immortalsTitle } from "./i18n.js";
import { resultFields, sheetEvents } from "./tabletop_sheet.js";
import { BASE, catalogue, dayName, fromLocalInput, gameTitle, nightOf, resultLine, scoreChips,
  toLocalInput, uploadPhoto, when } from "./tabletop_common.js";

const $ = (id) => document.getElementById(id);
let games = [];          // the catalogue
let people = [];         // the roster
let night = new URLSearchParams(location.search).get("night") || nightOf();
// `game`, `mode` and `lowest` are also the score sheet's settings (tabletop_sheet.js).
const form = { game: null, players: [], name: "", teams: false, lowest: false, mode: "scores" };

// -- the evening's games ---------------------------------------------------------------------

/** The Immortals games of the evening (from the main log), shown beside the others. */
function immortalsCards(all, shown) {
  return all.filter((g) => nightOf(new Date(g.created_at)) === shown).map((g) => el("li", { "data-immortals-game": g.id },
    el("a", { class: "resume", href: `/games/${g.id}` },
      el("h2", {}, t("tt_immortals"), ` – ${immortalsTitle(g)}`),
      el("div", { class: "row tt-scores" }, (g.players || []).map((p) => el("span", { class: "chip" },
        typeof p === "string" ? t(`color_${p}`) : p.name || t(`color_${p.color}`)))),
      el("div", { class: "muted" }, when(g.created_at))),
    el("a", { class: "btn", href: `/games/${g.id}` }, g.status === "finished" ? t("view") : t("resume"))));
}

// Loads overlap (a game just logged, another tablet's event): only the latest may paint, and it
// paints the evening it asked for, so an older answer never shows one evening under another's title.
let nightLoads = 0;

async function loadNight() {
  const ticket = ++nightLoads;
  const shown = night;
  const [list, nights, immortals] = await Promise.all([api(`${BASE}/games?night=${shown}`), api(`${BASE}/nights`),
    api("/api/games").catch(() => [])]);
  document.body.dataset.nightAnswers = String(Number(document.body.dataset.nightAnswers || 0) + 1);
  if (ticket !== nightLoads) return;
  const known = [...new Set([...nights.map((n) => n.night), ...immortals.map((g) => nightOf(new Date(g.created_at)))])]
    .sort().reverse();
  if (!known.includes(shown)) known.unshift(shown);
  clear($("nights"), known.slice(0, 8).map((n) => el("button", {
    type: "button", class: "btn", "aria-pressed": n === shown ? "true" : "false", "data-night": n,
    onclick: () => { night = n; history.replaceState(null, "", `?night=${n}`); loadNight(); } }, dayName(n))));
  $("night-title").textContent = dayName(shown);
  const others = immortalsCards(immortals, shown);
  $("night-empty").hidden = list.length + others.length > 0;
  clear($("night-games"), others, list.map((g) => el("li", { "data-tt-game": g.id, "data-status": g.status },
    el("a", { class: "resume", href: `/night/games/${g.id}` },
      el("h2", {}, gameTitle(g)),
      scoreChips(g),
      el("div", { class: "tt-result" }, resultLine(g)),
      el("div", { class: "muted" }, `${when(g.started_at)}–${g.ended_at ? when(g.ended_at) : ""}`,
        g.minutes !== null ? ` · ${t("tt_minutes", { n: g.minutes })}` : "")),
    el("a", { class: "btn", href: `/night/games/${g.id}` }, g.status === "live" ? t("resume") : t("view")))));
}

// -- log a game ------------------------------------------------------------------------------

const spec = () => games.find((g) => g.key === form.game);

function pickGame(key) {
  form.game = key;
  const s = spec();
  while (form.players.length < s.min_players) form.players.push({ name: "", person_id: null });
  form.players = form.players.slice(0, s.max_players);
  renderForm();
}

function playerRow(p, i) {
  const s = spec();
  const roster = people.length ? el("select", { "data-field": "person", "aria-label": t("roster_pick"),
    onchange: (e) => {
      const person = people.find((x) => String(x.id) === e.target.value);
      p.person_id = person ? person.id : null;
      if (person) p.name = person.name;
      renderForm();
    } },
  el("option", { value: "" }, t("roster_none")),
  people.map((x) => el("option", { value: x.id, selected: p.person_id === x.id }, x.name))) : null;
  return el("li", { class: "tt-player", "data-player": `p${i + 1}` },
    el("label", { class: "field" }, t("tt_player_n", { n: i + 1 }),
      el("input", { "data-field": "name", value: p.name, maxlength: 60, autocomplete: "off",
        oninput: (e) => {
          p.name = e.target.value;
          p.person_id = null;
          // the result rows below name this player as typed (no redraw: the cursor stays)
          for (const b of document.querySelectorAll(`[data-name-of="p${i + 1}"]`)) b.textContent = p.name.trim() || t("tt_player_n", { n: i + 1 });
        } })),
    roster,
    form.players.length > s.min_players ? el("button", { type: "button", class: "btn", "aria-label": t("tt_remove_player"),
      onclick: () => { form.players.splice(i, 1); renderForm(); } }, "✕") : null);
}

function renderForm() {
  const s = spec();
  clear($("tt-picker"), games.map((g) => el("button", {
    type: "button", class: "btn", "data-game": g.key, "aria-pressed": form.game === g.key ? "true" : "false",
    onclick: () => pickGame(g.key) }, t(`tt_game_${g.key}`))));
  if (!s) { clear($("tt-form")); return; }
  clear($("tt-form"),
    el("p", { class: "muted" }, t(`tt_about_${s.key}`)),
    s.key === "generic" ? el("label", { class: "field" }, t("tt_game_name"),
      el("input", { id: "tt-name", value: form.name, maxlength: 100, required: true,
        oninput: (e) => { form.name = e.target.value; } })) : null,
    el("ol", { class: "tt-players" }, form.players.map(playerRow)),
    form.players.length < s.max_players ? el("button", { type: "button", class: "btn", id: "tt-add-player",
      onclick: () => { form.players.push({ name: "", person_id: null }); renderForm(); } }, t("add_player")) : null,
    s.key === "immortal_gameogami" && form.players.length === 4 ? el("label", { class: "field inline" },
      el("input", { type: "checkbox", id: "tt-teams", checked: form.teams,
        onchange: (e) => { form.teams = e.target.checked; } }), t("tt_team_battle")) : null,
    resultFields(form, form.players.map((p, i) => ({ key: `p${i + 1}`, name: p.name })), renderForm),
    el("div", { class: "row" },
      el("label", { class: "field" }, t("tt_started"), el("input", { type: "datetime-local", id: "tt-start", value: toLocalInput() })),
      s.live ? null : el("label", { class: "field" }, t("tt_ended"), el("input", { type: "datetime-local", id: "tt-end", value: toLocalInput() }))),
    s.live ? null : el("label", { class: "field" }, t("tt_notes"), el("textarea", { id: "tt-notes", rows: 2, maxlength: 2000 })),
    s.live ? null : el("label", { class: "field" }, t("tt_photo"),
      el("input", { type: "file", id: "tt-photo", accept: "image/jpeg,image/png", capture: "environment" })),
    el("div", { id: "tt-form-error", class: "error", hidden: true, role: "alert" }),
    el("button", { type: "button", class: "btn primary big", id: "tt-submit", onclick: submit },
      s.live ? t("tt_start_tracker") : t("tt_save_game")));
}

async function submit() {
  const s = spec();
  const body = {
    game: s.key,
    players: form.players.map((p) => (p.person_id ? { person_id: p.person_id, name: p.name || undefined } : { name: p.name.trim() })),
    started_at: fromLocalInput($("tt-start").value) || undefined,
    events: sheetEvents(form, $("tt-form")),
  };
  if (s.key === "generic") body.name = form.name.trim();
  if (form.teams && s.key === "immortal_gameogami" && form.players.length === 4) body.options = { teams: [["p1", "p3"], ["p2", "p4"]] };
  if (!s.live) {
    body.ended_at = fromLocalInput($("tt-end").value) || undefined;
    body.notes = $("tt-notes").value || undefined;
  }
  const error = $("tt-form-error");
  showError(error, null);
  // Logged afterwards with both times left at "now": the game would last 0 minutes.
  if (!s.live && body.ended_at && body.started_at && $("tt-start").value === $("tt-end").value) {
    showError(error, t("tt_err_same_times"));
    $("tt-start").setAttribute("aria-invalid", "true");
    $("tt-start").focus();
    return;
  }
  $("tt-start").removeAttribute("aria-invalid");
  try {
    const game = await api(`${BASE}/games`, { method: "POST", body });
    const file = $("tt-photo")?.files?.[0];
    if (file) await uploadPhoto(game.id, file).catch((err) => showError(error, err));
    if (s.live) { location.href = `/night/games/${game.id}`; return; }
    form.game = null;
    form.players = [];
    form.name = "";
    renderForm();
    night = game.night;
    await loadNight();
    document.body.dataset.ttSaved = String(game.id);
  } catch (err) { showError(error, err); }
}

async function load() {
  try {
    [games, people] = await Promise.all([catalogue(), api("/api/people").catch(() => [])]);
    renderForm();
    await loadNight();
    document.body.dataset.nightReady = "yes";
    // Another tablet logged, changed or deleted a game: read the evening again.
    const again = () => loadNight().catch(() => {});
    subscribe(null, { tabletop: again, opened: again, reconnected: again });
  } catch (err) { showError($("night-error"), err); }
}
load();
