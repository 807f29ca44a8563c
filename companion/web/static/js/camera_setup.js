// Camera set-up page: live picture → photo; drag the tray outline; tap one cube per colour
// (the game's colours first, others skippable; optionally plain tray); check → save; history.
// All coordinates sent to the server are camera pixels (the overlay's viewBox is the photo).
import { api } from "./api.js";
import { el, clear, showError, cubeList, svg } from "./dom.js";
import { t, colourName } from "./i18n.js";

const COLOURS = ["red", "blue", "yellow", "purple", "black", "green"];
const image = document.getElementById("camera-image");
const overlay = document.getElementById("camera-overlay");
const errorBox = document.getElementById("camera-error");
const stateLine = document.getElementById("camera-state");
const checkButton = document.getElementById("camera-check");
const saveButton = document.getElementById("camera-save");

const page = {
  size: null, // [width, height] of the camera photo
  live: true,
  photo: null, // {photo, url, width, height} once taken
  outline: null, // [[x, y], …]
  wanted: [], // colours to tap, in order (the game's colours preselected)
  taps: [], // [{color, x, y}] (color null = plain tray)
  current: null, // the colour the next tap is for ("background" for plain tray)
  checked: false,
};

function defaultOutline([w, h]) {
  return [[0.1 * w, 0.1 * h], [0.9 * w, 0.1 * h], [0.9 * w, 0.9 * h], [0.1 * w, 0.9 * h]].map((p) => p.map(Math.round));
}

/** Camera pixels of a pointer event on the picture. */
function toPhoto(event) {
  const rect = overlay.getBoundingClientRect();
  const [w, h] = page.size;
  return [Math.round(((event.clientX - rect.left) / rect.width) * w), Math.round(((event.clientY - rect.top) / rect.height) * h)];
}

function draw() {
  if (!page.size) return;
  const [w, h] = page.size;
  overlay.setAttribute("viewBox", `0 0 ${w} ${h}`);
  // A corner a finger can take: at least 22 screen pixels in radius, however small the picture.
  const shown = overlay.getBoundingClientRect().width || w;
  const r = Math.max(Math.max(w, h) / 55, (22 * w) / shown);
  const nodes = [svg("polygon", { class: "outline", points: page.outline.map((p) => p.join(",")).join(" ") })];
  page.outline.forEach(([x, y], i) => {
    const c = svg("circle", { class: "corner", cx: x, cy: y, r, "data-corner": i });
    nodes.push(c);
  });
  for (const tap of page.taps) {
    nodes.push(svg("circle", { class: `tap tap-${tap.color || "background"}`, cx: tap.x, cy: tap.y, r: r * 0.7,
      "data-tap": tap.color || "background" }));
  }
  overlay.replaceChildren(...nodes);
}

// --- the live picture: fetched a few times a second while this page is visible and not frozen.
let objectUrl = null;
let polling = false;
async function poll() {
  if (polling) return;
  polling = true;
  try {
    while (page.live && document.visibilityState === "visible") {
      try {
        const response = await fetch("/api/camera/preview.jpg", { cache: "no-store" });
        if (!response.ok) throw new Error((await response.json().catch(() => null))?.error?.message || t("camera_no_picture"));
        const size = [Number(response.headers.get("X-Photo-Width")), Number(response.headers.get("X-Photo-Height"))];
        const blob = await response.blob();
        if (!page.live) break;
        const resized = !page.size || page.size[0] !== size[0] || !overlay.firstChild;
        if (resized) { page.size = size; page.outline = page.outline || defaultOutline(size); }
        const url = URL.createObjectURL(blob);
        image.src = url;
        if (objectUrl) URL.revokeObjectURL(objectUrl);
        objectUrl = url;
        image.dataset.live = "1";
        if (resized) draw(); // the outline is redrawn only when it changes (a drag keeps its handle)
        showError(errorBox, null);
      } catch (err) {
        showError(errorBox, err);
      }
      await new Promise((resolve) => setTimeout(resolve, 250)); // about 4 pictures a second
    }
  } finally {
    polling = false;
  }
}
document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible" && page.live) poll(); });

