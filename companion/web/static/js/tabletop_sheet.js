// The result fields of a score sheet — Immortal (Game-O-Gami): control tokens (and card levels)
// per player per act; any other game: scores, places or winners — and the entries they make.
// Used when logging a game (tabletop.js) and to enter a result again after an undo
// (tabletop_game.js). `sheet` = {game, mode, lowest}; `players` = [{key, name}]; `host` is the
// element the fields were drawn into.
import { el } from "./dom.js";
import { t } from "./i18n.js";

function numberInput(field, label, key, extra = {}) {
  return el("label", { class: "field tt-num" }, label,
    el("input", { type: "number", inputmode: "numeric", "data-field": field, "data-player": key, min: 0, max: 999,
      step: 1, ...extra }));
}

/** The fields (a node); `redraw()` is called when the generic game's mode changes. */
export function resultFields(sheet, players, redraw) {
  const label = (p, i) => p.name || t("tt_player_n", { n: i + 1 });
  if (sheet.game === "immortal_gameogami") {
    return el("div", {}, [1, 2].map((act) => el("fieldset", { class: "panel", "data-act": act },
      el("legend", {}, t(`tt_act_${act}`)),
      el("p", { class: "muted" }, t("tt_act_help")),
      act === 2 ? el("p", { class: "muted" }, t("tt_levels_help")) : null,
      // Act One is played with level I cards only: its levels are the tokens, never asked.
      players.map((p, i) => el("div", { class: "row" }, el("b", { "data-name-of": p.key }, label(p, i)),
        numberInput(`tokens_${act}`, t("tt_control_tokens"), p.key),
        act === 2 ? numberInput(`levels_${act}`, t("tt_card_levels"), p.key) : null)))));
  }
  if (sheet.game === "generic") {
    const modes = ["scores", "ranks", "winners"];
    return el("fieldset", { class: "panel" }, el("legend", {}, t("tt_result")),
      el("div", { class: "row", role: "group" }, modes.map((m) => el("button", {
        type: "button", class: "btn", "data-mode": m, "aria-pressed": sheet.mode === m ? "true" : "false",
        onclick: () => { sheet.mode = m; redraw(); } }, t(`tt_mode_${m}`)))),
      players.map((p, i) => el("div", { class: "row" }, el("b", { "data-name-of": p.key }, label(p, i)),
        sheet.mode === "winners"
          ? el("label", { class: "field inline" }, el("input", { type: "checkbox", "data-field": "winner", "data-player": p.key }), t("tt_won"))
          : numberInput(sheet.mode === "ranks" ? "rank" : "score", t(sheet.mode === "ranks" ? "tt_rank" : "tt_score"), p.key,
            sheet.mode === "ranks" ? { min: 1, max: players.length } : { min: -1e6, max: 1e6, step: "any" }))),
      sheet.mode === "scores" ? el("label", { class: "field inline" }, el("input", { type: "checkbox", "data-field": "lowest",
        checked: sheet.lowest, onchange: (e) => { sheet.lowest = e.target.checked; } }), t("tt_lowest_wins")) : null);
  }
  return el("p", { class: "muted" }, t("tt_live_help"));
}

function readNumbers(host, field) {
  const out = {};
  for (const input of host.querySelectorAll(`input[data-field="${field}"]`)) {
    if (input.value !== "") out[input.dataset.player] = Number(input.value);
  }
  return out;
}

/** The entries the filled-in fields make (acts still on the sheet are skipped with `from`). */
export function sheetEvents(sheet, host, from = 1) {
  if (sheet.game === "immortal_gameogami") {
    return [1, 2].filter((act) => act >= from).map((act) => {
      const e = { type: "act", act, tokens: readNumbers(host, `tokens_${act}`) };
      const levels = readNumbers(host, `levels_${act}`);
      if (Object.keys(levels).length) e.levels = levels;
      return e;
    });
  }
  if (sheet.game === "generic") {
    if (sheet.mode === "winners") {
      return [{ type: "result", winners: [...host.querySelectorAll('input[data-field="winner"]:checked')].map((x) => x.dataset.player) }];
    }
    if (sheet.mode === "ranks") return [{ type: "result", ranks: readNumbers(host, "rank") }];
    return [{ type: "result", scores: readNumbers(host, "score"), lowest_wins: sheet.lowest }];
  }
  return [];
}
