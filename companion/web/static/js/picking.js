// Picking regions on the board: a tap on a region of the drawn board goes to the open form
// (its first empty region field that offers it, or the next step of a move's way), and the
// form marks on the board what it offers (.pickable), what is picked (.picked) and the way
// (.on-path). Only the form that registered last receives taps, and only while it is on screen.

let picker = null; // (region, realm) => boolean (true: the tap was used)

/** Register the open form's tap handler (null: none). */
export function setBoardPicker(fn) { picker = fn; }

document.addEventListener("click", (event) => {
  const node = event.target.closest?.(".region[data-region][data-realm]");
  if (!node || !picker || !node.closest("#realm-light, #realm-dark")) return;
  if (picker(node.dataset.region, node.dataset.realm)) event.preventDefault();
});

/** Mark board regions: marks = {className: ["region|realm", …]}; earlier marks are removed. */
export function markBoard(marks) {
  for (const cls of ["pickable", "picked", "on-path"]) {
    for (const n of document.querySelectorAll(`.region.${cls}`)) n.classList.remove(cls);
  }
  for (const [cls, keys] of Object.entries(marks)) {
    for (const key of keys || []) {
      const [region, realm] = key.split("|");
      const n = document.querySelector(`#realm-${realm} .region[data-region="${CSS.escape(region)}"]`);
      if (n) n.classList.add(cls);
    }
  }
}

export const splitKey = (key) => {
  const [region, realm] = String(key).split("|");
  return { region, realm };
};
