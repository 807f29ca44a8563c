// Board data as the UI needs it, whatever container shapes Board.to_dict() uses
// (lists of objects with "id", or dicts keyed by id). One place to adapt if the shape moves.
import { t, LANG } from "./i18n.js";

export const COLOURS = ["red", "blue", "yellow", "purple", "black"];
export const REALMS = ["dark", "light"]; // order on the physical board: dark left, light right

/** [{id, ...}] from a list or an {id: {...}} dict. */
export function asList(container) {
  if (!container) return [];
  if (Array.isArray(container)) return container.map((x, i) => (typeof x === "string" ? { id: x, name: x } : { id: x.id ?? x.slug ?? String(i), ...x }));
  return Object.entries(container).map(([id, x]) => (typeof x === "object" && x ? { id, ...x } : { id, name: String(x) }));
}

/** What a region, area or tribe is called on screen: its German name on German pages when
 *  entered, its English name, else "Region 12 (no name yet)" — never its id. `kind`: region,
 *  area, tribe_light or tribe_dark; `n`: its number (1-based, tribes counted per realm). */
export function itemLabel(kind, item, n) {
  return (LANG === "de" && item?.name_de) || item?.name || t(`unnamed_${kind}`, { n });
}

/** The board's lists with `name` replaced by the on-screen label (see itemLabel). */
export function labelled(board) {
  const seen = { light: 0, dark: 0 };
  return {
    ...board,
    areas: asList(board?.areas).map((a, i) => ({ ...a, name: itemLabel("area", a, i + 1) })),
    regions: asList(board?.regions).map((r, i) => ({ ...r, name: itemLabel("region", r, i + 1) })),
    tribes: asList(board?.tribes).map((x) => {
      const realm = x.realm === "dark" ? "dark" : "light";
      seen[realm] += 1;
      return { ...x, name: itemLabel(`tribe_${realm}`, x, seen[realm]) };
    }),
  };
}

export function displayName(item) {
  if (!item) return "?";
  return item.name || item.id;
}

/** Normalised board: {areas: [{id, name, regions: [region…]}], regions: Map, tribes: {light, dark}}. */
export function normaliseBoard(raw) {
  const board = labelled(raw || {});
  const regions = asList(board.regions);
  const byId = new Map(regions.map((r) => [r.id, r]));
  let areas = asList(board.areas).map((a) => ({ ...a, regionIds: a.regions ? asList(a.regions).map((r) => r.id) : [] }));
  if (!areas.length) {
    const ids = [...new Set(regions.map((r) => r.area ?? "?"))];
    areas = ids.map((id) => ({ id, name: id === "?" ? t("area_unknown") : id, regionIds: [] }));
  }
  for (const area of areas) {
    if (!area.regionIds.length) area.regionIds = regions.filter((r) => (r.area ?? "?") === area.id).map((r) => r.id);
    area.regions = area.regionIds.map((id) => byId.get(id) || { id, name: id });
  }
  const placed = new Set(areas.flatMap((a) => a.regionIds));
  const orphans = regions.filter((r) => !placed.has(r.id));
  if (orphans.length) areas.push({ id: "?", name: t("area_unknown"), regionIds: orphans.map((r) => r.id), regions: orphans });
  const tribes = asList(board.tribes);
  return {
    raw: raw || {},
    areas,
    regions: byId,
    regionList: regions,
    tribes: {
      light: tribes.filter((x) => (x.realm || x.side) === "light"),
      dark: tribes.filter((x) => (x.realm || x.side) === "dark"),
    },
    tribeById: new Map(tribes.map((x) => [x.id, x])),
  };
}

export function regionName(board, id) {
  return displayName(board?.regions?.get(id)) || id;
}

/** An action space of the player board in words: the name the owner entered for a space the
 *  rulebook does not name (the eighth army space), else the catalogue's word for it. */
export function spaceName(board, id) {
  const entered = asList(board?.raw?.spaces).find((s) => s.id === id);
  return (entered && ((LANG === "de" && entered.name_de) || entered.name)) || t(`space_${id.replace(":", "_")}`);
}

export function defaultRounds(playerCount) {
  return playerCount <= 3 ? 7 : 5;
}