async function takePhoto() {
  page.live = false;
  try {
    page.photo = await api("/api/camera/photos", { method: "POST" });
    page.size = [page.photo.width, page.photo.height];
    page.outline = page.outline || defaultOutline(page.size);
    page.taps = [];
    page.checked = false;
    image.src = page.photo.url;
    image.dataset.live = "0";
    image.dataset.photo = page.photo.photo;
    document.getElementById("camera-live").hidden = false;
    stateLine.textContent = t("camera_photo_taken");
    draw();
    renderColours();
    showError(errorBox, null);
  } catch (err) {
    showError(errorBox, err);
    goLive();
  }
}

function goLive() {
  page.live = true;
  page.photo = null;
  page.taps = [];
  delete image.dataset.photo;
  document.getElementById("camera-live").hidden = true;
  stateLine.textContent = t("camera_live_state");
  renderColours();
  poll();
}

// --- dragging the corners and tapping cubes (pointer events: mouse, touch and pen alike).
let dragging = null;
overlay.addEventListener("pointerdown", async (event) => {
  if (!page.size) return;
  event.preventDefault();
  const corner = event.target.getAttribute?.("data-corner");
  if (corner !== null && corner !== undefined) {
    dragging = Number(corner);
    overlay.setPointerCapture(event.pointerId);
    return;
  }
  const point = toPhoto(event);
  if (!page.photo) await takePhoto(); // a tap on the live picture freezes it
  if (!page.photo || !page.current) return;
  const color = page.current === "background" ? null : page.current;
  page.taps = page.taps.filter((tp) => color === null || tp.color !== color);
  page.taps.push({ color, x: point[0], y: point[1] });
  page.checked = false;
  page.current = nextColour();
  draw();
  renderColours();
});
overlay.addEventListener("pointermove", (event) => {
  if (dragging === null) return;
  const [w, h] = page.size;
  const [x, y] = toPhoto(event);
  page.outline[dragging] = [Math.min(w - 1, Math.max(0, x)), Math.min(h - 1, Math.max(0, y))];
  page.checked = false;
  draw();
});
const endDrag = () => { dragging = null; renderColours(); };
overlay.addEventListener("pointerup", endDrag);
overlay.addEventListener("pointercancel", endDrag);

// --- the colours to tap
function nextColour() {
  return page.wanted.find((c) => !page.taps.some((tp) => tp.color === c)) || null;
}

function renderColours() {
  if (page.current === undefined || (page.current && page.current !== "background" && !page.wanted.includes(page.current))) page.current = nextColour();
  const chips = COLOURS.map((c) => {
    const wanted = page.wanted.includes(c);
    const done = page.taps.some((tp) => tp.color === c);
    const chip = el("button", { type: "button", class: `btn chip${page.current === c ? " current" : ""}${done ? " done" : ""}${wanted ? "" : " skipped"}`,
      "data-colour": c, "aria-pressed": String(page.current === c), onclick: () => {
        if (!page.wanted.includes(c)) page.wanted.push(c);
        page.current = c;
        renderColours();
      } }, el("span", { class: `swatch c-${c}`, "aria-hidden": "true" }), colourName(c));
    const skip = wanted ? el("button", { type: "button", class: "btn small", "data-skip": c, "aria-label": t("camera_skip_colour", { colour: colourName(c) }), onclick: () => {
      page.wanted = page.wanted.filter((w) => w !== c);
      page.taps = page.taps.filter((tp) => tp.color !== c);
      if (page.current === c) page.current = nextColour();
      page.checked = false;
      showError(errorBox, null); // a refusal about the skipped colour is old news
      draw();
      renderColours();
    } }, t("camera_skip")) : null;
    return el("span", { class: "row" }, chip, skip);
  });
  const background = el("button", { type: "button", class: `btn chip${page.current === "background" ? " current" : ""}${page.taps.some((tp) => tp.color === null) ? " done" : ""}`,
    id: "camera-background", onclick: () => { page.current = "background"; renderColours(); } }, t("camera_background"));
  clear(document.getElementById("camera-colours"), chips, background);
  const ready = page.photo && page.taps.some((tp) => tp.color);
  checkButton.disabled = !ready;
  saveButton.disabled = !ready || !page.checked;
  stateLine.textContent = !page.photo ? t("camera_live_state")
    : page.current === "background" ? t("camera_tap_background")
    : page.current ? t("camera_tap_colour", { colour: colourName(page.current) }) : t("camera_all_tapped");
}

