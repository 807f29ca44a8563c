// New-game wizard: players (name, colour, light and dark tribe) in seat order, first player, rounds.
// Defaults keep a set-up short: the player count is one tap, every seat starts with its own
// colour and its own light and dark tribe (tap to change), rounds follow the count. Before the
// submit, the page says which board data the chosen tribes still lack and links to where to
// enter it (GET /api/board/needs), so nothing is found out by a rejection.
import { api, requestKey } from "./api.js";
import { COLOURS, defaultRounds, normaliseBoard, displayName } from "./board.js";
import { gapList } from "./board_gaps.js";
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

/** The first tribe of `realm` no other seat has (a sensible default; the players may change it). */
function freeTribe(realm) {
  const taken = new Set(seats.map((s) => s[`${realm}_tribe`]));
  return board.tribes[realm].find((x) => !taken.has(x.id))?.id || "";
}

function newSeat() {
  return { name: "", color: freeColour(), light_tribe: freeTribe("light"), dark_tribe: freeTribe("dark") };
}

function addSeat() {
  if (seats.length >= 5) return;
  seats.push(newSeat());
  render();
}

function setCount(n) {
  while (seats.length < n) seats.push(newSeat());
  seats.splice(n);
  render();
}

// -- what the chosen tribes still lack -----------------------------------------------------------

let needsAsked = "";

async function renderNeeds() {
  const light = seats.map((s) => s.light_tribe).filter(Boolean).join(",");
  const dark = seats.map((s) => s.dark_tribe).filter(Boolean).join(",");
  const ask = `light=${encodeURIComponent(light)}&dark=${encodeURIComponent(dark)}`;
  if (ask === needsAsked) return;
  needsAsked = ask;
  let answer;
  try { answer = await api(`/api/board/needs?${ask}`); } catch { return; }
  if (ask !== needsAsked) return; // a newer choice is on its way
  const node = $("wizard-needs");
  node.hidden = !answer.gaps.length;
  clear(node, el("h2", {}, t("needs_title")), el("p", { class: "hint" }, t("needs_hint")), gapList(answer.gaps, board));
}

function tribeSelect(realm, seat, index) {
  const options = board.tribes[realm];
  return el("label", { class: "field" }, t(realm === "light" ? "light_tribe" : "dark_tribe"),
    el("select", {
      name: `${realm}_tribe_${index}`, "data-field": `${realm}_tribe`,
      onchange: (e) => { seat[`${realm}_tribe`] = e.target.value; renderNeeds(); },
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
          enterkeyhint: i < seats.length - 1 ? "next" : "done",
          // Enter goes on to the next name (the keyboard's "next" key): no tap on the next field.
          onkeydown: (e) => { if (e.key === "Enter") { e.preventDefault(); document.querySelector(`[name=name_${i + 1}]`)?.focus(); } },
          oninput: (e) => { seat.name = e.target.value; renderFirst(); } })),
      tribeSelect("light", seat, i),
      tribeSelect("dark", seat, i)),
    // Every colour can be tapped: one another seat has is swapped with this seat's (with five
    // players every colour is taken, and a seat's colour must still be changeable).
    el("div", { class: "colour-pick", role: "group", "aria-label": t("colour_of", { n: i + 1 }) },
      COLOURS.map((c) => {
        const other = seats.find((s, j) => j !== i && s.color === c);
        return el("button", {
          type: "button", class: "btn", "data-colour": c, "aria-pressed": seat.color === c ? "true" : "false",
          title: other ? t("colour_swap", { name: other.name || colourName(c) }) : null,
          onclick: () => { if (other) other.color = seat.color; seat.color = c; render(); },
        }, el("span", { class: `swatch c-${c}`, "aria-hidden": "true" }), colourName(c), other ? " ⇄" : "");
      })),
    el("div", { class: "row" },
      el("button", { type: "button", class: "btn", disabled: i === 0, "aria-label": t("seat_up"), onclick: () => move(i, -1) }, "↑ " + t("seat_up")),
      el("button", { type: "button", class: "btn", disabled: i === seats.length - 1, "aria-label": t("seat_down"), onclick: () => move(i, 1) }, "↓ " + t("seat_down")),
      el("button", { type: "button", class: "btn danger", disabled: seats.length <= 3, onclick: () => { seats.splice(i, 1); render(); } }, t("remove"))))));
  $("add-player").disabled = seats.length >= 5;
  for (const b of document.querySelectorAll(".player-count [data-count]")) {
    b.setAttribute("aria-pressed", Number(b.dataset.count) === seats.length ? "true" : "false");
  }
  renderNeeds();
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

