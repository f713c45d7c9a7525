// Any game's view, readably: per-seat values as a table, the rest as labelled lists.
// No game knowledge here: a new game plays in the page the day its engine lands.

import { h, tableWrap } from "../dom.js";
import { t, tOr } from "../i18n.js";
import { humanize, seatName } from "../names.js";

// Keys every view carries that the page shows elsewhere (status line, seat names).
const SKIP = new Set(["game", "seat", "to_act", "seat_count", "automa_seats", "options"]);
const MAX_DEPTH = 4;

/** The whole view of `body` as sections. */
export function renderGeneric(body) {
  const view = body.view || {};
  const seats = view.seat_count ?? body.seats?.length ?? 0;
  const perSeat = [];
  const general = [];
  for (const [key, value] of Object.entries(view)) {
    if (SKIP.has(key) || value === null || value === undefined) continue;
    if (Array.isArray(value) && seats > 1 && value.length === seats && !value.every(isPlainObject)) {
      perSeat.push([key, value]);
    } else {
      general.push([key, value]);
    }
  }
  return h("div", { class: "generic-view" },
    perSeat.length ? seatTable(body, seats, perSeat) : null,
    general.length ? h("section", { class: "panel" }, h("h2", {}, t("view.table")),
      h("dl", { class: "facts" }, general.map(([k, v]) => fact(body, body.game, k, v, 0)))) : null);
}

function isPlainObject(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function label(game, key) {
  return tOr(`view.${game}.${key}`, humanize(key));
}

function seatTable(body, seats, rows) {
  const seatList = Array.from({ length: seats }, (_, s) => s);
  const mine = (s) => (s === body.seat ? "me" : null);
  const head = h("tr", {}, h("td", {}),  // the corner names nothing: no empty header
    seatList.map((s) => h("th", { scope: "col", class: mine(s) }, seatName(body, s))));
  const lines = rows.map(([key, values]) => h("tr", {},
    h("th", { scope: "row" }, label(body.game, key)),
    values.map((v, s) => h("td", { class: mine(s) }, valueNode(body, v, 1)))));
  return h("section", { class: "panel" }, h("h2", {}, t("view.players")),
    tableWrap(t("view.players"),
      h("table", { class: "seat-table" }, h("thead", {}, head), h("tbody", {}, lines))));
}

function fact(body, game, key, value, depth) {
  return [h("dt", {}, label(game, key)), h("dd", {}, valueNode(body, value, depth + 1))];
}

/** A value as nodes: scalars as text, lists as comma lists or bullet lists, objects as lists. */
export function valueNode(body, value, depth = 0) {
  if (value === null || value === undefined) return "—";
  if (value === true) return t("common.yes");
  if (value === false) return t("common.no");
  if (typeof value !== "object") return String(value);
  if (depth > MAX_DEPTH) return "…";
  if (Array.isArray(value)) {
    if (!value.length) return t("view.none");
    if (value.every((v) => v === null || typeof v !== "object")) return value.map((v) => valueNode(body, v)).join(", ");
    return h("ol", { class: "nested" }, value.map((v) => h("li", {}, valueNode(body, v, depth + 1))));
  }
  const entries = Object.entries(value);
  if (!entries.length) return t("view.none");
  if (entries.every(([, v]) => v === null || typeof v !== "object")) {
    return entries.map(([k, v]) => `${humanize(k)}: ${valueNode(body, v)}`).join(" · ");
  }
  return h("dl", { class: "facts nested" }, entries.map(([k, v]) => fact(body, body.game, k, v, depth)));
}
