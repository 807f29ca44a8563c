// The action catalog (docs/CONTRACTS.md) as touch forms: each entry lists the fields to ask for.
// Every region, target, realm and amount comes from the legal options the server computed for
// the player whose turn it is (GET /api/games/<id>/options, companion/game/legal.py): the pickers
// offer only what the rules allow now, and a single choice is taken without a tap.
import { commandForm } from "./forms.js";
import { t, colourName } from "./i18n.js";
import { stanceWords } from "./words.js";
import { regionName, spaceName } from "./board.js";
import { splitKey } from "./picking.js";

const compensation = () => [{
  name: "compensation", kind: "choice", value: "gold",
  options: [{ value: "gold", label: t("one_gold") }, { value: "energy", label: t("one_energy") }],
}];

/** The options of one command type (null when the rules allow none of it now). */
export const optionsOf = (ctx, type) => ctx.options?.commands?.[type] ?? null;

const realmWord = (realm) => t(`realm_adj_${realm}`);
const place = (ctx, region, realm) => `${regionName(ctx.board, region)} (${realmWord(realm)})`;
const key = (n) => `${n.region}|${n.realm}`;
const who = (ctx, colour) => ctx.state.player(colour)?.name || colourName(colour);

/** Node options [{value, label}] from a list of {region, realm, …}. */
const nodes = (ctx, list, extra = () => "") => (list || []).map((n) => ({ value: key(n), label: place(ctx, n.region, n.realm) + extra(n, ctx) }));

// Checks of kept form values against a new state (see forms.js): the reason, or null.
function noArmies(value, ctx) {
  if (!value) return null;
  const { region, realm } = splitKey(value);
  const n = ctx.state.cell(realm, region).armies[ctx.state.active] || 0;
  return n === 0 ? t("why_no_armies", { region: regionName(ctx.board, region) }) : null;
}

/** A region field offering `list(ctx)` (nodes where the action applies). */
export const where = (list, extra) => ({ name: "where", kind: "node", label: t("field_region"), options: (v, ctx) => nodes(ctx, list(ctx), extra) });
/** {where: "r|realm"} → {region, realm} */
export const unwhere = ({ where: w, ...rest }) => (w ? { ...rest, ...splitKey(w) } : rest);

const sources = (ctx, type) => optionsOf(ctx, type)?.from || [];
const sourceOf = (ctx, type, v) => sources(ctx, type).find((s) => key(s) === v.source) || null;

function targetLabel(ctx, tgt, type) {
  const parts = [];
  if (tgt.via_portal) parts.push(t("via_portal_short"));
  if (tgt.defender) parts.push(who(ctx, tgt.defender));
  else if (tgt.defender === null) {
    // Winning an empty region takes its card from whoever holds it ("that player must give the
    // card to the attacker immediately"): the table sees what the attack is worth.
    const holder = type === "attack" ? ctx.state.holder(tgt.region) : null;
    parts.push(holder && holder !== ctx.state.active ? t("target_empty_card_of", { who: who(ctx, holder) }) : t("target_empty"));
  }
  if (tgt.checked === false) parts.push(t("target_unchecked"));
  return parts.length ? ` · ${parts.join(" · ")}` : "";
}

/** Attack or move: the source, the target (offered for that source), how many armies go. */
function fromTo(type) {
  return [
    { name: "source", kind: "node", label: t("field_source"), check: noArmies, options: (v, ctx) => nodes(ctx, sources(ctx, type)) },
    { name: "target", kind: "node", label: t(type === "attack" ? "field_target" : "field_move_target"),
      options: (v, ctx) => nodes(ctx, sourceOf(ctx, type, v)?.targets, (tg) => targetLabel(ctx, tg, type)), none: t("pick_source_first") },
    { name: "armies", kind: "count", min: 1, value: 1, startAtMax: true, max: (v, ctx) => sourceOf(ctx, type, v)?.max ?? null },
  ];
}

