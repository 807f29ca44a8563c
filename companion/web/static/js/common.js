// Runs on every page: the simulated-tower banner and the language switch cookie.
import { api } from "./api.js";

async function health() {
  const banner = document.getElementById("sim-banner");
  try {
    const h = await api("/api/health");
    if (banner) banner.hidden = !h.simulated;
    document.body.dataset.simulated = h.simulated ? "yes" : "no";
  } catch {
    // The API is unreachable: the page's own error message says so; no banner guess.
  }
}

// Keep the current path when switching language (the server remembers it in a cookie).
for (const link of document.querySelectorAll(".langswitch a[data-lang]")) {
  const url = new URL(window.location.href);
  url.searchParams.set("lang", link.dataset.lang);
  link.href = url.pathname + url.search;
}
health();
