// Chart.js (vendored: /assets/vendor/chart.umd.min.js, MIT, loaded by the page as a classic
// script that defines window.Chart) with the companion's colours and no animation, so a chart
// is drawn at once on a slow tablet and the browser tests see it finished.
import { LANG, t } from "./i18n.js";

const css = getComputedStyle(document.documentElement);
export const COLOUR_HEX = Object.fromEntries(["red", "blue", "yellow", "purple", "black", "green"]
  .map((c) => [c, css.getPropertyValue(`--${c}`).trim() || c]));

const charts = new Map(); // canvas id → Chart, so a redraw replaces the old chart

/** Draw (or redraw) a chart into the canvas with `id`; returns the Chart or null without Chart.js. */
export function draw(id, config) {
  const canvas = document.getElementById(id);
  if (!canvas || !window.Chart) return null;
  charts.get(id)?.destroy();
  const chart = new window.Chart(canvas, {
    ...config,
    // Tick and tooltip numbers in the page's language (0,33 on a German page), whatever the browser's.
    options: { animation: false, responsive: true, maintainAspectRatio: false, locale: LANG, ...(config.options || {}) },
  });
  charts.set(id, chart);
  return chart;
}

/** WCAG relative luminance of "#rgb" / "#rrggbb" (0 black … 1 white); null if not a hex colour. */
export function luminance(hex) {
  const m = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(String(hex).trim());
  if (!m) return null;
  const h = m[1].length === 3 ? [...m[1]].map((x) => x + x).join("") : m[1];
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16) / 255)
    .map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

const contrast = (a, b) => (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);

/** The ring around a marker drawn over a bar of `hex` (and filled with it): white on a dark bar,
 *  the ink colour on a light one — whichever stands out more, so a black point on the black
 *  bar is still seen. */
export function ringFor(hex) {
  const l = luminance(hex);
  if (l === null) return "#fff";
  const ink = css.getPropertyValue("--ink").trim() || "#1b1b1f";
  return contrast(l, 1) >= contrast(l, luminance(ink) ?? 0) ? "#fff" : ink;
}

export const percent = (v) => (v === null || v === undefined ? "–" : `${Math.round(v * 100)} %`);

/** A fitted rate with its 95 % range, "62 % (48 %–75 %)"; at the edge of the fit too, "100 %
 *  (65 %–100 %)" (the model gives a boundary-aware range there). Without a range (no throws to
 *  narrow it) it says so; "–" without a fit. */
export function rateText(x) {
  if (!x) return "–";
  if (x.low === null || x.low === undefined || x.high === null || x.high === undefined) return `${percent(x.estimate)} (${t("stat_no_range")})`;
  return `${percent(x.estimate)} (${percent(x.low)}–${percent(x.high)})`;
}
