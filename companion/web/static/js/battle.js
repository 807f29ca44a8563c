// The battle flow: declared attack → tray instructions → throw and press → shared reading with
// +/- (every device sees every tap) → result in words (impossible readings explained, explicit
// accept) → apply, which names the version shown: a reading corrected meanwhile is refused.
import { api } from "./api.js";
import { regionName } from "./board.js";
import { el, clear, who, cubeList, showError, reveal } from "./dom.js";
import { t, plural } from "./i18n.js";
import { battleSentences, stanceWords, STANCE_OF_CARD } from "./words.js";
import { pressBlock, countEditor, compact, corrected, countTray, settled } from "./counts.js";

// A reading chosen "by hand" must survive repaints of the same battle.
let manualFor = null;
let revealedFor = null; // the battle whose reading was scrolled into view

function battleKey(b) { return `${b.attacker}|${b.source}|${b.target}|${b.realm}|${b.seq ?? ""}`; }

function header(ctx, b) {
  const s = ctx.state;
  const A = s.player(b.attacker);
  const D = b.defender ? s.player(b.defender) : null;
  const stance = b.stance || STANCE_OF_CARD[b.card];
  return el("div", { class: "battle-head" },
    el("h2", {}, t("battle_title")),
    el("p", { class: "big-turn" }, who(b.attacker, A?.name), " ",
      t(D ? "attacks_player" : "attacks_empty", { region: regionName(ctx.board, b.target), realm: t(`realm_adj_${b.realm}`) }), " ",
      D ? who(b.defender, D.name) : null),
    b.source ? el("p", {}, plural("battle_from", b.armies, { region: regionName(ctx.board, b.source) })) : null,
    el("p", { class: "stance", "data-stance": stance }, stanceWords(stance, Boolean(b.defender))));
}

function instructions(b) {
  const delta = b.green_delta ?? 0; // −1: take one green from the supply, +1: return one
  const greenLine = delta < 0 ? t("green_add") : delta > 0 ? t("green_return") : t("green_none");
  return el("section", { class: "panel", id: "tray-instructions" }, el("h3", {}, t("before_throw")),
    el("ol", { class: "instructions" },
      el("li", {}, t("take_out_tray"), " ", cubeList(b.take_out, t("tray_empty"))),
      el("li", { "data-green": String(delta) }, greenLine),
      el("li", {}, t("throw_these"), " ", cubeList(b.throw))));
}

function resultBlock(ctx, b) {
  const reading = ctx.state.reading;
  const colours = [...new Set([...ctx.state.players.map((p) => p.color), "green"])];
  const words = el("div", { class: "result-words", id: "result-words", "aria-live": "polite" });
  const impossible = el("div", { id: "impossible", hidden: true });
  const accept = el("input", { type: "checkbox", id: "accept-impossible" });
  const error = el("div", { class: "error", hidden: true, role: "alert" });
  const applyBtn = el("button", { type: "button", class: "btn primary big", id: "apply-battle" }, t("apply_result"));
  let latest = null; // the preview of the counts now on screen
  let seq = 0;

  const correctedMark = el("span", { class: "muted", id: "corrected-mark", hidden: true }, t("corrected"));
  const preview = async (counts) => {
    correctedMark.hidden = !corrected(counts, reading);
    const mine = ++seq;
    try {
      const answer = await api(`/api/games/${ctx.id}/battle/preview`, { method: "POST", body: { counts: compact(counts) } });
      if (mine !== seq) return; // a later tap already asked again
      latest = answer;
      showError(error, null);
      clear(words, battleSentences(answer.result || {}, b, counts, ctx.board).map((line) => el("p", {}, line)));
      // Which counts these words are about (lets a test, or a curious player, see it is current).
      words.dataset.counts = JSON.stringify(Object.fromEntries(Object.entries(compact(counts)).sort()));
      const reasons = answer.impossible || [];
      impossible.hidden = reasons.length === 0;
      clear(impossible, el("div", { class: "error" }, el("p", {}, t("impossible_intro")),
        el("ul", {}, reasons.map((r) => el("li", {}, r))),
        el("p", {}, t("impossible_fix"))),
      el("label", { class: "field inline" }, accept, " ", t("accept_anyway")));
      accept.checked = false;
    } catch (err) {
      if (mine !== seq) return;
      latest = null;
      clear(words);
      showError(error, err);
    }
  };
  const editor = countEditor(ctx, colours, preview);
  applyBtn.addEventListener("click", async () => {
    applyBtn.disabled = true;
    await settled(); // our own last taps first: apply decides on the version that has them
    applyBtn.disabled = false;
    const counts = editor.counts();
    if (latest?.impossible?.length && !accept.checked) { showError(error, t("err_accept_first")); return; }
    // The counts shown, decided on this version: the server refuses it if anyone corrected since.
    const command = { type: "resolve_battle", counts: compact(counts) };
    if (latest?.impossible?.length) command.accept_impossible = true;
    applyBtn.disabled = true;
    try { await ctx.send(command); manualFor = null; }
    catch (err) { showError(error, err); applyBtn.disabled = false; }
  });
  preview(editor.counts());
  ctx.panelUpdate = () => editor.refresh(); // another tablet's +/- arrives in place
  return el("section", { class: "panel", id: "battle-reading" },
    el("h3", {}, t("reading_title")),
    el("p", { class: "hint" }, t(reading ? "reading_check" : "reading_manual")),
    editor.node,
    el("h3", {}, t("result_title")), impossible, words, error,
    el("div", { class: "row" }, applyBtn, correctedMark));
}

export function battlePanel(ctx) {
  const b = ctx.state.battle;
  const key = battleKey(b);
  const host = el("div", { class: "battle", id: "battle" }, header(ctx, b), instructions(b));
  if (ctx.state.reading || manualFor === key) {
    const result = resultBlock(ctx, b);
    host.append(result);
    if (revealedFor !== key) { revealedFor = key; reveal(result); } // the counts and result come into view once
    host.append(recountBlock(ctx));
  } else {
    host.append(pressBlock(ctx, (answer) => {
      if (answer?.state) ctx.adopt(answer.state); else { manualFor = key; ctx.rerender(true); }
    }));
  }
  return host;
}

/** Count the tray again (camera): the new counts replace the shared reading on every device. */
export function recountBlock(ctx) {
  const error = el("div", { class: "error", hidden: true, role: "alert" });
  const again = el("button", { type: "button", class: "btn", id: "recount", onclick: async () => {
    again.disabled = true;
    showError(error, null);
    try { const answer = await countTray(ctx); ctx.adopt(answer.state); }
    catch (err) { showError(error, err); again.disabled = false; }
  } }, t("recount"));
  return el("div", { class: "row" }, again, error);
}
