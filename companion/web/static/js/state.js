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
    passed: Boolean(p.passed),
    cards: p.cards ?? p.region_cards ?? [],
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
  const players = playerList(s);
  const byColour = new Map(players.map((p) => [p.color, p]));
  const cells = regionCells(s);
  const holders = { ...(s.card_holders ?? s.region_cards ?? {}) };
  for (const p of players) for (const card of p.cards || []) if (!(card in holders)) holders[card] = p.color;
  const finished = Boolean(s.finished ?? s.game_over ?? (s.phase === "finished" || s.phase === "game_over" || s.phase === "end"));
  return {
    raw: s,
    version: s.version,
    phase: s.phase || "",
    round: s.round ?? null,
    rounds: s.rounds ?? s.total_rounds ?? null,
    firstPlayer: s.first_player ?? null,
    active: s.active_player ?? s.current_player ?? s.turn ?? null,
    order: s.turn_order ?? s.order ?? players.map((p) => p.color),
    players,
    player: (c) => byColour.get(c),
    cell(realm, id) {
      const c = cells[realm]?.[id] || {};
      return { armies: c.armies || {}, building: c.building || null, portal: Boolean(c.portal) };
    },
    holder: (regionId) => holders[regionId] ?? null,
    tray: s.tray || {},
    interior: s.tower_interior ?? s.interior ?? {},
    greenSupply: s.green_supply ?? s.supply?.green ?? null,
    battle: s.battle ?? null,
    warnings: s.warnings || [],
    scoring: s.last_scoring ?? s.scoring ?? s.scores ?? null,
    standings: s.standings ?? s.final_standings ?? null,
    winner: s.winner ?? s.winners ?? null,
    finished,
    deployment: s.deployment ?? null,
    pending: s.pending ?? s.waiting_for ?? null,
    history: s.history ?? s.log ?? null,
    board: s.board ?? null,
  };
}

/** Players in seat order starting at the first player. */
export function turnOrder(state) {
  const order = state.order?.length ? state.order : state.players.map((p) => p.color);
  const start = order.indexOf(state.firstPlayer);
  return start < 0 ? order : [...order.slice(start), ...order.slice(0, start)];
}
