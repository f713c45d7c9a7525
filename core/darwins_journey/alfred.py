"""Alfred, the solo opponent of Darwin's Journey: his components and his card procedure.

Source: "Regras Solo de Darwin's Journey" (seed 000, from line ~851). Alfred's physical
components are in no public source; ours are designed from the rules and live in
`data/alfred_*.json` (each with `_notes` saying why each value was chosen).

State: `state.alfred` is a plain JSON dict owned by this module:
  board        difficulty colour ("white", "blue", "yellow", "green")
  deck         hidden draw pile of action-card ids (top = last); never in a view
  drawn        face-up cards in draw order ("... devem ficar a mostra uma ao lado da outra")
  card         the card drawn this turn, waiting for its action (None between turns)
  bonus        bonus-track space of the 5th worker, 1..12 (1 = leftmost)
  bonus_cards  [card over space 5, card over space 10]
  rest         worker rows (0=A .. 3=D) on the Rest area this round
  pending      always None (a delivery tie the player would break; reading order leaves none)
  effects      objective-bonus effects his board's icons gave him ("free_scrolls", "delay_cap")
Alfred is seat 1; his worker rows A-D are `state.seals[1][0..3]` (printed seals included), his
coins `state.coins[1]` (0..12), and everything else is the ordinary per-seat state.

PROCEDURE (each rule quoted from the solo rules; our choices marked CHOICE)

Turn = two decisions of seat 1, each the only legal move:
1. `alfred_draw`: "Antes de comprar uma carta, se ambas as Cartas de Acao de Alfred apresentarem um
   icone de Acao de Entregar, reembaralhe todas as Cartas ..." - if both Deliver cards (ids 5, 6)
   are face up, all 8 cards are shuffled into a new deck. Then the top card is drawn face up.
   CHOICE: the deck is not reshuffled between rounds (the rules reshuffle only on the Deliver
   condition).
2. `alfred` (from `alfred_move`): the card's options top-down; the first one Alfred can legally do
   is done ("sempre tentara realizar primeiro a acao mais acima"); the last, Rest, is always legal.

Options:
- REST: "Aloque o Trabalhador disponivel mais baixo ... ganha 7 Moedas e move seu Trabalhador dois
  espacos para a direita na Trilha de Bonus." Lowest = bottom-most row still at home (D before A).
- MAIN DIARY [letters]: the first letter whose worker is at home and has a legal Main Diary location
  ("Se nao houver nenhuma maneira de alocar esse Trabalhador ... utiliza o proximo"). Candidates:
  explore/navigate/correspond/academy .1-.3 that are unlocked and free ("o local ... mais baixo,
  desbloqueado e vazio"; a printed circle, which any number of workers may share, is free even when
  occupied - issue 17; a lens location holds one worker) for which the row has at least one seal of
  the required colour (purple counts as any colour). Missing seals are bought as temporary knowledge
  at 3 coins each, all or nothing ("Se Alfred nao tiver dinheiro suficiente ... nenhuma Moeda e
  gasta e Alfred escolhe o proximo local mais forte"); a section already holding a worker costs the
  3-coin penalty and "Se Alfred nao puder pagar a penalidade ... o Trabalhador nao pode ser alocado"
  - so a candidate is legal iff coins >= 3 x missing + penalty. Order: strongest first (the LOWEST
  location: engine strength 3 > 2 > 1), then "Custo Prioritario" (fewest coins for temporary
  knowledge), then "Cor Prioritaria" (the location whose colour is the leftmost seal of the row),
  then board order (CHOICE, never reached). Academy: if the chosen location is an Academy whose seal
  cannot be taken (see ACADEMY), "esta acao nao pode ser realizada e ele tentara a proxima opcao de
  acao da Carta" - the option fails (literal). A human lens on the chosen location gives the human 1
  coin. No distinctions ever ("Os Trabalhadores de Alfred nunca ganharao Distincoes").
- SPECIAL DIARY (left/right): only when no worker is anywhere in the Special Diary; the lowest
  worker at home goes to the top-left (special.0) or top-right (special.1) location, no seals, no
  penalty, the tile's action is NOT done; bonus track +4 ("move o Trabalhador de Bonus 4 vezes").
- SMALL DIARY: only when no worker is in the Small Diary; the lowest worker at home goes to
  "unlock"; then a lens on a locked Main Diary location (never a Special one). Unlockable = the
  topmost locked location of each page (pages unlock top-down) whose unlock cost Alfred can pay
  (and only while one of his 6 lens markers is left). Priority:
  1. rows A, B, C, D in turn (the row need not be at home); M = unlockable locations with at least
     one matching seal in the row. 1A: the one requiring the row's priority colour (its leftmost
     seal); 1B: else the one using most of the row's seals (min(required, row's count of that
     colour)); 1C: tie -> the one whose colour appears leftmost in the row. 2: M empty -> next row.
  3. no row matches anything -> the cheapest; tie -> leftmost on the board (explore, navigate,
     correspond, academy). Nothing affordable -> the option fails. Then Alfred pays, places his
     lens and "tenta realizar todas as acoes do local desbloqueado" (free use, seals ignored).
- DELIVER: the lowest worker at home to the museum's deliver square, if Alfred has a valid specimen
  (researched, museum tile not displayed). Up to two deliveries, the second for 3 coins when he can
  pay. Each pick: pool = valid specimens the player has also researched, else all valid ("Se o
  jogador e Alfred ja pesquisaram os mesmos Especimes validos"); most coins (empty cells in the
  tile's row and column + the row's first-delivery coin); then "mais ao topo esquerdo" in reading
  order (topmost row, then leftmost column - issue 17), which leaves no tie, so the player's
  tie-break ("Persistindo o empate, o jogador escolhe") is never needed. The second pick is
  recomputed after the first delivery.

Action differences (how Alfred resolves board actions; anything else as a player would):
- coins: the coin track holds at most 12, "cada Moeda excedente recebida move o Trabalhador de
  Alfred um espaco na Trilha de Bonus".
- bonus n: n steps; each arrival on space 12 scores the board's lap VP ("alcancar ou ultrapassar o
  espaco mais a direita"); a step from 12 goes to 1 (the cycle). Reaching or passing space 5 / 10
  triggers the action of the card over it for the current round, after the move, in crossing order.
- objective: discard a face-up objective, gold first; then always bonus +2 (objective_bonus).
- tk n: 3 coins each ("ele ganha 3 Moedas por cada marcador").
- ACADEMY: target row = topmost row with an empty slot left of its bracket, else topmost with an
  empty slot right of it. Paid: the cheapest scroll holding a seal that is not a 4th of its colour
  in the target row ("nunca colocara um 4o Selo de Cera da mesma cor"); there, the target row's
  priority colour if present (and < 3 in the row), else the leftmost valid seal; pay the scroll
  cost (less the location discount); unaffordable or none -> cannot. Free (free_seal): the priority
  colour from any scroll (CHOICE: topmost scroll, leftmost) unless the row already has 3 of it,
  else the leftmost seal of the topmost scroll (skipping 4th-of-a-colour seals). Alfred pays
  nothing for his own slots; a seal put on a slot with an action does it at once.
- correspond n: stamps from the topmost non-empty stack (then the used tray); envelope: 1. the
  topmost where Alfred would take first place from the player (player > 0 stamps, Alfred <= player
  before, > player after); 2. the topmost without Alfred stamps; 3. the one with fewest Alfred
  stamps, topmost. Emptying a stack performs that stack's icon (alfred_boards.json
  stamp_stack_actions).
- prolific: one stamp (topmost stack) on each of the three envelopes, top to bottom.
- navigate n: the full distance, at a branch the successor with the longest way to the end; silver
  bands place explorers on the way; then ("Apos avancar") every space passed or reached performs
  its actions in crossing order (a specimen there is researched); the ocean's end stops the ship
  (excess lost).
- explore n: the explorer on the rightmost island that is not at its end (else the next island to
  the left); full distance, occupied spaces skipped (not counted), longest route, excess lost at
  the end; every specimen passed is researched (CHOICE: a skipped occupied space counts as passed),
  golden ribbons as usual; then "as duas ultimas acoes": the actions of the last two spaces with
  actions passed or reached (the rules' example labels two SPACES, "(3 e 4)"; a space printing two
  icons gives both; a specimen's research there is skipped, not replaced); the actions of an
  occupied space jumped over count as passed.
- campsite: the top tent into the cheapest empty slot he can pay (CHOICE: first slot on ties); none
  / no tent / cannot pay -> skipped, nothing instead; then that slot's actions and the icon
  uncovered on his board (tent_actions).
- Icons of his board with "um efeito associado a certos bonus de Objetivos" (tent_actions,
  stamp_stack_actions): free_scrolls (no scroll cost at the Academy) and delay_cap (each Beagle
  delay penalty at most 2) last the rest of the game (state.alfred["effects"]). An action kind
  Alfred has no rule for raises ValueError (a data error is never silently dropped).
- choice ("a / b"): CHOICE: the first alternative (the rules give Alfred no choice procedure).
- add_explorer: "a Trilha de Ilha mais a esquerda que ainda nao tenha um dos Exploradores de
  Alfred".
- Rewards: correspondence like a player (CHOICE: tile 8's "either order" = listed order, its
  2nd-place choice = explore if an explorer can move, else navigate); Beagle = board value x round
  minus the delay penalties ("subtraia todas as penalidades": it may go below 0). Cleanup: rest area
  emptied; bonus cards' visible row = the round. End: player wins a tie only on evolution, then
  coins; else Alfred wins.
"""

