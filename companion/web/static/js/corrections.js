// "The table is the truth": a logged correction of armies, a limbo, resources, a region card
// or a building. Each form sets absolute values; the reason is kept in the game's log.
import { el, clear } from "./dom.js";
import { commandForm, choice } from "./forms.js";
import { t } from "./i18n.js";

const reason = { name: "reason", kind: "text", label: t("field_reason"), placeholder: t("reason_placeholder") };
const where = [{ name: "region", kind: "region" }, { name: "realm", kind: "realm" }];

const KINDS = {
  armies: {
    spec: () => [...where, { name: "color", kind: "player", label: t("field_colour") }, { name: "count", kind: "count", value: 0, label: t("field_count") }],
    pack: ({ region, realm, color, count }) => ({ armies: [{ region, realm, color, count }] }),
  },
  limbo: {
    spec: () => [{ name: "player", kind: "player", label: t("player") }, { name: "realm", kind: "realm" }, { name: "count", kind: "count", value: 0, label: t("field_count") }],
    pack: ({ player, realm, count }) => ({ limbo: [{ player, realm, count }] }),
  },
  resources: {
    spec: () => [{ name: "player", kind: "player", label: t("player") },
      { name: "gold", kind: "count", optional: true }, { name: "energy", kind: "count", optional: true },
      { name: "vp", kind: "count", optional: true, label: t("vp") }],
    pack: ({ player, gold, energy, vp }) => ({ resources: [{ player, ...(gold !== undefined && { gold }), ...(energy !== undefined && { energy }), ...(vp !== undefined && { vp }) }] }),
  },
  card: {
    spec: (ctx) => [{ name: "region", kind: "region" },
      { name: "holder", kind: "select", optional: true, placeholder: t("card_stack"), label: t("field_holder"),
        options: ctx.state.players.map((p) => ({ value: p.color, label: p.name || p.color })) }],
    pack: ({ region, holder }) => ({ cards: [{ region, holder: holder ?? null }] }),
  },
  // Who starts this round, who holds the first-player marker (starts the next one), the round.
  turn_order: {
    spec: (ctx) => [
      { name: "first_player", kind: "player", label: t("first_player"), value: ctx.state.firstPlayer },
      { name: "marker_holder", kind: "player", label: t("field_marker_holder"), value: ctx.state.markerHolder },
      { name: "round", kind: "count", min: 1, max: ctx.state.rounds ?? 10, value: ctx.state.round || 1, label: t("field_round") }],
    pack: ({ first_player: first, marker_holder: marker, round }, ctx) => ({
      ...(first !== ctx.state.firstPlayer && { first_player: first }),
      ...(marker !== ctx.state.markerHolder && { marker_holder: marker }),
      ...(round !== ctx.state.round && { round }) }),
  },
  building: {
    spec: () => [...where,
      { name: "building", kind: "select", optional: true, placeholder: t("building_none"), options: ["shrine", "capital"].map((b) => ({ value: b, label: t(`building_${b}`) })) },
      { name: "portal", kind: "check", optional: true, label: t("building_portal") }],
    pack: ({ region, realm, building, portal }) => ({ buildings: [{ region, realm, building: building ?? null, portal: Boolean(portal) }] }),
  },
};

/** The collapsible correction panel under the board. */
export function correctionsPanel(ctx) {
  const host = el("div", { class: "correction-form" });
  const kinds = choice("correction_kind", Object.keys(KINDS).map((k) => ({ value: k, label: t(`correct_${k}`) })), null);
  const done = el("div", { class: "ok", hidden: true, role: "status" }, t("corrected_ok"));
  const show = (kind) => {
    const spec = KINDS[kind];
    clear(host, commandForm(ctx, {
      type: "correct", spec: [...spec.spec(ctx), reason], submitLabel: t("correct_apply"),
      transform: ({ type, reason: why, ...rest }) => ({ type, reason: why, ...spec.pack(rest, ctx) }),
      onDone: () => { show(kind); done.hidden = false; }, // a fresh form for the next fix
    }));
  };
  kinds.node.addEventListener("click", () => { done.hidden = true; if (kinds.get()) show(kinds.get()); });
  return el("details", { class: "panel corrections", id: "corrections" },
    el("summary", {}, t("correct_title")), el("p", { class: "hint" }, t("correct_hint")), kinds.node, done, host);
}
