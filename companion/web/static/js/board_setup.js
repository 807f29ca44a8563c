// The owner's board data (Board.to_dict()): areas, regions, tribes as editable tables.
// An empty field means "not entered yet" and is left out of the data, exactly as in board.toml;
// the server validates on save and its message is shown inline.
import { api } from "./api.js";
import { el, clear, showError } from "./dom.js";
import { t } from "./i18n.js";

const BUILDINGS = ["portal", "shrine", "capital"];
const COLUMNS = {
  areas: [{ path: "name", type: "text", label: "col_name" }],
  regions: [
    { path: "name", type: "text", label: "col_name" },
    { path: "area", type: "area", label: "col_area" },
    { path: "neighbours", type: "regions", label: "col_neighbours" },
    { path: "neighbours_complete", type: "bool", label: "col_neighbours_complete" },
    { path: "light.gold", type: "int", label: "col_light_gold" }, { path: "light.energy", type: "int", label: "col_light_energy" },
    { path: "dark.gold", type: "int", label: "col_dark_gold" }, { path: "dark.energy", type: "int", label: "col_dark_energy" },
  ],
  tribes: [
    { path: "name", type: "text", label: "col_name" },
    { path: "start_region", type: "region", label: "col_start_region", realm: "light" },
    { path: "start_gold", type: "int", label: "col_start_gold" }, { path: "start_energy", type: "int", label: "col_start_energy" },
    { path: "army_groups", type: "ints", label: "col_army_groups" },
    ...BUILDINGS.flatMap((b) => [{ path: `costs.${b}.gold`, type: "int", label: `col_cost_${b}_gold` },
      { path: `costs.${b}.energy`, type: "int", label: `col_cost_${b}_energy` }]),
    { path: "special.action", type: "text", label: "col_special_action", realm: "dark" },
    { path: "special.gold", type: "int", label: "col_special_gold", realm: "dark" },
    { path: "special.energy", type: "int", label: "col_special_energy", realm: "dark" },
  ],
};

const getPath = (obj, path) => path.split(".").reduce((o, k) => (o == null ? undefined : o[k]), obj);

function setPath(obj, path, value) {
  const parts = path.split(".");
  let node = obj;
  for (const p of parts.slice(0, -1)) node = node[p] ??= {};
  if (value === undefined) delete node[parts.at(-1)]; else node[parts.at(-1)] = value;
}

class CellError extends Error {}

function control(col, value, board, row) {
  const name = `${row.id}.${col.path}`;
  if (col.type === "bool") return el("input", { type: "checkbox", name, checked: Boolean(value) });
  if (col.type === "area" || col.type === "region") {
    const options = col.type === "area" ? board.areas : board.regions;
    return el("select", { name }, el("option", { value: "" }, t("not_entered")),
      options.map((o) => el("option", { value: o.id, selected: o.id === value }, o.name)));
  }
  let text = value ?? "";
  if (col.type === "regions") text = (value || []).map((id) => board.regions.find((r) => r.id === id)?.name ?? id).join(", ");
  if (col.type === "ints") text = (value || []).join(", ");
  return el("input", { name, value: String(text), placeholder: t("not_entered"), inputmode: col.type.startsWith("int") ? "numeric" : "text",
    size: col.type === "int" ? 3 : col.type === "text" ? 18 : 24 });
}

function read(col, input, board, row) {
  const label = t(col.label);
  const where = `${row.name || row.id}: ${label}`;
  if (col.type === "bool") return input.checked;
  const text = input.value.trim();
  if (text === "") return undefined;
  if (col.type === "int") {
    if (!/^\d+$/.test(text)) throw new CellError(t("err_whole_number", { where, value: text }));
    return Number(text);
  }
  if (col.type === "ints") {
    const parts = text.split(",").map((x) => x.trim()).filter(Boolean);
    if (parts.some((x) => !/^\d+$/.test(x))) throw new CellError(t("err_whole_numbers", { where }));
    return parts.map(Number);
  }
  if (col.type === "regions") {
    return text.split(",").map((x) => x.trim()).filter(Boolean).map((x) => {
      const hit = board.regions.find((r) => r.id === x || r.name.toLowerCase() === x.toLowerCase());
      if (!hit) throw new CellError(t("err_no_region", { where, value: x }));
      return hit.id;
    });
  }
  return text;
}

function table(name, rows, board) {
  const columns = COLUMNS[name];
  const body = el("tbody", {}, rows.map((row) => el("tr", { "data-id": row.id },
    el("td", {}, el("code", {}, row.id), name === "tribes" ? el("div", { class: "muted" }, t(`realm_${row.realm}`)) : null),
    columns.map((col) => el("td", { "data-col": col.path },
      col.realm && row.realm !== col.realm ? "–" : control(col, getPath(row, col.path), board, row))))));
  const node = el("section", { class: "panel", "data-table": name },
    el("h2", {}, t(`board_${name}`)),
    el("div", { style: "overflow-x:auto" }, el("table", { class: "data editor-table" },
      el("thead", {}, el("tr", {}, el("th", {}, "id"), columns.map((c) => el("th", {}, t(c.label))))), body)));
  const collect = () => rows.map((row) => {
    const copy = structuredClone(row);
    const tr = body.querySelector(`tr[data-id="${CSS.escape(row.id)}"]`);
    for (const col of columns) {
      const input = tr.querySelector(`[data-col="${CSS.escape(col.path)}"] input, [data-col="${CSS.escape(col.path)}"] select`);
      if (!input) continue;
      input.classList.remove("invalid");
      try { setPath(copy, col.path, read(col, input, board, row)); }
      catch (err) { input.classList.add("invalid"); input.focus(); throw err; }
    }
    // A price is a pair: both numbers or neither (0 is a price, empty is "not entered").
    for (const b of BUILDINGS) {
      const cost = copy.costs?.[b];
      if (cost && (cost.gold === undefined) !== (cost.energy === undefined)) throw new CellError(t("err_cost_pair", { tribe: row.name, building: t(`building_${b}`) }));
      if (cost && cost.gold === undefined) delete copy.costs[b];
    }
    if (copy.special && copy.special.action === undefined) {
      if (copy.special.gold !== undefined || copy.special.energy !== undefined) throw new CellError(t("err_special_action", { tribe: row.name }));
      delete copy.special;
    }
    return copy;
  });
  return { node, collect };
}

function render(board) {
  const tables = Object.fromEntries(Object.keys(COLUMNS).map((name) => [name, table(name, board[name] || [], board)]));
  clear(document.getElementById("board-editor"), Object.values(tables).map((x) => x.node));
  return () => ({ ...board, ...Object.fromEntries(Object.entries(tables).map(([name, x]) => [name, x.collect()])) });
}

async function init() {
  const error = document.getElementById("board-error");
  const saved = document.getElementById("board-saved");
  let collect;
  try { collect = render(await api("/api/board")); }
  catch (err) { showError(error, err); return; }
  document.getElementById("board-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    saved.hidden = true;
    showError(error, null);
    let board;
    try { board = collect(); } catch (err) { showError(error, err); return; }
    try {
      collect = render(await api("/api/board", { method: "PUT", body: board }));
      saved.hidden = false;
    } catch (err) { showError(error, err); }
  });
}
init();