from __future__ import annotations

import json
import threading
from functools import cache
from pathlib import Path
from typing import Any

from core.darwins_journey import effects, rng
from core.darwins_journey.data import DATA, Action
from core.darwins_journey.i18n import location as location_name
from core.texts import _noop

_DIR = Path(__file__).parent / "data"
ALFRED = 1
HUMAN = 0
LETTERS = "ABCD"
COLOUR_CODE = {"green": "G", "blue": "B", "red": "R", "yellow": "Y"}
MAIN_PAGES = ("explore", "navigate", "correspond", "academy")
MAIN_LOCATIONS = tuple(f"{page}.{k}" for page in MAIN_PAGES for k in (1, 2, 3))
SPECIAL_LOCATIONS = tuple(f"special.{k}" for k in range(6))
TK_COINS = 3


def _action(raw: dict[str, Any]) -> Action:
    """One action of our data files as the engine's action tuple (plus Alfred-only kinds)."""
    kind = raw["a"]
    if kind == "academy":
        return ("academy", raw.get("d", 0))
    if kind == "correspond":
        return ("correspond", raw["n"], False)
    if "n" in raw:
        return (kind, raw["n"])
    return (kind,)


def _actions(raw: list[dict[str, Any]]) -> tuple[Action, ...]:
    return tuple(_action(a) for a in raw)


