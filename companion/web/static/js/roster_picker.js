// The new-game wizard's roster picker: each seat can take a person from the roster (the name
// follows); after the game is created the colours are linked to those people. A name typed by
// hand that is on the roster links too. Self-contained: the wizard calls the three exports.
import { api } from "./api.js";
import { el } from "./dom.js";
import { t } from "./i18n.js";

let people = [];

/** Read the roster once (an empty roster, or an old server without one, just hides the picker). */
export async function loadRoster() {
  try { people = await api("/api/people"); } catch { people = []; }
  return people;
}

/** A "from the roster" select for `seat`; picking a person sets seat.person_id and seat.name. */
export function rosterField(seat, index, onPick) {
  if (!people.length) return null;
  return el("label", { class: "field" }, t("roster_pick"),
    el("select", {
      name: `person_${index}`, "data-field": "person",
      onchange: (e) => {
        const p = people.find((x) => String(x.id) === e.target.value);
        seat.person_id = p ? p.id : null;
        if (p) seat.name = p.name;
        onPick();
      },
    },
    el("option", { value: "" }, t("roster_none")),
    people.map((p) => el("option", { value: p.id, selected: seat.person_id === p.id }, p.name))));
}

/** Link the new game's colours to people: picked ones, or a typed name that is on the roster. */
export async function linkPeople(gameId, seats) {
  const byName = new Map(people.map((p) => [p.name.trim().toLowerCase(), p.id]));
  const links = {};
  for (const s of seats) {
    const id = s.person_id ?? byName.get(s.name.trim().toLowerCase());
    if (id) links[s.color] = id;
  }
  if (!Object.keys(links).length) return;
  try { await api(`/api/games/${gameId}/people`, { method: "PUT", body: { people: links } }); }
  catch { /* the game exists either way; the statistics page can link it later */ }
}
