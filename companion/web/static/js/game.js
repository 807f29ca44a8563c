// The game page: loads the state, draws board / players / tray, and hands the action panel to
// the screen of the current phase. Every device re-reads the state when the server says it moved.
//
// A device never acts on a view the server has moved past: every command carries the version it
// was decided on (the server refuses a stale one and says what changed — that message stays
// above the panel), and while the live stream is down the panel is inert until the page has
// caught up.
import { api, getGame, sendCommand, ApiError } from "./api.js";
import { normaliseBoard, REALMS, regionName } from "./board.js";
import { el, clear, who, cubeList, showError, reveal } from "./dom.js";
import { t, colourName } from "./i18n.js";
import { subscribe } from "./live.js";
import { normaliseState } from "./state.js";
import { renderPanel } from "./panels.js";
import { describeEvent } from "./words.js";
import { correctionsPanel } from "./corrections.js";
import { deviceName, setDeviceName } from "./counts.js";
import { showGameGaps } from "./board_gaps.js";

const gameId = Number(document.body.dataset.gameId);
const $ = (id) => document.getElementById(id);

export const ctx = {
  id: gameId,
  state: null,
  board: normaliseBoard({}),
  lastEvent: null,
  /** Send a command decided on the version on screen (`versioned: false` only for commands
   *  whose meaning does not depend on it: a player's own starting resources, an absolute tray
   *  correction). On success the page re-renders; on failure the promise rejects with the
   *  player-readable ApiError for the caller to show inline (nothing changed on the server). */
  async send(command, { versioned = true, accepted } = {}) {
    if (stale && versioned) throw new ApiError(0, "StaleViewError", t("err_catching_up"));
    // The phase this device saw when it sent: the live stream may bring the new state before
    // the answer does, and the player who moved the game on still has what comes next shown.
    const phase = ctx.state?.phase;
    try {
      const answer = await sendCommand(gameId, command, versioned ? ctx.state?.version : undefined);
      if (accepted) accepted(answer);
      ctx.lastEvent = answer.event || null;
      ownVersion = answer.state?.version ?? ownVersion;
      if (versioned) notice(null);
      if (answer.event) history.unshift({ ...answer.event, seq: answer.state?.version });
      loadHistory();
      apply(answer.state);
      if (ctx.state.phase !== phase) reveal($("panel")); // what comes next, on the device that moved on
      return answer;
    } catch (err) {
      if (err instanceof ApiError && err.status === 409) {
        // The server names what changed ("Red was corrected to 5 on another tablet — check and
        // apply again"); it stays above the redrawn panel until the next accepted command.
        const message = err.kind === "VersionConflictError" && err.message ? err.message : t("err_stale");
        notice(message);
        await reload();
        throw new ApiError(409, err.kind, message);
      }
      throw err;
    }
  },
  /** Show a state the server sent with another answer (e.g. the count). */
  adopt: (state) => { if (state && state.version >= (ctx.state?.version ?? 0)) apply(state); },
  reload: () => reload(),
  rerender: (force = false) => render(force),
};

let stale = false; // the live stream is down: what is on screen may be old
let ownVersion = null; // the version our own last command made (its news is no news here)

function notice(message) {
  const node = $("panel-notice");
  if (!node) return;
  node.textContent = message || "";
  node.hidden = !message;
}

function setStale(value) {
  stale = value;
  $("panel").inert = value;
  $("panel").setAttribute("aria-busy", value ? "true" : "false");
  $("catching-up").hidden = !value;
}

/** A short line saying what another device just changed. */
function news(msg) {
  if (!msg.news || msg.version === ownVersion) return; // our own command: already on screen
  if (msg.device && msg.device === deviceName()) return;
  const line = $("news");
  line.textContent = msg.device ? t("news_on", { news: msg.news, device: msg.device }) : t("news_said", { news: msg.news });
  line.hidden = false;
}

let history = []; // newest first: {seq, type, command, undoes?, …} from the game's export
let boardFromState = false;
let loadedVersion = null;

function apply(rawState) {
  const state = normaliseState(rawState);
  if (state.board && !boardFromState) { ctx.board = normaliseBoard(state.board); boardFromState = true; }
  const first = !ctx.state;
  if (!first && state.version !== ctx.state.version) $("undo-result").hidden = true; // old news
  ctx.state = state;
  loadedVersion = state.version;
  // Built once: an open correction form must survive the game moving on around it.
  if (first) clear($("corrections-host"), correctionsPanel(ctx));
  render();
}

/** The log as the store keeps it (every device sees the same history, undone steps marked). */
async function loadHistory() {
  try {
    const x = await api(`/api/games/${gameId}/export.json`);
    history = (x.events || []).map((e) => ({ ...(e.payload || {}), type: e.type, seq: e.seq })).reverse();
    renderHistory();
  } catch { /* the history is a convenience; the game itself is unaffected */ }
}

async function reload() {
  try {
    const answer = await getGame(gameId);
    apply(answer.state);
    loadHistory();
    showError($("load-error"), null);
    return true;
  } catch (err) {
    showError($("load-error"), err);
    return false;
  }
}

function phaseLabel(phase) {
  const key = `phase_${phase}`;
  return t(key) === key ? phase : t(key);
}

function renderHead(s) {
  $("round-no").textContent = s.round ?? "–";
  $("round-total").textContent = s.rounds ?? "–";
  $("phase-name").textContent = s.finished ? t("phase_finished") : phaseLabel(s.phase);
  const fp = s.firstPlayer ? s.player(s.firstPlayer) : null;
  clear($("first-player"), fp ? who(fp.color, fp.name) : "–");
  $("state-version").textContent = s.version ?? "–";
  document.body.dataset.version = s.version ?? "";
  document.body.dataset.phase = s.finished ? "finished" : s.phase;
  clear($("warnings"), s.warnings.map((w) => el("li", {}, typeof w === "string" ? w : w.message || JSON.stringify(w))));
}

