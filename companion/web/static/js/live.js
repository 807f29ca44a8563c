// Live updates over server-sent events: one stream per page, resumed after a drop.
//
// * Every tab has an id (sessionStorage: it survives reloads and page changes). The server ends
//   the tab's older stream when a new one with the same id arrives, so reloads, page changes
//   and flapping Wi-Fi never pile up streams on the Pi.
// * The stream resumes where it stopped: the browser sends Last-Event-ID on its own reconnects;
//   when we have to open a new EventSource (the server said "bye", or the browser gave up) we
//   pass the last id in the URL. The server then sends one state event naming what was missed.
// * While the stream is down the page is "catching up": `onStale(true)`; after it is back and
//   the page re-read the state, `onStale(false)`. The yellow badge shows only for real drops,
//   not for the planned reconnect after "bye".
const badge = () => document.getElementById("live-badge");

export function tabId() {
  try {
    let id = sessionStorage.getItem("companion-tab");
    if (!id) {
      id = Array.from(crypto.getRandomValues(new Uint8Array(9)), (b) => b.toString(16).padStart(2, "0")).join("");
      sessionStorage.setItem("companion-tab", id);
    }
    return id;
  } catch {
    return null; // storage blocked: the server still frees a closed stream within a second
  }
}

/** Subscribe to `/api/events`; handlers: {state, tower, reading, tabletop, opened, reconnected, stale}.
 *  `opened` (async) runs once, when the stream first opens: a page that read its data before
 *  subscribing reads it again, so a change made between that read and the stream's start (an
 *  event sent before this device listened) is not missed. `reconnected` (async) runs after a
 *  drop, before the page counts as current again. Returns close(). */
export function subscribe(gameId, handlers = {}) {
  let source = null;
  let closed = false;
  let everOpen = false;
  let lost = false;
  let lastId = null;
  let badgeTimer = null;
  const client = tabId();

  const setStale = (stale) => {
    document.body.dataset.live = stale ? "lost" : "open";
    if (handlers.stale) handlers.stale(stale);
  };
  const showBadge = (show) => {
    clearTimeout(badgeTimer);
    if (!show) { if (badge()) badge().hidden = true; return; }
    // A reconnect that succeeds within a moment is not worth alarming anyone.
    badgeTimer = setTimeout(() => { if (badge() && lost) badge().hidden = false; }, 1500);
  };

  const url = () => {
    const q = new URLSearchParams();
    if (gameId) q.set("game", String(gameId));
    if (client) q.set("client", client);
    if (lastId !== null) q.set("last_event_id", String(lastId));
    return `/api/events?${q}`;
  };

  const open = () => {
    source = new EventSource(url());
    source.addEventListener("open", async () => {
      showBadge(false);
      if (!everOpen && handlers.opened) {
        try { await handlers.opened(); } catch { /* the page's next event or poll tells */ }
      }
      if (everOpen && lost && handlers.reconnected) {
        // Catch up before the page takes taps again; retry until the state could be read.
        for (;;) {
          try { await handlers.reconnected(); break; } catch { await new Promise((r) => setTimeout(r, 1000)); }
          if (closed || source.readyState !== EventSource.OPEN) return;
        }
      }
      everOpen = true;
      lost = false;
      setStale(false);
    });
    source.addEventListener("error", () => {
      if (!lost) { lost = true; setStale(true); showBadge(true); }
      if (source.readyState === EventSource.CLOSED && !closed) setTimeout(open, 1000);
    });
    source.addEventListener("bye", () => {
      // The server ends every stream after a while; come back at once with our last id (a
      // state event then says if anything was missed, so the page stays usable meanwhile).
      source.close();
      if (!closed) open();
    });
    for (const name of ["state", "tower", "reading", "tabletop"]) {
      source.addEventListener(name, (ev) => {
        if (ev.lastEventId) lastId = Number(ev.lastEventId);
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
