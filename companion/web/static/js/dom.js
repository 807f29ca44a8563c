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
    else if (key === "style") node.style.cssText = String(value); // CSSOM: allowed by the CSP
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

/** An SVG element with ``attrs`` set as attributes (for overlays drawn over a photo). */
export function svg(tag, attrs = {}) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
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

/** A − value + stepper for touch; returns {node, get, set}. `nullable`: starts (and can go back)
 *  to "not given" (shown as –, read as null) — for optional numbers the server can fill in. */
export function stepper({ value = 0, min = 0, max = 99, label = "", name, onchange, nullable = false } = {}) {
  let current = nullable ? (value ?? null) : value;
  const out = el("output", { class: "val", "aria-live": "polite" });
  const paint = () => {
    out.textContent = current === null ? "–" : String(current);
    minus.disabled = current === null || (!nullable && current <= min);
    plus.disabled = current !== null && current >= max;
  };
  const set = (v) => {
    current = v === null ? null : Math.max(min, Math.min(max, v));
    paint();
    if (onchange) onchange(current);
  };
  const down = () => set(current === null ? null : nullable && current <= min ? null : current - 1);
  const up = () => set(current === null ? min : current + 1);
  const minus = el("button", { type: "button", class: "btn", "aria-label": `${label} −`, "data-step": "minus", onclick: down }, "−");
  const plus = el("button", { type: "button", class: "btn", "aria-label": `${label} +`, "data-step": "plus", onclick: up }, "+");
  const node = el("span", { class: "stepper", "data-name": name || "" }, minus, out, plus);
  paint();
  /** Show `v` without telling onchange (a value that came from elsewhere, e.g. another tablet). */
  const show = (v) => { current = v === null ? null : Math.max(min, Math.min(max, v)); paint(); };
  return { node, get: () => current, set, show, setMax(m) { max = m; set(current); } };
}

let fieldCount = 0;
const LABELLABLE = new Set(["INPUT", "SELECT", "TEXTAREA"]);

/** A form field: `name` (its visible name) above `control`, then `extras` (hints, notes).
 *  Guarantee: a tap on the name never presses or changes anything. A lone input, select or
 *  text area is named by a `<label for>` (a tap there only focuses it); any other control —
 *  toggle buttons, a − / + stepper, rows of fields — sits in a group named by the text
 *  (`role="group"`, `aria-labelledby`), so its buttons keep their own names ("1 gold", not
 *  the field's) and a tap on the name is a tap on plain text. `attrs` go on the field's box. */
export function field(attrs, name, control, ...extras) {
  const id = `field-${++fieldCount}`;
  const cls = ["field", attrs?.class].filter(Boolean).join(" ");
  const lone = control instanceof HTMLElement && LABELLABLE.has(control.tagName)
    && !["checkbox", "radio", "button", "submit"].includes(control.type);
  if (lone) {
    if (!control.id) control.id = `${id}-input`;
    return el("div", { ...attrs, class: cls },
      el("label", { class: "field-label", for: control.id }, name), control, ...extras);
  }
  return el("div", { ...attrs, class: cls, role: "group", "aria-labelledby": id },
    el("span", { class: "field-label", id }, name), control, ...extras);
}

/** Scroll `node` into view once it is laid out, only when part of it is off screen: its top
 *  when it is taller than the window, else the nearest edge (what was opened or answered
 *  below the screen comes up to meet the player; what is already visible stays put). */
export function reveal(node) {
  requestAnimationFrame(() => {
    if (!node?.isConnected) return;
    const r = node.getBoundingClientRect();
    if (r.top >= 0 && r.bottom <= window.innerHeight) return;
    node.scrollIntoView({ block: r.height > window.innerHeight ? "start" : "nearest" });
  });
}