/** Client-side checks mirror the server's so the player learns at once; the server still decides.
 *  A problem names the seat and which of its fields to fix: {message, seat?, field?}. */
function problems() {
  if (seats.length < 3 || seats.length > 5) return { message: t("err_player_count") };
  const seen = new Map(); // name as compared (the server's rule: capitals and spacing do not count) → seat
  for (const [i, s] of seats.entries()) {
    if (!s.name.trim()) return { message: t("err_seat_name", { n: i + 1 }), seat: i, field: "name" };
    const key = s.name.trim().split(/\s+/).join(" ").toLowerCase();
    if (seen.has(key)) return { message: t("err_seat_name_twice", { a: seen.get(key) + 1, b: i + 1, name: s.name.trim() }), seat: i, field: "name" };
    seen.set(key, i);
    for (const realm of ["light", "dark"]) {
      if (!s[`${realm}_tribe`]) return { message: t("err_tribes", { name: s.name }), seat: i, field: `${realm}_tribe` };
    }
  }
  for (const realm of ["light", "dark"]) {
    for (const [i, s] of seats.entries()) {
      const j = seats.findIndex((o) => o[`${realm}_tribe`] === s[`${realm}_tribe`]);
      if (j !== i) {
        const tribe = board.tribes[realm].find((x) => x.id === s[`${realm}_tribe`]);
        return { message: t("err_seat_tribe_twice", { tribe: tribe ? displayName(tribe) : s[`${realm}_tribe`], a: seats[j].name || j + 1, b: s.name || i + 1 }),
          seat: i, field: `${realm}_tribe` };
      }
    }
  }
  const rounds = Number($("rounds").value);
  if (!Number.isInteger(rounds) || rounds < 1) return { message: t("err_rounds_whole"), field: "rounds" };
  return null;
}

let marked = null; // the field a problem points at: {seat, field}

/** Mark the field of `problem` (aria-invalid, red border) and put the cursor there. */
function markProblem(problem) {
  for (const node of document.querySelectorAll("#wizard [aria-invalid]")) node.removeAttribute("aria-invalid");
  marked = problem?.field ? problem : null;
  if (!marked) return;
  const node = marked.seat === undefined ? $("rounds")
    : document.querySelector(`#seats li[data-seat="${marked.seat}"] [data-field="${marked.field}"]`);
  if (!node) return;
  node.setAttribute("aria-invalid", "true");
  node.setAttribute("aria-describedby", "wizard-error");
  node.focus();
}

let createKey = { body: null, key: null }; // Idempotency-Key of the set-up last sent

async function submit(event) {
  event.preventDefault();
  const problem = problems();
  showError($("wizard-error"), problem?.message);
  markProblem(problem);
  if (problem) return;
  $("start-game").disabled = true;
  try {
    const body = {
      players: seats.map((s) => ({ color: s.color, name: s.name.trim(), light_tribe: s.light_tribe, dark_tribe: s.dark_tribe })),
      first_player: $("first-player").value,
      rounds: Number($("rounds").value),
    };
    // The same set-up tapped again (its answer was lost: Wi-Fi, power cut) keeps its key, so the
    // server hands back the game it made instead of a second one; a changed set-up gets a new key.
    const text = JSON.stringify(body);
    if (text !== createKey.body) createKey = { body: text, key: requestKey() };
    const answer = await api("/api/games", { method: "POST", body, headers: { "Idempotency-Key": createKey.key } });
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
  for (let i = 0; i < 3; i += 1) seats.push(newSeat());
  $("add-player").addEventListener("click", addSeat);
  for (const b of document.querySelectorAll(".player-count [data-count]")) {
    b.addEventListener("click", () => setCount(Number(b.dataset.count)));
  }
  $("rounds").addEventListener("input", () => { roundsTouched = true; });
  $("wizard").addEventListener("submit", submit);
  render();
  // The buttons come disabled from the server: a tap before they do anything is not lost
  // silently on a slow tablet, it cannot happen.
  for (const b of document.querySelectorAll(".player-count [data-count]")) b.disabled = false;
  $("start-game").disabled = false;
  $("wizard").removeAttribute("aria-busy");
}
init();
