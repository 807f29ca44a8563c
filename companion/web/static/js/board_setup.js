// The board set-up page: a guided walk through the region cards (then areas, then tribes), one
// card at a time, with progress, undo of the last saved change, import and export of the board
// file. The data is Board.to_dict(): an absent value is "not entered yet" and shows as an empty
// field with a hint (never as text to delete); ids are never shown. Each save sends the whole
// board; the server checks it (the message names the item) and keeps the old one for undo.
import { api } from "./api.js";
import { asList, itemLabel } from "./board.js";
import { el, clear, showError, field as formField } from "./dom.js";
import { t } from "./i18n.js";

const KINDS = ["regions", "areas", "tribes", "spaces"];
const BUILDINGS = ["portal", "shrine", "capital"];
const REALMS = ["light", "dark"];
const RESOURCES = ["gold", "energy"];

const page = { board: null, status: null, kind: "regions", index: 0 };
const $ = (id) => document.getElementById(id);

/** A field the player filled in wrongly: names the field and the reason. */
class FieldError extends Error {
  constructor(input, field, reason) {
    super(t("board_field_error", { field, reason }));
    this.input = input;
  }
}

// -- labels (never ids) ------------------------------------------------------------------------

function number(kind, item) {
  const list = asList(page.board[kind]);
  if (kind !== "tribes") return list.findIndex((x) => x.id === item.id) + 1;
  return list.filter((x) => x.realm === item.realm).findIndex((x) => x.id === item.id) + 1;
}

function label(kind, item) {
  const k = kind === "tribes" ? `tribe_${item.realm}` : kind.slice(0, -1);
  return itemLabel(k, item, number(kind, item));
}

const byId = (kind, id) => asList(page.board[kind]).find((x) => x.id === id);
const missingOf = (kind, id) => page.status.progress[kind].missing[id] || [];

// -- progress and index ------------------------------------------------------------------------

function renderProgress() {
  const p = page.status.progress;
  clear($("board-progress"), KINDS.map((kind) => el("div", { "data-progress": kind },
    el("p", {}, t(`board_progress_${kind}`, { done: p[kind].complete, total: p[kind].total })),
    el("progress", { max: p[kind].total, value: p[kind].complete }))));
  $("board-undo").disabled = page.status.undo === 0;
  $("board-undo").textContent = page.status.undo ? t("board_undo_n", { n: page.status.undo }) : t("board_undo");
  for (const a of document.querySelectorAll(".board-steps a")) {
    if (a.dataset.kind === page.kind) a.setAttribute("aria-current", "page"); else a.removeAttribute("aria-current");
  }
}

function renderIndex() {
  const items = asList(page.board[page.kind]);
  $("board-index-title").textContent = t(`board_${page.kind}`);
  clear($("board-index"), items.map((item, i) => {
    const done = !missingOf(page.kind, item.id).length;
    return el("li", {}, el("a", {
      href: `#${page.kind}/${i + 1}`, class: done ? "done" : null, "aria-current": i === page.index ? "true" : null,
    }, (done ? "✓ " : "") + label(page.kind, item)));
  }));
}

// -- one card ----------------------------------------------------------------------------------

function field(labelText, control, hint) {
  return formField({}, labelText, control, hint ? el("span", { class: "hint" }, hint) : null,
    el("span", { class: "field-note", hidden: true, role: "status" }));
}

function textInput(name, value, placeholder) {
  return el("input", { name, value: value ?? "", placeholder, autocomplete: "off", maxlength: 60 });
}

function numberInput(name, value) {
  return el("input", { name, value: value ?? "", placeholder: t("board_number_hint"), inputmode: "numeric", autocomplete: "off" });
}

function select(name, options, value) {
  return el("select", { name }, el("option", { value: "" }, t("board_choose_hint")),
    options.map((o) => el("option", { value: o.id, selected: o.id === value }, o.label)));
}

function nameFields(item, hint) {
  return el("div", { class: "pair" },
    field(t("board_name_en"), textInput("name", item.name, t("board_name_hint")), hint),
    field(t("board_name_de"), textInput("name_de", item.name_de, t("board_name_de_hint"))));
}

