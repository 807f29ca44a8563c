// The reading screen shared by the battle and the seeding: the annotated photo, per-colour
// +/- counters initialised from the camera, and the count button (on-screen = physical button).
import { api } from "./api.js";
import { el, clear, showError, stepper } from "./dom.js";
import { t, colourName } from "./i18n.js";

/** Start a count on the server (same path as the tower's button). Resolves with the reading. */
export async function countTray(ctx) {
  const answer = await api(`/api/games/${ctx.id}/battle/count`, { method: "POST", body: {} });
  return answer.reading ?? answer;
}

/** The "throw everything, then press the button" block. onReading(reading|null) — null = manual. */
export function pressBlock(ctx, onReading) {
  const status = el("p", { class: "muted", role: "status" });
  const error = el("div", { class: "error", hidden: true, role: "alert" });
  const press = el("button", { type: "button", class: "btn primary big", id: "press-button", onclick: async () => {
    press.disabled = true;
    showError(error, null);
    status.textContent = t("counting");
    try {
      const reading = await countTray(ctx);
      status.textContent = "";
      onReading(reading);
    } catch (err) {
      status.textContent = "";
      showError(error, err.status === 503 ? t("camera_unavailable", { reason: err.message }) : err);
      press.disabled = false;
    }
  } }, t("press_button"));
  const manual = el("button", { type: "button", class: "btn", id: "manual-count", onclick: () => onReading(null) }, t("count_by_hand"));
  return el("section", { class: "panel press" },
    el("p", { class: "big-instruction" }, el("strong", {}, t("throw_then_press"))),
    el("p", { class: "hint" }, t("physical_button_hint")),
    el("div", { class: "row" }, press, manual), status, error);
}

/** Counters for `colours`, starting at the reading's counts. onchange(counts) after every tap. */
export function countEditor(colours, reading, onchange) {
  const counts = {};
  const rows = colours.map((c) => {
    counts[c] = reading?.counts?.[c] ?? 0;
    const s = stepper({ value: counts[c], min: 0, max: 60, label: colourName(c), name: `count_${c}`,
      onchange: (v) => { counts[c] = v; onchange({ ...counts }); } });
    return el("div", { class: "count-row", "data-colour": c },
      el("span", { class: "who" }, el("span", { class: `swatch c-${c}`, "aria-hidden": "true" }), colourName(c)), s.node);
  });
  const photo = reading?.annotated_url || reading?.photo_url;
  return {
    node: el("div", { class: "reading" },
      photo ? el("figure", {}, el("img", { class: "photo", src: photo, alt: t("annotated_photo"), id: "reading-photo" }),
        el("figcaption", { class: "hint" }, t("reading_caption", { unknown: reading.unknown ?? 0 }))) :
        el("p", { class: "hint" }, t("manual_counts")),
      el("div", { class: "counts", id: "count-editor" }, rows)),
    counts: () => ({ ...counts }),
  };
}

/** Counts without zero entries (zero counts may be omitted in every contract). */
export function compact(counts) {
  return Object.fromEntries(Object.entries(counts).filter(([, n]) => n));
}

/** Which counts differ from the camera's: logged as corrections by the server. */
export function corrected(counts, reading) {
  if (!reading?.counts) return false;
  const keys = new Set([...Object.keys(counts), ...Object.keys(reading.counts)]);
  return [...keys].some((k) => (counts[k] || 0) !== (reading.counts[k] || 0));
}

export { clear };
