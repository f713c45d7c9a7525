// Controls drawn on the board for moves that have no place of their own ("Finish
// publishing", "Stop", "End the turn"): a renderer's placeOf maps such a move to
// `[data-control="<type>"]`, and this draws that control among the board's parts, so a whole
// game is played on the board (issue 30) while the move list stays the fallback.

import { h } from "../dom.js";
import { tOr } from "../i18n.js";
import { humanize } from "../names.js";

/** The board controls of the legal moves of the seat to act (this seat) that `controlOf`
 * gives a control id (`controlOf(move)`: an id, or null for a move with a place of its own):
 * one control per id, named by its move's label (the API's words, in the page's language),
 * or by the move type's name when several moves share it (the place then lists them). A plain
 * element, not a <button> (its words name it): the page makes it a place (role, focus,
 * click) only while it is legal, the same as every other board place. Null when no move
 * needs one now. */
export function boardControls(body, controlOf) {
  const mine = body.status === "active" && body.seat !== null && body.seat === body.to_act
    ? body.legal_moves || [] : [];
  const byId = new Map();
  for (const move of mine) {
    const id = controlOf(move);
    if (!id) continue;
    if (!byId.has(id)) byId.set(id, []);
    byId.get(id).push(move);
  }
  if (!byId.size) return null;
  return h("div", { class: "board-controls" }, [...byId].map(([id, moves]) => {
    const [move] = moves;
    const text = moves.length > 1 || !move.label
      ? tOr(`move.${body.game}.${move.type}`, tOr(`move.${move.type}`, humanize(move.type))) : move.label;
    return h("div", { class: "board-control", dataset: { control: id } }, text);
  }));
}

/** The place of the board control `id` (what `placeOf` answers for its moves). */
export function controlPlace(id) {
  return id ? `[data-control="${id}"]` : null;
}
