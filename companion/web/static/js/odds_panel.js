// On the game page, beside the battle flow (which this module never touches): the attacker's
// odds while a battle waits for its throw (only when the group turned odds on), and under the
// tower's interior what the next throw will likely let out ("Red 7 inside: next throw about
// 2 out, 0–4"). It follows the page's own state id (#state-version, updated by game.js on
// every state the page shows), so it asks the server again exactly when the game moved on.
import { api } from "./api.js";
import { el, clear } from "./dom.js";
import { t, colourName, num } from "./i18n.js";

const gameId = Number(document.body.dataset.gameId);
const version = document.getElementById("state-version");
const pct = (v) => `${Math.round(v * 100)} %`;

function host(id, after, tag, cls) {
  let node = document.getElementById(id);
  if (!node && after) {
    node = el(tag, { id, class: cls, "aria-live": "polite", hidden: true });
    after.after(node);
  }
  return node;
}

async function refreshOdds() {
  const box = host("battle-odds", document.getElementById("panel"), "section", "panel odds-box");
  if (!box) return;
  const r = await api(`/api/games/${gameId}/battle/odds`);
  if (!r.enabled || (!r.odds && r.reason !== "not enough data yet")) { box.hidden = true; return; }
  box.hidden = false;
  if (!r.odds) { clear(box, el("h2", {}, t("odds_title")), el("p", { class: "muted" }, t("odds_not_enough", { n: r.basis, min: r.min_throws }))); return; }
  const o = r.odds;
  clear(box, el("h2", {}, t("odds_title")),
    el("p", { class: "odds-line", "data-win": o.win },
      t("odds_line", { attacker: colourName(r.battle.attacker), win: pct(o.win), tie: pct(o.tie), lose: pct(o.lose) })),
    el("p", { class: "hint" }, t("odds_basis", { n: o.basis, draws: o.draws })));
}

async function refreshInterior() {
  const row = document.getElementById("interior")?.closest(".tray-row");
  const box = host("interior-model", row, "div", "interior-model-box");
  if (!box) return;
  const r = await api(`/api/games/${gameId}/interior`);
  const entries = Object.entries(r.colours).filter(([, x]) => x.next_out);
  if (!r.enough_data || !entries.length) { box.hidden = true; return; }
  box.hidden = false;
  clear(box, el("p", { class: "hint" }, t("interior_model_hint", { n: r.basis })),
    el("ul", { class: "interior-model" }, entries.map(([c, x]) => el("li", { "data-colour": c },
      t("interior_next", { colour: colourName(c), inside: x.inside, expected: num(x.next_out.expected, 1, 1),
        low: x.next_out.low, high: x.next_out.high })))));
}

let running = false;
let again = false;
async function refresh() {
  if (running) { again = true; return; } // one at a time; a state seen meanwhile runs once more
  running = true;
  do {
    again = false;
    await Promise.allSettled([refreshOdds(), refreshInterior()]);
  } while (again);
  running = false;
}

if (gameId && version) {
  new MutationObserver(refresh).observe(version, { childList: true, characterData: true, subtree: true });
  refresh();
}
