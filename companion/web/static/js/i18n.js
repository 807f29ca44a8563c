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
