// The owner's board data: every table of Board.to_dict() as editable rows. Fields the rulebook
// does not give are placeholders (empty = "not entered yet"); the server validates on save and
// its message is shown inline. Nested values are edited through dotted column names.
import { api } from "./api.js";
import { asList } from "./board.js";
import { el, clear, showError } from "./dom.js";
import { t } from "./i18n.js";

let original = null;

function flatten(obj, prefix = "", out = {}) {
  for (const [k, v] of Object.entries(obj)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v && typeof v === "object" && !Array.isArray(v)) flatten(v, key, out);
    else out[key] = v;
  }
  return out;
}

function setPath(obj, path, value) {
  const parts = path.split(".");
  let node = obj;
  for (const p of parts.slice(0, -1)) node = node[p] ??= {};
  node[parts.at(-1)] = value;
}

/** Parse one input back into the type its column had (number, list, text, or null = not entered). */
function parseCell(text, sample) {
  const trimmed = text.trim();
  if (trimmed === "") return null;
  if (typeof sample === "number" || (sample === null && /^-?\d+$/.test(trimmed))) {
    const n = Number(trimmed);
    if (!Number.isFinite(n)) throw new Error(t("err_number", { value: trimmed }));
    return n;
  }
  if (Array.isArray(sample)) return trimmed.split(",").map((x) => x.trim()).filter(Boolean);
  if (typeof sample === "boolean") return ["true", "yes", "ja", "1"].includes(trimmed.toLowerCase());
  return trimmed;
}

function tableFor(name, container) {
  const rows = asList(container);
  const flat = rows.map((r) => flatten(r));
  const cols = [...new Set(flat.flatMap((r) => Object.keys(r)))];
  const samples = Object.fromEntries(cols.map((c) => [c, flat.map((r) => r[c]).find((v) => v !== null && v !== undefined) ?? null]));
  const body = el("tbody", {}, flat.map((r, i) => el("tr", { "data-row": i },
    cols.map((c) => el("td", {}, c === "id"
      ? el("code", {}, r.id)
      : el("input", {
        name: `${name}.${i}.${c}`, "data-col": c,
        value: r[c] === null || r[c] === undefined ? "" : Array.isArray(r[c]) ? r[c].join(", ") : String(r[c]),
        placeholder: t("not_entered"), "aria-label": `${r.name ?? r.id} ${c}`,
      }))))));
  const section = el("section", { class: "panel", "data-table": name },
    el("h2", {}, t(`board_${name}`) === `board_${name}` ? name : t(`board_${name}`)),
    el("div", { style: "overflow-x:auto" }, el("table", { class: "data editor-table" },
      el("thead", {}, el("tr", {}, cols.map((c) => el("th", {}, c)))), body)));
  const read = () => rows.map((row, i) => {
    const copy = structuredClone(row);
    for (const input of body.querySelectorAll(`tr[data-row="${i}"] input`)) {
      const col = input.dataset.col;
      try { setPath(copy, col, parseCell(input.value, samples[col])); input.classList.remove("invalid"); }
      catch (err) { input.classList.add("invalid"); throw err; }
    }
    return copy;
  });
  return { section, read, isList: Array.isArray(container) };
}

function render(board) {
  const editor = document.getElementById("board-editor");
  const tables = {};
  const parts = [];
  for (const [key, value] of Object.entries(board)) {
    const objects = Array.isArray(value) ? value.every((x) => x && typeof x === "object" && !Array.isArray(x))
      : value && typeof value === "object" && Object.values(value).every((x) => x && typeof x === "object" && !Array.isArray(x));
    if (objects && (Array.isArray(value) ? value.length : Object.keys(value).length)) {
      tables[key] = tableFor(key, value);
      parts.push(tables[key].section);
    }
  }
  // Everything that is not a table of objects (e.g. adjacency pairs) is edited as JSON text.
  const rest = Object.fromEntries(Object.entries(board).filter(([k]) => !(k in tables)));
  const restArea = el("textarea", { id: "board-rest", rows: 10, style: "width:100%;font-family:monospace" }, JSON.stringify(rest, null, 1));
  parts.push(el("section", { class: "panel" }, el("h2", {}, t("board_other")), el("p", { class: "hint" }, t("board_other_hint")), restArea));
  clear(editor, parts);
  return () => {
    let extra;
    try { extra = JSON.parse(restArea.value || "{}"); } catch { throw new Error(t("err_json")); }
    const out = { ...extra };
    for (const [key, table] of Object.entries(tables)) {
      const rows = table.read();
      out[key] = table.isList ? rows : Object.fromEntries(rows.map(({ id, ...r }) => [id, r]));
    }
    return out;
  };
}

async function init() {
  const error = document.getElementById("board-error");
  const saved = document.getElementById("board-saved");
  let collect = null;
  try { original = await api("/api/board"); collect = render(original); }
  catch (err) { showError(error, err); return; }
  document.getElementById("board-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    saved.hidden = true;
    showError(error, null);
    let board;
    try { board = collect(); } catch (err) { showError(error, err); return; }
    try {
      original = await api("/api/board", { method: "PUT", body: board });
      collect = render(original);
      saved.hidden = false;
    } catch (err) { showError(error, err); }
  });
}
init();