/** {source: "r|realm", target: "r|realm"} → the command's source/target/realm fields. */
function unFromTo(ctx, type, c) {
  const { source, target, ...rest } = c;
  const s = splitKey(source);
  const tg = splitKey(target);
  const out = { ...rest, source: s.region, realm: s.realm, target: tg.region };
  if (type === "attack") {
    const detail = sourceOf(ctx, type, { source })?.targets?.find((x) => key(x) === target);
    if (detail?.via_portal) out.via_portal = true;
  } else if (tg.realm !== s.realm) {
    out.target_realm = tg.realm;
  }
  return out;
}

/** " · 5" after a region whose card value the board data knows. */
const printed = (n) => (typeof n.amount === "number" ? ` · ${n.amount}` : "");
/** The amount printed on the region card: asked only when the board data does not know it. */
const amountField = (type) => ({ name: "amount", kind: "count", optional: true, help: t("amount_help"),
  when: (v, ctx) => v.where && (optionsOf(ctx, type)?.where || []).find((n) => key(n) === v.where)?.amount === null });

const specialCheck = (type, label) => (ctx) => {
  const o = optionsOf(ctx, type);
  if (!o?.special) return [];
  // Only the special left (the plain space is used): ticked and fixed.
  return [{ name: "special", kind: "check", optional: true, label, value: !o.plain }];
};

function transitionSpec(type) {
  return (ctx) => {
    const o = optionsOf(ctx, type);
    const realms = o?.realms || [];
    const pick = (v) => realms.find((r) => r.realm === v.realm) || (realms.length === 1 ? realms[0] : null);
    return [
      { name: "realm", kind: "choice", options: realms.map((r) => ({ value: r.realm, label: t(`realm_${r.realm}`),
        explain: t("transition_exact", { n: r.armies }) })), value: realms.length === 1 ? realms[0].realm : undefined },
      { name: "placements", kind: "placements", regionsFor: (v) => pick(v)?.regions || [], armiesFor: (v) => pick(v)?.armies ?? null },
    ];
  };
}

