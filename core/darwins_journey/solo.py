"""The solo mode against Alfred: the hooks.SoloMode the engine calls when `state.solo` is set.

Seat 0 is the player, seat 1 is Alfred. The engine runs a 2-seat game with the solo setup
differences (4 special tiles, 1 silver + 1 gold objective, Alfred first, crew 5-keep-3, one
starting pair) and asks this module about everything Alfred does; `alfred.py` holds his procedure.
"""

from __future__ import annotations

from typing import Any

from core.contract import IllegalMove, InvalidOptions, canonical
from core.darwins_journey import alfred, rng, rules
from core.darwins_journey.alfred import AD, ALFRED, HUMAN
from core.darwins_journey.data import DATA

Events = list[dict[str, Any]]


def validate_options(options: dict[str, Any]) -> str:
    """The difficulty colour of a solo game's options; InvalidOptions names a bad one."""
    colour = options.get("alfred", "white")
    if colour not in AD.boards:
        raise InvalidOptions("alfred", f"must be one of {sorted(AD.boards)}, got {colour!r}")
    return colour


def setup(state: Any) -> None:
    """Alfred's setup: his board's seals, 1 coin, bonus cards at random, 8 cards shuffled."""
    colour = state.alfred.get("board") or state.alfred["colour"]
    rows = AD.boards[colour]["rows"]
    for r in range(4):
        state.seals[ALFRED][r] = list(rows[r]["printed"])
    state.seals[ALFRED][4] = []
    state.coins[ALFRED] = AD.start_coins
    state.tk[ALFRED] = 0
    state.home[ALFRED] = [0, 1, 2, 3]
    deck = sorted(AD.cards)
    rng.shuffle(state, deck)
    bonus_cards = sorted(AD.bonus_cards[colour])
    rng.shuffle(state, bonus_cards)
    state.alfred = {"board": colour, "deck": deck, "drawn": [], "card": None, "bonus": 1,
                    "bonus_cards": bonus_cards, "rest": [], "pending": None, "effects": []}


def _alfred_turn(state: Any) -> bool:
    return (state.phase == "actions" and not state.stack and state.order[state.turn] == ALFRED
            and bool(state.home[ALFRED]))


def to_act(state: Any) -> Any:
    """The seat deciding an Alfred step (Alfred), else NotImplemented."""
    # asked before every move of every rollout: the cheap dict lookup comes first
    al = state.alfred
    if al and al.get("card") is not None:
        return ALFRED
    if _alfred_turn(state):
        return ALFRED
    return NotImplemented


def decides(state: Any) -> bool:
    """Whether the pending decision is this module's (an Alfred step)."""
    return to_act(state) is not NotImplemented


def legal_moves(state: Any) -> list[dict[str, Any]] | None:
    """Alfred's single move, or None (the engine's moves)."""
    if to_act(state) == ALFRED:
        return [alfred.alfred_move(state)]
    return None


def apply(state: Any, move: dict[str, Any]) -> Events | None:
    """Play an Alfred step; None when the move is the engine's business."""
    if not decides(state):
        return None
    # hot path in MCTS: the caller usually just asked for these moves, so `rules.legal_moves`
    # has them in `state.cache` (this module's moves are cached there too, see its docstring);
    # settle never caches a player's decision while this module decides, so the cache is ours
    legal = state.cache
    if legal is None:
        legal = state.cache = legal_moves(state)
    # bots hand back the very dicts legal_moves gave them: identity first, then by content
    for m in legal:
        if m is move:
            break
    else:
        wanted = canonical(move)
        if not any(canonical(m) == wanted for m in legal):
            raise IllegalMove(move, "not what Alfred's procedure allows now")
    events: Events = []
    state.cache = None
    if move["type"] == "alfred_draw":
        alfred.draw(state, events)
        return events
    alfred.play(state, move, events)
    alfred.normalize_coins(state, events)
    rules.next_turn(state, events)  # the engine's end of an Action-phase turn
    rules.settle(state, events)  # on to the next decision (rewards, cleanup, the player's turn)
    return events


def after_apply(state: Any, events: Events) -> None:
    """After every move: coins given to Alfred beyond 12 become bonus-track steps."""
    if state.coins[ALFRED] > AD.coin_max:
        alfred.normalize_coins(state, events)
        # A bonus card may have taken a seal or an objective: the moves settle cached for
        # the next decision are asked for again rather than trusted.
        state.cache = None


def alfred_reward(state: Any, envelope: int, place: int) -> Events:
    """Alfred's correspondence reward for `place` (1 or 2) on an envelope, with his fixed policy."""
    events: Events = []
    tile = DATA.corr_tiles[state.corr[envelope]]
    actions = tile.first if place == 1 else tile.second
    for action in actions:
        if action[0] == "choice":
            # CHOICE (tile 8, 2nd place): explore if one of his explorers can move, else navigate.
            options = action[1]
            pick = options[0] if alfred._explorer_island(state) is not None else options[-1]
            for sub in pick:
                alfred.do_action(state, sub, events)
        else:
            alfred.do_action(state, action, events)
    alfred.normalize_coins(state, events)
    return events


def alfred_beagle(state: Any) -> int:
    """Alfred's Beagle points this round: board value x round - delay penalties (may be < 0)."""
    return alfred.beagle_points(state)


def cleanup(state: Any) -> None:
    """Alfred's workers leave the Rest area; the bonus cards' visible row follows the round."""
    state.alfred["rest"] = []
    state.alfred["card"] = None


def clone_alfred(alfred_state: dict[str, Any] | None) -> dict[str, Any] | None:
    """A copy of `state.alfred` for `clone`, cheaper than deepcopy (its values are flat lists)."""
    if alfred_state is None:
        return None
    return {k: list(v) if isinstance(v, list) else dict(v) if isinstance(v, dict) else v
            for k, v in alfred_state.items()}


def view(state: Any, seat: int | None) -> dict[str, Any]:
    """Alfred's public board: everything but his deck order."""
    al = state.alfred
    return {"board": al["board"], "deck_size": len(al["deck"]), "drawn": list(al["drawn"]),
            "card": al["card"], "bonus": al["bonus"], "bonus_cards": list(al["bonus_cards"]),
            "rest": list(al["rest"]), "effects": list(al.get("effects", ())),
            "pending": None if al["pending"] is None else dict(al["pending"]),
            "beagle_value": AD.boards[al["board"]]["beagle"]}


def determinize(state: Any) -> None:
    """Rebuild Alfred's hidden deck (the cards not face up) in a sampled order."""
    al = state.alfred
    if "deck_size" in al:  # a view: restore the state's shape
        al.pop("deck_size")
        al.pop("beagle_value", None)
    deck = [c for c in sorted(AD.cards) if c not in al["drawn"]]
    rng.shuffle(state, deck)
    al["deck"] = deck


def ranking(state: Any, scores: list[int]) -> list[int]:
    """The player wins only with more points, or a tie broken by evolution, then coins."""
    human = (scores[HUMAN], state.evo[HUMAN], state.coins[HUMAN])
    bot = (scores[ALFRED], state.evo[ALFRED], state.coins[ALFRED])
    return [HUMAN, ALFRED] if human > bot else [ALFRED, HUMAN]

