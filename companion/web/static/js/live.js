// Live updates over server-sent events, with a visible "reconnecting…" badge.
// EventSource reconnects by itself (the server sets `retry:`); if the browser gives up
// (readyState CLOSED, e.g. the server was restarted and answered an error), we open a new one.
const badge = () => document.getElementById("live-badge");

/** Subscribe to `/api/events`; handlers: {state, tower, reading, reconnected}. Returns close(). */
export function subscribe(gameId, handlers = {}) {
  let source = null;
  let closed = false;
  let everOpen = false;
  let lostSince = null;

  const open = () => {
    const url = gameId ? `/api/events?game=${encodeURIComponent(gameId)}` : "/api/events";
    source = new EventSource(url);
    source.addEventListener("open", () => {
      if (badge()) badge().hidden = true;
      document.body.dataset.live = "open";
      // Events may have been missed while away: let the page re-read the state.
      if (everOpen && lostSince !== null && handlers.reconnected) handlers.reconnected();
      everOpen = true;
      lostSince = null;
    });
    source.addEventListener("error", () => {
      if (badge()) badge().hidden = false;
      document.body.dataset.live = "lost";
      if (lostSince === null) lostSince = Date.now();
      if (source.readyState === EventSource.CLOSED && !closed) setTimeout(open, 2000);
    });
    for (const name of ["state", "tower", "reading"]) {
      source.addEventListener(name, (ev) => {
        if (!handlers[name]) return;
        let data = null;
        try { data = JSON.parse(ev.data); } catch { return; }
        handlers[name](data);
      });
    }
  };
  open();
  window.addEventListener("pagehide", () => { closed = true; source?.close(); });
  return () => { closed = true; source?.close(); };
}
