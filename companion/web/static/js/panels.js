// The action panel: one screen per phase of the game, for the player whose turn it is.
import { el, clear, who, showError, reveal } from "./dom.js";
import { commandForm, confirmButton, choice, draftOf, forgetDraft, isSending, keepDraft } from "./forms.js";
import { regionName } from "./board.js";
import { t, colourName, list as listOf } from "./i18n.js";
import { turnOrder } from "./state.js";
import { battlePanel } from "./battle.js";
import { seedingPanel } from "./seeding.js";
import { scoringPanel, endPanel, lastScoring } from "./scoring.js";
import { ACTIONS, actionForm, notPossible, optionsOf, ownAction, unwhere, where } from "./actions.js";
import { api } from "./api.js";

let shownKey = null;

// The legal options of the player whose turn it is, for the state on screen (companion/game/
// legal.py via GET /api/games/<id>/options). A new state waits for its options before the
// action panel is redrawn, so no picker ever offers what the previous state allowed.
const OPTION_PHASES = new Set(["actions", "reinforcements", "deployment/draft"]);
let loading = null; // the key being fetched
const optionsKey = (s) => `${s.version}|${s.active ?? ""}`;

function needsOptions(ctx) {
  const s = ctx.state;
  const where = s.phase === "deployment" ? `${s.phase}/${s.step}` : s.phase;
  return !s.finished && OPTION_PHASES.has(where) && Boolean(s.active);
}

async function loadOptions(ctx) {
  const s = ctx.state;
  const k = optionsKey(s);
  if (loading === k) return false;
  loading = k;
  try {
    const data = await api(`/api/games/${ctx.id}/options?player=${encodeURIComponent(s.active)}`);
    if (optionsKey(ctx.state) !== k) return false; // the game moved on meanwhile
    ctx.options = data;
    ctx.optionsKey = k;
    return true;
  } catch {
    ctx.options = null; // the pickers then offer everything; the server still refuses, and says why
    ctx.optionsKey = k;
    return true;
  } finally {
    if (loading === k) loading = null;
  }
}

/** Which screen is on show. During a throw it does not include the version: each +/- on any
 *  tablet changes the shared reading in place instead of redrawing (no tap is lost). */
function panelKey(ctx) {
  const s = ctx.state;
  if (!s.finished && ((s.phase === "battle" && s.battle) || s.phase === "seeding")) {
    const b = s.battle ? [s.battle.attacker, s.battle.source, s.battle.target, s.battle.realm] : [];
    return `${s.phase}|${b.join("/")}|${s.reading?.id ?? "-"}|${s.reading ? "r" : ""}`;
  }
  return `${s.version}|${s.phase}|${s.finished}`;
}

/** Re-draw the panel when the game moved; half-filled forms come back from their drafts
 *  (forms.js). Within one throw only the reading is refreshed in place. */
export function renderPanel(host, ctx, { force = false } = {}) {
  const s = ctx.state;
  const key = panelKey(ctx);
  if (!force && key === shownKey) { if (ctx.panelUpdate) ctx.panelUpdate(); return; }
  if (needsOptions(ctx) && ctx.optionsKey !== optionsKey(s)) {
    // Whose turn it is shows at once; the pickers follow with the options of this state (a
    // form open before is drawn again from its draft then).
    host.dataset.options = "loading";
    host.dataset.phase = s.phase;
    loadOptions(ctx).then((fresh) => { if (fresh) renderPanel(host, ctx, { force: true }); });
    shownKey = key;
    return clear(host, el("div", {}, turnHeader(ctx, `phase_${s.phase}`),
      el("p", { class: "muted", id: "choices-loading" }, t("choices_loading"))));
  }
  host.dataset.options = needsOptions(ctx) ? "ready" : "none";
  shownKey = key;
  ctx.panelUpdate = null;
  host.dataset.phase = s.finished ? "finished" : s.phase;
  if (s.finished) return clear(host, endPanel(ctx));
  if (s.phase === "battle" && s.battle) return clear(host, battlePanel(ctx));
  const screen = SCREENS[s.phase];
  clear(host, screen ? screen(ctx) : el("p", { class: "muted" }, t("phase_unknown", { phase: s.phase })));
}

/** "Whose turn": the active player with name and colour, or everyone. */
function turnHeader(ctx, titleKey) {
  const s = ctx.state;
  const p = s.active ? s.player(s.active) : null;
  return el("div", { class: "turn-head" }, el("h2", {}, t(titleKey)),
    p ? el("p", { class: "big-turn", "data-active": p.color }, t("turn_of"), " ", who(p.color, p.name)) : null);
}

/** The acting player: fixed when the game knows whose turn it is, else chosen on screen. */
function actingPlayer(ctx, onPick) {
  const s = ctx.state;
  if (s.active) return { node: null, get: () => s.active };
  const c = choice("player", s.players.map((p) => ({ value: p.color, label: p.name ? `${p.name} (${colourName(p.color)})` : colourName(p.color) })), null);
  return { node: el("div", { class: "field" }, el("span", {}, t("who_acts")), c.node), get: c.get };
}

