// One game of the game night: the live tracker (Amrtaka: VP and the turn counter; Wrath of the
// Immortals: power points and the foil helper) or the result of a score sheet, and for every game
// the details — name, times, notes, photo, BG Stats, undo, delete. Every entry is sent with the
// version it was decided on, so two devices cannot both count against an old screen.
import { api } from "./api.js";
import { subscribe } from "./live.js";
import { el, clear, showError } from "./dom.js";
import { t } from "./i18n.js";
import { resultFields, sheetEvents } from "./tabletop_sheet.js";
import { BASE, fromLocalInput, gameTitle, nameOf, resultLine, scoreChips, toLocalInput,
  uploadPhoto } from "./tabletop_common.js";

const $ = (id) => document.getElementById(id);
const id = Number(document.body.dataset.ttGame);
let game = null;
// The foil form survives a redraw (a tie is re-rolled with the same powers); rolls start empty.
const draft = { actor: {}, foiler: {}, actorKey: null, foilerKey: null };

/** The whole number typed into `input`, or null after saying what is wrong with it (letters,
 *  a fraction, nothing typed): what was typed is never silently dropped. */
function typedWhole(input) {
  const text = input.value.trim();
  const ok = !input.validity.badInput && /^\d+$/.test(text);
  showError($("tt-error"), ok ? null : t("tt_err_whole_number"));
  if (!ok) { input.setAttribute("aria-invalid", "true"); input.focus(); return null; }
  input.removeAttribute("aria-invalid");
  return Number(text);
}

async function send(event) {
  showError($("tt-error"), null);
  try {
    game = await api(`${BASE}/games/${id}/events`, { method: "POST", body: { event, expected_version: game.version } });
  } catch (err) {
    showError($("tt-error"), err);
    if (err.status === 409) game = await api(`${BASE}/games/${id}`);
  }
  render();
}

// -- Amrtaka -----------------------------------------------------------------------------------

function amrtaka() {
  const s = game.state;
  const over = game.status === "finished";
  return el("div", { class: "tt-tracker" },
    el("p", { class: "tt-turn big-number", id: "tt-turn" },
      t("tt_turn_of", { n: Math.min(s.turns + 1, s.turn_limit), limit: s.turn_limit })),
    over ? null : el("p", { id: "tt-current" }, t("tt_whose_turn", { name: nameOf(game, s.current) })),
    el("div", { class: "tt-grid" }, game.players.map((p) => el("section", {
      class: `panel tt-card${p.key === s.current && !over ? " tt-current" : ""}`, "data-player": p.key },
    el("h2", {}, p.winner ? "★ " : "", p.name),
    el("div", { class: "big-number", "data-score": p.key }, String(p.score), el("small", {}, ` / ${s.target} ${t("tt_vp")}`)),
    el("div", { class: "row" },
      s.quick_gains.map((n) => el("button", { type: "button", class: "btn tt-quick", disabled: over,
        "data-gain": n, onclick: () => send({ type: "gain", player: p.key, points: n }) }, `+${n}`)),
      // text, not number: a number field drops letters without a word; here they are named
      el("input", { type: "text", inputmode: "numeric", maxlength: 3, autocomplete: "off", "aria-label": t("tt_other_gain"),
        class: "tt-gain-input", disabled: over, placeholder: "+" }),
      el("button", { type: "button", class: "btn", disabled: over, onclick: (e) => {
        const value = typedWhole(e.target.previousSibling);
        if (value === null) return;
        // VP come as 5- and 15-point tokens: another number is asked about, not refused
        if (value % 5 !== 0 && !confirm(t("tt_confirm_not_fives", { n: value, name: p.name }))) return;
        send({ type: "gain", player: p.key, points: value });
      } }, t("tt_add")))))),
    el("div", { class: "row sticky-actions" },
      el("button", { type: "button", class: "btn primary big", id: "tt-end-turn", disabled: over,
        onclick: () => send({ type: "end_turn" }) }, t("tt_end_turn")),
      el("button", { type: "button", class: "btn", id: "tt-cards-out", disabled: over,
        onclick: () => { if (confirm(t("tt_cards_out_confirm"))) send({ type: "cards_out" }); } }, t("tt_cards_out"))));
}

// -- Wrath of the Immortals --------------------------------------------------------------------

