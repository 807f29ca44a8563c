// A small form builder for commands: each field kind is a touch control that yields one value.
// Forms never validate rules themselves beyond the obvious: the server is the referee and its
// message is shown inline under the form.
import { el, clear, showError, stepper } from "./dom.js";
import { t, colourName } from "./i18n.js";

function regionOptions(ctx, selected) {
  return ctx.board.areas.map((area) => el("optgroup", { label: area.name || area.id },
    area.regions.map((r) => el("option", { value: r.id, selected: r.id === selected }, r.name || r.id))));
}

/** Toggle buttons; returns {node, get}. options: [{value, label, explain?}] */
export function choice(name, options, initial) {
  let current = initial ?? null;
  const explain = el("p", { class: "hint", "data-explain": name });
  const buttons = options.map((o) => el("button", {
    type: "button", class: "btn", "data-value": o.value, "aria-pressed": o.value === current ? "true" : "false",
    onclick: () => {
      current = o.value;
      for (const b of buttons) b.setAttribute("aria-pressed", b.dataset.value === current ? "true" : "false");
      explain.textContent = o.explain || "";
    },
  }, o.label));
  const chosen = options.find((o) => o.value === current);
  explain.textContent = chosen?.explain || "";
  return { node: el("div", { class: "choice", "data-field": name, role: "group" }, el("div", { class: "row" }, buttons), explain), get: () => current };
}

const FIELDS = {
  region(f, ctx) {
    const select = el("select", { name: f.name }, el("option", { value: "" }, t("choose")), regionOptions(ctx, f.value));
    return { node: select, get: () => select.value || null };
  },
  realm(f) {
    return choice(f.name, [{ value: "dark", label: t("realm_dark") }, { value: "light", label: t("realm_light") }], f.value);
  },
  count(f) {
    const nullable = Boolean(f.optional);
    const s = stepper({ value: nullable ? (f.value ?? null) : (f.value ?? f.min ?? 0), min: f.min ?? 0, max: f.max ?? 60, label: f.label, name: f.name, nullable });
    return { node: s.node, get: () => s.get() };
  },
  choice(f) { return choice(f.name, f.options, f.value); },
  text(f) {
    const input = el("input", { name: f.name, maxlength: 200, autocomplete: "off", placeholder: f.placeholder || "" });
    return { node: input, get: () => input.value.trim() || null };
  },
  player(f, ctx) {
    return choice(f.name, ctx.state.players.map((p) => ({ value: p.color, label: p.name ? `${p.name} (${colourName(p.color)})` : colourName(p.color) })), f.value);
  },
  check(f) {
    const box = el("input", { type: "checkbox", name: f.name, checked: Boolean(f.value) });
    return { node: box, get: () => box.checked };
  },
  select(f) {
    const select = el("select", { name: f.name }, el("option", { value: "" }, f.placeholder ?? "—"),
      f.options.map((o) => el("option", { value: o.value, selected: o.value === f.value }, o.label)));
    return { node: select, get: () => select.value || null };
  },
  placements(f, ctx) {
    const rows = [];
    const list = el("div", { class: "placements", "data-field": f.name });
    const addRow = () => {
      const region = FIELDS.region({ name: `${f.name}_region` }, ctx);
      const realm = f.withRealm ? FIELDS.realm({ name: `${f.name}_realm`, value: f.realm }) : null;
      const armies = stepper({ value: 1, min: 1, max: 30, label: t("armies"), name: `${f.name}_armies` });
      const row = { region, realm, armies };
      const node = el("div", { class: "form-grid placement" }, region.node, realm?.node, armies.node,
        el("button", { type: "button", class: "btn danger", onclick: () => { rows.splice(rows.indexOf(row), 1); node.remove(); } }, t("remove")));
      rows.push(row);
      list.append(node);
    };
    if (f.startWithRow !== false) addRow();
    const add = el("button", { type: "button", class: "btn", "data-add": f.name, onclick: addRow }, t("add_placement"));
    return {
      node: el("div", {}, list, add),
      get: () => rows.map((r) => ({ region: r.region.get(), ...(r.realm ? { realm: r.realm.get() } : {}), armies: r.armies.get() })),
    };
  },
};

/** Build a command form. spec: [{name, kind, label, optional, …}]; fixed: fields always sent.
 *  onDone(answer) runs after the server accepted the command. */
export function commandForm(ctx, { type, spec = [], fixed = {}, submitLabel, intro, onDone, transform }) {
  const fields = spec.map((f) => ({ f, control: FIELDS[f.kind](f, ctx) }));
  const error = el("div", { class: "error", hidden: true, role: "alert" });
  const submit = el("button", { type: "submit", class: "btn primary big" }, submitLabel || t("do_it"));
  const form = el("form", { class: "command-form", "data-command": type, novalidate: true },
    intro ? el("p", { class: "hint" }, intro) : null,
    el("div", { class: "form-grid" }, fields.map(({ f, control }) =>
      el("label", { class: "field", "data-for": f.name }, f.label || t(`field_${f.name}`), control.node,
        f.help ? el("span", { class: "hint" }, f.help) : null))),
    error,
    el("div", { class: "row" }, submit));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    let command = { type, ...fixed };
    for (const { f, control } of fields) {
      const value = control.get();
      const empty = value === null || value === "" || (f.kind === "check" && value === false);
      if (empty && f.optional) continue;
      if (empty) { showError(error, t("err_missing", { field: f.label || t(`field_${f.name}`) })); return; }
      command[f.name] = value;
    }
    if (transform) command = transform(command);
    submit.disabled = true;
    showError(error, null);
    try {
      const answer = await ctx.send(command);
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

export { clear };