function withPlayer(ctx, picker) {
  return (command) => ({ ...command, player: command.player ?? picker.get() });
}

const names = (ctx, colours) => colours.map((c) => ctx.state.player(c)?.name || colourName(c));
const list = (items) => listOf(items);

/** Why a region can no longer take a deployment in this realm (occupied meanwhile), or null. */
function occupied(ctx, region, realm) {
  if (!region) return null;
  const there = Object.entries(ctx.state.cell(realm || "light", region).armies).filter(([, n]) => n > 0).map(([c]) => c);
  return there.length ? t("why_occupied", { region: regionName(ctx.board, region), who: list(names(ctx, there)) }) : null;
}

/** What ending the draft now would skip, in sentences. */
function draftQuestion(ctx) {
  const d = ctx.state.raw.deployment || {};
  const left = Object.entries(d.deployable || {}).filter(([, n]) => n > 0);
  const lines = [t("confirm_draft", { round: (ctx.state.raw.draft_round ?? 1) - 1 })];
  if (left.length) {
    lines.push(t("confirm_draft_left", { names: list(names(ctx, left.map(([c]) => c))),
      detail: left.map(([c, n]) => `${names(ctx, [c])[0]} ${n}`).join(", ") }));
  }
  lines.push(t("confirm_undo_hint"));
  return lines;
}

function deploymentPanel(ctx) {
  const s = ctx.state;
  const picker = actingPlayer(ctx);
  const transform = withPlayer(ctx, picker);
  const p = s.active ? s.player(s.active) : null;
  const startTribe = p ? ctx.board.tribeById.get(p.light_tribe) : null;
  if (s.step === "start") {
    return el("div", {},
      turnHeader(ctx, "phase_deployment"),
      el("p", { class: "hint" }, t("deploy_hint")),
      picker.node,
      el("section", { class: "panel" }, el("h3", {}, t("deploy_start_title")),
        commandForm(ctx, { type: "deploy_start", transform, intro: t("deploy_start_hint"), spec: [
          { name: "armies", kind: "count", min: 1, value: 3, label: t("field_group_size") },
          startTribe?.start_region
            ? null
            : { name: "region", kind: "region", optional: true, help: t("deploy_start_region_help") },
        ].filter(Boolean) })));
  }
  // Only unoccupied regions (legal options): "if all regions matching a player's conflict
  // cards are occupied, the player … does not place any armies".
  return el("div", {},
    turnHeader(ctx, "phase_deployment"),
    el("p", { class: "hint" }, t("deploy_draft_hint", { n: s.raw.draft_round ?? "" })),
    picker.node,
    el("section", { class: "panel" }, el("h3", {}, t("deploy_title")),
      commandForm(ctx, { type: "deploy", key: `deploy|${s.active ?? ""}`,
        transform: (command) => transform(unwhere(command)),
        spec: [
        { ...where((c) => optionsOf(c, "deploy")?.where), check: (v, c) => (v ? occupied(c, ...v.split("|")) : null) },
        { name: "armies", kind: "count", min: 1, value: 2, label: t("field_group_size") },
        { name: "wild", kind: "check", optional: true, label: t("field_wild") },
      ] })),
    el("div", { class: "row" },
      commandForm(ctx, { type: "skip_deploy", submitLabel: t("skip_deploy"), transform })),
    s.done.length === 0 && s.raw.draft_round > 1
      ? el("section", { class: "panel" }, el("p", { class: "hint" }, t("finish_deployment_hint")),
        confirmButton(ctx, t("finish_deployment"), { type: "finish_deployment" },
          { question: () => draftQuestion(ctx), yes: t("confirm_finish_deployment") }))
      : null);
}

function resourcesPanel(ctx) {
  const s = ctx.state;
  const done = new Set(s.done);
  return el("div", {},
    el("h2", {}, t("phase_resources")),
    el("p", { class: "hint" }, t("resources_hint")),
    s.players.map((p) => {
      const tribes = [ctx.board.tribeById.get(p.light_tribe), ctx.board.tribeById.get(p.dark_tribe)];
      const printed = (res) => (tribes.every((x) => typeof x?.[`start_${res}`] === "number")
        ? tribes.reduce((a, x) => a + x[`start_${res}`], 0) : 0);
      return el("section", { class: "panel", "data-player": p.color },
        el("h3", {}, who(p.color, p.name), done.has(p.color) ? el("span", { class: "marker" }, " ✓ " + t("done")) : null),
        done.has(p.color) ? el("p", {}, t("resources_have", { gold: p.gold, energy: p.energy })) :
          // Everyone enters at once: each player's form keeps its own numbers, and the command
          // depends on nothing else on screen (sent without a version).
          commandForm(ctx, { type: "starting_resources", fixed: { player: p.color }, versioned: false, submitLabel: t("take_resources"), spec: [
            { name: "gold", kind: "count", min: 0, value: printed("gold") },
            { name: "energy", kind: "count", min: 0, value: printed("energy") },
          ] }));
    }));
}