function regionNode(s, realm, region) {
  const cell = s.cell(realm, region.id);
  const armies = Object.entries(cell.armies).filter(([, n]) => n > 0);
  const holder = s.holder(region.id);
  const target = s.battle && (s.battle.target === region.id) && (s.battle.realm === realm);
  return el("div", { class: `region${target ? " target" : ""}`, "data-region": region.id, "data-realm": realm },
    el("span", { class: "rname" }, region.name || region.id),
    el("span", { class: "armies" }, armies.length
      ? armies.map(([c, n]) => el("span", { "data-colour": c, title: colourName(c) },
        el("span", { class: `swatch c-${c}`, "aria-hidden": "true" }), el("span", { class: "sr" }, `${colourName(c)} `), n))
      : ""),
    cell.building || cell.portal ? el("span", { class: "bld" },
      [cell.building ? t(`building_${cell.building}`) : null, cell.portal ? t("building_portal") : null].filter(Boolean).join(" · ")) : null,
    holder ? el("span", { class: "holder" }, "🂠 ", colourName(holder)) : null);
}

function renderBoard(s) {
  for (const realm of REALMS) {
    const host = $(`realm-${realm}`).querySelector(".areas");
    // Areas without regions (membership not entered yet) would only be empty bars.
    clear(host, ctx.board.areas.filter((area) => area.regions.length).map((area) => el("div", { class: "area", "data-area": area.id },
      el("h3", {}, area.name || area.id),
      el("div", { class: "regions" }, area.regions.map((r) => regionNode(s, realm, r))))));
  }
}

function renderPlayers(s) {
  clear($("players"), s.players.map((p) => el("article", {
    class: `player p-${p.color}${s.active === p.color ? " active" : ""}`, "data-player": p.color,
  },
  el("h3", {}, who(p.color, p.name), " ",
    s.firstPlayer === p.color ? el("span", { class: "marker" }, t("first_player_marker")) : null,
    p.passed ? el("span", { class: "marker" }, t("passed")) : null),
  el("div", { class: "nums" },
    num(t("vp"), p.vp, "vp"), num(t("gold"), p.gold, "gold"), num(t("energy"), p.energy, "energy"),
    num(t("limbo_light"), p.limbo.light, "limbo-light"), num(t("limbo_dark"), p.limbo.dark, "limbo-dark"),
    num(t("region_cards"), (p.cards || []).length, "cards")))));
}

function num(label, value, key) {
  return el("div", { class: "num", "data-num": key }, el("b", {}, String(value)), el("span", {}, label));
}

function renderTower(s) {
  clear($("tray"), cubeList(s.tray, t("empty")));
  clear($("interior"), cubeList(s.interior, t("empty")));
  $("green-supply").textContent = s.greenSupply ?? "–";
}

function renderHistory() {
  const undone = new Set(history.filter((e) => e.type === "undo").map((e) => e.undoes));
  const bySeq = new Map(history.map((e) => [e.seq, e]));
  clear($("history"), history.slice(0, 40).map((e) => el("li", { class: undone.has(e.seq) ? "undone" : "" },
    e.type === "undo" ? t("undone", { what: describeEvent(bySeq.get(e.undoes) ?? { type: e.undone_type, seq: e.undoes }, ctx) }) : describeEvent(e, ctx),
    undone.has(e.seq) ? ` (${t("was_undone")})` : "")));
}

function render(force = false) {
  const s = ctx.state;
  if (!s) return;
  renderHead(s);
  renderBoard(s);
  renderPlayers(s);
  renderTower(s);
  renderHistory();
  renderPanel($("panel"), ctx, { force });
  // The first full drawing after navigation, for measurements (see tests/e2e/test_speed.py).
  if (!performance.getEntriesByName("board-drawn").length) performance.mark("board-drawn");
}

async function undo() {
  const ok = $("undo-result");
  showError($("undo-error"), null);
  ok.hidden = true;
  try {
    const answer = await ctx.send({ type: "undo" });
    const undone = history.find((e) => e.seq === answer.event?.undoes);
    const what = undone ? describeEvent(undone, ctx) : describeEvent({ type: answer.event?.undone_type, seq: answer.event?.undoes }, ctx);
    ok.textContent = t("undone", { what });
    ok.hidden = false;
  } catch (err) {
    showError($("undo-error"), err);
  }
}

function deviceField() {
  const input = $("device-name");
  if (!input) return;
  input.value = deviceName() || "";
  input.addEventListener("change", () => setDeviceName(input.value));
}

async function init() {
  $("undo-btn").addEventListener("click", undo);
  deviceField();
  await reload();
  showGameGaps(gameId, boardFromState ? ctx.board : normaliseBoard({})); // the board as loaded, not fetched again
  if (!boardFromState) {
    try { ctx.board = normaliseBoard(await api("/api/board")); render(); } catch { /* board stays empty */ }
  }
  subscribe(gameId, {
    state: (msg) => {
      if (msg.game !== gameId) return;
      news(msg);
      if (msg.version !== loadedVersion) reload();
    },
    // The camera's counts arrive as a state change (the shared reading); nothing more to do.
    reading: () => {},
    // The tower's status (the empty-tray check, cubes left in the tray) for the press block.
    tower: (status) => document.dispatchEvent(new CustomEvent("companion:tower", { detail: status })),
    // Missed events: read the state before the panel takes taps again.
    reconnected: async () => { if (!(await reload())) throw new Error("offline"); },
    stale: setStale,
  });
}
init();

export { regionName };
