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
import { el, clear, showError, stepper, field } from "./dom.js";
import { t, colourName } from "./i18n.js";
import { markBoard, setBoardPicker } from "./picking.js";
import { regionName as boardRegionName } from "./board.js";

const MAX_BUTTONS = 8; // more choices than this: a drop-down instead of a row of buttons

const drafts = new Map(); // form key → {field name: value}
// Keys of drafts whose command this device has sent and not yet heard back about. The live
// stream may bring the state that command made before its own answer does: such a draft is
// being sent, not abandoned.
const sending = new Set();

/** What is kept for `key` (read-only copy), or null. */
export function draftOf(key) {
  const d = drafts.get(key);
  return d ? { ...d } : null;
}
export function forgetDraft(key) { drafts.delete(key); }
export function keepDraft(key, values) { drafts.set(key, { ...values }); }
/** True while the command of the draft under `key` is on its way to the server. */
export function isSending(key) { return sending.has(key); }

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
  count(f, ctx) {
    const nullable = Boolean(f.optional);
    const fixedMax = typeof f.max === "function" ? 60 : (f.max ?? 60);
    const s = stepper({ value: nullable ? (f.value ?? null) : (f.value ?? f.min ?? 0), min: f.min ?? 0, max: fixedMax, label: f.label || t(`field_${f.name}`), name: f.name, nullable });
    let lastMax = null;
    return {
      node: s.node, get: () => s.get(), set: (v) => { s.set(v); return s.get() === v; },
      // f.max(values) from the legal options: a new limit (another source picked) starts at it
      // (all that may go — the usual choice), a kept value is only clamped.
      refresh: typeof f.max === "function" ? (values, { initial = false } = {}) => {
        const m = f.max(values, ctx);
        if (m === null || m === undefined) { lastMax = null; return; }
        s.setMax(m);
        if (m !== lastMax && (!initial || (lastMax === null && f.startAtMax))) s.set(m);
        lastMax = m;
      } : null,
    };
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
  /** A region in a realm, from the legal options: f.options(values, ctx) → [{value:
   *  "region|realm", label}]. Buttons for a few choices, a drop-down for many; a single choice
   *  is taken at once (one tap less). Re-offered whenever another field changes (refresh). */
  node(f, ctx) {
    let current = f.value ?? null;
    let opts = [];
    const host = el("div", { class: "node-pick", "data-field": f.name, role: "group" });
    const paint = () => {
      if (!opts.length) {
        clear(host, el("span", { class: "muted" }, f.none || t("nothing_to_pick")));
      } else if (opts.length > MAX_BUTTONS) {
        const select = el("select", { name: f.name, onchange: () => { current = select.value || null; } },
          el("option", { value: "" }, t("choose")),
          opts.map((o) => el("option", { value: o.value, selected: o.value === current }, o.label)));
        clear(host, select);
      } else {
        clear(host, el("div", { class: "row" }, opts.map((o) => el("button", {
          type: "button", class: "btn", "data-value": o.value, "aria-pressed": o.value === current ? "true" : "false",
          onclick: () => { current = o.value; paint(); },
        }, o.label))));
      }
    };
    return {
      node: host,
      get: () => current,
      set: (v) => { if (v === null || opts.some((o) => o.value === v)) { current = v; paint(); return true; } return false; },
      offers: (v) => opts.some((o) => o.value === v),
      options: () => opts,
      refresh(values) {
        opts = f.options(values, ctx) || [];
        if (!opts.some((o) => o.value === current)) current = null;
        if (current === null && opts.length === 1) current = opts[0].value;
        paint();
      },
    };
  },
  /** A move's way: waypoints between f.from(values) and f.to(values), each one step from the
   *  last (f.steps(values) → {"region|realm": [{value, label}]}). Empty = the companion finds
   *  the way through the player's regions. Also picked by tapping regions on the board. */
  path(f, ctx) {
    let way = [];
    const host = el("div", { class: "path-pick", "data-field": f.name });
    let last = { from: null, to: null, steps: {} };
    const label = (key) => last.labels?.[key] || key;
    const paint = () => {
      const chain = [last.from, ...way, last.to].filter(Boolean).map(label);
      const next = last.from && last.to ? (last.steps[way.length ? way[way.length - 1] : last.from] || [])
        .filter((o) => o.value !== last.from && o.value !== last.to && !way.includes(o.value)) : [];
      clear(host,
        el("p", { class: "path-chain", "data-path": way.join(",") }, chain.length ? chain.join(" → ") : t("path_pick_ends")),
        way.length ? null : el("p", { class: "hint" }, t("path_direct")),
        next.length ? el("div", { class: "row" }, next.map((o) => el("button", {
          type: "button", class: "btn", "data-step-to": o.value, onclick: () => { way.push(o.value); paint(); },
        }, t("path_via", { region: o.label })))) : null,
        way.length ? el("button", { type: "button", class: "btn", "data-path-clear": "1", onclick: () => { way = []; paint(); } }, t("path_clear")) : null);
    };
    return {
      node: host,
      get: () => (way.length ? [...way] : null),
      set: (v) => { way = Array.isArray(v) ? [...v] : []; paint(); return true; },
      offersNext: (key) => Boolean(last.from && last.to && key !== last.to && !way.includes(key)
        && (last.steps[way.length ? way[way.length - 1] : last.from] || []).some((o) => o.value === key)),
      add: (key) => { way.push(key); paint(); },
      marks: () => way,
      refresh(values) {
        const from = f.from(values);
        const to = f.to(values);
        if (from !== last.from || to !== last.to) way = from === last.from ? way.filter((w) => w !== to) : [];
        last = { from, to, steps: f.steps(values, ctx) || {}, labels: f.labels ? f.labels(ctx) : {} };
        // a waypoint that is no longer one step from the one before it ends the way there
        let prev = from;
        const kept = [];
        for (const w of way) {
          if (!(last.steps[prev] || []).some((o) => o.value === w)) break;
          kept.push(w);
          prev = w;
        }
        way = kept;
        paint();
      },
    };
  },
  /** Rows of {region, realm?, armies}. With f.regionsFor(values) (legal options) a row offers
   *  only those regions, and the first row starts with all the armies f.armiesFor(values).
   *  With f.byRealm(values) → {realm: {regions, max}} (rows with a realm each) a row offers only
   *  the realms with armies to place, that realm's regions, and at most its number. */
  placements(f, ctx) {
    const rows = [];
    let allowed = null; // region ids the rows may offer (null: every region)
    let total = null;
    let realms = f.byRealm ? f.byRealm({}) || {} : null;
    const fill = (select, ids, value) => {
      select.replaceChildren(el("option", { value: "" }, t("choose")),
        ...ids.map((id) => el("option", { value: id }, boardRegionName(ctx.board, id))));
      select.value = ids.includes(value) ? value : (ids.length === 1 ? ids[0] : "");
    };
    const list = el("div", { class: "placements", "data-field": f.name });
    const regionField = (name, value) => {
      if (!allowed) return FIELDS.region({ name, value }, ctx);
      const select = el("select", { name }, el("option", { value: "" }, t("choose")),
        allowed.map((id) => el("option", { value: id, selected: id === value }, boardRegionName(ctx.board, id))));
      if (!value && allowed.length === 1) select.value = allowed[0];
      return { node: select, get: () => select.value || null, set: (v) => { select.value = v ?? ""; return select.value === (v ?? ""); } };
    };
    const addRow = (init = {}) => {
      let region;
      let realm;
      let armies;
      if (realms) {
        const offered = Object.keys(realms);
        if (!offered.length) return;
        const first = offered.includes(init.realm) ? init.realm : offered[0];
        realm = choice(`${f.name}_realm`, offered.map((r) => ({ value: r, label: t(`realm_${r}`) })), first);
        const select = el("select", { name: `${f.name}_region` });
        fill(select, realms[first].regions, init.region);
        region = { node: select, get: () => select.value || null, set: (v) => { select.value = v ?? ""; return true; } };
        armies = stepper({ value: Math.min(init.armies ?? 1, realms[first].max), min: 1, max: realms[first].max, label: t("armies"), name: `${f.name}_armies` });
      } else {
        region = regionField(`${f.name}_region`, init.region);
        realm = f.withRealm ? FIELDS.realm({ name: `${f.name}_realm`, value: init.realm ?? f.realm }) : null;
        armies = stepper({ value: init.armies ?? 1, min: 1, max: total ?? 30, label: t("armies"), name: `${f.name}_armies` });
      }
      const row = { region, realm, armies, shown: realm?.get() ?? null };
      const node = el("div", { class: "form-grid placement" }, region.node, realm?.node, armies.node,
        el("button", { type: "button", class: "btn danger", onclick: () => { rows.splice(rows.indexOf(row), 1); node.remove(); } }, t("remove")));
      rows.push(row);
      list.append(node);
    };
    if (f.startWithRow !== false && !f.regionsFor) addRow();
    const add = el("button", { type: "button", class: "btn", "data-add": f.name, onclick: () => addRow(),
      hidden: Boolean(realms) && !Object.keys(realms).length }, t("add_placement"));
    const get = () => rows.map((r) => ({ region: r.region.get(), ...(r.realm ? { realm: r.realm.get() } : {}), armies: r.armies.get() }));
    const set = (v) => {
      if (!Array.isArray(v)) return false;
      rows.splice(0);
      list.replaceChildren();
      for (const entry of v) addRow(entry);
      return true;
    };
    return {
      node: el("div", {}, list, add),
      get,
      set,
      refresh: f.byRealm ? (values) => {
        realms = f.byRealm(values) || {};
        for (const row of rows) {
          const spec = realms[row.realm.get()];
          if (!spec) continue;
          if (row.shown !== row.realm.get()) {
            fill(row.region.node, spec.regions, row.region.get());
            row.shown = row.realm.get();
          }
          row.armies.setMax(spec.max);
        }
      } : f.regionsFor ? (values) => {
        const next = f.regionsFor(values);
        const n = f.armiesFor(values);
        if (JSON.stringify(next) === JSON.stringify(allowed) && n === total) return;
        const kept = get().filter((r) => next.includes(r.region));
        allowed = next;
        total = n;
        set(kept.length ? kept : (allowed.length ? [{ region: allowed.length === 1 ? allowed[0] : null, armies: total ?? 1 }] : []));
      } : null,
    };
  },
};

