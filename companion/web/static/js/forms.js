// A small form builder for commands: each field kind is a touch control that yields one value.
// Forms never validate rules themselves beyond the obvious: the server is the referee and its
// message is shown inline under the form.
//
// Forms survive live updates. The panel is redrawn whenever the game moves (another tablet
// corrected someone's gold, the next player entered their starting resources…); every form
// keeps what was typed or picked in a draft under its key (command type + player), and a
// redrawn form starts from its draft. When the new state makes a kept value invalid, the value
// is dropped and the field says why (a field's `check(value, ctx, values)` gives the reason).
// A draft is forgotten when its command was accepted.
import { el, clear, showError, stepper } from "./dom.js";
import { t, colourName } from "./i18n.js";

const drafts = new Map(); // form key → {field name: value}

/** What is kept for `key` (read-only copy), or null. */
export function draftOf(key) {
  const d = drafts.get(key);
  return d ? { ...d } : null;
}
export function forgetDraft(key) { drafts.delete(key); }
export function keepDraft(key, values) { drafts.set(key, { ...values }); }

function regionOptions(ctx, selected) {
  return ctx.board.areas.map((area) => el("optgroup", { label: area.name || area.id },
    area.regions.map((r) => el("option", { value: r.id, selected: r.id === selected }, r.name || r.id))));
}

/** Toggle buttons; returns {node, get, set}. options: [{value, label, explain?}] */
export function choice(name, options, initial) {
  let current = initial ?? null;
  const explain = el("p", { class: "hint", "data-explain": name });
  const paint = () => {
    for (const b of buttons) b.setAttribute("aria-pressed", b.dataset.value === current ? "true" : "false");
    explain.textContent = options.find((o) => o.value === current)?.explain || "";
  };
  const buttons = options.map((o) => el("button", {
    type: "button", class: "btn", "data-value": o.value, "aria-pressed": "false",
    onclick: () => { current = o.value; paint(); },
  }, o.label));
  paint();
  return {
    node: el("div", { class: "choice", "data-field": name, role: "group" }, el("div", { class: "row" }, buttons), explain),
    get: () => current,
    set: (v) => { if (options.some((o) => o.value === v)) { current = v; paint(); return true; } return false; },
  };
}

const FIELDS = {
  region(f, ctx) {
    const select = el("select", { name: f.name }, el("option", { value: "" }, t("choose")), regionOptions(ctx, f.value));
    return { node: select, get: () => select.value || null,
      set: (v) => { select.value = v ?? ""; return select.value === (v ?? ""); } };
  },
  realm(f) {
    return choice(f.name, [{ value: "dark", label: t("realm_dark") }, { value: "light", label: t("realm_light") }], f.value);
  },
  count(f) {
    const nullable = Boolean(f.optional);
    const s = stepper({ value: nullable ? (f.value ?? null) : (f.value ?? f.min ?? 0), min: f.min ?? 0, max: f.max ?? 60, label: f.label, name: f.name, nullable });
    return { node: s.node, get: () => s.get(), set: (v) => { s.set(v); return s.get() === v; } };
  },
  choice(f) { return choice(f.name, f.options, f.value); },
  text(f) {
    const input = el("input", { name: f.name, maxlength: 200, autocomplete: "off", placeholder: f.placeholder || "" });
    return { node: input, get: () => input.value.trim() || null, set: (v) => { input.value = v ?? ""; return true; } };
  },
  player(f, ctx) {
    return choice(f.name, ctx.state.players.map((p) => ({ value: p.color, label: p.name ? `${p.name} (${colourName(p.color)})` : colourName(p.color) })), f.value);
  },
  check(f) {
    const box = el("input", { type: "checkbox", name: f.name, checked: Boolean(f.value) });
    return { node: box, get: () => box.checked, set: (v) => { box.checked = Boolean(v); return true; } };
  },
  select(f) {
    const select = el("select", { name: f.name }, el("option", { value: "" }, f.placeholder ?? "—"),
      f.options.map((o) => el("option", { value: o.value, selected: o.value === f.value }, o.label)));
    return { node: select, get: () => select.value || null,
      set: (v) => { select.value = v ?? ""; return select.value === (v ?? ""); } };
  },
  placements(f, ctx) {
    const rows = [];
    const list = el("div", { class: "placements", "data-field": f.name });
    const addRow = (init = {}) => {
      const region = FIELDS.region({ name: `${f.name}_region`, value: init.region }, ctx);
      const realm = f.withRealm ? FIELDS.realm({ name: `${f.name}_realm`, value: init.realm ?? f.realm }) : null;
      const armies = stepper({ value: init.armies ?? 1, min: 1, max: 30, label: t("armies"), name: `${f.name}_armies` });
      const row = { region, realm, armies };
      const node = el("div", { class: "form-grid placement" }, region.node, realm?.node, armies.node,
        el("button", { type: "button", class: "btn danger", onclick: () => { rows.splice(rows.indexOf(row), 1); node.remove(); } }, t("remove")));
      rows.push(row);
      list.append(node);
    };
    if (f.startWithRow !== false) addRow();
    const add = el("button", { type: "button", class: "btn", "data-add": f.name, onclick: () => addRow() }, t("add_placement"));
    return {
      node: el("div", {}, list, add),
      get: () => rows.map((r) => ({ region: r.region.get(), ...(r.realm ? { realm: r.realm.get() } : {}), armies: r.armies.get() })),
      set: (v) => {
        if (!Array.isArray(v)) return false;
        rows.splice(0);
        list.replaceChildren();
        for (const entry of v) addRow(entry);
        return true;
      },
    };
  },
};

