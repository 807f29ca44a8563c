// The reading screen shared by the battle and the seeding: the annotated photo, per-colour
// +/- counters and the count button (on-screen = physical button).
//
// The reading is server state (`state.reading`): every device shows the same counts, and each
// +/- is sent at once as a `correct_tray` command, which every other device sees live with
// the name of this device. Applying names the version it was shown; if someone corrected the
// reading since, the server refuses and says what changed.
import { api } from "./api.js";
import { el, showError, stepper } from "./dom.js";
import { t, colourName } from "./i18n.js";
import { readingOf, zoomable } from "./photo_view.js";

const DEVICE_KEY = "companion-device";

/** The name this device gives itself in corrections ("Ani's phone"), or null. */
export function deviceName() {
  try { return (localStorage.getItem(DEVICE_KEY) || "").trim().slice(0, 60) || null; } catch { return null; }
}
export function setDeviceName(name) {
  try { localStorage.setItem(DEVICE_KEY, (name || "").trim().slice(0, 60)); } catch { /* private mode */ }
}

/** Start a count on the server (same path as the tower's button). Resolves with the answer
 *  {reading, state}. */
export async function countTray(ctx) {
  return api(`/api/games/${ctx.id}/battle/count`, { method: "POST", body: {} });
}

/** The "throw everything, then press the button" block. onReading(answer|null) — null = by hand. */
export function pressBlock(ctx, onReading) {
  const status = el("p", { class: "muted", role: "status" });
  const error = el("div", { class: "error", hidden: true, role: "alert" });
  const press = el("button", { type: "button", class: "btn primary big", id: "press-button", onclick: async () => {
    press.disabled = true;
    showError(error, null);
    status.textContent = t("counting");
    try {
      const answer = await countTray(ctx);
      status.textContent = "";
      onReading(answer);
    } catch (err) {
      status.textContent = "";
      if (err.kind === "TrayNotEmptyError") {
        showTrayLeft(error, ctx);
      } else if (err.kind === "TrayNotCheckedError") {
        check.hidden = false; // a real tower: the empty tray is checked before the throw
        showError(error, err);
      } else {
        showError(error, err.status === 503 ? t("camera_unavailable", { reason: err.message }) : err);
      }
      press.disabled = false;
    }
  } }, t("press_button"));
  const manual = el("button", { type: "button", class: "btn", id: "manual-count", onclick: () => onReading(null) }, t("count_by_hand"));
  // A real tower: before the throw, the empty tray is photographed (its light reference). The
  // simulated tower checks it itself when it throws.
  const check = el("button", { type: "button", class: "btn primary big", id: "tray-check-button", hidden: true, onclick: async () => {
    check.disabled = true;
    showError(error, null);
    status.textContent = t("counting");
    try {
      await api(`/api/games/${ctx.id}/battle/tray-check`, { method: "POST", body: {} });
      status.textContent = t("tray_checked_empty");
      check.hidden = true;
    } catch (err) {
      status.textContent = "";
      if (err.kind === "TrayNotEmptyError") showTrayLeft(error, ctx); else showError(error, err);
    }
    check.disabled = false;
  } }, t("tray_check"));
  const towerNow = api("/api/tower"); // one request for the check button and the calibration notice
  towerNow.then((tower) => { if (!tower.simulated && !tower.empty_tray_ready) check.hidden = false; }).catch(() => {});
  // Another tablet (or the tower's button) checked the tray: every tablet follows.
  const onTower = (event) => {
    if (!block.isConnected) { document.removeEventListener("companion:tower", onTower); return; }
    const tower = event.detail || {};
    if (tower.simulated === false) check.hidden = Boolean(tower.empty_tray_ready);
    if (tower.empty_tray_ready && error.dataset.kind === "TrayNotEmptyError") { error.hidden = true; delete error.dataset.kind; }
  };
  document.addEventListener("companion:tower", onTower);
  const notice = el("p", { class: "notice", id: "calibration-notice", role: "note", hidden: true });
  calibrationGaps(ctx, towerNow).then((missing) => {
    if (!missing.length) return;
    const words = missing === UNCALIBRATED ? t("camera_not_calibrated")
      : t("camera_lacks_colours", { colours: missing.map(colourName).join(", ") });
    notice.replaceChildren(words, " ", el("a", { href: `/tower/camera?game=${ctx.id}` }, t("calibrate_camera")));
    notice.hidden = false;
    manual.classList.add("primary");
  });
  const block = el("section", { class: "panel press" },
    el("p", { class: "big-instruction" }, el("strong", {}, t("throw_then_press"))),
    el("p", { class: "hint" }, t("physical_button_hint")),
    notice,
    el("div", { class: "row" }, check, press, manual), status, error);
  return block;
}