function regionCard(region) {
  const areas = asList(page.board.areas).map((a) => {
    const n = asList(page.board.regions).filter((r) => r.area === a.id).length;
    return { id: a.id, label: `${label("areas", a)} (${t("board_area_count", { n })})` };
  });
  const others = asList(page.board.regions).filter((r) => r.id !== region.id);
  return [
    nameFields(region, t("board_region_name_hint")),
    field(t("col_area"), select("area", areas, region.area)),
    REALMS.map((realm) => el("fieldset", { "data-realm": realm }, el("legend", {}, t(`realm_${realm}`)),
      el("p", { class: "hint" }, t("board_resources_hint")),
      el("div", { class: "pair" }, RESOURCES.map((res) =>
        field(t(res), numberInput(`${realm}.${res}`, region[realm]?.[res])))))),
    el("fieldset", { "data-field": "neighbours" }, el("legend", {}, t("board_neighbours")),
      el("p", { class: "hint" }, t("board_neighbours_hint")),
      el("ul", { class: "neighbour-list" }, others.map((r) => el("li", {}, el("label", {},
        el("input", { type: "checkbox", name: "neighbour", value: r.id, checked: (region.neighbours || []).includes(r.id) }),
        label("regions", r))))),
      el("label", { class: "check" }, el("input", { type: "checkbox", name: "neighbours_complete", checked: Boolean(region.neighbours_complete) }),
        t("board_neighbours_complete"))),
  ];
}

function areaCard(area) {
  const members = asList(page.board.regions).filter((r) => r.area === area.id);
  return [
    nameFields(area, null),
    el("p", {}, t("board_area_members", { n: members.length }), " ",
      members.length ? members.map((r) => label("regions", r)).join(", ") : t("board_area_none")),
    el("p", { class: "hint" }, t("board_area_members_hint")),
  ];
}

function tribeCard(tribe) {
  const regions = asList(page.board.regions).map((r) => ({ id: r.id, label: label("regions", r) }));
  return [
    nameFields(tribe, null),
    tribe.realm === "light" ? field(t("col_start_region"), select("start_region", regions, tribe.start_region), t("board_start_region_hint")) : null,
    el("div", { class: "pair" },
      field(t("col_start_gold"), numberInput("start_gold", tribe.start_gold)),
      field(t("col_start_energy"), numberInput("start_energy", tribe.start_energy))),
    field(t("col_army_groups"), el("input", { name: "army_groups", value: (tribe.army_groups || []).join(", "),
      placeholder: t("board_army_groups_hint"), inputmode: "numeric", autocomplete: "off" })),
    el("fieldset", {}, el("legend", {}, t("board_costs")), el("p", { class: "hint" }, t("board_costs_hint")),
      BUILDINGS.map((b) => el("div", { class: "pair", "data-building": b },
        RESOURCES.map((res) => field(`${t(`building_${b}`)} · ${t(res)}`,
          numberInput(`costs.${b}.${res}`, tribe.costs?.[b]?.[res])))))),
    tribe.special ? el("p", { class: "hint" }, t("board_special", {
      action: t(`board_action_${tribe.special.action}`), gold: tribe.special.gold, energy: tribe.special.energy })) : null,
  ];
}

function spaceCard(space) {
  return [nameFields(space, null), el("p", { class: "hint" }, t("board_space_hint"))];
}

function renderCard() {
  const items = asList(page.board[page.kind]);
  page.index = Math.min(Math.max(page.index, 0), items.length - 1);
  const item = items[page.index];
  const missing = missingOf(page.kind, item.id);
  const card = { regions: regionCard, areas: areaCard, tribes: tribeCard, spaces: spaceCard }[page.kind](item);
  const singular = page.kind.slice(0, -1);
  clear($("board-form"),
    el("p", { class: "muted" }, t(`board_card_of_${singular}`, { n: page.index + 1, total: items.length })),
    el("h2", { "data-card": page.kind }, label(page.kind, item)),
    missing.length
      ? el("p", { class: "missing" }, t("board_still_missing"), " ", missing.map((m) => t(`board_missing_${m}`)).join(", "))
      : el("p", { class: "complete" }, "✓ ", t("board_item_complete")),
    card,
    el("div", { class: "row sticky-actions" },
      el("button", { type: "button", class: "btn", id: "board-prev", disabled: page.index === 0, onclick: () => go(page.index - 1) }, "← ", t("board_prev")),
      el("button", { type: "submit", class: "btn", id: "board-save", value: "stay" }, t("save")),
      el("button", { type: "submit", class: "btn primary big", id: "board-save-next", value: "next" }, t("board_save_next"), " →")));
  renderIndex();
}