function reinforcementsPanel(ctx) {
  const s = ctx.state;
  const p = s.active ? s.player(s.active) : null;
  const picker = actingPlayer(ctx);
  const allowance = p ? { light: Math.floor(p.limbo.light / 3), dark: Math.floor(p.limbo.dark / 3) } : null;
  // Only realms with an army to send, only regions of that realm with an own army, at most one
  // army per full three in that limbo (legal options of the player whose turn it is).
  const legal = ctx.options?.commands?.reinforce?.realms;
  const byRealm = legal ? () => Object.fromEntries(Object.entries(legal).filter(([, r]) => r.max > 0 && r.regions.length)) : null;
  const justScored = s.lastScore && s.lastScore.round === s.round - 1 && s.done.length === 0;
  return el("div", {},
    justScored ? lastScoring(ctx) : null,
    turnHeader(ctx, "phase_reinforcements"),
    picker.node,
    allowance ? el("p", { class: "hint" }, t("reinforce_allowance", allowance)) : null,
    commandForm(ctx, { type: "reinforce", transform: withPlayer(ctx, picker), submitLabel: t("reinforce_place"), spec: [
      { name: "placements", kind: "placements", withRealm: true, startWithRow: false, label: t("field_placements"), byRealm },
    ] }));
}

function planningPanel(ctx) {
  return el("div", {},
    el("h2", {}, t("phase_planning")),
    el("p", { class: "hint" }, t("planning_hint")),
    el("p", {}, t("turn_order"), " ", turnOrder(ctx.state).map((c, i) => [i ? " → " : "", who(c, ctx.state.player(c)?.name)])),
    confirmButton(ctx, t("start_actions"), { type: "start_actions" }, { yes: t("confirm_start_actions"), question: () => {
      const first = ctx.state.player(ctx.state.firstPlayer);
      return [t("confirm_planning", { first: first?.name || colourName(ctx.state.firstPlayer || "") }), t("confirm_undo_hint")];
    } }));
}

let actionsOf = null; // whose action panel was drawn last (to notice a form the turn closed)

function actionsPanel(ctx) {
  const s = ctx.state;
  const picker = actingPlayer(ctx);
  const formHost = el("div", { class: "action-form" });
  const openKey = `actions-open|${s.active ?? ""}`;
  // A half-filled form of the player whose turn just ended cannot be sent any more: say so.
  // Not when this device sent it and the live stream brought the turn's end before the answer:
  // that form was sent, and its turn ended because it was.
  let closed = null;
  if (actionsOf !== null && actionsOf !== s.active) {
    const was = draftOf(`actions-open|${actionsOf}`);
    if (was) {
      if (!isSending(`actions-open|${actionsOf}`)) {
        closed = el("p", { class: "error", id: "form-closed", role: "status" }, t("form_closed_turn", {
          form: t(`act_${was.type}`), who: names(ctx, [actionsOf])[0], now: s.active ? names(ctx, [s.active])[0] : "–" }));
      }
      forgetDraft(`actions-open|${actionsOf}`);
      forgetDraft(`${was.type}|${actionsOf}`);
    }
  }
  actionsOf = s.active;
  const open = (a) => {
    keepDraft(openKey, { type: a.type });
    for (const b of grid.children) b.setAttribute("aria-pressed", b.dataset.action === a.type ? "true" : "false");
    clear(formHost, el("h3", {}, t(`act_${a.type}`)), a.explain ? el("p", { class: "hint" }, t(`act_${a.type}_explain`)) : null,
      actionForm(ctx, a, withPlayer(ctx, picker), `${a.type}|${s.active ?? ""}`, openKey));
  };
  const grid = el("div", { class: "action-grid", role: "group", "aria-label": t("actions") },
    // Only what the rules allow now; the rest is shown greyed out, so the grid does not jump.
    ACTIONS.filter((a) => ownAction(ctx, a, s.active)).map((a) => el("button", { type: "button", class: `btn${notPossible(ctx, a.type) ? " used" : ""}`, "data-action": a.type,
      disabled: notPossible(ctx, a.type), title: notPossible(ctx, a.type) ? t("not_possible_now") : null,
      onclick: () => { open(a); reveal(formHost); } }, t(`act_${a.type}`))));
  const wasOpen = draftOf(openKey);
  const again = wasOpen && ACTIONS.find((a) => a.type === wasOpen.type && !notPossible(ctx, a.type));
  if (again) open(again); // the form that was open before this live update, with its values
  return el("div", {}, turnHeader(ctx, "phase_actions"), closed, picker.node,
    s.active && s.player(s.active)?.passed ? el("p", { class: "hint" }, t("passed_again")) : null,
    grid, formHost);
}

const SCREENS = {
  deployment: deploymentPanel,
  starting_round: deploymentPanel,
  resources: resourcesPanel,
  starting_resources: resourcesPanel,
  seeding: seedingPanel,
  reinforcements: reinforcementsPanel,
  planning: planningPanel,
  actions: actionsPanel,
  battle: battlePanel,
  scoring: scoringPanel,
};

export { showError };