function sideFields(side, who) {
  const field = (key, label) => el("label", { class: "field tt-num" }, label,
    el("input", { type: "number", inputmode: "numeric", min: key === "roll" ? 1 : 0, max: key === "roll" ? 20 : 999,
      "data-side": side, "data-field": key, placeholder: key === "roll" ? "–" : "0",
      value: key === "roll" ? "" : draft[side][key] ?? "" }),
    // said beside the box, not as its placeholder (a narrow box cut it to "app rc")
    key === "roll" ? el("span", { class: "hint" }, t("tt_app_rolls")) : null);
  return el("fieldset", { class: "panel", "data-side": side }, el("legend", {}, who),
    field("immortal", t("tt_immortal_power")), field("resources", t("tt_resources")),
    field("powers", t("tt_power_cards")), field("roll", t("tt_d20")));
}

function readSide(side) {
  const out = {};
  for (const input of document.querySelectorAll(`input[data-side="${side}"]`)) {
    if (input.value !== "") out[input.dataset.field] = Number(input.value);
    else if (input.dataset.field !== "roll") out[input.dataset.field] = 0;
  }
  return out;
}

function wrath() {
  const s = game.state;
  const over = game.status === "finished";
  const options = (sel) => game.players.map((p) => el("option", { value: p.key, selected: p.key === sel }, p.name));
  const last = s.foils[s.foils.length - 1];
  return el("div", { class: "tt-tracker" },
    el("div", { class: "tt-grid" }, game.players.map((p) => el("section", { class: "panel tt-card", "data-player": p.key },
      el("h2", {}, p.winner ? "★ " : "", p.name),
      el("div", { class: "big-number", "data-score": p.key }, String(p.score), el("small", {}, ` / ${s.target}`)),
      el("div", { class: "row" }, [-5, -1, 1, 5].map((d) => el("button", { type: "button", class: "btn", disabled: over,
        "data-delta": d, onclick: () => send({ type: "power", player: p.key, delta: d }) }, d > 0 ? `+${d}` : `−${-d}`)),
      el("input", { type: "text", inputmode: "numeric", maxlength: 3, autocomplete: "off", class: "tt-gain-input", disabled: over,
        "aria-label": t("tt_set_power") }),
      el("button", { type: "button", class: "btn", disabled: over, onclick: (e) => {
        const value = typedWhole(e.target.previousSibling);
        if (value === null) return;
        // 100 power wins at once: a total above it is more likely a typo than a recruit
        if (value > s.target && !confirm(t("tt_confirm_set_high", { n: value, name: p.name, target: s.target }))) return;
        send({ type: "power", player: p.key, set: value });
      } }, t("tt_set")))))),
    el("section", { class: "panel", id: "tt-foil" }, el("h2", {}, t("tt_foil")),
      el("p", { class: "muted" }, t("tt_foil_help")),
      el("div", { class: "row" },
        el("label", { class: "field" }, t("tt_foil_actor"), el("select", { id: "tt-actor" }, options(draft.actorKey ?? game.players[0].key))),
        el("label", { class: "field" }, t("tt_foil_foiler"), el("select", { id: "tt-foiler" }, options(draft.foilerKey ?? game.players[1].key)))),
      el("div", { class: "tt-sides" }, sideFields("actor", t("tt_foil_actor")), sideFields("foiler", t("tt_foil_foiler"))),
      el("button", { type: "button", class: "btn primary", id: "tt-foil-go", disabled: over, onclick: () => {
        Object.assign(draft, { actor: readSide("actor"), foiler: readSide("foiler"),
          actorKey: $("tt-actor").value, foilerKey: $("tt-foiler").value });
        send({ type: "foil", actor: draft.actorKey, foiler: draft.foilerKey, actor_side: draft.actor, foiler_side: draft.foiler });
      } }, t("tt_foil_go")),
      last ? el("p", { id: "tt-foil-result", class: "tt-result", "data-outcome": last.outcome, role: "status" },
        t(`tt_foil_${last.outcome}`, { actor: nameOf(game, last.actor), foiler: nameOf(game, last.foiler),
          a: last.actor_total, f: last.foiler_total })) : null));
}

// -- a finished score sheet --------------------------------------------------------------------

const draftSheet = { game: null, mode: "scores", lowest: false };

/** A score sheet: its result, or — after its result was undone — the fields to enter it again
 *  (Game-O-Gami: the acts not yet on the sheet). */
function sheet() {
  const acts = game.state.acts;
  const done = el("div", {}, scoreChips(game),
    acts ? acts.map((a) => el("p", { "data-act-result": a.act }, t(`tt_act_${a.act}`), ": ",
      a.winners.length ? a.winners.map((k) => nameOf(game, k)).join(", ") : t("tt_nobody_won"),
      ` (${t(`tt_by_${a.decided_by}`)})`)) : null);
  if (game.status === "finished") return done;
  draftSheet.game = game.game;
  const from = (acts?.length ?? 0) + 1;
  const host = el("div", { id: "tt-sheet" }, resultFields(draftSheet, game.players, render));
  for (const fs of host.querySelectorAll("fieldset[data-act]")) if (Number(fs.dataset.act) < from) fs.remove();
  return el("div", {}, done, host, el("button", { type: "button", class: "btn primary", id: "tt-sheet-save", onclick: async () => {
    for (const event of sheetEvents(draftSheet, host, from)) {
      await send(event);
      if (!$("tt-error").hidden) return;
    }
  } }, t("tt_save_game")));
}

