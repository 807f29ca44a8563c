// Plain words for players: battle results, stances, events. All text comes from the i18n strings.
import { regionName } from "./board.js";
import { t, colourName, plural } from "./i18n.js";

export const STANCE_OF_CARD = { target: "for_attacker", source: "neutral", other: "against_attacker" };

export const otherRealm = (realm) => (realm === "light" ? "dark" : "light");

/** "The card shows the attacked region: the inhabitants fight for the attacker." */
export function stanceWords(card, defender) {
  const stance = STANCE_OF_CARD[card] || card;
  if (stance === "against_attacker") return t(defender ? "stance_against_defended" : "stance_against_empty");
  return t(`stance_${stance}`);
}

const sum = (o) => Object.values(o || {}).reduce((a, b) => a + (Number(b) || 0), 0);

/** Strengths as the rules count them (for the "5 : 3" headline). */
export function strengths(battle, counts) {
  const stance = battle.stance || STANCE_OF_CARD[battle.card];
  const g = counts.green || 0;
  const a = counts[battle.attacker] || 0;
  if (!battle.defender) return { a, d: stance === "against_attacker" ? g : 0 };
  return {
    a: a + (stance === "for_attacker" ? g : 0),
    d: (counts[battle.defender] || 0) + (stance === "against_attacker" ? g : 0),
  };
}

/** The battle result as sentences in the current language, e.g.
 *  "Purple wins 5 : 3." "Yellow: 3 cubes to your light limbo." "Purple: 2 cubes to your light
 *  limbo, 2 cubes onto White Falls." "1 green cube back to the supply." */
export function battleSentences(result, battle, counts, board) {
  const out = [];
  const fallback = strengths(battle, counts);
  const a = result.strength?.attacker ?? fallback.a;
  const d = result.strength?.defender ?? result.strength?.inhabitants ?? fallback.d;
  const A = colourName(battle.attacker);
  const where = regionName(board, battle.target);
  const limboRealm = t(`realm_adj_${otherRealm(battle.realm)}`);
  const stance = battle.stance || STANCE_OF_CARD[battle.card];
  if (!battle.defender && stance !== "against_attacker") {
    out.push(result.winner === "attacker" ? plural("res_takes", a, { who: A, region: where }) : t("res_not_taken", { who: A }));
  } else if (result.winner === "attacker") out.push(t("res_wins", { who: A, a, d }));
  else if (result.winner === "defender") out.push(t("res_wins", { who: colourName(battle.defender), a: d, d: a }));
  else if (result.winner === "inhabitants") out.push(t("res_inhabitants", { who: A, a, d }));
  else if (battle.defender) out.push(t("res_tie", { a, d }));
  const colours = [battle.attacker, battle.defender, ...Object.keys(result.to_limbo || {}), ...Object.keys(result.placed || {})]
    .filter((c, i, all) => c && all.indexOf(c) === i);
  for (const c of colours) {
    const parts = [];
    const toLimbo = result.to_limbo?.[c] || 0;
    const placed = result.placed?.[c] || 0;
    if (toLimbo) parts.push(plural("res_to_limbo", toLimbo, { realm: limboRealm }));
    if (placed) parts.push(plural("res_onto", placed, { region: where }));
    if (parts.length) out.push(`${colourName(c)}: ${parts.join(", ")}.`);
  }
  if (result.to_supply) out.push(plural("res_green_supply", result.to_supply));
  if (sum(result.left_in_tray)) {
    const list = Object.entries(result.left_in_tray).filter(([, n]) => n).map(([c, n]) => `${n} ${colourName(c)}`).join(", ");
    out.push(t("res_left_in_tray", { list }));
  }
  if (result.winner === "attacker") out.push(t("res_card", { who: A, region: where }));
  return out;
}

/** One line for the history list / the undo message: "#12 Attack — Red: White Falls". */
export function describeEvent(event, ctx) {
  if (!event) return t("ev_unknown");
  const type = event.type || "?";
  // Set-up and bookkeeping steps have their own words; actions are named as on the buttons.
  const known = [`ev_${type}`, `act_${type}`].find((k) => t(k) !== k);
  const name = known ? t(known) : type.replaceAll("_", " ");
  const cmd = event.command || {};
  const playerName = cmd.player ? ctx?.state?.player?.(cmd.player)?.name : null;
  const who = cmd.player ? ` — ${playerName ? `${playerName} (${colourName(cmd.player)})` : colourName(cmd.player)}` : "";
  // A step the board completed (the start region the board knows) names the region it changed.
  const region = cmd.target || cmd.region || (event.effects || []).find((e) => e.op === "armies")?.region;
  const where = region ? `: ${regionName(ctx?.board, region)}` : "";
  const seq = event.seq ? `#${event.seq} ` : "";
  return `${seq}${name}${who}${where}`;
}
