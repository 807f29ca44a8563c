// Game-night helpers shared by the night page (tabletop.js) and one game's page (tabletop_game.js):
// the built-in games' names, times, player names, a game's one-line result.
import { api } from "./api.js";
import { el } from "./dom.js";
import { t, LANG } from "./i18n.js";

export const BASE = "/api/tabletop";

/** Player-facing title of a game: the built-in game's name in this language, or the typed one. */
export function gameTitle(game) {
  return game.game === "generic" ? game.name : t(`tt_game_${game.game}`);
}

/** The evening a moment belongs to (local date minus 6 hours), like the server's night_of. */
export function nightOf(date = new Date()) {
  const d = new Date(date.getTime() - 6 * 3600 * 1000);
  const pad = (n) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

export function when(iso, opts = { hour: "2-digit", minute: "2-digit" }) {
  if (!iso) return "–";
  const d = new Date(iso);
  return isNaN(d) ? String(iso) : d.toLocaleTimeString(LANG, opts);
}

export function dayName(night) {
  const d = new Date(`${night}T12:00:00`);
  return isNaN(d) ? night : d.toLocaleDateString(LANG, { weekday: "long", day: "numeric", month: "long" });
}

/** `<input type=datetime-local>` value of an ISO time (local), and back to ISO UTC. */
export function toLocalInput(iso) {
  const d = iso ? new Date(iso) : new Date();
  const pad = (n) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}
export function fromLocalInput(value) {
  if (!value) return null;
  const d = new Date(value);
  return isNaN(d) ? null : d.toISOString();
}

export const nameOf = (game, key) => game.players.find((p) => p.key === key)?.name ?? key;

/** "Ani won", "Ani and Ben share the win", "Nobody won", or "still going". */
export function resultLine(game) {
  if (game.status !== "finished") return t("tt_live");
  const w = game.winners || [];
  if (!w.length) return t("tt_nobody_won");
  if (w.length === 1) return t("tt_winner", { name: nameOf(game, w[0]) });
  return t("tt_shared_win", { names: w.map((k) => nameOf(game, k)).join(", ") });
}

export function scoreChips(game) {
  return el("div", { class: "row tt-scores" }, game.players.map((p) => el("span", {
    class: `chip${p.winner ? " tt-won" : ""}`, "data-player": p.key },
  p.winner ? "★ " : "", p.name, p.score === null || p.score === undefined ? "" : ` ${p.score}`)));
}

/** Send a photo of the final table, shrunk on the device first (a phone photo is several MB;
 *  the Pi keeps at most 1600 px on the long side as JPEG). */
export async function uploadPhoto(gameId, file) {
  const bitmap = await createImageBitmap(file);
  const scale = Math.min(1, 1600 / Math.max(bitmap.width, bitmap.height));
  const canvas = document.createElement("canvas");
  canvas.width = Math.round(bitmap.width * scale);
  canvas.height = Math.round(bitmap.height * scale);
  canvas.getContext("2d").drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  const blob = await new Promise((resolve) => canvas.toBlob(resolve, "image/jpeg", 0.85));
  return api(`${BASE}/games/${gameId}/photo`, { method: "PUT", body: blob }); // a JPEG Blob
}

export const catalogue = () => api(`${BASE}/catalogue`);