// -- reading a card back -----------------------------------------------------------------------

function readNumber(form, name, fieldName) {
  const input = form.elements[name];
  const text = input.value.trim();
  if (text === "") return undefined;
  if (!/^\d{1,3}$/.test(text)) { problems.push(new FieldError(input, fieldName, t("board_reason_whole_number", { value: text }))); return undefined; }
  return Number(text);
}

function readName(form, name, fieldName) {
  const input = form.elements[name];
  const text = input.value.trim().replace(/\s+/g, " ");
  if (text.length > 60) { problems.push(new FieldError(input, fieldName, t("board_reason_too_long"))); return undefined; }
  return text || undefined;
}

function setOrDelete(obj, key, value) {
  if (value === undefined) delete obj[key]; else obj[key] = value;
}

let problems = []; // every field of the card that is wrong, found by one reading (collect)

/** The board with the shown card's fields applied, and every wrong field as a FieldError in
 *  `problems` (all at once: the second is not found only after the first is fixed). */
function collect(form) {
  problems = [];
  const board = structuredClone(page.board);
  const items = asList(board[page.kind]);
  const item = board[page.kind].find((x) => x.id === items[page.index].id);
  setOrDelete(item, "name", readName(form, "name", t("board_name_en")));
  setOrDelete(item, "name_de", readName(form, "name_de", t("board_name_de")));
  if (page.kind === "regions") {
    const clash = board.regions.find((r) => r !== item && item.name && r.name?.toLowerCase() === item.name.toLowerCase());
    if (clash) problems.push(new FieldError(form.elements.name, t("board_name_en"), t("board_reason_name_twice", { name: item.name })));
    setOrDelete(item, "area", form.elements.area.value || undefined);
    for (const realm of REALMS) {
      item[realm] = {};
      for (const res of RESOURCES) {
        setOrDelete(item[realm], res, readNumber(form, `${realm}.${res}`, `${t(`realm_${realm}`)} · ${t(res)}`));
      }
    }
    // Neighbours go both ways: ticking or unticking here changes the other region too.
    const ticked = new Set([...form.querySelectorAll("input[name=neighbour]:checked")].map((x) => x.value));
    item.neighbours = board.regions.filter((r) => ticked.has(r.id)).map((r) => r.id);
    for (const other of board.regions) {
      if (other === item) continue;
      const list = new Set(other.neighbours || []);
      if (ticked.has(other.id)) list.add(item.id); else list.delete(item.id);
      other.neighbours = board.regions.filter((r) => list.has(r.id)).map((r) => r.id);
    }
    item.neighbours_complete = form.elements.neighbours_complete.checked;
    if (item.area) {
      const n = board.regions.filter((r) => r.area === item.area).length;
      if (n > 5) problems.push(new FieldError(form.elements.area, t("col_area"), t("board_reason_area_full", { area: label("areas", byId("areas", item.area)) })));
    }
  }
  if (page.kind === "tribes") {
    if (item.realm === "light") setOrDelete(item, "start_region", form.elements.start_region.value || undefined);
    setOrDelete(item, "start_gold", readNumber(form, "start_gold", t("col_start_gold")));
    setOrDelete(item, "start_energy", readNumber(form, "start_energy", t("col_start_energy")));
    const groupsInput = form.elements.army_groups;
    const parts = groupsInput.value.split(/[,;\s]+/).filter(Boolean);
    if (parts.some((x) => !/^\d{1,2}$/.test(x))) problems.push(new FieldError(groupsInput, t("col_army_groups"), t("board_reason_groups")));
    else setOrDelete(item, "army_groups", parts.length ? parts.map(Number) : undefined);
    item.costs = {};
    for (const b of BUILDINGS) {
      const gold = readNumber(form, `costs.${b}.gold`, `${t(`building_${b}`)} · ${t("gold")}`);
      const energy = readNumber(form, `costs.${b}.energy`, `${t(`building_${b}`)} · ${t("energy")}`);
      if ((gold === undefined) !== (energy === undefined)) {
        const input = form.elements[`costs.${b}.${gold === undefined ? "gold" : "energy"}`];
        problems.push(new FieldError(input, `${t(`building_${b}`)} · ${t(gold === undefined ? "gold" : "energy")}`, t("board_reason_cost_pair")));
      }
      if (gold !== undefined) item.costs[b] = { gold, energy };
    }
  }
  return board;
}

