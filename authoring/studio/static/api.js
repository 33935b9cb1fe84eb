// The studio's JSON API (authoring/studio/server.py): one function, errors as exceptions.
export class ApiError extends Error {
  constructor(status, body) {
    super(body && body.error ? body.error : `HTTP ${status}`);
    this.status = status;
    this.body = body || {};
  }
}

export async function api(method, path, body, { blob = false } = {}) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  if (!response.ok) {
    let detail = null;
    try { detail = await response.json(); } catch (e) { /* not JSON */ }
    throw new ApiError(response.status, detail);
  }
  return blob ? response.blob() : response.json();
}

// Mission clock times are "m:ss" (authoring/mission/timecode.py).
export function clock(seconds) {
  const s = Math.max(0, Math.round(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

export function parseClock(text) {
  const m = /^([0-5]?[0-9]):([0-5][0-9])$/.exec(String(text || ""));
  return m ? Number(m[1]) * 60 + Number(m[2]) : null;
}
