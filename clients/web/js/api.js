// The HTTP API as the page uses it: JSON in, JSON out, problem+json errors as ApiError.

import { language } from "./i18n.js";

/** An answer that is not 2xx: `problem` is the RFC 9457 body (type, title, detail, ...). */
export class ApiError extends Error {
  constructor(status, problem) {
    super(problem?.detail || problem?.title || `HTTP ${status}`);
    this.status = status;
    this.problem = problem || {};
  }

  /** The problem's slug: "stale-version", "illegal-move", ... */
  get slug() {
    return String(this.problem.type || "").split("/").pop();
  }
}

/** Call the API; throws ApiError on a refusal and TypeError when the network fails. */
export async function api(path, { method = "GET", token, body, headers = {} } = {}) {
  const sent = { Accept: "application/json", "Accept-Language": language(), ...headers };
  if (token) sent.Authorization = `Bearer ${token}`;
  if (body !== undefined) sent["Content-Type"] = "application/json";
  const response = await fetch(path, {
    method, headers: sent, cache: "no-store",
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let data = null;
  if (text) {
    try { data = JSON.parse(text); } catch { data = null; }
  }
  if (!response.ok) throw new ApiError(response.status, data || { title: response.statusText });
  return data;
}

/** A fresh Idempotency-Key (crypto.getRandomValues works on plain http too). */
export function newKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** A move as the API identifies it: without its human label. */
export function canonical(move) {
  const { label, ...rest } = move;
  return rest;
}