// -- details -----------------------------------------------------------------------------------

function details() {
  const finished = game.status === "finished";
  return el("section", { class: "panel", id: "tt-details" }, el("h2", {}, t("tt_details")),
    game.game === "generic" ? el("label", { class: "field" }, t("tt_game_name"), el("input", { id: "tt-edit-name", value: game.name, maxlength: 100 })) : null,
    el("div", { class: "row" },
      el("label", { class: "field" }, t("tt_started"), el("input", { type: "datetime-local", id: "tt-edit-start", value: toLocalInput(game.started_at) })),
      finished ? el("label", { class: "field" }, t("tt_ended"), el("input", { type: "datetime-local", id: "tt-edit-end", value: toLocalInput(game.ended_at) })) : null),
    el("label", { class: "field" }, t("tt_notes"), el("textarea", { id: "tt-edit-notes", rows: 2, maxlength: 2000 }, game.notes)),
    el("button", { type: "button", class: "btn", id: "tt-save", onclick: saveDetails }, t("tt_save")),
    el("div", { class: "row" },
      game.photo ? el("img", { class: "tt-photo", alt: t("tt_photo"), src: `${BASE}/games/${id}/photo?v=${encodeURIComponent(game.updated_at)}` }) : null,
      el("label", { class: "field" }, t("tt_photo"), el("input", { type: "file", id: "tt-photo", accept: "image/jpeg,image/png", capture: "environment",
        onchange: async (e) => {
          try { game = await uploadPhoto(id, e.target.files[0]); render(); } catch (err) { showError($("tt-error"), err); }
        } }))),
    el("div", { class: "row" },
      el("button", { type: "button", class: "btn", id: "tt-undo", disabled: !game.version, onclick: () => send({ type: "undo" }) }, t("tt_undo")),
      finished ? el("button", { type: "button", class: "btn", id: "tt-bgstats", onclick: bgStats }, t("tt_bgstats")) : null,
      el("button", { type: "button", class: "btn danger", id: "tt-delete", onclick: remove }, t("tt_delete"))));
}

async function saveDetails() {
  const changes = { notes: $("tt-edit-notes").value, started_at: fromLocalInput($("tt-edit-start").value) };
  if ($("tt-edit-end")) changes.ended_at = fromLocalInput($("tt-edit-end").value);
  if ($("tt-edit-name")) changes.name = $("tt-edit-name").value;
  try {
    game = { ...game, ...(await api(`${BASE}/games/${id}`, { method: "PATCH", body: changes })) };
    render();
    document.body.dataset.ttSavedAt = game.updated_at;
  } catch (err) { showError($("tt-error"), err); }
}

async function bgStats() {
  try { window.open((await api(`${BASE}/games/${id}/bgstats`)).url, "_blank", "noopener"); } catch (err) { showError($("tt-error"), err); }
}

async function remove() {
  if (!confirm(t("tt_delete_confirm"))) return;
  try {
    await api(`${BASE}/games/${id}`, { method: "DELETE" });
    location.href = `/night?night=${game.night}`;
  } catch (err) { showError($("tt-error"), err); }
}

function render() {
  document.title = gameTitle(game);
  $("tt-title").textContent = gameTitle(game);
  $("tt-status").textContent = resultLine(game);
  $("tt-status").dataset.status = game.status;
  const body = game.game === "amrtaka" ? amrtaka() : game.game === "wrath_of_the_immortals" ? wrath() : sheet();
  clear($("tt-body"), body, details());
  document.body.dataset.version = String(game.version);
}

/** Another device's entries: the live stream says when a game of the evening changed; the page
 *  then reads this game again (and after a dropped stream), redrawing only when it moved on —
 *  typed numbers are kept unless something changed. */
async function refresh() {
  if (!game) return;
  try {
    const now = await api(`${BASE}/games/${id}`);
    if (now.version !== game.version) { game = now; render(); }
  } catch { /* offline for a moment: the next poll or entry tells */ }
}

async function load() {
  try {
    game = await api(`${BASE}/games/${id}`);
    render();
    document.body.dataset.ttReady = "yes";
    subscribe(null, { tabletop: (news) => { if (news.id === id || news.id === null) refresh(); }, opened: refresh, reconnected: refresh });
  } catch (err) { showError($("tt-error"), err); }
}
load();
