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

export const percent = (v) => (v === null || v === undefined ? "–" : `${Math.round(v * 100)} %`);

/** A fitted rate with its 95 % range, "62 % (48 %–75 %)"; a range the data cannot narrow at
 *  all (0–100 %: e.g. every thrown cube landed, a fit at the edge) says so instead of showing it,
 *  and "–" without a fit. */
export function rateText(x) {
  if (!x) return "–";
  if (x.low <= 0 && x.high >= 1) return `${percent(x.estimate)} (${t("stat_no_range")})`;
  return `${percent(x.estimate)} (${percent(x.low)}–${percent(x.high)})`;
}
