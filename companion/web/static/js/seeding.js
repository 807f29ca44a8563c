// Seeding the tower with the camera: throw 7 per player + 10 green into the empty tower, count
// what fell out (the shared reading: every device sees every +/-), each player splits their
// own cubes between their limbos, inhabitants beyond two go back to the supply.
import { el, clear, who, showError, stepper } from "./dom.js";
import { t, colourName } from "./i18n.js";
import { pressBlock, countEditor, compact, settled } from "./counts.js";
import { recountBlock } from "./battle.js";

let manual = false;
// Each player's light-limbo share, kept across live updates (colour → light count).
const splits = {};

function splitEditor(ctx, getCounts) {
  const host = el("div", { id: "limbo-split" });
  const draw = () => {
    const counts = getCounts();
    clear(host, ctx.state.players.map((p) => {
      const total = counts[p.color] || 0;
      splits[p.color] = Math.min(splits[p.color] ?? Math.ceil(total / 2), total);
      const dark = el("b", { "data-dark": p.color }, String(total - splits[p.color]));
      const s = stepper({ value: splits[p.color], min: 0, max: total, label: t("limbo_light"), name: `light_${p.color}`,
        onchange: (v) => { splits[p.color] = v; dark.textContent = String(total - v); } });
      return el("div", { class: "count-row", "data-player": p.color },
        who(p.color, p.name),
        el("span", {}, t("of_total", { n: total })),
        el("span", { class: "field" }, t("limbo_light"), s.node),
        el("span", { class: "field" }, t("limbo_dark"), dark));
    }));
  };
  return {
    node: host, draw,
    get: () => Object.fromEntries(ctx.state.players.map((p) => {
      const total = getCounts()[p.color] || 0;
      const light = Math.min(splits[p.color] ?? 0, total);
      return [p.color, { light, dark: total - light }];
    })),
  };
}

export function seedingPanel(ctx) {
  const s = ctx.state;
  const host = el("div", { class: "seeding", id: "seeding" },
    el("h2", {}, t("phase_seeding")),
    el("ol", { class: "instructions" },
      el("li", {}, t("seed_throw", { n: s.players.length * 7, players: s.players.length })),
      el("li", {}, t("seed_then"))));
  if (!s.reading && !manual) {
    host.append(pressBlock(ctx, (answer) => {
      if (answer?.state) ctx.adopt(answer.state); else { manual = true; ctx.rerender(true); }
    }));
    return host;
  }
  const colours = [...s.players.map((p) => p.color), "green"];
  let split = null;
  const editor = countEditor(ctx, colours, () => split?.draw());
  split = splitEditor(ctx, () => editor.counts());
  split.draw();
  ctx.panelUpdate = () => editor.refresh(); // another tablet's +/- arrives in place
  const error = el("div", { class: "error", hidden: true, role: "alert" });
  const accept = el("input", { type: "checkbox", id: "seed-accept" });
  const acceptRow = el("label", { class: "field inline", hidden: true }, accept, " ", t("accept_anyway"));
  const go = el("button", { type: "button", class: "btn primary big", id: "seed-apply", onclick: async () => {
    go.disabled = true;
    showError(error, null);
    await settled(); // our own last taps first
    const command = { type: "seed_tower", tray: compact(editor.counts()), limbo_split: split.get() };
    if (accept.checked) command.accept_impossible = true;
    try { await ctx.send(command); manual = false; }
    catch (err) {
      showError(error, err);
      // An impossible reading may be accepted explicitly, after a recount.
      if (err.kind === "ImpossibleReadingError") acceptRow.hidden = false;
      go.disabled = false;
    }
  } }, t("seed_apply"));
  host.append(el("section", { class: "panel" }, el("h3", {}, t("reading_title")), editor.node),
    el("section", { class: "panel" }, el("h3", {}, t("seed_split_title")), el("p", { class: "hint" }, t("seed_split_hint")), split.node),
    el("p", { class: "hint" }, t("seed_green_back")),
    error, acceptRow, el("div", { class: "row" }, go), recountBlock(ctx));
  return host;
}

export { colourName };
