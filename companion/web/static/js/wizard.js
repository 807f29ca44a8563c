// New-game wizard: players (name, colour, light and dark tribe) in seat order, first player, rounds.
import { api } from "./api.js";
import { COLOURS, defaultRounds, normaliseBoard, displayName } from "./board.js";
import { el, clear, showError } from "./dom.js";
import { t, colourName } from "./i18n.js";
import { loadRoster, rosterField, linkPeople } from "./roster_picker.js";

let board = normaliseBoard({});
const seats = []; // [{name, color, light_tribe, dark_tribe}]
let roundsTouched = false;

const $ = (id) => document.getElementById(id);

function freeColour() {
  return COLOURS.find((c) => !seats.some((s) => s.color === c)) || COLOURS[0];
}

function addSeat() {
  if (seats.length >= 5) return;
  seats.push({ name: "", color: freeColour(), light_tribe: "", dark_tribe: "" });
  render();
}

function tribeSelect(realm, seat, index) {
  const options = board.tribes[realm];
  return el("label", { class: "field" }, t(realm === "light" ? "light_tribe" : "dark_tribe"),
    el("select", {
      name: `${realm}_tribe_${index}`, "data-field": `${realm}_tribe`,
      onchange: (e) => { seat[`${realm}_tribe`] = e.target.value; },
    },
    el("option", { value: "" }, t("choose")),
    options.map((x) => el("option", { value: x.id, selected: seat[`${realm}_tribe`] === x.id }, displayName(x)))));
}

function render() {
  clear($("seats"), seats.map((seat, i) => el("li", { "data-seat": i },
    el("div", { class: "seat-fields" },
      rosterField(seat, i, render),
      el("label", { class: "field" }, t("player_name"),
        el("input", { name: `name_${i}`, "data-field": "name", value: seat.name, maxlength: 30, autocomplete: "off",
          oninput: (e) => { seat.name = e.target.value; renderFirst(); } })),
      tribeSelect("light", seat, i),
      tribeSelect("dark", seat, i)),
    el("div", { class: "colour-pick", role: "radiogroup", "aria-label": t("colour") },
      COLOURS.map((c) => el("button", {
        type: "button", class: "btn", "data-colour": c, "aria-pressed": seat.color === c ? "true" : "false",
        disabled: seats.some((s, j) => j !== i && s.color === c),
        onclick: () => { seat.color = c; render(); },
      }, el("span", { class: `swatch c-${c}`, "aria-hidden": "true" }), colourName(c)))),
    el("div", { class: "row" },
      el("button", { type: "button", class: "btn", disabled: i === 0, "aria-label": t("seat_up"), onclick: () => move(i, -1) }, "↑ " + t("seat_up")),
      el("button", { type: "button", class: "btn", disabled: i === seats.length - 1, "aria-label": t("seat_down"), onclick: () => move(i, 1) }, "↓ " + t("seat_down")),
      el("button", { type: "button", class: "btn danger", disabled: seats.length <= 3, onclick: () => { seats.splice(i, 1); render(); } }, t("remove"))))));
  $("add-player").disabled = seats.length >= 5;
  if (!roundsTouched) $("rounds").value = defaultRounds(seats.length);
  $("rounds-hint").textContent = t("rounds_hint", { n: defaultRounds(seats.length) });
  renderFirst();
}

function renderFirst() {
  const select = $("first-player");
  const keep = select.value;
  clear(select, seats.map((s) => el("option", { value: s.color, selected: s.color === keep },
    s.name ? `${s.name} (${colourName(s.color)})` : colourName(s.color))));
}

function move(i, delta) {
  const [seat] = seats.splice(i, 1);
  seats.splice(i + delta, 0, seat);
  render();
}

/** Client-side checks mirror the server's so the player learns at once; the server still decides. */
function problems() {
  if (seats.length < 3 || seats.length > 5) return t("err_player_count");
  for (const s of seats) {
    if (!s.name.trim()) return t("err_player_name");
    if (!s.light_tribe || !s.dark_tribe) return t("err_tribes", { name: s.name || colourName(s.color) });
  }
  for (const realm of ["light", "dark"]) {
    const picked = seats.map((s) => s[`${realm}_tribe`]);
    if (new Set(picked).size !== picked.length) return t("err_tribe_twice");
  }
  const rounds = Number($("rounds").value);
  if (!Number.isInteger(rounds) || rounds < 1) return t("err_rounds");
  return null;
}

async function submit(event) {
  event.preventDefault();
  const problem = problems();
  showError($("wizard-error"), problem);
  if (problem) return;
  $("start-game").disabled = true;
  try {
    const answer = await api("/api/games", { method: "POST", body: {
      players: seats.map((s) => ({ color: s.color, name: s.name.trim(), light_tribe: s.light_tribe, dark_tribe: s.dark_tribe })),
      first_player: $("first-player").value,
      rounds: Number($("rounds").value),
    } });
    await linkPeople(answer.id, seats);
    window.location.href = `/games/${answer.id}`;
  } catch (err) {
    showError($("wizard-error"), err);
    $("start-game").disabled = false;
  }
}

async function init() {
  try { board = normaliseBoard(await api("/api/board")); }
  catch (err) { showError($("wizard-error"), err); }
  await loadRoster();
  for (let i = 0; i < 3; i += 1) seats.push({ name: "", color: COLOURS[i], light_tribe: "", dark_tribe: "" });
  $("add-player").addEventListener("click", addSeat);
  $("rounds").addEventListener("input", () => { roundsTouched = true; });
  $("wizard").addEventListener("submit", submit);
  render();
}
init();
