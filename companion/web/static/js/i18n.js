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