class AlfredData:
    """Alfred's components (our rendition), read once from data/alfred_*.json."""

    def __init__(self) -> None:
        boards = json.loads((_DIR / "alfred_boards.json").read_text())
        cards = json.loads((_DIR / "alfred_action_cards.json").read_text())
        bonus = json.loads((_DIR / "alfred_bonus_cards.json").read_text())
        self.track_length: int = boards["bonus_track"]["length"]
        self.triggers: tuple[int, ...] = tuple(boards["bonus_track"]["triggers"])
        self.coin_max: int = boards["coin_track_max"]
        self.start_coins: int = boards["start_coins"]
        self.rest_coins: int = boards["rest"]["coins"]
        self.rest_bonus: int = boards["rest"]["bonus"]
        self.special_bonus: int = boards["special_diary_bonus"]
        self.objective_bonus: int = boards["objective_bonus"]
        self.tent_actions = tuple(_actions(r) for r in boards["tent_actions"])
        self.stamp_actions = tuple(_actions(r) for r in boards["stamp_stack_actions"])
        self.boards: dict[str, dict[str, Any]] = {}
        for colour, raw in boards["boards"].items():
            rows = []
            for letter in LETTERS:
                row = raw["rows"][letter]
                rows.append({
                    "printed": tuple(COLOUR_CODE[c] for c in row["printed"]),
                    "bracket": row["bracket"],
                    "slots": {int(k): _actions(v) for k, v in row["slot_actions"].items()},
                })
            self.boards[colour] = {"beagle": raw["beagle_value"], "lap_vp": raw["lap_vp"],
                                   "rest_spaces": raw["rest_spaces"], "rows": tuple(rows)}
        self.cards: dict[int, tuple[dict[str, Any], ...]] = {
            c["id"]: tuple(c["options"]) for c in cards["cards"]}
        self.deliver_cards = frozenset(
            cid for cid, opts in self.cards.items() if any(o["type"] == "deliver" for o in opts))
        self.bonus_cards: dict[str, dict[str, tuple[tuple[Action, ...], ...]]] = {
            colour: {c["id"]: tuple(_actions(r) for r in c["rounds"]) for c in lst}
            for colour, lst in bonus["cards"].items()}


AD = AlfredData()
DIFFICULTIES = tuple(AD.boards)


# ---------------------------------------------------------------- small helpers

def board(state: Any) -> dict[str, Any]:
    """Alfred's board (the chosen difficulty)."""
    return AD.boards[state.alfred["board"]]


def lowest_home(state: Any) -> int | None:
    """The lowest (bottom-most) of Alfred's workers still at home."""
    home = state.home[ALFRED]
    return max(home) if home else None


@cache
def _section_mates(loc: str) -> tuple[str, ...]:
    """The locations in the same diary section as `loc` (a 2-seat game), `loc` included."""
    section = DATA.section(loc, 2)
    if not section:
        return ()
    return tuple(other for other in DATA.location_ids if DATA.section(other, 2) == section)


def _section_busy(state: Any, loc: str) -> bool:
    workers = state.loc_workers
    return any(workers.get(other) for other in _section_mates(loc))


def _colour_count(row: list[str], colour: str) -> int:
    return row.count(colour)  # list.count: Alfred's choices count seals in tight loops


def _matches(row: list[str], colour: str) -> bool:
    return colour in row or "P" in row


def _missing(row: list[str], needs: tuple[tuple[str, int], ...]) -> int:
    purple = _colour_count(row, "P")
    short = sum(max(0, n - _colour_count(row, c)) for c, n in needs)
    return max(0, short - purple)


def _colour_index(row: list[str], colour: str) -> int:
    for i, c in enumerate(row):
        if c == colour or c == "P":
            return i
    return len(row) + 1


def _loc_colour(loc: str) -> str:
    return _LOC_COLOUR[loc]


# location -> the colour of its first seal requirement (looked up for every Main Diary
# candidate of every Alfred card option)
_LOC_COLOUR = {loc: DATA.locations[loc].seals[0][0] for loc in DATA.location_ids
               if DATA.locations[loc].seals}


# ---------------------------------------------------------------- coins and bonus track

def gain_coins(state: Any, n: int, events: list[dict[str, Any]]) -> None:
    """Alfred gains n coins; beyond 12 each coin moves the bonus worker one space instead."""
    if n <= 0:
        return
    room = max(0, AD.coin_max - state.coins[ALFRED])
    effects.gain_coins(state, ALFRED, min(n, room), events)
    if n > room:
        bonus_steps(state, n - room, events)


def pay(state: Any, n: int, events: list[dict[str, Any]]) -> None:
    """Alfred pays n coins (callers check he can)."""
    if n > 0:
        effects.pay_coins(state, ALFRED, n, events)


