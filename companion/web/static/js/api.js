// The JSON API client. Every failure becomes an ApiError whose message is for players.
import { t, LANG } from "./i18n.js";

export class ApiError extends Error {
  constructor(status, kind, message) {
    super(message);
    this.status = status;
    this.kind = kind;
  }
}

/** Call the API; resolves with the parsed JSON, rejects with ApiError (never a raw TypeError). */
export async function api(path, { method = "GET", body } = {}) {
  let response;
  try {
    response = await fetch(path, {
      method,
      // The page's language, so errors and warnings come back in it (companion.web.i18n).
      headers: body === undefined ? { "Accept-Language": LANG } : { "Content-Type": "application/json", "Accept-Language": LANG },
      body: body === undefined ? undefined : JSON.stringify(body),
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
    const message = e?.message || (response.status === 404 ? t("err_not_found") : t("err_server", { status: response.status }));
    throw new ApiError(response.status, e?.kind || "HttpError", message);
  }
  return data;
}

export const getGame = (id) => api(`/api/games/${id}`);

/** Send one command; `expectedVersion` makes a stale tablet get a 409 instead of a wrong move. */
export function sendCommand(id, command, expectedVersion) {
  const body = { command };
  if (expectedVersion !== undefined && expectedVersion !== null) body.expected_version = expectedVersion;
  return api(`/api/games/${id}/commands`, { method: "POST", body });
}