/** Cubes still in the tray before the throw: "2 red, 1 black — clear the tray" in this tablet's
 *  language (from the tower status), and on the simulated tower a button that clears it. */
async function showTrayLeft(error, ctx) {
  let tower = {};
  try { tower = await api("/api/tower"); } catch { /* the words below still say it */ }
  const what = Object.entries(tower.tray_left || {}).map(([c, n]) => `${n} ${colourName(c)}`).join(", ");
  const parts = [t("tray_not_empty", { what })];
  if (tower.simulated) {
    parts.push(" ", el("button", { type: "button", class: "btn", id: "clear-sim-tray", onclick: async () => {
      await api("/api/tower/simulated-tray", { method: "PUT", body: { cubes: {} } });
      error.hidden = true;
    } }, t("tray_clear_sim")));
  }
  error.replaceChildren(...parts);
  error.hidden = false;
  error.dataset.kind = "TrayNotEmptyError";
}

/** The game's colours (and green) that the camera's calibration has no sample of — the tablet
 *  says so before the throw; the server refuses a camera count for them anyway. ``towerStatus``:
 *  the pending answer of GET /api/tower (shared with the check button). */
const UNCALIBRATED = ["(no calibration)"]; // every colour is missing: no calibration at all
async function calibrationGaps(ctx, towerStatus) {
  try {
    const tower = await towerStatus;
    if (tower.camera?.ok && tower.calibrated === false) return UNCALIBRATED;
    if (!tower.calibrated || !Array.isArray(tower.calibrated_colors)) return [];
    const known = new Set(tower.calibrated_colors);
    return [...(ctx.state.players || []).map((p) => p.color), "green"].filter((c) => !known.has(c));
  } catch {
    return []; // the tower page says what is wrong with the camera
  }
}

/** What the camera doubted in the stored reading (least sure first), or [] — for the
 *  correction screen, so the players check those first. */
// The full-screen photo view asks the same reading: one cache for both (photo_view.js).
const storedReading = (readingId) => (readingId ? readingOf(readingId).catch(() => ({})) : Promise.resolve({}));
function doubtsOf(readingId) {
  return storedReading(readingId).then((r) => (Array.isArray(r.doubtful) ? r.doubtful : []));
}

function doubtText(doubt) {
  return doubt.reason === "colour"
    ? t("camera_doubt_colour", { other: colourName(doubt.alternative) })
    : t("camera_doubt_size", { n: doubt.cubes, other: doubt.alternative });
}

/** Who made a change, in words: this device, a named one, or "another tablet". */
function byWhom(change) {
  if (change.device && change.device === deviceName()) return t("this_device");
  return change.device || t("another_tablet");
}

// Taps not yet confirmed by the server, per colour: {value, sending}. One request per colour
// is in flight at a time; taps meanwhile only move the value, and the last one is sent next.
// So fast tapping never makes the counter jump back to an older value from the server.
const pending = new Map();
let waiters = [];

function markPending() {
  document.body.dataset.pending = String(pending.size); // for tests and the curious: taps in flight
  if (pending.size === 0) { for (const w of waiters) w(); waiters = []; }
}

/** Resolves once every tap of this device reached the server (apply decides on that version). */
export function settled() {
  return pending.size === 0 ? Promise.resolve() : new Promise((resolve) => waiters.push(resolve));
}

/** Say that a correction was refused: under the counters, or — when another device applied
 *  the battle while this tap was on its way (its panel is redrawn, before or after this
 *  answer) — above the panel, so a refused tap is never silent. */
function refused(node, colour, value, err) {
  // A wrong phase means the battle ended elsewhere: its panel is (or is about to be) replaced.
  if (node?.isConnected && err.kind !== "WrongPhaseError") { showError(node, err); return; }
  const notice = document.getElementById("panel-notice");
  if (!notice) return;
  notice.textContent = t("correction_refused", { colour: colourName(colour), n: value, reason: err.message });
  notice.hidden = false;
}

async function push(ctx, colour, error) {
  const p = pending.get(colour);
  if (!p || p.sending) return;
  p.sending = true;
  const value = p.value;
  const command = { type: "correct_tray", color: colour, count: value };
  const device = deviceName();
  if (device) command.device = device;
  try {
    showError(error(), null);
    // Absolute and self-contained: it does not depend on anything else on screen.
    await ctx.send(command, { versioned: false });
  } catch (err) {
    if (err.kind !== "IllegalActionError") refused(error(), colour, value, err); // "already counts n": fine
  } finally {
    p.sending = false;
    if (p.value === value) pending.delete(colour);
    else push(ctx, colour, error);
    markPending();
  }
}

/** Counters for `colours` showing the shared reading; each tap corrects it on the server, and
 *  every device's panel follows. onchange(counts) after every change (for the preview).
 *  Returns {node, counts(), refresh()} — refresh() shows a newer shared reading in place (no
 *  redraw, so a finger on a button never loses its tap). */
