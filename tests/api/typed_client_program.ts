// A small program against the TypeScript types openapi-typescript generates from
// /v1/openapi.json (as `./bgb`). tests/api/test_openapi_types.py checks it with
// `tsc --noEmit --strict`: a game read is narrowed by `game`, a legal move by `type`, and
// the narrowed move's own members are read and posted back as they are.
import type { components } from "./bgb";

type Schemas = components["schemas"];

// A creation needs only the game: options, seats, seed and unranked are optional.
export const creation: Schemas["CreateGame"] = { game: "darwins-journey" };

export function placeLocation(game: Schemas["Game"]): string | undefined {
  if (game.game !== "darwins-journey") {
    return undefined;
  }
  for (const move of game.legal_moves) {
    if (move.type === "place") {
      return move.location; // a Darwin's Journey place: worker, location, knowledge
    }
  }
  return undefined;
}

export function firstMove(game: Schemas["Game"]): Schemas["MoveRequest"] | undefined {
  const move = game.legal_moves[0];
  return move === undefined ? undefined : { move, version: game.version };
}

export function gameOverCount(answer: Schemas["MoveResult"]): number {
  if (answer.game !== "flotilla") {
    return 0;
  }
  // Only Flotilla's events (or their redacted forms) can be here.
  return answer.events.filter((event) => event.type === "game_over").length;
}

export function loggedLocations(page: Schemas["MoveLog"]): string[] {
  const found: string[] = [];
  if (page.game === "darwins-journey") {
    for (const entry of page.moves) {
      if (entry.move.type === "place" && "location" in entry.move) {
        found.push(entry.move.location);
      }
    }
  }
  return found;
}
