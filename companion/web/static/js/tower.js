// Tower page: backend status, camera messages, the on-screen buttons (same path as GPIO).
import { api } from "./api.js";
import { el, clear, showError } from "./dom.js";
import { t } from "./i18n.js";
import { subscribe } from "./live.js";

/** "✓ synthetic — simulated tower (seed 7)" for {ok, backend, description, message}. */
function describe(value) {
  if (value === null || typeof value !== "object") return typeof value === "boolean" ? (value ? t("yes") : t("no")) : String(value);
  const mark = "ok" in value ? (value.ok ? "✓ " : "✗ ") : "";
  const words = Object.entries(value).filter(([k, v]) => k !== "ok" && v !== null && v !== "" && typeof v !== "object")
    .map(([, v]) => String(v));
  return mark + words.join(" — ");
}

function render(status) {
  const dl = document.getElementById("tower-status");
  const rows = [];
  for (const [key, value] of Object.entries(status || {})) {
    if (key === "messages") continue;
    rows.push(el("dt", {}, t(`tower_${key}`) === `tower_${key}` ? key.replaceAll("_", " ") : t(`tower_${key}`)),
      el("dd", { "data-status": key }, describe(value)));
  }
  clear(dl, rows);
  clear(document.getElementById("tower-messages"), (status?.messages || []).map((m) => el("li", {}, m)));
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