/** Build a command form. spec: [{name, kind, label, optional, check?, …}]; fixed: fields always
 *  sent; key: where its draft is kept (default: type + fixed or active player). onDone(answer) runs after
 *  the server accepted the command. */
export function commandForm(ctx, { type, spec = [], fixed = {}, submitLabel, intro, onDone, transform, key, versioned = true }) {
  // Whose form it is: the fixed player, else the player whose turn it is (a draft never
  // passes from one player's turn to the next).
  const formKey = key ?? `${type}|${fixed.player ?? ctx.state.active ?? ""}`;
  const fields = spec.map((f) => ({ f, control: FIELDS[f.kind](f, ctx) }));
  const label = (f) => f.label || t(`field_${f.name}`);
  const notes = new Map(fields.map(({ f }) => [f.name, el("span", { class: "field-note", hidden: true, "data-note": f.name, role: "status" })]));
  const values = () => Object.fromEntries(fields.map(({ f, control }) => [f.name, control.get()]));

  // Start from the draft; drop what the new state made invalid, and say so at the field.
  const kept = drafts.get(formKey);
  if (kept) {
    for (const { f, control } of fields) {
      if (!(f.name in kept)) continue;
      const value = kept[f.name];
      const reason = f.check ? f.check(value, ctx, kept) : null;
      if (reason || !control.set(value)) {
        delete kept[f.name];
        const note = notes.get(f.name);
        note.textContent = t("field_dropped", { field: label(f), reason: reason || t("no_longer_offered") });
        note.hidden = false;
      }
    }
  }
  const save = () => drafts.set(formKey, values());

  const error = el("div", { class: "error", hidden: true, role: "alert" });
  const submit = el("button", { type: "submit", class: "btn primary big" }, submitLabel || t("do_it"));
  const form = el("form", { class: "command-form", "data-command": type, "data-key": formKey, novalidate: true },
    intro ? el("p", { class: "hint" }, intro) : null,
    el("div", { class: "form-grid" }, fields.map(({ f, control }) =>
      el("label", { class: "field", "data-for": f.name }, label(f), control.node, notes.get(f.name),
        f.help ? el("span", { class: "hint" }, f.help) : null))),
    error,
    el("div", { class: "row" }, submit));
  // Any tap, pick or keystroke updates the draft (after the control handled it).
  for (const kind of ["click", "input", "change"]) form.addEventListener(kind, () => queueMicrotask(save));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    let command = { type, ...fixed };
    for (const { f, control } of fields) {
      const value = control.get();
      const empty = value === null || value === "" || (f.kind === "check" && value === false);
      if (empty && f.optional) continue;
      if (empty) { showError(error, t("err_missing", { field: label(f) })); return; }
      command[f.name] = value;
    }
    if (transform) command = transform(command);
    submit.disabled = true;
    showError(error, null);
    try {
      // Accepted: forget the draft before the answer redraws the panel (a fresh form).
      // Refused (also a stale version): the draft stays, so the redrawn form keeps it all.
      const answer = await ctx.send(command, { versioned, accepted: () => drafts.delete(formKey) });
      if (onDone) onDone(answer);
    } catch (err) {
      showError(error, err);
      submit.disabled = false;
    }
  });
  return form;
}

/** A single button that sends one command, with its own inline error line. */
export function commandButton(ctx, label, command, { primary = false, onDone } = {}) {
  const error = el("div", { class: "error", hidden: true, role: "alert" });
  const button = el("button", { type: "button", class: `btn big${primary ? " primary" : ""}`, "data-command": command.type,
    onclick: async () => {
      button.disabled = true;
      showError(error, null);
      try { const answer = await ctx.send(command); if (onDone) onDone(answer); }
      catch (err) { showError(error, err); button.disabled = false; }
    } }, label);
  return el("div", { class: "command-button" }, button, error);
}

/** A button for a step that cannot simply be taken back (end of the draft, of the planning, of
 *  a round): the first tap asks, naming what would be skipped (`question()` → sentences), and
 *  only "Yes" sends the command. */
export function confirmButton(ctx, label, command, { question, yes, primary = true } = {}) {
  const error = el("div", { class: "error", hidden: true, role: "alert" });
  const box = el("div", { class: "confirm panel", hidden: true, role: "alertdialog", "data-confirm": command.type });
  const ask = el("button", { type: "button", class: `btn big${primary ? " primary" : ""}`, "data-command": command.type,
    onclick: () => {
      showError(error, null);
      const lines = question ? question() : [];
      const send = el("button", { type: "button", class: "btn primary", "data-confirm-yes": command.type, onclick: async () => {
        send.disabled = true;
        try { await ctx.send(command); box.hidden = true; }
        catch (err) { showError(error, err); send.disabled = false; }
      } }, yes || t("confirm_yes"));
      const cancel = el("button", { type: "button", class: "btn", "data-confirm-no": command.type, onclick: () => { box.hidden = true; ask.hidden = false; } }, t("confirm_no"));
      clear(box, lines.map((line) => el("p", {}, line)), el("div", { class: "row" }, send, cancel));
      box.hidden = false;
      ask.hidden = true;
    } }, label);
  return el("div", { class: "command-button" }, ask, box, error);
}

export { clear };
