// GameState.to_dict() as the UI reads it. Every screen goes through these accessors, so a change
// of the snapshot's shape is absorbed here and nowhere else.
import { asList } from "./board.js";

const num = (v) => (typeof v === "number" ? v : Number(v) || 0);

function playerList(raw) {
  return asList(raw.players).map((p) => ({
    ...p,
    color: p.color ?? p.id,
    name: p.name || "",
    gold: num(p.gold), energy: num(p.energy), vp: num(p.vp ?? p.victory_points),
    limbo: {
      light: num(p.limbo?.light ?? p.light_limbo ?? p.limbo_light),
      dark: num(p.limbo?.dark ?? p.dark_limbo ?? p.limbo_dark),
    },
    passed: false,
    cards: [],
  }));
}

/** {realm: {regionId: {armies: {colour: n}, building, portal}}} from the forms the snapshot may use. */
function regionCells(raw) {
  const cells = { light: {}, dark: {} };
  const source = raw.regions ?? raw.map ?? raw.board_state ?? {};
  if (Array.isArray(source)) {
    for (const cell of source) {
      const realm = cell.realm;
      const id = cell.region ?? cell.id;
      if (realm && id) cells[realm][id] = cell;
    }
  } else {
    for (const [key, value] of Object.entries(source)) {
      if (key === "light" || key === "dark") {
        for (const [id, cell] of Object.entries(value || {})) cells[key][id] = cell;
      } else if (value && (value.light || value.dark)) {
        cells.light[key] = value.light || {};
        cells.dark[key] = value.dark || {};
      }
    }
  }
  return cells;
}

export function normaliseState(raw) {
  const s = raw || {};
  const passed = s.passed && !Array.isArray(s.passed) ? s.passed : {};
  const players = playerList(s).map((p) => ({ ...p, passed: p.passed || p.color in passed }));
  const byColour = new Map(players.map((p) => [p.color, p]));
  const cells = regionCells(s);
  const holders = { ...(s.cards ?? s.card_holders ?? {}) };
  for (const p of players) p.cards = Object.entries(holders).filter(([, c]) => c === p.color).map(([r]) => r);
  const finished = s.phase === "over" || Boolean(s.result);
  const scores = Array.isArray(s.scores) ? s.scores : [];
  return {
    raw: s,
    version: s.version,
    phase: s.phase || "",
    step: s.step || "",
    round: s.round ?? null,
    rounds: s.rounds ?? null,
    firstPlayer: s.first_player || null,
    markerHolder: s.marker_holder || null,
    active: s.turn ?? null,
    done: s.done || [],
    order: players.map((p) => p.color),
    players,
    player: (c) => byColour.get(c),
    cell(realm, id) {
      const c = cells[realm]?.[id] || {};
      return { armies: c.armies || {}, building: c.building || null, portal: Boolean(c.portal) };
    },
    holder: (regionId) => holders[regionId] ?? null,
    tray: s.tray || {},
    interior: s.interior || {},
    greenSupply: s.green_supply ?? null,
    battle: s.battle ?? null,
    reading: s.reading ?? null, // the shared tray reading of the pending throw (server state)
    warnings: s.warnings || [],
    scores,
    lastScore: scores.length ? scores[scores.length - 1] : null,
    result: s.result ?? null,
    standings: s.result?.standings ?? [],
    winners: s.result?.winners ?? [],
    shared: Boolean(s.result?.shared),
    finished,
    board: s.board ?? null,
  };
}

/** Players in seat order starting at the first player. */
export function turnOrder(state) {
  const order = state.order?.length ? state.order : state.players.map((p) => p.color);
  const start = order.indexOf(state.firstPlayer);
  return start < 0 ? order : [...order.slice(start), ...order.slice(0, start)];
}
