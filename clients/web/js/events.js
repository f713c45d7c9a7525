// One line of text per event of the move log.

import { t, tOr } from "./i18n.js";
import { humanize, seatName } from "./names.js";

const QUIET = new Set(["phase"]); // bookkeeping events the log does not list

/** A readable line for `event`, or null for one not worth a line: the server's words (the
 * log's `text`, in the page's language, the reader's own seat "You"), else its type and
 * fields (a game whose rules do not describe their events). */
export function describeEvent(body, event) {
  if (!event || QUIET.has(event.type)) return null;
  if (event.redacted) return t("log.hidden_event", { type: eventName(body, event.type) });
  if (typeof event.text === "string" && event.text) return event.text;
  const details = Object.entries(event)
    .filter(([k]) => k !== "type" && k !== "seat" && k !== "to" && k !== "text")
    .map(([k, v]) => `${tOr(`field.${k}`, humanize(k).toLowerCase())} ${plain(body, k, v)}`);
  const who = "seat" in event ? `${seatName(body, event.seat)}: ` : "";
  return `${who}${eventName(body, event.type)}${details.length ? ` (${details.join(", ")})` : ""}`;
}

function eventName(body, type) {
  return tOr(`event.${body.game}.${type}.name`, tOr(`event.${type}.name`, humanize(type)));
}

// Keys whose numbers (or lists of numbers) are seats.
const SEAT_KEYS = new Set(["seat", "by", "first", "second", "winners", "order", "seats"]);

/** A value as words: seats by name, lists joined, objects as "key value" pairs. */
function plain(body, key, value) {
  if (SEAT_KEYS.has(key) && Number.isInteger(value)) return seatName(body, value);
  if (SEAT_KEYS.has(key) && Array.isArray(value)) {
    return value.length ? value.map((s) => seatName(body, s)).join(", ") : t("view.none");
  }
  if (value === true) return t("common.yes");
  if (value === false) return t("common.no");
  if (Array.isArray(value)) return value.map((v) => plain(body, "", v)).join(", ");
  if (value && typeof value === "object") {
    return Object.entries(value).map(([k, v]) => `${humanize(k)} ${plain(body, k, v)}`).join(", ");
  }
  return String(value);
}
