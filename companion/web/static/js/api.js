// The JSON API client. Every failure becomes an ApiError whose message is for players.
import { t, LANG } from "./i18n.js";
import { askForPin } from "./pin.js";

export class ApiError extends Error {
  constructor(status, kind, message) {
    super(message);
    this.status = status;
    this.kind = kind;
  }
}

/** Call the API; resolves with the parsed JSON, rejects with ApiError (never a raw TypeError).
 *  ``body`` is sent as JSON, or as it is when it is a Blob (a photo, with the Blob's own type).
 *  A change refused for want of the table PIN (401) opens the PIN dialog and is sent once more
 *  after signing in. */
export async function api(path, { method = "GET", body, headers = {}, pinAsked = false } = {}) {
  const blob = body instanceof Blob;
  let response;
  try {
    response = await fetch(path, {
      method,
      // The page's language, so errors and warnings come back in it (companion.web.i18n).
      headers: { "Accept-Language": LANG,
        ...(body === undefined ? {} : { "Content-Type": blob ? body.type : "application/json" }), ...headers },
      body: body === undefined || blob ? body : JSON.stringify(body),
      cache: "no-store",
    });
  } catch (err) {
    throw new ApiError(0, "NetworkError", t("err_network"));
  }
  let data = null;
  const text = await response.text();
  if (text) {
    try { data = JSON.parse(text); } catch { data = null; }
  }
  if (!response.ok) {
    const e = data && data.error;
    if (response.status === 401 && e?.kind === "PinRequiredError" && !pinAsked && await askForPin()) {
      return api(path, { method, body, headers, pinAsked: true });
    }
    const message = e?.message || (response.status === 404 ? t("err_not_found") : t("err_server", { status: response.status }));
    throw new ApiError(response.status, e?.kind || "HttpError", message);
  }
  return data;
}

export const getGame = (id) => api(`/api/games/${id}`);

/** A random key for an Idempotency-Key header (crypto.randomUUID needs HTTPS; the Pi is plain
 *  HTTP on the Wi-Fi, so the UUID is built from getRandomValues, available everywhere). */
export function requestKey() {
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40; // version 4
  b[8] = (b[8] & 0x3f) | 0x80; // RFC 4122 variant
  const hex = [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Send one command; `expectedVersion` makes a stale tablet get a 409 instead of a wrong move. */
export function sendCommand(id, command, expectedVersion) {
  const body = { command };
  if (expectedVersion !== undefined && expectedVersion !== null) body.expected_version = expectedVersion;
  return api(`/api/games/${id}/commands`, { method: "POST", body });
}