function body() {
  return { photo: page.photo.photo, outline: page.outline, taps: page.taps };
}

function warningText(w) {
  const [a, b] = (w.colors || []).map(colourName);
  if (w.kind === "alike") return t("camera_warn_alike", { a, b });
  if (w.kind === "like_tray") return t("camera_warn_like_tray", { a });
  if (w.kind === "not_found") return t("camera_warn_not_found", { a });
  if (w.kind === "sides_unmeasured") return t("camera_warn_sides_unmeasured");
  return w.kind;
}

async function check() {
  checkButton.disabled = true;
  const result = document.getElementById("camera-result");
  clear(result, el("p", { class: "muted" }, t("camera_checking")));
  try {
    const answer = await api("/api/camera/check", { method: "POST", body: body() });
    page.checked = true;
    showError(errorBox, null);
    clear(result,
      el("p", { id: "camera-found" }, t("camera_found"), " ", cubeList(answer.found, t("camera_found_nothing"))),
      answer.warnings.length ? el("ul", { class: "camera-warnings", id: "camera-warnings" }, answer.warnings.map((w) => el("li", {}, warningText(w)))) : el("p", { class: "ok" }, t("camera_no_warnings")),
      el("img", { src: `${answer.checked_url}?t=${Date.now()}`, alt: t("camera_checked_alt") }));
  } catch (err) {
    page.checked = false;
    clear(result);
    showError(errorBox, err);
  }
  renderColours();
}

async function save() {
  saveButton.disabled = true;
  try {
    await api("/api/camera/calibrations", { method: "POST", body: body() });
    clear(document.getElementById("camera-result"), el("p", { class: "ok", id: "camera-saved", role: "status" }, t("camera_saved")));
    showError(errorBox, null);
    await loadHistory();
  } catch (err) {
    showError(errorBox, err);
  }
  renderColours();
}

function renderHistory(entries) {
  const items = entries.map((e) => el("li", { "data-id": e.id },
    el("img", { src: e.thumbnail_url, alt: t("camera_thumbnail_alt"), loading: "lazy" }),
    el("span", {}, el("strong", {}, e.origin ? t(`camera_origin_${e.origin}`) : new Date(e.created_at).toLocaleString()), " — ", e.colors.map(colourName).join(", "),
      e.active ? el("span", { class: "badge" }, " ", t("camera_active")) : null),
    e.active ? null : el("button", { type: "button", class: "btn", "data-restore": e.id, onclick: () => act(`/api/camera/calibrations/${e.id}/restore`, "POST") }, t("camera_restore")),
    e.active ? null : el("button", { type: "button", class: "btn danger", "data-delete": e.id, onclick: () => { if (confirm(t("camera_delete_confirm"))) act(`/api/camera/calibrations/${e.id}`, "DELETE"); } }, t("camera_delete"))));
  clear(document.getElementById("camera-history"), items.length ? items : el("li", { class: "muted" }, t("camera_none_saved")));
}

async function act(path, method) {
  try { renderHistory((await api(path, { method })).calibrations); showError(errorBox, null); } catch (err) { showError(errorBox, err); }
}

async function loadHistory() {
  renderHistory((await api("/api/camera/calibrations")).calibrations);
}

async function start() {
  try {
    const info = await api("/api/camera");
    if (info.image_size) page.size = info.image_size;
    if (info.outline) page.outline = info.outline;
    const game = new URLSearchParams(location.search).get("game");
    page.wanted = info.colors.length ? [...info.colors] : [...COLOURS];
    if (game) {
      try {
        const { state } = await api(`/api/games/${encodeURIComponent(game)}`);
        page.wanted = [...new Set([...(state.players || []).map((p) => p.color), "green"])];
      } catch { /* the game is gone: every colour */ }
    }
    page.current = nextColour();
    renderHistory(info.calibrations);
  } catch (err) {
    showError(errorBox, err);
  }
  renderColours();
  poll();
}

window.addEventListener("resize", draw);
document.getElementById("camera-take").addEventListener("click", takePhoto);
document.getElementById("camera-live").addEventListener("click", goLive);
document.getElementById("camera-outline-reset").addEventListener("click", () => { if (page.size) { page.outline = defaultOutline(page.size); page.checked = false; draw(); renderColours(); } });
checkButton.addEventListener("click", check);
saveButton.addEventListener("click", save);
start();