def normalize_coins(state: Any, events: list[dict[str, Any]]) -> None:
    """Coins given to Alfred by engine code (the lens coin) beyond 12 become bonus steps."""
    excess = state.coins[ALFRED] - AD.coin_max
    if excess > 0:
        state.coins[ALFRED] = AD.coin_max
        bonus_steps(state, excess, events)


# How deep bonus-card triggers are nested in this thread (the API applies moves of several
# games at once in threads: a module-wide counter would let one game's chain cut another's).
_TRIGGERS = threading.local()


def bonus_steps(state: Any, n: int, events: list[dict[str, Any]]) -> None:
    """Move the bonus worker n spaces: lap VP on reaching the right end, triggers 5 and 10 after."""
    if n <= 0:
        return
    al = state.alfred
    length = AD.track_length
    crossed: list[int] = []
    for _ in range(n):
        al["bonus"] = 1 if al["bonus"] >= length else al["bonus"] + 1
        if al["bonus"] == length:
            events.append({"type": "alfred_lap"})
            effects.gain_vp(state, ALFRED, board(state)["lap_vp"], events)
        if al["bonus"] in AD.triggers:
            crossed.append(AD.triggers.index(al["bonus"]))
    events.append({"type": "alfred_bonus", "steps": n, "space": al["bonus"]})
    depth = getattr(_TRIGGERS, "depth", 0)
    if depth > 8:  # a trigger chain can't loop in practice; this keeps it finite anyway
        return
    _TRIGGERS.depth = depth + 1
    try:
        for which in crossed:
            card = al["bonus_cards"][which]
            actions = AD.bonus_cards[al["board"]][card][min(state.round, 5) - 1]
            events.append({"type": "alfred_bonus_card", "card": card, "round": state.round})
            for action in actions:
                do_action(state, action, events)
    finally:
        _TRIGGERS.depth = depth


# ---------------------------------------------------------------- the action interpreter

def do_action(state: Any, action: Action, events: list[dict[str, Any]]) -> None:
    """Resolve one board/card action for Alfred with the solo rules' differences."""
    kind = action[0]
    if kind == "coins":
        gain_coins(state, action[1], events)
    elif kind == "vp":
        effects.gain_vp(state, ALFRED, action[1], events)
    elif kind == "evo":
        effects.advance_evolution(state, ALFRED, action[1], events)
    elif kind == "tk":
        gain_coins(state, TK_COINS * action[1], events)
    elif kind == "bonus":
        bonus_steps(state, action[1], events)
    elif kind == "objective":
        discard_objective(state, events)
        bonus_steps(state, AD.objective_bonus, events)
    elif kind == "academy":
        academy(state, events, discount=action[1])
    elif kind == "free_seal":
        academy(state, events, free=True)
    elif kind == "correspond":
        correspond(state, action[1], events)
    elif kind == "prolific":
        prolific(state, events)
    elif kind == "navigate":
        navigate(state, action[1], events)
    elif kind == "explore":
        explore(state, action[1], events)
    elif kind == "campsite":
        campsite(state, action[1], events)
    elif kind == "add_explorer":
        add_explorer(state, events)
    elif kind == "choice":
        # CHOICE: Alfred has no choice procedure for "a / b" icons; he takes the first.
        for sub in action[1][0]:
            do_action(state, sub, events)
    elif kind == "research":
        research(state, action[1], events)
    elif kind in EFFECTS:
        gain_effect(state, kind, events)
    else:
        # distinction bonuses, turn order, museum research and unlock icons never reach Alfred;
        # anything else is a data error, never silently dropped
        raise ValueError(f"Alfred has no rule for the action {action!r}")


# objective-bonus effects (rulebook p.21) that icons of Alfred's board can give him for good
EFFECTS = ("free_scrolls", "delay_cap")


def gain_effect(state: Any, kind: str, events: list[dict[str, Any]]) -> None:
    """'um efeito associado a certos bonus de Objetivos': kept for the rest of the game."""
    effects_held = state.alfred.setdefault("effects", [])
    if kind not in effects_held:
        effects_held.append(kind)
        events.append({"type": "alfred_effect", "effect": kind})


def has_effect(state: Any, kind: str) -> bool:
    """Whether Alfred holds an objective-bonus effect (free_scrolls, delay_cap)."""
    return kind in state.alfred.get("effects", ())


def research(state: Any, specimen: int, events: list[dict[str, Any]]) -> None:
    """Alfred researches a specimen he does not have yet."""
    if not state.research[ALFRED] >> specimen & 1:
        effects.research(state, ALFRED, specimen, events)


def discard_objective(state: Any, events: list[dict[str, Any]]) -> None:
    """'ele descarta um Objetivo do Tabuleiro Central ... o Objetivo dourado e descartado'."""
    silver, gold = state.obj_display
    for pile in (gold, silver):
        if pile:
            tile = pile.pop(0)
            state.obj_gone.append(tile)  # out of the game, like the tiles cleanup removes
            events.append({"type": "alfred_discard_objective", "objective": tile})
            return


def add_explorer(state: Any, events: list[dict[str, Any]]) -> None:
    """An explorer on the leftmost island without one of Alfred's explorers."""
    for island, space in enumerate(state.explorers[ALFRED]):
        if space < 0:
            effects.place_explorer(state, ALFRED, island, events)
            return