export const ACTIONS = [
  { type: "extract_gold", spec: (ctx) => [where((c) => optionsOf(c, "extract_gold")?.where, printed),
    amountField("extract_gold"), ...specialCheck("extract_gold", t("special_orcs"))(ctx)], transform: unwhere },
  { type: "extract_energy", spec: () => [where((c) => optionsOf(c, "extract_energy")?.where, printed),
    amountField("extract_energy")], transform: unwhere },
  { type: "transition_3", explain: true, spec: (ctx) => [where((c) => optionsOf(c, "transition_3")?.where, (n) => ` · ${t("transition_exact", { n: n.armies })}`),
    ...specialCheck("transition_3", t("special_necromancers"))(ctx)], transform: unwhere },
  { type: "construct", explain: true, spec: (ctx) => {
    const list = optionsOf(ctx, "construct")?.where || [];
    const kinds = ["portal", "shrine", "capital"].filter((b) => list.some((w) => b in w.buildings));
    const at = (v) => list.find((w) => key(w) === v.where);
    const unknownCost = (v) => Boolean(v.building) && at(v)?.buildings?.[v.building] === null;
    return [where(() => list),
      // Only what the picked region may still take (a shrine or a capital, not both; one
      // capital per area; one portal), and only what the player can pay.
      { name: "building", kind: "node", none: t("pick_region_first"), options: (v) => Object.keys(at(v)?.buildings || {})
        .filter((b) => kinds.includes(b)).map((b) => ({ value: b, label: t(`building_${b}`) })) },
      { name: "cost_gold", kind: "count", optional: true, label: t("cost_gold"), help: t("cost_help"), when: unknownCost },
      { name: "cost_energy", kind: "count", optional: true, label: t("cost_energy"), when: unknownCost }];
  },
  transform: (c) => {
    const { cost_gold: g, cost_energy: e, ...rest } = unwhere(c);
    return g === undefined && e === undefined ? rest : { ...rest, cost: { gold: g ?? 0, energy: e ?? 0 } };
  } },
  { type: "attack", explain: true, spec: (ctx) => {
    const o = optionsOf(ctx, "attack");
    const specials = o?.specials || [];
    return [...fromTo("attack"),
      { name: "card", kind: "choice", options: ["target", "source", "other"].map((c) => ({ value: c, label: t(`card_${c}`), explain: stanceWords(c, true) })) },
      // The tribe's extra attack only for the tribe that has it; the only way left when the
      // attack spaces are used (then picked already).
      specials.length ? { name: "special", kind: "select", optional: o.plain, placeholder: t("special_none"),
        value: o.plain ? undefined : specials[0],
        options: specials.map((sp) => ({ value: sp, label: t(`special_${sp}`) })) } : null].filter(Boolean);
  }, transform: (c, ctx) => unFromTo(ctx, "attack", c) },
  { type: "move", explain: true, spec: () => [...fromTo("move"),
    { name: "path", kind: "path", optional: true, label: t("field_path"),
      from: (v) => v.source, to: (v) => v.target,
      steps: (v, ctx) => Object.fromEntries(Object.entries(optionsOf(ctx, "move")?.steps || {})
        .map(([k, list]) => [k, nodes(ctx, list)])),
      labels: (ctx) => Object.fromEntries(Object.keys(optionsOf(ctx, "move")?.steps || {})
        .map((k) => [k, place(ctx, ...Object.values(splitKey(k)))])) }],
  transform: (c, ctx) => {
    const { path, ...rest } = c;
    const out = unFromTo(ctx, "move", rest);
    return path ? { ...out, path: path.map((k) => splitKey(k)) } : out;
  } },
  { type: "demons_shrine", tribeSpecial: true, spec: () => [where((c) => optionsOf(c, "demons_shrine")?.where)], transform: unwhere },
  { type: "transition_5", explain: true, spec: transitionSpec("transition_5") },
  { type: "transition_2", explain: true, spec: transitionSpec("transition_2") },
  { type: "draw_conflict_card", spec: () => [] },
  { type: "take_first_player", spec: () => [] },
  { type: "draw_two_cards", spec: () => [] },
  { type: "take_over_card", explain: true, spec: () => [where((c) => optionsOf(c, "take_over_card")?.where,
    (n, ctx) => ` · ${t("take_over_odds", { holder: who(ctx, n.holder), mine: n.mine, theirs: n.theirs })}`)], transform: unwhere },
  { type: "magic_shrine", spec: () => [where((c) => optionsOf(c, "magic_shrine")?.where)], transform: unwhere },
  { type: "forfeit", explain: true, spec: (ctx) => [...compensation(),
    { name: "space", kind: "select", optional: true, placeholder: t("space_unnamed"), label: t("field_space"),
      options: (optionsOf(ctx, "forfeit")?.spaces || []).filter((sp) => sp !== "forfeit" && sp !== "magic:forfeit")
        .map((sp) => ({ value: sp, label: spaceName(ctx.board, sp) })) }] },
  { type: "pass", explain: true, spec: compensation },
];

/** False for a dark tribe's own action (`tribeSpecial`) when the player's dark tribe is
 *  another: that button is not shown at all (the rules give it to one tribe only). */
export function ownAction(ctx, action, color) {
  if (!action.tribeSpecial) return true;
  const tribe = ctx.board.tribeById?.get(ctx.state.player(color)?.dark_tribe);
  return tribe?.special?.action === action.type;
}

/** True when the rules allow no choice of this action now (its button is shown disabled). */
export function notPossible(ctx, type) {
  if (!ctx.options) return false; // options not loaded: the server still decides, and says why
  return optionsOf(ctx, type) === null;
}

export function actionForm(ctx, action, withPlayer, formKey, openKey) {
  const own = action.transform || ((c) => c);
  return commandForm(ctx, {
    type: action.type,
    key: formKey,
    alsoForget: openKey ? [openKey] : [],
    spec: action.spec(ctx),
    submitLabel: t(`act_${action.type}`),
    transform: (c) => own(withPlayer(c), ctx),
  });
}
