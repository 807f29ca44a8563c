// Interface strings: the page embeds the JSON of its language; t() looks keys up and fills {params}.
const node = document.getElementById("i18n");
const STRINGS = node ? JSON.parse(node.textContent) : {};

export const LANG = document.body?.dataset.lang || "en";

/** The string for `key` with `{name}` placeholders filled; the key itself when it is missing
 *  (visible in the UI, and caught by the key test). */
export function t(key, params = {}) {
  const text = STRINGS[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
}

/** Player-facing name of a colour ("Purple" / "Lila"). */
export function colourName(colour) {
  return t(`color_${colour}`);
}

/** "1 cube" / "3 cubes": picks `key_one` or `key_other`. */
export function plural(key, n, params = {}) {
  return t(n === 1 ? `${key}_one` : `${key}_other`, { n, ...params });
}

/** A number as the page's language writes it ("0.33" / "0,33"); `digits` = most decimals. */
export function num(value, digits = 2, minDigits = 0) {
  if (value === null || value === undefined || Number.isNaN(value)) return "–";
  return new Intl.NumberFormat(LANG, { maximumFractionDigits: digits, minimumFractionDigits: minDigits }).format(value);
}

/** "Anna, Ben and Eva" / "Anna, Ben und Eva" (CLDR list patterns, like Babel on the server). */
export function list(items) {
  return new Intl.ListFormat(LANG, { style: "long", type: "conjunction" }).format(items.map(String));
}

/** A game's title from GET /api/games. The store names a game without its own title after its
 *  players, in English ("Ana, Ben and Cleo", companion.store.rules.game_title); such a title is
 *  said again in the page's language ("Ana, Ben und Cleo"). */
export function gameTitle(g) {
  const players = (g.players || []).map((p) => (typeof p === "string" ? { color: p, name: "" } : p));
  const stored = players.map((p) => p.name || p.color);
  const english = stored.length > 1 ? `${stored.slice(0, -1).join(", ")} and ${stored[stored.length - 1]}` : stored[0];
  if (g.title && g.title !== english) return g.title;
  return players.length ? list(players.map((p) => p.name || colourName(p.color))) : `${t("game")} ${g.id}`;
}
