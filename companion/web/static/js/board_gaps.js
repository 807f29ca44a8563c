// "Which rules are switched off because board data is missing": the list shown on the new-game
// page (for the chosen tribes) and on a game's first screen (for its board snapshot), each item
// in the page's language with a link to where the data is entered. Ids go into links only.
import { api } from "./api.js";
import { el, clear } from "./dom.js";
import { t } from "./i18n.js";

/** The on-screen names of a gap's items, from the (normalised) board when it knows them. */
function names(gap, board) {
  return gap.ids.map((id, i) => {
    const item = gap.kind === "tribes" ? board?.tribeById?.get(id)
      : gap.kind === "areas" || gap.rule === "area_bonus" ? board?.areas?.find((a) => a.id === id)
        : board?.regions?.get(id);
    return item?.name || gap.names[i];
  });
}

function listed(items, most = 4) {
  const shown = items.slice(0, most).join(", ");
  return items.length > most ? t("gap_and_more", { names: shown, n: items.length - most }) : shown;
}

function link(gap) {
  if (gap.kind === "tribes") return `/setup/board#tribes/${encodeURIComponent(gap.ids[0])}`;
  return "/setup/board#regions";
}

/** <ul> of gaps: a sentence per rule and a link to enter the data. */
export function gapList(gaps, board) {
  return el("ul", { class: "gap-list" }, gaps.map((gap) => el("li", { "data-rule": gap.rule },
    t(`gap_${gap.rule}`, { names: listed(names(gap, board)), count: gap.count }), " ",
    el("a", { href: link(gap) }, t("gap_link")))));
}

/** On a game page: the rules this game plays with less checking, said on its first screen.
 *  ``board``: the game's own (normalised) board snapshot, which the game page has loaded. */
export async function showGameGaps(id, board) {
  const host = document.getElementById("board-gaps");
  if (!id || !host) return;
  const key = `board-gaps-hidden-${id}`;
  if (sessionStorage.getItem(key)) return;
  try {
    const { gaps } = await api(`/api/games/${id}/board-gaps`);
    if (!gaps.length) return;
    clear(host, el("h2", {}, t("gaps_title")), el("p", { class: "hint" }, t("gaps_hint")),
      gapList(gaps, board),
      el("button", { type: "button", class: "btn", id: "board-gaps-hide", onclick: () => {
        sessionStorage.setItem(key, "1"); // this tablet has read it; other tablets still show it
        host.hidden = true;
      } }, t("gaps_dismiss")));
    host.hidden = false;
  } catch { /* the game page shows its own load errors */ }
}
