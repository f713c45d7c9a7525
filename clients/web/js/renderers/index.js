// Which renderer draws a game's view: a per-game module where one exists, else the generic one.

import { renderGeneric } from "./generic.js";

const PER_GAME = {
  "darwins-journey": () => import("./darwins-journey.js"),
  encyclopedia: () => import("./encyclopedia.js"),
  flotilla: () => import("./flotilla.js"),
};

const GENERIC = {
  render: renderGeneric, moveDetail: () => null, moveGroup: () => null, skipEvent: () => false,
};

/** `game`'s renderer: render(body) -> node; moveDetail(move, body) -> words for a move button
 * (or null); moveGroup(move, body) -> what sets a move apart within its type, for grouping
 * (or null); skipEvent(event, entry) -> whether the log leaves an event out (one that only
 * repeats its move); optionally buildMove(moves, body, page) -> whether it builds the moves
 * of a tapped board place step by step on the board (a preview, then `page.play(move)`, or
 * `page.pick(move, undo)`: the page's confirmation, whose Cancel calls `undo`; `page.cancel()`
 * drops it) instead of the
 * page listing them, and builds(moves, body) -> whether buildMove would build them (no
 * drawing: the page asks it to tell which places are toggles); optionally startOf(move, body) -> the board place where such a move's
 * steps start (a selector, e.g. the worker of a placement), when it is not the move's
 * placeOf. The log's events read in the server's words (their `text`). */
export async function rendererFor(game) {
  const load = PER_GAME[game];
  if (!load) return GENERIC;
  try {
    const module = await load();
    await module.prepare?.();
    return { ...GENERIC, ...module };
  } catch (error) {
    console.error(`the ${game} renderer failed to load; using the generic one`, error);
    return GENERIC;
  }
}