export function countEditor(ctx, colours, onchange) {
  if (!ctx.state.reading) for (const [c, p] of pending) if (!p.sending) pending.delete(c);
  markPending();
  const error = el("div", { class: "error", hidden: true, role: "alert", id: "count-error" });
  const current = () => {
    const server = ctx.state.reading?.counts || {};
    return Object.fromEntries(colours.map((c) => [c, pending.has(c) ? pending.get(c).value : server[c] ?? 0]));
  };
  let counts = current();
  const steppers = new Map();
  const cameraNotes = new Map();
  const rows = colours.map((c) => {
    const s = stepper({ value: counts[c], min: 0, max: 60, label: colourName(c), name: `count_${c}`,
      onchange: (v) => {
        const p = pending.get(c);
        if (p) p.value = v; else pending.set(c, { value: v, sending: false });
        markPending();
        counts = current();
        paintCamera();
        onchange({ ...counts });
        push(ctx, c, () => error);
      } });
    steppers.set(c, s);
    cameraNotes.set(c, el("span", { class: "muted", "data-camera": c }));
    return el("div", { class: "count-row", "data-colour": c },
      el("span", { class: "who" }, el("span", { class: `swatch c-${c}`, "aria-hidden": "true" }), colourName(c)), s.node,
      cameraNotes.get(c));
  });
  const paintCamera = () => {
    const camera = ctx.state.reading?.camera;
    for (const c of colours) {
      const differs = camera && (camera[c] || 0) !== (counts[c] || 0);
      cameraNotes.get(c).textContent = differs ? t("camera_saw", { n: camera[c] || 0 }) : "";
    }
  };
  const changes = el("ul", { class: "hint changes", id: "reading-changes" });
  const paintChanges = () => {
    const list = (ctx.state.reading?.changes || []).slice(-4).reverse();
    changes.replaceChildren(...list.map((ch) => el("li", { "data-colour": ch.color },
      t("reading_change", { colour: colourName(ch.color), from: ch.from, to: ch.to, who: byWhom(ch) }))));
    changes.hidden = list.length === 0;
  };
  const editor = el("div", { class: "counts", id: "count-editor", "data-version": ctx.state.version }, rows);
  paintCamera();
  paintChanges();
  const reading = ctx.state.reading;
  // The colours the camera doubted go first, each saying what it doubted.
  doubtsOf(reading?.id).then((doubts) => {
    const seen = new Set();
    for (const doubt of [...doubts].reverse()) {
      const row = editor.querySelector(`.count-row[data-colour="${doubt.color}"]`);
      if (!row) continue;
      row.classList.add("doubtful");
      if (!seen.has(doubt.color)) {
        row.append(el("span", { class: "doubt", "data-doubt": doubt.reason }, doubtText(doubt)));
        seen.add(doubt.color);
      }
      editor.prepend(row);
    }
  });
  const photo = reading?.id ? `/api/readings/${reading.id}/annotated.jpg` : null;
  // The tray checked empty before the throw, beside the counted photo (what changed is the throw).
  const emptyFigure = el("figure", { id: "reading-empty", hidden: true });
  storedReading(reading?.id).then((stored) => {
    if (!stored.empty_url) return;
    emptyFigure.replaceChildren(el("img", { class: "photo", src: stored.empty_url, alt: t("empty_tray_photo") }),
      el("figcaption", { class: "hint" }, t("empty_tray_caption")));
    emptyFigure.hidden = false;
  });
  return {
    node: el("div", { class: "reading" },
      photo ? el("figure", {}, zoomable(el("img", { class: "photo", src: photo, alt: t("annotated_photo"), id: "reading-photo" }), reading.id),
        el("figcaption", { class: "hint" }, t("reading_caption", { unknown: reading.unknown ?? 0 }))) :
        el("p", { class: "hint" }, t("manual_counts")),
      emptyFigure, editor, error, changes),
    counts: () => ({ ...counts }),
    refresh() {
      const before = JSON.stringify(counts);
      counts = current();
      for (const c of colours) steppers.get(c).show(counts[c]);
      editor.dataset.version = ctx.state.version;
      paintCamera();
      paintChanges();
      if (JSON.stringify(counts) !== before) onchange({ ...counts });
    },
  };
}

/** Counts without zero entries (zero counts may be omitted in every contract). */
export function compact(counts) {
  return Object.fromEntries(Object.entries(counts).filter(([, n]) => n));
}

/** Do the counts differ from the camera's? (logged as corrections by the server) */
export function corrected(counts, reading) {
  if (!reading?.camera) return false;
  const keys = new Set([...Object.keys(counts), ...Object.keys(reading.camera)]);
  return [...keys].some((k) => (counts[k] || 0) !== (reading.camera[k] || 0));
}
