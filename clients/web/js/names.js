// How the page names things: seats, bots, options, keys of a view.

import { t, tOr } from "./i18n.js";

/** "Alfred", "Greedy", ... */
export function botName(name) {
  return tOr(`bot.${name}`, name.charAt(0).toUpperCase() + name.slice(1));
}

/** The name of a game's own automa ("Alfred" in Darwin's Journey, "the AI" in Encyclopedia). */
export function automaName(game, bot) {
  return tOr(`automa.${game}`, botName(bot));
}

/** A seat as the reader knows it: "You", "Alfred", "Player 2 (greedy)". */
export function seatName(body, seat) {
  if (seat === null || seat === undefined) return t("seat.nobody");
  const spec = body.seats?.[seat];
  if (body.seat === seat) return t("seat.you");
  if (spec?.kind === "bot" && body.view?.automa_seats?.[String(seat)]) return automaName(body.game, spec.bot);
  if (spec?.kind === "bot") return t("seat.bot", { n: seat + 1, bot: botName(spec.bot) });
  return t("seat.player", { n: seat + 1 });
}

/** An option's name in the lobby. */
export function optionLabel(game, name) {
  return tOr(`option.${game}.${name}`, humanize(name));
}

/** An option value's name ("green" -> "verde"). */
export function optionValueLabel(game, name, value) {
  if (value === true) return t("common.yes");
  if (value === false) return t("common.no");
  return tOr(`option.${game}.${name}.${value}`, String(value));
}

/** "loc_owner" -> "Loc owner" (for keys no message file names). */
export function humanize(key) {
  const text = String(key).replace(/[_-]+/g, " ").replace(/([a-z])([A-Z])/g, "$1 $2").trim();
  return text.charAt(0).toUpperCase() + text.slice(1);
}
