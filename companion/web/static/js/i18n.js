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
  // British English, as the rest of the companion: no serial comma (CLDR en-GB), like the server.
  return new Intl.ListFormat(LANG === "en" ? "en-GB" : LANG, { style: "long", type: "conjunction" }).format(items.map(String));
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

/** A server sentence in the page's language: a plain string as it is; a catalogue message as
 *  the server stores it ({key, params, count?, text}, companion.messages.to_json) rendered here
 *  with the same rules (players by name, places with their realm, plural by CLDR, numbers and
 *  lists for the language); its English `text` when this page has no such key. */
export function say(message) {
  if (message === null || message === undefined) return "";
  if (typeof message !== "object") return String(message);
  const known = (k) => k in STRINGS;
  let key = message.key;
  if (message.count) {
    const n = Number(message.params?.[message.count]);
    const form = `${key}_${new Intl.PluralRules(LANG).select(n)}`;
    key = known(form) ? form : `${key}_other`;
  }
  if (!known(key)) return message.text ?? message.key ?? "";
  const params = {};
  for (const [name, value] of Object.entries(message.params || {})) params[name] = sayValue(value);
  return t(key, params);
}

function sayValue(v) {
  if (Array.isArray(v)) return list(v.map(sayValue));
  if (typeof v === "number") return num(v);
  if (v === null || typeof v !== "object") return String(v ?? "");
  if ("player" in v) return v.name || colourName(v.player);
  if ("place" in v) return v.realm ? t(`msg_place_${v.realm}`, { region: v.place }) : v.place;
  if ("term" in v) return (v.term in STRINGS) ? t(v.term) : (v.default || v.term);
  if ("message" in v) return say(v.message);
  return String(v);
}
