// The table PIN on the tablet (issue 12). Loaded with api.js on every page.
// - askForPin(): the PIN dialog, opened when a change comes back 401 (api.js retries once after it);
// - a spectator (not signed in) sees a "Sign in to play" button in the top bar;
// - the tower page of a signed-in tablet shows the PIN, to tell the other players, and "Sign out".
// The PIN itself never touches page storage: the server keeps a signed HttpOnly cookie.
import { t, LANG } from "./i18n.js";
import { el, clear } from "./dom.js";

let pending = null; // one dialog at a time: requests refused together share it
let dialog = null;

async function session(method = "GET", body) {
  const response = await fetch("/api/session", {
    method,
    headers: body === undefined ? { "Accept-Language": LANG } : { "Content-Type": "application/json", "Accept-Language": LANG },
    body: body === undefined ? undefined : JSON.stringify(body),
    cache: "no-store",
  });
  let data = null;
  try { data = await response.json(); } catch { data = null; }
  return { response, data };
}

function showState(state) {
  const signedIn = Boolean(state && state.signed_in);
  document.body.dataset.signedIn = signedIn ? "yes" : "no";
  const button = document.getElementById("pin-signin");
  if (button) button.hidden = signedIn;
  if (document.body.dataset.page === "tower") towerPanel(signedIn ? state.pin : null);
}

function towerPanel(pin) {
  let panel = document.getElementById("pin-panel");
  if (!pin) { if (panel) panel.hidden = true; return; }
  if (!panel) {
    panel = el("section", { class: "panel", id: "pin-panel" });
    const main = document.getElementById("main");
    main.insertBefore(panel, main.querySelector("h1")?.nextSibling || main.firstChild);
  }
  panel.hidden = false;
  clear(panel,
    el("h2", {}, t("pin_title")),
    el("p", { class: "pin-show" }, el("strong", { id: "table-pin" }, pin)),
    el("p", { class: "hint" }, t("pin_tower_hint")),
    el("button", { class: "btn", type: "button", id: "pin-signout", onclick: signOut }, t("pin_sign_out")));
}

async function signOut() {
  const { data } = await session("DELETE");
  showState(data || { signed_in: false });
}

function buildDialog() {
  const input = el("input", { id: "pin-input", name: "pin", type: "password", inputmode: "numeric",
    autocomplete: "off", required: true, maxlength: "64", "aria-label": t("pin_label") });
  const error = el("p", { id: "pin-error", class: "error", role: "alert", hidden: true });
  const form = el("form", { id: "pin-form", method: "dialog" },
    el("h2", { id: "pin-title" }, t("pin_title")),
    el("p", { class: "hint" }, t("pin_hint")),
    el("label", { class: "field" }, el("span", {}, t("pin_label")), input),
    error,
    el("div", { class: "row" },
      el("button", { class: "btn primary", type: "submit", id: "pin-submit" }, t("pin_sign_in")),
      el("button", { class: "btn", type: "button", id: "pin-cancel" }, t("pin_cancel"))));
  const box = el("dialog", { id: "pin-dialog", class: "pin-dialog", "aria-labelledby": "pin-title" }, form);
  document.body.append(box);
  return { box, form, input, error };
}

/** Open the PIN dialog; resolves true once this tablet is signed in, false if the player only watches. */
export function askForPin() {
  if (pending) return pending;
  dialog = dialog || buildDialog();
  const { box, form, input, error } = dialog;
  pending = new Promise((resolve) => {
    const done = (ok) => {
      form.removeEventListener("submit", submit);
      box.removeEventListener("cancel", cancel);
      document.getElementById("pin-cancel").removeEventListener("click", cancel);
      if (box.open) box.close();
      pending = null;
      resolve(ok);
    };
    const cancel = (event) => { event?.preventDefault(); done(false); };
    const submit = async (event) => {
      event.preventDefault();
      const button = document.getElementById("pin-submit");
      button.disabled = true;
      try {
        const { response, data } = await session("POST", { pin: input.value });
        if (response.ok) { showState(data); done(true); return; }
        error.textContent = response.status === 429
          ? t("pin_wait", { seconds: response.headers.get("Retry-After") || "60" })
          : response.status === 401 ? t("pin_wrong") : (data?.error?.message || t("err_server", { status: response.status }));
      } catch {
        error.textContent = t("err_network");
      } finally {
        button.disabled = false;
      }
      error.hidden = false;
      input.select();
    };
    form.addEventListener("submit", submit);
    box.addEventListener("cancel", cancel); // Escape
    document.getElementById("pin-cancel").addEventListener("click", cancel);
  });
  input.value = "";
  error.hidden = true;
  box.showModal();
  input.focus();
  return pending;
}

async function init() {
  const bar = document.querySelector(".topbar");
  if (bar && !document.getElementById("pin-signin")) {
    bar.append(el("button", { class: "btn small", type: "button", id: "pin-signin", hidden: true,
      title: t("pin_spectator"), onclick: () => askForPin() }, t("pin_sign_in_to_play")));
  }
  try {
    const { data } = await session();
    if (data) showState(data);
  } catch {
    // The companion is unreachable: the page says so itself; the PIN state shows on the next load.
  }
}

init();