// -- actions -----------------------------------------------------------------------------------

async function reload(board) {
  page.board = board ?? await api("/api/board");
  page.status = await api("/api/board/status");
  renderProgress();
  renderCard();
}

function notice(text) {
  const node = $("board-saved");
  node.textContent = text;
  node.hidden = !text;
}

function go(index) {
  page.index = index;
  history.replaceState(null, "", `#${page.kind}/${index + 1}`);
  notice("");
  renderCard();
  $("board-form").scrollIntoView({ block: "start" });
}

function clearNotes(form) {
  for (const n of form.querySelectorAll(".field-note")) { n.hidden = true; n.textContent = ""; }
  for (const n of form.querySelectorAll(".invalid")) { n.classList.remove("invalid"); n.removeAttribute("aria-invalid"); }
}

async function save(event) {
  event.preventDefault();
  const form = $("board-form");
  const next = event.submitter?.value === "next";
  clearNotes(form);
  showError($("board-error"), null);
  notice("");
  const board = collect(form);
  if (problems.length) {
    for (const err of problems) {
      err.input.classList.add("invalid");
      err.input.setAttribute("aria-invalid", "true");
      const note = err.input.closest(".field")?.querySelector(".field-note");
      if (note) { note.textContent = err.message; note.hidden = false; }
    }
    showError($("board-error"), problems.map((err) => err.message).join(" "));
    problems[0].input.focus();
    return;
  }
  const name = label(page.kind, asList(board[page.kind])[page.index]);
  try {
    await reload(await api("/api/board", { method: "PUT", body: board }));
  } catch (err) { showError($("board-error"), err); return; }
  const p = page.status.progress[page.kind];
  notice(t("board_saved_item", { name, done: p.complete, total: p.total, what: t(`board_${page.kind}`) }));
  if (next && page.index < asList(page.board[page.kind]).length - 1) {
    go(page.index + 1);
    notice(t("board_saved_item", { name, done: p.complete, total: p.total, what: t(`board_${page.kind}`) }));
  }
}

async function undo() {
  showError($("board-error"), null);
  try {
    await reload(await api("/api/board/undo", { method: "POST", body: {} }));
    notice(t("board_undone"));
  } catch (err) { showError($("board-error"), err); }
}

async function importFile(event) {
  const file = event.target.files?.[0];
  event.target.value = "";
  if (!file) return;
  showError($("board-error"), null);
  notice("");
  try {
    const text = await file.text();
    await reload(await api("/api/board/import", { method: "POST", body: { text, filename: file.name } }));
    const p = page.status.progress.regions;
    notice(t("board_imported", { file: file.name, done: p.complete, total: p.total }));
  } catch (err) { showError($("board-error"), err); }
}

/** #regions/12 (the 12th card) or #tribes/<id> (links from the new-game page and a game). */
function fromHash() {
  const [kind, which] = decodeURIComponent(window.location.hash.slice(1)).split("/");
  if (!KINDS.includes(kind)) return;
  page.kind = kind;
  const items = asList(page.board[kind]);
  const byIdIndex = items.findIndex((x) => x.id === which);
  if (byIdIndex >= 0) page.index = byIdIndex;
  else if (/^\d+$/.test(which || "")) page.index = Number(which) - 1;
  else page.index = Math.max(0, items.findIndex((x) => missingOf(kind, x.id).length));
}

async function init() {
  try { await reload(); } catch (err) { showError($("board-error"), err); return; }
  fromHash();
  renderProgress();
  renderCard();
  window.addEventListener("hashchange", () => { fromHash(); notice(""); renderProgress(); renderCard(); });
  $("board-form").addEventListener("submit", save);
  $("board-undo").addEventListener("click", undo);
  $("board-import").addEventListener("change", importFile);
}
init();