# ---------------------------------------------------------------- academy

def academy_row(state: Any) -> int | None:
    """The row a new seal goes to: topmost with room left of its bracket, else right of it."""
    rows = board(state)["rows"]
    seals = state.seals[ALFRED]
    for r in range(4):
        if len(seals[r]) < rows[r]["bracket"]:
            return r
    for r in range(4):
        if len(seals[r]) < 6:
            return r
    return None


def academy_pick(state: Any, discount: int = 0, free: bool = False,
                 coins: int | None = None) -> tuple[int, int, int] | None:
    """(academy index, target row, cost) of the seal Alfred takes, or None if he cannot."""
    row = academy_row(state)
    if row is None:
        return None
    seals = state.seals[ALFRED][row]
    prio = seals[0] if seals else ""
    have = state.coins[ALFRED] if coins is None else coins

    def ok(colour: str) -> bool:
        return _colour_count(seals, colour) < 3

    cells = [(i, c) for i, c in enumerate(state.academy) if c]
    if free:
        if prio and prio != "P" and ok(prio):
            for i, c in cells:
                if c == prio:
                    return i, row, 0
        for i, c in cells:
            if ok(c):
                return i, row, 0
        return None
    for scroll in range(4):
        valid = [(i, c) for i, c in cells if i // 3 == scroll and ok(c)]
        if not valid:
            continue
        cost = 0 if has_effect(state, "free_scrolls") else max(0, DATA.scroll_costs[scroll]
                                                                   - discount)
        if cost > have:
            return None
        for i, c in valid:
            if c == prio:
                return i, row, cost
        return valid[0][0], row, cost
    return None


def academy(state: Any, events: list[dict[str, Any]], discount: int = 0,
            free: bool = False) -> bool:
    """Alfred's Academy action; False when it cannot be done."""
    pick = academy_pick(state, discount, free)
    if pick is None:
        return False
    index, row, cost = pick
    colour = state.academy[index]
    pay(state, cost, events)
    state.academy[index] = ""
    state.seals[ALFRED][row].append(colour)
    slot = len(state.seals[ALFRED][row])
    events.append({"type": "seal", "seat": ALFRED, "worker": row, "colour": colour,
                   "scroll": index // 3})
    for action in board(state)["rows"][row]["slots"].get(slot, ()):
        do_action(state, action, events)
    return True


# ---------------------------------------------------------------- correspondence

def _take_stamps(state: Any, n: int) -> tuple[int, list[int]]:
    """Take up to n stamps, topmost stack first, then the tray; (taken, stacks emptied)."""
    stacks = state.stamps[ALFRED]
    taken = 0
    emptied: list[int] = []
    for _ in range(n):
        for s in range(3):
            if stacks[s] > 0:
                stacks[s] -= 1
                if stacks[s] == 0:
                    emptied.append(s)
                break
        else:
            if state.tray[ALFRED] <= 0:
                break
            state.tray[ALFRED] -= 1
        taken += 1
    return taken, emptied


def available_stamps(state: Any) -> int:
    """Stamps Alfred can still place (stacks and the used tray)."""
    return sum(state.stamps[ALFRED]) + state.tray[ALFRED]


def envelope_for(state: Any, n: int) -> int:
    """The envelope Alfred's n stamps go to (the three-step priority)."""
    envs = state.envelopes
    for e in range(3):
        human, mine = envs[e][HUMAN], envs[e][ALFRED]
        if human > 0 and mine <= human < mine + n:
            return e
    for e in range(3):
        if envs[e][ALFRED] == 0:
            return e
    return min(range(3), key=lambda e: (envs[e][ALFRED], e))


def correspond(state: Any, n: int, events: list[dict[str, Any]]) -> None:
    """Alfred's Correspondence action of n stamps."""
    n = min(n, available_stamps(state))
    if n <= 0:
        return
    e = envelope_for(state, n)
    taken, emptied = _take_stamps(state, n)
    state.envelopes[e][ALFRED] += taken
    events.append({"type": "stamps", "seat": ALFRED, "envelope": e, "n": taken})
    _stack_icons(state, emptied, events)


def prolific(state: Any, events: list[dict[str, Any]]) -> None:
    """Prolific Correspondence: one stamp on each of the three envelopes."""
    emptied: list[int] = []
    for e in range(3):
        taken, gone = _take_stamps(state, 1)
        if not taken:
            break
        state.envelopes[e][ALFRED] += 1
        emptied += gone
        events.append({"type": "stamps", "seat": ALFRED, "envelope": e, "n": 1})
    _stack_icons(state, emptied, events)


def _stack_icons(state: Any, emptied: list[int], events: list[dict[str, Any]]) -> None:
    for s in emptied:
        for action in AD.stamp_actions[s]:
            do_action(state, action, events)


# ---------------------------------------------------------------- navigation and exploration

@cache
def _longest(track: str, index: int) -> int:
    """Spaces on the longest way from a space to its track's end."""
    spaces = DATA.ocean if track == "O" else DATA.islands["ABC".index(track)]
    nxt = spaces[index].next
    return 0 if not nxt else 1 + max(_longest(track, j) for j in nxt)


def _step(track: str, index: int) -> int | None:
    """The next space on the longest route, or None at the end."""
    spaces = DATA.ocean if track == "O" else DATA.islands["ABC".index(track)]
    nxt = spaces[index].next
    if not nxt:
        return None
    return max(nxt, key=lambda j: (_longest(track, j), -nxt.index(j)))


def _space_specimen(state: Any, space_id: str) -> int | None:
    k = state.specimens.get(space_id)
    return None if k is None or k < 0 else k


def navigate(state: Any, n: int, events: list[dict[str, Any]]) -> None:
    """Full-distance navigation on the longest route, then every passed space's actions in order."""
    passed: list[Action] = []
    for _ in range(n):
        nxt = _step("O", state.ship[ALFRED])
        if nxt is None:
            break
        effects.move_ship(state, ALFRED, (nxt,), events)  # silver bands, first at the end
        space = DATA.ocean[nxt]
        specimen = _space_specimen(state, space.id)
        if specimen is not None:
            passed.append(("research", specimen))
        passed.extend(space.actions)
    for action in passed:
        do_action(state, action, events)


def _explorer_island(state: Any) -> int | None:
    """The island whose explorer moves: rightmost not at its end."""
    for island in (2, 1, 0):
        space = state.explorers[ALFRED][island]
        if space >= 0 and DATA.islands[island][space].next:
            return island
    return None


def _occupied(state: Any, island: int, space: int) -> bool:
    track = DATA.islands[island]
    if space == 0 or not track[space].next:
        return False
    return any(state.explorers[s][island] == space
               for s in range(len(state.explorers)) if s != ALFRED)


def explore(state: Any, n: int, events: list[dict[str, Any]]) -> None:
    """Full-distance exploration; research everything passed; then the last two spaces' actions.

    'realiza as duas ultimas acoes que seu Explorador passou ou alcancou': the rules' example
    labels the last two SPACES ('(3 e 4)'), so each of the last two spaces with an action counts
    once, with every icon it prints; a specimen there was researched on the way (its research is
    the action skipped, 'realiza apenas a outra acao').
    """
    island = _explorer_island(state)
    if island is None:
        return
    letter = "ABC"[island]
    track = DATA.islands[island]
    passed: list[tuple[Action, ...]] = []  # the actions of each space passed or reached
    steps = 0
    while steps < n:
        nxt = _step(letter, state.explorers[ALFRED][island])
        if nxt is None:
            break
        effects.move_explorer(state, ALFRED, island, (nxt,), events)
        space = track[nxt]
        specimen = _space_specimen(state, space.id)
        if specimen is not None:
            research(state, specimen, events)
            passed.append((("research", specimen), *space.actions))
        elif space.actions:
            passed.append(space.actions)
        if not _occupied(state, island, nxt):
            steps += 1
    for actions in passed[-2:]:
        for action in actions:
            if action[0] != "research":  # already researched on the way
                do_action(state, action, events)


# ---------------------------------------------------------------- campsites

def campsite(state: Any, area: str, events: list[dict[str, Any]]) -> None:
    """Top tent into the cheapest free slot he can pay; then the campsite's and his own icons."""
    placed = state.tents[ALFRED]
    if placed >= 5:
        return
    costs = DATA.campsites[area].costs
    slots = [i for i, owner in enumerate(state.campsites[area]) if owner < 0]
    slots = [i for i in slots if costs[i] <= state.coins[ALFRED]]
    if not slots:
        return
    slot = min(slots, key=lambda i: (costs[i], i))
    effects.place_tent(state, ALFRED, area, slot, events)
    for action in DATA.campsites[area].slot_actions[slot]:  # that slot's own icons (p.15)
        do_action(state, action, events)
    for action in AD.tent_actions[placed]:
        do_action(state, action, events)


# ---------------------------------------------------------------- card options

# (board order, location, its colour, its seal requirement, strength) of each Main Diary
# location, read once: main_diary_choice scans them for each row of each Alfred card option
_MAIN_INFO: tuple[tuple[int, str, str, tuple[tuple[str, int], ...], int], ...] = tuple(
    (order, loc, _LOC_COLOUR[loc], DATA.locations[loc].seals, DATA.locations[loc].strength)
    for order, loc in enumerate(MAIN_LOCATIONS))


def main_diary_choice(state: Any, priority: list[str]) -> dict[str, Any] | None:
    """Worker, location, temporary knowledge and penalty of a Main Diary option, or None."""
    coins = state.coins[ALFRED]
    owners = state.loc_owner
    workers = state.loc_workers
    # the unlocked, empty locations: the same for every row, so found once (Alfred's card
    # options ask this for several rows, every turn of every rollout); their section
    # penalties are looked up when first needed
    # (a printed circle may be shared, as by a player; a lens location holds one worker)
    places = [info for info in _MAIN_INFO
              if not (owners.get(info[1], -2) == -1
                      or (info[4] > 1 and workers.get(info[1])))]
    penalties: dict[str, int] = {}
    for letter in priority:
        row = LETTERS.index(letter)
        if row not in state.home[ALFRED]:
            continue
        seals = state.seals[ALFRED][row]
        purple = seals.count("P")
        candidates = []
        for order, loc, colour, needs, strength in places:
            if not purple and colour not in seals:  # _matches inlined (the hot loop)
                continue
            # _missing inlined: seals short of the requirement, purple ones counting as any
            short = 0
            for c, n in needs:
                have = seals.count(c)
                if have < n:
                    short += n - have
            missing = short - purple if short > purple else 0
            penalty = penalties.get(loc)
            if penalty is None:
                penalty = penalties[loc] = (DATA.placement_penalty[2]
                                            if _section_busy(state, loc) else 0)
            if TK_COINS * missing + penalty > coins:
                continue
            key = (-strength, TK_COINS * missing, _colour_index(seals, colour), order)
            candidates.append((key, loc, missing, penalty))
        if not candidates:
            continue
        _, loc, missing, penalty = min(candidates)
        if DATA.locations[loc].page == "academy":
            spare = coins - TK_COINS * missing - penalty
            if academy_pick(state, DATA.locations[loc].actions[0][1], coins=spare) is None:
                return None  # "esta acao nao pode ser realizada": the next card option
        return {"worker": letter, "location": loc, "knowledge": missing, "penalty": penalty}
    return None


def unlockable(state: Any) -> list[str]:
    """Locked Main Diary locations Alfred may unlock now (topmost locked per page, affordable)."""
    out: list[str] = []
    if state.lenses[ALFRED] >= 6:  # his six personal lens markers are all on the board
        return out
    for page in MAIN_PAGES:
        for k in (1, 2, 3):
            loc = f"{page}.{k}"
            if state.loc_owner.get(loc, -2) == -1:
                if DATA.locations[loc].unlock_cost <= state.coins[ALFRED]:
                    out.append(loc)
                break
    return out


def unlock_choice(state: Any) -> str | None:
    """The location Alfred's lens goes to (steps 1, 1A-1C, 2, 3), or None if none is affordable."""
    options = unlockable(state)
    if not options:
        return None
    for row in range(4):
        seals = state.seals[ALFRED][row]
        matching = [loc for loc in options if _matches(seals, _loc_colour(loc))]
        if not matching:
            continue
        prio = seals[0]
        top = [loc for loc in matching if _loc_colour(loc) == prio]
        if top:
            return min(top, key=lambda loc: (DATA.locations[loc].strength, options.index(loc)))

        def used(loc: str, seals: list[str] = seals) -> int:
            colour = _loc_colour(loc)
            need = dict(DATA.locations[loc].seals)[colour]
            return min(need, _colour_count(seals, colour) + _colour_count(seals, "P"))

        return min(matching, key=lambda loc: (-used(loc), _colour_index(seals, _loc_colour(loc))))
    return min(options, key=lambda loc: (DATA.locations[loc].unlock_cost, options.index(loc)))


def valid_specimens(state: Any) -> list[int]:
    """Specimens Alfred can deliver: researched and not yet in the museum."""
    mine = state.research[ALFRED] & ~state.museum
    return [k for k in range(16) if mine >> k & 1]


# specimen -> bit mask of the other museum cells in its row and column (delivery_coins counts
# the empty ones with one popcount instead of a scan of the 16 cells, for every candidate)
_CROSS = tuple(
    sum(1 << other for other in range(16)
        if other != k and (other // 4 == k // 4 or other % 4 == k % 4))
    for k in range(16))


def delivery_coins(state: Any, specimen: int) -> int:
    """Coins a delivery of this specimen gives now (empty row/column cells and the row coin)."""
    coins = bin(_CROSS[specimen] & ~state.museum).count("1")
    return coins + (1 if state.museum_coins[specimen // 4] else 0)


def delivery_candidates(state: Any) -> list[int]:
    """The specimens tied for Alfred's next delivery (one unless the player must choose)."""
    valid = valid_specimens(state)
    shared = [k for k in valid if state.research[HUMAN] >> k & 1]
    pool = shared or valid
    if not pool:
        return []
    coins = {k: delivery_coins(state, k) for k in pool}
    best = max(coins.values())
    pool = [k for k in pool if coins[k] == best]
    # 'mais ao topo esquerdo': the topmost row first, then the leftmost column (reading order);
    # a museum cell is unique in that order, so the player is never left to choose
    return [min(pool)]


def option_move(state: Any, card: int, index: int) -> dict[str, Any] | None:
    """The move an option of the card dictates, or None when Alfred cannot do it."""
    option = AD.cards[card][index]
    kind = option["type"]
    worker = lowest_home(state)
    base = {"type": "alfred", "card": card, "option": index, "kind": kind}
    if kind == "rest":
        return {**base, "worker": LETTERS[worker]}
    if kind == "main_diary":
        choice = main_diary_choice(state, option["priority"])
        return None if choice is None else {**base, **choice}
    if kind == "special_diary":
        if any(state.loc_workers.get(loc) for loc in SPECIAL_LOCATIONS):
            return None
        loc = "special.0" if option["side"] == "left" else "special.1"
        return {**base, "worker": LETTERS[worker], "location": loc}
    if kind == "small_diary":
        if state.loc_workers.get("unlock"):
            return None
        target = unlock_choice(state)
        if target is None:
            return None
        return {**base, "worker": LETTERS[worker], "location": "unlock", "unlock": target}
    if kind == "deliver":
        if not valid_specimens(state):
            return None
        return {**base, "worker": LETTERS[worker], "location": "deliver"}
    raise ValueError(f"unknown Alfred option {kind!r}")


def _label(move: dict[str, Any]) -> str:
    kind = move["kind"]
    text = f"Alfred (card {move['card']}): "
    if kind == "rest":
        return text + f"worker {move['worker']} rests (7 coins, bonus track +2)"
    if kind == "main_diary":
        extra = f", {move['knowledge']} temporary knowledge" if move["knowledge"] else ""
        extra += f", penalty {move['penalty']}" if move["penalty"] else ""
        return text + f"worker {move['worker']} to {location_name(move['location'], _noop)}{extra}"
    if kind == "special_diary":
        return (text + f"worker {move['worker']} to {location_name(move['location'], _noop)}"
                " (bonus track +4)")
    if kind == "small_diary":
        return text + f"worker {move['worker']} unlocks {location_name(move['unlock'], _noop)}"
    return text + f"worker {move['worker']} delivers specimens"


def alfred_move(state: Any) -> dict[str, Any]:
    """The one move Alfred's procedure dictates now (draw a card, or play the drawn card)."""
    card = state.alfred["card"]
    if card is None:
        return {"type": "alfred_draw", "label": "Alfred draws an action card"}
    for index in range(len(AD.cards[card])):
        move = option_move(state, card, index)
        if move is not None:
            move["label"] = _label(move)
            return move
    raise AssertionError("Rest is always legal")  # the bottom option of every card


# ---------------------------------------------------------------- playing a move

def draw(state: Any, events: list[dict[str, Any]]) -> None:
    """Step 1: the Deliver reshuffle, then the top card face up."""
    al = state.alfred
    if AD.deliver_cards <= set(al["drawn"]):
        al["deck"] = sorted(AD.cards)
        rng.shuffle(state, al["deck"])
        al["drawn"] = []
        events.append({"type": "alfred_reshuffle"})
    card = al["deck"].pop()
    al["drawn"].append(card)
    al["card"] = card
    events.append({"type": "alfred_card", "card": card})


def _place(state: Any, letter: str, loc: str, events: list[dict[str, Any]]) -> None:
    row = LETTERS.index(letter)
    state.home[ALFRED].remove(row)
    state.loc_workers.setdefault(loc, []).append(ALFRED)
    events.append({"type": "place", "seat": ALFRED, "worker": row, "location": loc})
    if state.loc_owner.get(loc) == HUMAN:
        effects.gain_coins(state, HUMAN, 1, events)  # the lens owner's coin


def play(state: Any, move: dict[str, Any], events: list[dict[str, Any]]) -> None:
    """Step 2: carry out the option `move` describes (it equals `alfred_move(state)`)."""
    al = state.alfred
    al["card"] = None
    kind = move["kind"]
    if kind == "rest":
        row = LETTERS.index(move["worker"])
        state.home[ALFRED].remove(row)
        al["rest"].append(row)
        events.append({"type": "alfred_rest", "worker": row})
        gain_coins(state, AD.rest_coins, events)
        bonus_steps(state, AD.rest_bonus, events)
        return
    if kind == "main_diary":
        pay(state, TK_COINS * move["knowledge"] + move["penalty"], events)
        _place(state, move["worker"], move["location"], events)
        for action in DATA.locations[move["location"]].actions:
            do_action(state, action, events)
        return
    if kind == "special_diary":
        _place(state, move["worker"], move["location"], events)
        bonus_steps(state, AD.special_bonus, events)
        return
    if kind == "small_diary":
        _place(state, move["worker"], "unlock", events)
        target = move["unlock"]
        pay(state, DATA.locations[target].unlock_cost, events)
        effects.unlock_lens(state, ALFRED, target, events)
        for action in DATA.locations[target].actions:
            do_action(state, action, events)
        return
    if kind == "deliver":
        _place(state, move["worker"], "deliver", events)
        deliver_two(state, events)
        return
    raise ValueError(f"unknown Alfred option {kind!r}")


def deliver_two(state: Any, events: list[dict[str, Any]]) -> None:
    """Deliver the priority specimen for free, then the next one for 3 coins if he can pay."""
    for stage in (1, 2):
        picks = delivery_candidates(state)
        if not picks or (stage == 2 and state.coins[ALFRED] < 3):
            return
        if stage == 2:
            pay(state, 3, events)
        effects.deliver(state, ALFRED, picks[0], events)
        normalize_coins(state, events)


# ---------------------------------------------------------------- rewards, scoring

def beagle_points(state: Any) -> int:
    """Board value x round minus the delay penalties between his ship and the Beagle.

    'Em seguida, subtraia todas as penalidades de Atraso ... do total multiplicado': unlike the
    player's goal, nothing keeps the result from going below zero.
    """
    gross = board(state)["beagle"] * state.round
    return gross - delay_penalty(state)


def delay_penalty(state: Any) -> int:
    """Sum of the delay penalties between Alfred's ship and the HMS Beagle (as for a player).

    The delay_cap effect caps each at 2, as the player's gold-4 objective does.
    """
    cap = 2 if has_effect(state, "delay_cap") else 99
    delay = 0
    for j in range(state.beagle + 1):
        if state.ship[ALFRED] < DATA.beagle_spaces[j]:
            delay += min(cap, DATA.delay_penalties[j])
    return delay
