// Tiny DOM helpers: build elements without innerHTML, so names typed by players stay text.
import { colourName } from "./i18n.js";

/** el("div", {class: "x", onclick: f}, child, "text", …) */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key === "text") node.textContent = value;
    else if (value === true) node.setAttribute(key, "");
    else node.setAttribute(key, String(value));
  }
  append(node, children);
  return node;
}

function append(node, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

export function clear(node, ...children) {
  node.replaceChildren();
  append(node, children);
  return node;
}

/** A colour swatch followed by its name (colour is never the only cue). */
export function who(colour, name) {
  const label = name ? `${name} (${colourName(colour)})` : colourName(colour);
  return el("span", { class: "who", "data-colour": colour },
    el("span", { class: `swatch c-${colour}`, "aria-hidden": "true" }), label);
}

/** "■ Red 3  ■ Green 1" for a {colour: n} dict, zero counts left out. */
export function cubeList(counts, emptyText = "–") {
  const entries = Object.entries(counts || {}).filter(([, n]) => n);
  if (!entries.length) return el("span", { class: "muted" }, emptyText);
  return el("span", { class: "cubes" }, entries.map(([c, n]) =>
    el("span", { class: "cube", "data-colour": c }, el("span", { class: `swatch c-${c}`, "aria-hidden": "true" }),
      `${colourName(c)} ${n}`)));
}

export function showError(node, err) {
  if (!node) return;
  if (!err) { node.hidden = true; node.textContent = ""; return; }
  node.textContent = typeof err === "string" ? err : err.message;
  node.hidden = false;
}

/** A − value + stepper for touch; returns {node, get, set}. */
export function stepper({ value = 0, min = 0, max = 99, label = "", name, onchange } = {}) {
  let current = value;
  const out = el("output", { class: "val", "aria-live": "polite" }, String(current));
  const set = (v) => {
    current = Math.max(min, Math.min(max, v));
    out.textContent = String(current);
    minus.disabled = current <= min;
    plus.disabled = current >= max;
    if (onchange) onchange(current);
  };
  const minus = el("button", { type: "button", class: "btn", "aria-label": `${label} −`, "data-step": "minus", onclick: () => set(current - 1) }, "−");
  const plus = el("button", { type: "button", class: "btn", "aria-label": `${label} +`, "data-step": "plus", onclick: () => set(current + 1) }, "+");
  const node = el("span", { class: "stepper", "data-name": name || "" }, minus, out, plus);
  minus.disabled = current <= min;
  plus.disabled = current >= max;
  return { node, get: () => current, set, setMax(m) { max = m; set(current); } };
}