/** Build a command form. spec: [{name, kind, label, optional, check?, …}]; fixed: fields always
 *  sent; key: where its draft is kept (default: type + fixed or active player); alsoForget: other
 *  drafts that end with it (e.g. which action form was open). onDone(answer) runs after the server
 *  accepted the command. */
export function commandForm(ctx, { type, spec = [], fixed = {}, submitLabel, intro, onDone, transform, key, versioned = true, alsoForget = [] }) {
  // Whose form it is: the fixed player, else the player whose turn it is (a draft never
  // passes from one player's turn to the next).
  const formKey = key ?? `${type}|${fixed.player ?? ctx.state.active ?? ""}`;
  const fields = spec.map((f) => ({ f, control: FIELDS[f.kind](f, ctx) }));
  const label = (f) => f.label || t(`field_${f.name}`);
  const notes = new Map(fields.map(({ f }) => [f.name, el("span", { class: "field-note", hidden: true, "data-note": f.name, role: "status" })]));
  const values = () => Object.fromEntries(fields.map(({ f, control }) => [f.name, control.get()]));

  // Fields whose choices depend on others (a target on its source) are re-offered in order.
  const refreshAll = (opts = {}) => {
    for (const { control } of fields) if (control.refresh) control.refresh(values(), opts);
  };
  // Start from the draft; drop what the new state made invalid, and say so at the field.
  const kept = drafts.get(formKey);
  refreshAll({ initial: true });
  if (kept) {
    for (const { f, control } of fields) {
      if (control.refresh) control.refresh(values(), { initial: true });
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
  refreshAll({ initial: true });
  // What the form offers and what is picked, marked on the board; taps there pick.
  const picks = fields.filter(({ control }) => control.offers || control.offersNext);
  const mark = () => {
    if (!picks.length) return;
    const open = picks.find(({ control }) => control.offers && control.get() === null);
    markBoard({
      pickable: open ? open.control.options().map((o) => o.value) : [],
      picked: picks.filter(({ control }) => control.offers).map(({ control }) => control.get()).filter(Boolean),
      "on-path": picks.flatMap(({ control }) => (control.marks ? control.marks() : [])),
    });
  };
  const save = () => { refreshAll(); drafts.set(formKey, values()); mark(); showFields(); };

  const error = el("div", { class: "error", hidden: true, role: "alert" });
  const submit = el("button", { type: "submit", class: "btn primary big" }, submitLabel || t("do_it"));
  const form = el("form", { class: "command-form", "data-command": type, "data-key": formKey, novalidate: true },
    intro ? el("p", { class: "hint" }, intro) : null,
    el("div", { class: "form-grid" }, fields.map((entry) => {
      entry.box = field({ "data-for": entry.f.name }, label(entry.f), entry.control.node, notes.get(entry.f.name),
        entry.f.help ? el("span", { class: "hint" }, entry.f.help) : null);
      return entry.box;
    })),
    error,
    el("div", { class: "row" }, submit));
  // A field with f.when(values) is asked only when it matters (e.g. the amount only when the
  // board data does not know it); a hidden field is not sent.
  const shown = ({ f }) => !f.when || Boolean(f.when(values(), ctx));
  const showFields = () => { for (const entry of fields) entry.box.hidden = !shown(entry); };
  showFields();
  // Any tap, pick or keystroke updates the draft (after the control handled it).
  for (const kind of ["click", "input", "change"]) form.addEventListener(kind, () => queueMicrotask(save));
  if (picks.length) {
    setBoardPicker((region, realm) => {
      if (!form.isConnected) return false;
      const key = `${region}|${realm}`;
      const empty = picks.find(({ control }) => control.offers && control.get() === null && control.offers(key));
      const way = picks.find(({ control }) => control.offersNext && control.offersNext(key));
      const any = picks.find(({ control }) => control.offers && control.offers(key));
      if (empty) empty.control.set(key);
      else if (way) way.control.add(key);
      else if (any) any.control.set(key);
      else return false;
      save();
      return true;
    });
    queueMicrotask(mark); // after the board of this state is drawn
  }
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    let command = { type, ...fixed };
    for (const entry of fields) {
      const { f, control } = entry;
      if (!shown(entry)) continue;
      const value = control.get();
      const empty = value === null || value === "" || (f.kind === "check" && value === false);
      if (empty && f.optional) continue;
      if (empty) { showError(error, t("err_missing", { field: label(f) })); return; }
      command[f.name] = value;
    }
    if (transform) command = transform(command);
    submit.disabled = true;
    showError(error, null);
    const keys = [formKey, ...alsoForget];
    for (const k of keys) sending.add(k);
    try {
      // Accepted: forget the draft before the answer redraws the panel (a fresh form).
      // Refused (also a stale version): the draft stays, so the redrawn form keeps it all.
      const answer = await ctx.send(command, { versioned, accepted: () => { for (const k of keys) drafts.delete(k); } });
      if (onDone) onDone(answer);
    } catch (err) {
      showError(error, err);
      submit.disabled = false;
    } finally {
      for (const k of keys) sending.delete(k);
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
