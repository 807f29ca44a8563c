// Tower page: backend status, camera messages, the on-screen buttons (same path as GPIO).
import { api } from "./api.js";
import { el, clear, showError } from "./dom.js";
import { t, colourName, say } from "./i18n.js";
import { subscribe } from "./live.js";

/** A value the tower reports, in the page's language: "yes", a known word ("ready", "USB
 *  camera"), colours by name, "✓ simulated camera" for {ok, backend, description, message}. */
const word = (v) => (t(`tower_value_${v}`) === `tower_value_${v}` ? String(v) : t(`tower_value_${v}`));
function describe(value) {
  if (Array.isArray(value)) return value.length ? value.map(colourName).join(", ") : "–";
  if (value === null || typeof value !== "object") return typeof value === "boolean" ? (value ? t("yes") : t("no")) : word(value);
  if (!("ok" in value)) {
    const cubes = Object.entries(value).filter(([, n]) => n).map(([c, n]) => `${n} ${colourName(c)}`);
    return cubes.length ? cubes.join(", ") : "–";
  }
  const mark = value.ok ? "✓ " : "✗ ";
  // The simulated camera's own description ("simulated tower (seed 7)") says what its word says.
  const words = Object.entries(value).filter(([k, v]) => k !== "ok" && v !== null && v !== "" && typeof v !== "object")
    .filter(([k]) => !(k === "description" && value.backend === "synthetic"))
    .map(([k, v]) => (k === "message" ? say(v) : word(v)));
  return mark + words.join(" — ");
}

function render(status) {
  const dl = document.getElementById("tower-status");
  const rows = [];
  for (const [key, value] of Object.entries(status || {})) {
    if (key === "messages" || key === "said") continue; // said below, as a list
    rows.push(el("dt", {}, t(`tower_${key}`) === `tower_${key}` ? key.replaceAll("_", " ") : t(`tower_${key}`)),
      el("dd", { "data-status": key }, describe(value)));
  }
  clear(dl, rows);
  // No calibration yet: the set-up page is offered first (a few minutes, no typing).
  document.getElementById("camera-setup-notice").hidden = !(status?.camera?.ok && status.calibrated === false);
  clear(document.getElementById("tower-messages"), (status?.said || status?.messages || []).map((m) => el("li", {}, say(m))));
}

async function load() {
  try { render(await api("/api/tower")); showError(document.getElementById("tower-error"), null); }
  catch (err) { showError(document.getElementById("tower-error"), err); }
}

async function press(button) {
  const log = document.getElementById("press-log");
  try {
    await api("/api/tower/press", { method: "POST", body: { button } });
    log.textContent = t("pressed", { button: t(`button_${button}`) });
    showError(document.getElementById("tower-error"), null);
  } catch (err) { showError(document.getElementById("tower-error"), err); }
}

document.getElementById("press-count").addEventListener("click", () => press("count"));
document.getElementById("press-cancel").addEventListener("click", () => press("cancel"));
/** The address to type on the tablets and its QR code (an SVG made by the server, segno). */
async function loadAddress() {
  try {
    const answer = await api("/api/address");
    clear(document.getElementById("address-urls"), answer.urls.map((u) => el("li", {}, el("strong", {}, u))));
    const box = document.getElementById("address-qr");
    if (answer.qr_svg) {
      box.innerHTML = answer.qr_svg; // made by the server (segno), not typed by anyone
      const svg = box.querySelector("svg");
      svg.setAttribute("width", "100%"); svg.setAttribute("role", "img"); svg.setAttribute("aria-label", answer.urls[0]);
    }
  } catch (err) { showError(document.getElementById("tower-error"), err); }
}

subscribe(null, { tower: render, reconnected: load });
load();
loadAddress();
