// The tray photo full screen: a tap on the small photo opens the camera's own photo as large as
// the screen allows, with a ring around every cube the camera counted (its colour, from the
// reading's `cubes`: x, y in photo pixels, optional bbox) and a dashed box round every place
// it doubted (the reading's `doubtful`, each with a bbox), so the table can check it against
// the real tray. Esc, the close button or a tap on the photo closes it.
import { api } from "./api.js";
import { el, clear, svg } from "./dom.js";
import { t, colourName } from "./i18n.js";

const STROKE = { red: "#ff5252", blue: "#448aff", yellow: "#ffd600", purple: "#e040fb", black: "#ffffff", green: "#69f0ae" };
const readings = new Map(); // a stored reading never changes: asked once per page

/** A stored reading (``GET /api/readings/<id>``'s `reading`), fetched once per page. */
export function readingOf(id) {
  if (!readings.has(id)) {
    readings.set(id, api(`/api/readings/${id}`).then((answer) => answer.reading || answer)
      .catch((err) => { readings.delete(id); throw err; }));
  }
  return readings.get(id);
}

/** Rings over the photo, and dashed boxes round the doubtful places, in the photo's own pixel
 *  coordinates (the SVG's viewBox). */
function marks(cubes, doubts, width, height) {
  const layer = svg("svg", { viewBox: `0 0 ${width} ${height}`, preserveAspectRatio: "none", "aria-hidden": "true" });
  const fallback = Math.max(width, height) / 40;
  for (const c of cubes) {
    const r = Array.isArray(c.bbox) && c.bbox.length === 4 ? Math.max(c.bbox[2], c.bbox[3]) * 0.75 : fallback;
    const ring = svg("circle", { cx: c.x, cy: c.y, r, class: "cube-mark", stroke: STROKE[c.color] || "#fff" });
    ring.dataset.colour = c.color;
    layer.append(ring);
  }
  for (const d of doubts) {
    if (!Array.isArray(d.bbox) || d.bbox.length !== 4) continue;
    const [x, y, w, h] = d.bbox;
    const box = svg("rect", { x, y, width: w, height: h, class: "doubt-mark", stroke: STROKE[d.color] || "#fff" });
    box.dataset.colour = d.color;
    layer.append(box);
  }
  return layer;
}

function legend(cubes) {
  const n = {};
  for (const c of cubes) n[c.color] = (n[c.color] || 0) + 1;
  return Object.entries(n).map(([c, k]) => `${colourName(c)} ${k}`).join(" · ");
}

let viewer = null;
function theViewer() {
  if (viewer) return viewer;
  viewer = el("dialog", { id: "photo-viewer", class: "photo-viewer", "aria-label": t("annotated_photo") });
  viewer.addEventListener("click", (e) => { if (e.target === viewer || e.target.closest(".stage")) viewer.close(); });
  document.body.append(viewer);
  return viewer;
}

/** Open reading `id`'s photo full screen with its cubes marked. */
export async function openPhoto(id) {
  const dialog = theViewer();
  const close = el("button", { class: "btn", type: "button", onclick: () => dialog.close() }, t("close"));
  const caption = el("span", { class: "legend", role: "status" }, t("loading"));
  const image = el("img", { alt: t("annotated_photo") });
  const frame = el("div", { class: "frame" }, image);
  clear(dialog, el("div", { class: "viewer-bar" }, caption, close), el("div", { class: "stage" }, frame));
  if (!dialog.open) dialog.showModal();
  close.focus();
  let reading;
  try {
    reading = await readingOf(id);
  } catch (err) {
    caption.textContent = err.message;
    image.src = `/api/readings/${id}/annotated.jpg`;
    return;
  }
  const cubes = Array.isArray(reading.cubes) ? reading.cubes : [];
  const doubts = Array.isArray(reading.doubtful) ? reading.doubtful : [];
  image.src = reading.photo_url || `/api/readings/${id}/photo.jpg`;
  await image.decode().catch(() => {});
  if (image.naturalWidth) frame.append(marks(cubes, doubts, image.naturalWidth, image.naturalHeight));
  caption.textContent = cubes.length ? t("photo_marked", { list: legend(cubes) }) : t("annotated_photo");
}

/** Make a small photo (an <img data-reading="id">) open the full-screen view when tapped. */
export function zoomable(img, id) {
  img.dataset.reading = id;
  img.setAttribute("role", "button");
  img.setAttribute("tabindex", "0");
  img.setAttribute("title", t("photo_open"));
  img.addEventListener("click", () => openPhoto(id));
  img.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); openPhoto(id); } });
  return img;
}
