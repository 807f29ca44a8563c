// The action catalog (docs/CONTRACTS.md) as touch forms: each entry lists the fields to ask for.
import { commandForm } from "./forms.js";
import { t } from "./i18n.js";
import { stanceWords } from "./words.js";
import { regionName } from "./board.js";

const where = [{ name: "region", kind: "region" }, { name: "realm", kind: "realm" }];
const compensation = () => [{
  name: "compensation", kind: "choice", value: "gold",
  options: [{ value: "gold", label: t("one_gold") }, { value: "energy", label: t("one_energy") }],
}];

// Checks of kept form values against a new state (see forms.js): the reason, or null.
const armiesAt = (ctx, region, realm) => (region && realm ? ctx.state.cell(realm, region).armies[ctx.state.active] || 0 : null);
function noArmies(region, ctx, values) {
  const n = armiesAt(ctx, region, values.realm);
  return n === 0 ? t("why_no_armies", { region: regionName(ctx.board, region) }) : null;
}
function tooMany(armies, ctx, values) {
  const n = armiesAt(ctx, values.source, values.realm);
  if (n === null || armies === null || armies < n) return null; // one army always stays behind
  return t("why_too_many", { n: Math.max(n - 1, 0), region: regionName(ctx.board, values.source) });
}

export const ACTIONS = [
  { type: "extract_gold", spec: () => [...where, { name: "amount", kind: "count", optional: true, help: t("amount_help") }, { name: "special", kind: "check", optional: true, label: t("special_orcs") }] },
  { type: "extract_energy", spec: () => [...where, { name: "amount", kind: "count", optional: true, help: t("amount_help") }] },
  { type: "transition_3", explain: true, spec: () => [...where, { name: "armies", kind: "count", min: 1, max: 3, optional: true, help: t("transition_3_help") }, { name: "special", kind: "check", optional: true, label: t("special_necromancers") }] },
  { type: "construct", explain: true, spec: () => [...where,
    { name: "building", kind: "choice", options: ["portal", "shrine", "capital"].map((b) => ({ value: b, label: t(`building_${b}`) })) },
    { name: "cost_gold", kind: "count", optional: true, label: t("cost_gold"), help: t("cost_help") },
    { name: "cost_energy", kind: "count", optional: true, label: t("cost_energy") }],
    transform: (c) => {
      const { cost_gold: g, cost_energy: e, ...rest } = c;
      return g === undefined && e === undefined ? rest : { ...rest, cost: { gold: g ?? 0, energy: e ?? 0 } };
    } },
  { type: "attack", explain: true, spec: (ctx) => [
    { name: "source", kind: "region", check: noArmies }, { name: "target", kind: "region" }, { name: "realm", kind: "realm" },
    { name: "armies", kind: "count", min: 1, value: 1, check: tooMany },
    { name: "card", kind: "choice", options: ["target", "source", "other"].map((c) => ({ value: c, label: t(`card_${c}`), explain: stanceWords(c, true) })) },
    { name: "via_portal", kind: "check", optional: true, label: t("field_via_portal") },
    { name: "special", kind: "select", optional: true, placeholder: t("special_none"), options: [
      { value: "night_elves", label: t("special_night_elves") }, { value: "trolls", label: t("special_trolls") }] }] },
  { type: "move", explain: true, spec: () => [{ name: "source", kind: "region", check: noArmies }, { name: "target", kind: "region" }, { name: "realm", kind: "realm" }, { name: "armies", kind: "count", min: 1, value: 1, check: tooMany },
    { name: "target_realm", kind: "choice", optional: true, label: t("field_target_realm"), options: [{ value: "dark", label: t("realm_dark") }, { value: "light", label: t("realm_light") }] }] },
  { type: "demons_shrine", spec: () => where },
  { type: "transition_5", explain: true, spec: () => [{ name: "realm", kind: "realm" }, { name: "placements", kind: "placements" }] },
  { type: "transition_2", explain: true, spec: () => [{ name: "realm", kind: "realm" }, { name: "placements", kind: "placements" }] },
  { type: "draw_conflict_card", spec: () => [] },
  { type: "take_first_player", spec: () => [] },
  { type: "draw_two_cards", spec: () => [] },
  { type: "take_over_card", explain: true, spec: () => where },
  { type: "magic_shrine", spec: () => where },
  { type: "forfeit", explain: true, spec: compensation },
  { type: "pass", explain: true, spec: compensation },
];

// Which action space (state.used) each command takes; an attack may also use "attack or move".
const SPACES = {
  extract_gold: ["extract_gold"], extract_energy: ["extract_energy"], transition_3: ["transition_3"],
  construct: ["construct"], attack: ["attack", "attack_or_move"], move: ["attack_or_move"],
  demons_shrine: ["special"], transition_5: ["magic:transition_5"],
  draw_conflict_card: ["magic:conflict_or_marker"], take_first_player: ["magic:conflict_or_marker"],
  take_over_card: ["magic:take_over_or_shrine"], magic_shrine: ["magic:take_over_or_shrine"],
  draw_two_cards: ["magic:two_cards_or_transition_2"], transition_2: ["magic:two_cards_or_transition_2"],
};

/** True when every space this action could use is taken this round (shown, not enforced:
 *  the server decides, and says why). */
export function spaceUsed(type, used) {
  const spaces = SPACES[type];
  return Boolean(spaces) && spaces.every((sp) => used.includes(sp));
}

export function actionForm(ctx, action, withPlayer, key) {
  const own = action.transform || ((c) => c);
  return commandForm(ctx, {
    type: action.type,
    key,
    spec: action.spec(ctx),
    submitLabel: t(`act_${action.type}`),
    transform: (c) => own(withPlayer(c)),
  });
}
