"""Turns as a stack of frames: automatic steps run at once, decisions wait for a move.

A frame is a list whose first item names it. The top frame (the end of `s["stack"]`) is the
pending step. Every decision is the turn player's (F4.2: nothing happens outside one's turn).
"""

from __future__ import annotations

from typing import Any

from core.contract import IllegalMove, find_move
from core.flotilla import board as B
from core.flotilla import data as D
from core.flotilla import names as N
from core.flotilla.rng import draw, randbelow
from core.texts import counted

S = dict[str, Any]
Move = dict[str, Any]
Events = list[dict[str, Any]]

GN = D.GUILDS
CN = D.COLOURS


# ------------------------------------------------------------------ small effects
def gain_vp(s: S, p: int, n: int, ev: Events, why: str) -> None:
    """Gain VP from the supply; the last supply VP triggers the end (F29.1, F29.3)."""
    if n <= 0:
        return
    s["vp"][p] += n
    ev.append({"type": "vp", "seat": p, "vp": n, "why": why})
    if s["vp_supply"] > 0:
        s["vp_supply"] = max(0, s["vp_supply"] - n)
        if s["vp_supply"] == 0 and s["end_round"] is None:
            # F29.2: finish this round, then one more round for everybody
            s["end_round"] = s["round"] + 1
            ev.append({"type": "end_triggered", "seat": p, "last_round": s["end_round"]})


def add_toxicity(s: S, p: int, n: int, ev: Events) -> None:
    """F24.2-F24.3, F24.5: overflow moves the Score Penalty marker, which stops at its end."""
    for _ in range(n):
        s["tox"][p] += 1
        if s["tox"][p] >= D.TOX_TRACK:
            s["tox"][p] = 0
            s["penalty"][p] = min(s["penalty"][p] + 1, len(D.PENALTY) - 1)
    if n > 0:
        ev.append({"type": "toxicity", "seat": p, "amount": n})


def toxicity_key(s: S, p: int) -> tuple[int, int]:
    """A38: less Toxicity = lower Score Penalty position, then lower Toxicity position."""
    return (s["penalty"][p], s["tox"][p])


def draw_tile(s: S, p: int, ev: Events) -> int | None:
    """Draw an Ocean Tile and take its Toxicity (F15.3, on either side)."""
    if not s["ocean_bag"]:
        return None
    tile = draw(s, s["ocean_bag"])
    ev.append({"type": "tile_drawn", "seat": p, "tile": tile})
    add_toxicity(s, p, B.sink(tile)["toxicity"], ev)
    return tile


def return_tile(s: S, tile: int) -> None:
    bag = s["ocean_bag"]
    bag.append(tile)
    bag.sort()


def recruit(s: S, p: int, g: int, ev: Events) -> None:
    """F10.1-F10.2: the top card of the Guild's stack, or 2 VP if it is empty."""
    if not s["crew"][g]:
        gain_vp(s, p, D.SCORING["empty_stack_recruit_vp"], ev, "empty crew stack")
        return
    card = s["crew"][g].pop()
    s["hand"][p].append(card)
    ev.append({"type": "recruit", "seat": p, "card": card, "guild": GN[g]})


def place_seal(s: S, p: int, g: int, ev: Events) -> None:
    """F9.1-F9.2: a Seal on the Guild Strip, or 2 VP once all 10 are placed."""
    if sum(s["seals"][p]) >= D.PLAYER_BOARD["seals"]:
        gain_vp(s, p, D.SCORING["no_seal_vp"], ev, "no seal left")
        return
    s["seals"][p][g] += 1
    ev.append({"type": "seal", "seat": p, "guild": GN[g]})


def free_skiff(s: S, p: int, ev: Events) -> None:
    """F26.5-F26.6: a free Skiff to the Dock, or 12 coins (Skyside, or none left)."""
    if not s["sky"][p] and -1 in s["skiffs"][p]:
        s["skiffs"][p][s["skiffs"][p].index(-1)] = s["home"][p]
        ev.append({"type": "skiff", "seat": p})
    else:
        s["coins"][p] += D.SCORING["free_skiff_coins"]


def previous_culminating(s: S, p: int) -> int | None:
    prev = (p - 1) % s["n"]
    pile = s["discard"][prev]
    return pile[-1] if pile else None


def finish_frame(s: S) -> list[Any]:
    for frame in reversed(s["stack"]):
        if frame[0] == "finish":
            return frame
    raise AssertionError("no card being played")


# ------------------------------------------------------------------ ops (card/bonus effects)
def run_op(s: S, p: int, op: list[Any], ev: Events) -> None:
    """Start one printed effect; effects needing choices push decision frames."""
    kind = op[0]
    push = s["stack"].append
    if kind == "coins":
        s["coins"][p] += op[1]
    elif kind == "vp":
        gain_vp(s, p, op[1], ev, "effect")
    elif kind == "toxicity":
        add_toxicity(s, p, op[1], ev)
    elif kind == "clinic":
        # F24.5: the Clinic lowers the Score Penalty marker, even from its last space
        s["penalty"][p] = max(0, s["penalty"][p] - op[1])
    elif kind == "influence":
        push(["influence", op[1], op[2], []])
    elif kind == "transactions":
        push(["trans", op[1]])
    elif kind == "draw_place":
        drawn = [t for t in (draw_tile(s, p, ev) for _ in range(op[1])) if t is not None]
        push(["place", drawn, op[2]])
    elif kind == "draw":
        for _ in range(op[1]):
            tile = draw_tile(s, p, ev)
            if tile is None:
                continue
            if s["sky"][p]:
                s["tiles"][p].append(tile)  # F15.2: Skyside draws go to the tile Reserve
            elif s["options"].get("drawn_tile_optional", False):
                push(["place", [tile], 1])  # A24 as "may place": optional
            else:
                # F15.2 glossary: the single-draw icon alone: "you also place it (if there
                # is no valid space, return it)"; a must-place frame, no skip
                push(["place_at", tile, 1])
    elif kind == "build":
        push(["build", op[1]])
    elif kind == "dive":
        start_dive(s, p, op[1], op[2], ev)
    elif kind == "research":
        start_research(s, p, op[1], op[2], ev)
    elif kind == "survivor":
        for _ in range(op[1]):
            push(["survivor"])  # A40: each Survivor is its own one-space move
    elif kind == "recruit_any":
        if any(s["crew"]):
            push(["recruit_any"])
        else:
            gain_vp(s, p, D.SCORING["empty_stack_recruit_vp"], ev, "empty crew stacks")
    elif kind == "seal":
        if op[1] == "any":
            push(["seal_any"])
        else:
            place_seal(s, p, GN.index(op[1]), ev)
    elif kind == "resource_any":
        for _ in range(op[1]):
            push(["resource_any"])
    elif kind == "regroup":
        regroup(s, p, ev)
    elif kind == "discard_type":
        push(["discard_type", GN.index(op[1]), op[2], op[3]])
    elif kind == "retire":
        push(["retire", op[1]])
    elif kind == "skiff":
        free_skiff(s, p, ev)
    elif kind == "dial":
        push(["dial", 0])
    else:  # pragma: no cover - data error
        raise ValueError(f"unknown effect {op!r}")


def regroup(s: S, p: int, ev: Events) -> None:
    """F6.1: the discard pile back to hand. A10 (option captain_returns, default reading (a)):
    the Captain returns too, so a hand never runs out; reading (b) discards it afterwards."""
    s["hand"][p].extend(s["discard"][p])
    s["discard"][p] = []
    ev.append({"type": "regroup", "seat": p})
    if s["options"]["captain_returns"]:
        finish_frame(s)[2] = "hand"
    if not s["sky"][p]:
        s["stack"].append(["switch"])  # F6.3, F28.1: joining is offered on every Captain play


def start_face(s: S, p: int, card: int, ev: Events) -> None:
    """Resolve a face: Navigation or Income first, then the ability (F5.4)."""
    f = D.face(card, bool(s["sky"][p]))
    s["stack"].append(["ops", f["ops"], 0])
    if s["sky"][p]:
        s["coins"][p] += f["income"]
    elif f["nav"] > 0 and any(c >= 0 for c in s["skiffs"][p]):
        s["stack"].append(["nav", f["nav"]])


# ------------------------------------------------------------------ diving (F22)
def _skiff_tiles(s: S, p: int) -> list[int]:
    board = s["board"]
    return [c for c in s["skiffs"][p] if c >= 0 and board[c][0] >= 0 and not board[c][3]]


def roll_dive(s: S, kind: str) -> list[list[str]]:
    face = D.DIVE_FACES[kind][randbelow(s, len(D.DIVE_FACES[kind]))]
    return [[icon, kind] for icon in face]


def start_dive(s: S, p: int, extra: dict[str, int], flags: list[str], ev: Events) -> None:
    """F22.3: the card's dice plus one per Skiff on a non-depleted tile, by Depth (A32)."""
    if s["sky"][p]:
        return
    flags = list(flags)
    if "dredger" in flags:
        # F22.11, F7.2: the Dredger ignores Toxicity and Depletion when the previous player's
        # Culminating card is a Delver (an Academic counts as one)
        prev = previous_culminating(s, p)
        if prev is not None and D.card_guild(prev) in (-1, GN.index("delvers")):
            flags = ["no_toxicity", "no_depletion"]
    wanted = dict(extra)
    for cell in _skiff_tiles(s, p):
        kind = D.DEPTH_KIND[B.sink(s["board"][cell][0])["depth"]]
        wanted[kind] = wanted.get(kind, 0) + 1
    used = {k: 0 for k in D.DIVE_KINDS}
    pool: list[list[str]] = []
    for kind in D.DIVE_KINDS:
        # A35: the initial gather is capped by the dice of that kind in the supply
        for _ in range(min(wanted.get(kind, 0), D.DIVE_SUPPLY[kind])):
            used[kind] += 1
            pool.extend(roll_dive(s, kind))
    ev.append({"type": "dive", "seat": p, "results": [r[0] for r in pool]})
    s["stack"].append(["dive", pool, flags, 0, used])


def eligible_skiffs(s: S, p: int) -> list[int]:
    """F22.4: Skiffs on a non-depleted tile with room for another Barrel."""
    board = s["board"]
    cap = D.SCORING["skiff_capacity"]
    return [i for i, c in enumerate(s["skiffs"][p]) if c >= 0 and board[c][0] >= 0
            and not board[c][3] and sum(s["cargo"][p][i]) < cap]


def depletion_targets(s: S, p: int, token: int) -> list[int]:
    """F22.6: Depletion Token number `token` (1 = the first placed, i.e. the second icon)
    goes on a non-depleted tile where you have a Skiff; a token beyond "the number of Skiffs
    you have" (the excess) may go on any non-depleted Ocean Tile of yours. A34: a token that
    is not excess and finds no such tile is not placed (tokens that cannot be placed are
    ignored), rather than falling back to any tile."""
    if token > sum(1 for c in s["skiffs"][p] if c >= 0):
        return sorted(c for c, e in s["board"].items() if e[2] == p and e[0] >= 0 and not e[3])
    return sorted(set(_skiff_tiles(s, p)))


def load_cargo(s: S, p: int, i: int, ev: Events) -> None:
    cell = s["skiffs"][p][i]
    colour = CN.index(B.sink(s["board"][cell][0])["resource"])
    s["cargo"][p][i][colour] += 1
    ev.append({"type": "cargo", "seat": p, "skiff": i, "colour": CN[colour]})


def resolve_dive(s: S, p: int, frame: list[Any], icon: str, kind: str, ev: Events) -> None:
    pool, flags = frame[1], frame[2]
    for k, r in enumerate(pool):
        if r[0] == icon and (icon != "N" or r[1] == kind):
            del pool[k]
            break
    if icon == "R":
        skiffs = eligible_skiffs(s, p)
        if len(skiffs) == 1:
            load_cargo(s, p, skiffs[0], ev)
        elif skiffs:
            s["stack"].append(["cargo"])
        # A33: no Skiff with room on a non-depleted tile: the Resource is lost
    elif icon == "T":
        if "no_toxicity" not in flags:
            add_toxicity(s, p, 1, ev)
    elif icon == "D":
        frame[3] += 1
        if frame[3] >= 2 and "no_depletion" not in flags:  # every Depletion beyond the first
            targets = depletion_targets(s, p, frame[3] - 1)
            if len(targets) == 1:
                deplete(s, p, targets[0], ev)
            elif targets:
                s["stack"].append(["deplete", frame[3] - 1])
    elif icon == "S":
        s["stack"].append(["survivor"])
    elif icon == "N":
        # F22.8, F27.2-F27.3: a Sonar icon is what the Sonar Track's space shows now
        for part in D.SONAR[s["sonar"]]["icon"]:
            if part[0] == "toxicity":
                if "no_toxicity" not in flags:
                    add_toxicity(s, p, part[1], ev)
            elif part[0] == "survivor":
                for _ in range(part[1]):
                    s["stack"].append(["survivor"])
            elif part[0] == "vp":
                gain_vp(s, p, part[1], ev, "sonar")  # A43: S5's lost icon read as VP
            elif part[0] == "extra_die" and frame[4][kind] < D.DIVE_SUPPLY[kind]:
                # F22.10, A43: an extra die of the same kind, within the supply; it may chain
                frame[4][kind] += 1
                pool.extend(roll_dive(s, kind))


def deplete(s: S, p: int, cell: int, ev: Events) -> None:
    s["board"][cell][3] = 1
    ev.append({"type": "depleted", "seat": p, "cell": cell})


# ------------------------------------------------------------------ research (F23)
def start_research(s: S, p: int, n: int, rerolls: int, ev: Events) -> None:
    if not s["sky"][p]:
        return
    dice = [[d, randbelow(s, 6), -1] for d in range(min(n, len(D.RESEARCH_DICE)))]
    ev.append({"type": "research", "seat": p, "faces": [D.RESEARCH_DICE[d][f] for d, f, _ in dice]})
    s["stack"].append(["research", dice, rerolls])


def claim_research(s: S, p: int, dice: list[list[int]], ev: Events) -> None:
    """F23.2-F23.6: coins, Breakthroughs, Guild rewards; each icon used once."""
    coins = advances = 0
    guilds = [0] * 4
    for d, f, wild in dice:
        face = D.RESEARCH_DICE[d][f]
        if face[0] == "coins":
            coins += face[1]
        elif face[0] == "advance":
            advances += 1
        elif face[0] == "guild":
            guilds[GN.index(face[1])] += 1
        elif face[0] == "wild":
            guilds[wild] += 1
    s["coins"][p] += coins
    # A36: a Breakthrough per 3 Advance results; a Guild's reward once per roll for 3 or more
    for _ in range(advances // 3):
        s["stack"].append(["dial", 1])
    for g in range(3, -1, -1):
        if guilds[g] >= 3:
            s["stack"].append(["ops", guild_reward(s, g), 0])
            ev.append({"type": "guild_reward", "seat": p, "guild": GN[g]})


def guild_reward(s: S, g: int) -> list[list[Any]]:
    """F23.4-F23.5, F26.4: all Artifacts near the Guild's Dial, else the printed first space.

    "=" (FAQ): all Influence of one reward in one research goes to one Guild, so the
    Artifacts' same-Guild Influence is summed into a single "same" effect.
    """
    ops = ([list(D.ARTIFACTS[a]["research"][k]) for a in s["hub"][g]
            for k in range(len(D.ARTIFACTS[a]["research"]))]
           if s["hub"][g] else [list(op) for op in D.HUB["first_space_bonus"][GN[g]]])
    same = sum(op[1] for op in ops if op[0] == "influence" and op[2] == "same")
    out = [op for op in ops if not (op[0] == "influence" and op[2] == "same")]
    if same:
        out.append(["influence", same, "same"])
    return out


# ------------------------------------------------------------------ wheels (F8)
def step_wheel(s: S, p: int, g: int, skip: bool, ev: Events) -> None:
    """Advance the disc one space (two with the arrow, A18 (a)) and gain the space's bonus."""
    s["wheel"][p][g] += 2 if skip else 1
    space = s["wheel"][p][g] % D.WHEEL_SPACES
    ev.append({"type": "influence", "seat": p, "guild": GN[g], "space": space})
    for bonus in D.WHEELS[g][space]:
        wheel_bonus(s, p, g, bonus, ev)


def wheel_bonus(s: S, p: int, g: int, bonus: list[Any], ev: Events) -> None:
    """One bonus of a Wheel space (F8.4.1-F8.4.6)."""
    kind = bonus[0]
    if kind == "tile":  # F8.4.1
        tile = draw_tile(s, p, ev)
        if tile is not None:
            if s["sky"][p]:
                s["tiles"][p].append(tile)
            else:
                s["stack"].append(["place", [tile], 1])
    elif kind == "survivor":  # F8.4.2; A39: Survivor spaces may be on any Wheel
        s["stack"].append(["survivor"])
    elif kind == "coins":  # F8.4.3
        s["coins"][p] += bonus[1]
    elif kind == "vp":
        gain_vp(s, p, bonus[1], ev, "wheel")
    elif kind == "resource_any":  # F8.4.4
        s["stack"].append(["resource_any"])
    elif kind == "seal":  # F8.4.5
        place_seal(s, p, g, ev)
    elif kind == "recruit":  # F8.4.6, F10.3: on a Wheel, that Wheel's Guild
        recruit(s, p, g, ev)


# ------------------------------------------------------------------ market and objectives
def price(s: S, colour: int) -> int:
    return D.MARKET_PRICES[s["market"][colour]]


def adjust_market(s: S, p: int, bought: list[int], sold: list[int], ev: Events) -> None:
    """F12.4-F12.5: one space per Resource after all Transactions; overflow gives VP (A20)."""
    top = len(D.MARKET_PRICES) - 1
    vp = 0
    for c in range(4):
        for _ in range(bought[c]):
            if s["market"][c] == top:
                vp += D.SCORING["market_overflow_buy_vp"]
            else:
                s["market"][c] += 1
        for _ in range(sold[c]):
            if s["market"][c] == 0:
                vp += D.SCORING["market_overflow_sell_vp"]
            else:
                s["market"][c] -= 1
    gain_vp(s, p, vp, ev, "market overflow")


def sites(s: S, p: int) -> list[int]:
    """F14.3: your available Construction Sites (Islands, Skyside sites, the Starter Tile)."""
    out = []
    sky = s["sky"][p]
    for cell, e in s["board"].items():
        if e[2] != p or e[4]:
            continue
        if e[0] < 0 or (B.sky(e[0])["site"] if sky else B.sink(e[0])["island"]):
            out.append(cell)
    return sorted(out)


def objective_count(s: S, p: int, what: str) -> int:
    """What an Objective counts: only your own things (F14.5 FAQ)."""
    board = s["board"]
    mine = [e for e in board.values() if e[2] == p and e[0] >= 0]
    if what == "tiles":
        return len(mine)
    if what == "islands":
        return sum(B.sink(e[0])["island"] for e in mine)
    if what == "deep_tiles":
        return sum(B.sink(e[0])["depth"] == 3 for e in mine)
    if what == "skiffs":
        return sum(c >= 0 for c in s["skiffs"][p])
    if what == "crew":
        return len(s["hand"][p]) + len(s["discard"][p])
    if what == "seals":
        return sum(s["seals"][p])
    if what == "outposts":
        return len(D.OUTPOST_PRICES) - s["outposts"][p]
    if what == "resources":
        return sum(s["reserve"][p])
    if what == "cargo":
        return sum(map(sum, s["cargo"][p]))
    if what == "survivors":
        return s["rescued"][p]
    if what == "influence":
        return sum(x > 0 for x in s["wheel"][p])
    if what == "buildings":
        return sum(B.sky(e[0])["building"] is not None for e in mine)
    if what == "largest_watercraft":
        cells = [c for c, e in board.items() if e[2] == p]
        return max((len(B.watercraft(board, c, p)) for c in cells), default=0)
    if what == "reserve_tiles":
        return len(s["tiles"][p])
    if what == "districts":
        return len({c for e in mine for c in B.districts(e)})
    if what == "stations":
        return s["stations"][p]
    raise ValueError(what)  # pragma: no cover - data error


def objective_vp(s: S, p: int, obj: int) -> int:
    face = D.OBJECTIVES[obj]["skyside" if s["sky"][p] else "sinkside"]
    return min(face["max_vp"], face["vp_each"] * objective_count(s, p, face["count"]))


def outpost_price(s: S, p: int, floating: bool) -> int:
    """F14.2, F14.4: the next Outpost's price, plus the Floating fee of your side."""
    built = len(D.OUTPOST_PRICES) - s["outposts"][p]
    fee = D.PLAYER_BOARD["floating_fee"]["skyside" if s["sky"][p] else "sinkside"]
    return D.OUTPOST_PRICES[built] + (fee if floating else 0)


def buy_objective(s: S, p: int, stack: int, site: int, ev: Events) -> None:
    """F14.1, F14.6: pay, take the top tile (the last one stays), build, score it."""
    floating = site < 0
    s["coins"][p] -= outpost_price(s, p, floating)
    s["outposts"][p] -= 1
    pile = s["obj_stacks"][s["sky"][p]][stack]
    obj = pile.pop() if len(pile) > 1 else pile[-1]
    s["objectives"][p].append(obj)
    if floating:
        s["floating"][p] += 1
    else:
        s["board"][site][4] = 1
    vp = objective_vp(s, p, obj)
    # The face scored is the player's side's: tell it, the player may change sides later.
    ev.append({"type": "objective", "seat": p, "objective": obj, "sky": bool(s["sky"][p]),
               "site": site, "vp": vp})
    gain_vp(s, p, vp, ev, "objective")


# ------------------------------------------------------------------ joining (F28)
def join_flotilla(s: S, p: int, ev: Events) -> None:
    """F28.2 steps 1-6 (A46-A47: Floating Outposts go to the box, the Player Board flips with
    the rest). A45: step 1 sells "the Skiffs from your Ocean Tiles"; the Starter Tile is not
    an Ocean Tile, so a Skiff there goes back to the Player Board unsold (option
    sell_dock_skiffs: sold too, RULES.md's recommended reading)."""
    dock = D.BOARDS["dock_tiles"][str(s["n"])]
    order = min(s["joined"], len(dock["skiff_value"]) - 1)
    sell_dock = s["options"].get("sell_dock_skiffs", False)
    for i, cell in enumerate(s["skiffs"][p]):
        if cell >= 0 and (cell != s["home"][p] or sell_dock):  # step 1
            s["coins"][p] += dock["skiff_value"][order]
            s["skiffs"][p][i] = -2  # sold: out of play
        elif cell >= 0:
            s["skiffs"][p][i] = -1  # on the Starter Tile: back to the Player Board, unsold
        for c in range(4):
            s["reserve"][p][c] += s["cargo"][p][i][c]
            s["cargo"][p][i][c] = 0
    board = s["board"]
    for cell in sorted(board):
        e = board[cell]
        if e[2] != p or e[0] < 0:
            continue
        del board[cell]
        if e[4]:
            return_tile(s, e[0])  # step 2: tiles with Outposts back to the bag, Outposts boxed
        else:
            s["tiles"][p].append(e[0])  # step 3: the rest, Skyside up, to the tile Reserve
    s["floating"][p] = 0  # A46: Floating Outposts are boxed too
    s["tiles"][p].sort()
    s["sky"][p] = 1  # steps 4-5 and A47: cards, Starter Tile and Player Board flip
    s["joined"] += 1
    ev.append({"type": "joined_flotilla", "seat": p, "order": s["joined"]})
    s["stack"].append(["build", dock["build_limit"][order]])  # step 6


# ------------------------------------------------------------------ placing and building
def sink_placements(s: S, p: int, tile: int) -> list[tuple[int, int]]:
    """F16.1, F34.12: every (cell, rotation) where the tile's Sinkside may go."""
    board = s["board"]
    depth_rule = s["options"].get("depth_rule", True)  # A23: the lost icon's stand-in
    return [(cell, rot) for cell in B.open_cells(s, p)
            if not depth_rule or B.depth_fits(board, cell, tile)
            for rot in B.rotations(tile, "sink")]


def can_pay(s: S, p: int, tile: int) -> bool:
    cost = B.sky(tile)["cost"]
    return all(s["reserve"][p][CN.index(c)] >= k for c, k in cost.items())


def place_tile(s: S, p: int, tile: int, cell: int, rot: int, ev: Events) -> None:
    s["board"][cell] = [tile, rot, p, 0, 0]
    ev.append({"type": "tile_placed", "seat": p, "tile": tile, "cell": cell, "rot": rot})
    for _ in range(B.completed_circles(s["board"], cell)):
        s["stack"].append(["artifact"])  # F16.6


def build_tile(s: S, p: int, tile: int, cell: int, rot: int, ev: Events) -> None:
    """F18.1 steps 3-4, F27.4: place, then score (A26: each tile as it is built)."""
    s["board"][cell] = [tile, rot, p, 0, 0]
    s["tiles"][p].remove(tile)
    ev.append({"type": "tile_built", "seat": p, "tile": tile, "cell": cell, "rot": rot})
    colours = B.districts(s["board"][cell])
    if len(colours) == 1:
        score_district(s, p, cell, colours[0], ev)
    else:
        s["stack"].append(["district", cell])  # F20.6: score one District, chosen
    if B.completed_station(s["board"], cell):
        s["stations"][p] += 1
        if s["options"].get("sonar_optional", True) and s["sonar"] < len(D.SONAR) - 1:
            s["stack"].append(["sonar"])  # A44: p. 11 "você pode avançar": a choice
        else:
            advance_sonar(s, p, ev)


def score_district(s: S, p: int, cell: int, colour: int, ev: Events) -> None:
    a, b = B.build_score(s, cell, colour, p)
    ev.append({"type": "district_scored", "seat": p, "colour": CN[colour], "a": a, "b": b})
    gain_vp(s, p, a * b, ev, "district")


def advance_sonar(s: S, p: int, ev: Events) -> None:
    """F27.4, F27.6: the marker one space on and its VP. A44: p. 11 says the player "may"
    advance (option sonar_optional, the default: a "sonar" decision first), p. 15
    "immediately advance" (sonar_optional false). On the last space there is nothing to
    decline: its end VP are taken."""
    if s["sonar"] >= len(D.SONAR) - 1:
        gain_vp(s, p, D.SCORING["sonar_end_vp"], ev, "sonar")
        return
    s["sonar"] += 1
    ev.append({"type": "sonar", "seat": p, "space": s["sonar"]})
    gain_vp(s, p, D.SONAR[s["sonar"]]["vp"], ev, "sonar")


# ------------------------------------------------------------------ survivors, artifacts
def rescue(s: S, p: int, ev: Events) -> None:
    """F25.2-F25.4: one space; a Milestone on landing (A41: the start space is one)."""
    track = D.BOARDS["survivor_tracks"][str(s["n"])]
    s["survivor"] = (s["survivor"] + 1) % len(track)
    s["rescued"][p] += 1
    space = track[s["survivor"]]
    ev.append({"type": "survivor", "seat": p, "space": s["survivor"]})
    if space[0] == "vp":
        gain_vp(s, p, space[1], ev, "survivor")
    elif space[0] == "recruit_any":
        run_op(s, p, ["recruit_any"], ev)
    elif space[0] == "milestone":
        add_toxicity(s, p, D.SCORING["milestone_toxicity"], ev)
        s["stack"].append(["dial", 0])
        s["stack"].append(["artifact"])  # resolved before the Dial choice (F25.4 order)


def discover(s: S, p: int, ev: Events) -> None:
    """F26.2-F26.3: draw, resolve its Discovery Reward, place it by its Guild's Dial.

    A42: for the free-Skiff Artifacts the 12 coins replace only the Skiff; the tile is still
    placed and the rest of its reward (Toxicity) is still taken."""
    if not s["art_bag"]:
        gain_vp(s, p, D.SCORING["empty_artifact_bag_vp"], ev, "empty artifact bag")
        return
    art = draw(s, s["art_bag"])
    ev.append({"type": "artifact", "seat": p, "artifact": art})
    # F26.2: "immediately resolve its Discovery Reward", then flip it and insert it on the
    # Hub: the insertion waits under the reward's frames (a Research rolled during the
    # reward does not yet count this Artifact)
    s["stack"].append(["hub", art])
    s["stack"].append(["ops", [list(op) for op in D.ARTIFACTS[art]["discovery"]], 0])


# ------------------------------------------------------------------ the stack machine
AUTO = {"finish", "ops", "survivor", "artifact", "hub"}
# decisions that always offer a move (a stop, or options checked before the frame is pushed)
NEVER_EMPTY = {"play", "academic", "influence", "arrow", "resource_any", "recruit_any",
               "seal_any", "trans", "switch", "retire", "cargo", "deplete", "sonar",
               "build_at", "district"}


def to_act(s: S) -> int | None:
    return None if s["over"] else s["turn"]


def academic_targets(s: S, p: int) -> list[int]:
    """F7.3-F7.5, A17: any opponent on your side with a Culminating card; A14 (a): a
    Culminating Academic is a valid target (copying it does nothing)."""
    return [q for q in range(s["n"]) if q != p and s["discard"][q] and s["sky"][q] == s["sky"][p]]


def _lbl(move: Move, label: str) -> Move:
    move["label"] = label
    return move


_MISSING = object()
_CELL_NAMES = {c: "({},{})".format(*D.cell_qr(c)) for c in D.CELLS}


def _at(cell: int) -> str:
    """A cell for people: its axial coordinates (q, r), the Hub at (0, 0)."""
    return _CELL_NAMES[cell]


def _card_name(s: S, p: int, card: int) -> str:
    return D.face(card, bool(s["sky"][p]))["name"]


_GUILD = [N.GUILD_NAMES[g] for g in GN]  # "Speakers": a Guild as the labels name it


def _player(seat: int) -> str:
    """A seat as the event descriptions name it: "Player 2" (seats count from 1)."""
    return f"Player {seat + 1}"


def _placement(tile: int, sky: bool, cell: int, rot: int) -> str:
    """"Shelf tile (depth 2, yellow Resource) at (2,-1), turned 120°": each turn moves the
    tile's corners one step along `data.DIRS` (counter-clockwise as the web page draws the
    ocean, y down; the rulebook names no direction, F16.5); a tile whose turns all look alike
    is not turned."""
    name = N.tile(tile, sky)
    if len(B.rotations(tile, "sky" if sky else "sink")) == 1:
        return f"{name} at {_at(cell)}"
    if rot == 0:
        return f"{name} at {_at(cell)}, not turned"
    return f"{name} at {_at(cell)}, turned {60 * rot}°"


def moves_for(s: S) -> list[Move]:
    """The legal moves of the pending decision (empty when it has nothing left to offer)."""
    p = s["turn"]
    frame = s["stack"][-1]
    kind = frame[0]
    out: list[Move] = []
    if kind == "play":
        hand = s["hand"][p]
        for card in sorted(set(hand)):
            if card == D.ACADEMIC and not academic_targets(s, p):
                continue
            out.append(_lbl({"type": "play", "card": card}, f"play {_card_name(s, p, card)}"))
        if not out:
            # A9: no playable card (only possible under A10 (b)): the turn is a Regroup
            out.append(_lbl({"type": "regroup"}, "no playable card: take the discard pile back"))
    elif kind == "academic":
        for q in academic_targets(s, p):
            name = _card_name(s, q, s["discard"][q][-1])
            out.append(_lbl({"type": "copy", "target": q}, f"copy {_player(q)}'s {name}"))
    elif kind == "nav":
        home = s["home"][p]
        board = s["board"]
        for i, cell in enumerate(s["skiffs"][p]):
            if cell < 0:
                continue
            for nb in D.NEIGH[cell]:
                if nb >= 0 and nb in board and board[nb][2] == p:
                    if nb == home and sum(s["cargo"][p][i]):
                        # F21.4: unloading at the delivery point is optional
                        out.append(_lbl({"type": "sail", "skiff": i, "cell": nb, "unload": True},
                                        f"sail Skiff {i + 1} home and unload"))
                        out.append(_lbl({"type": "sail", "skiff": i, "cell": nb, "unload": False},
                                        f"sail Skiff {i + 1} home, keep the cargo"))
                    else:
                        out.append(_lbl({"type": "sail", "skiff": i, "cell": nb},
                                        f"sail Skiff {i + 1} to {_at(nb)}"))
        if out:
            # A31: unused Navigation points may be left ("may move")
            out.append(_lbl({"type": "done"}, "end navigation"))
    elif kind == "influence":
        mode, used = frame[2], frame[3]
        for g in range(4):
            if mode == "same" and used and g != used[0]:
                continue
            if mode == "diff" and g in used:
                continue
            out.append(_lbl({"type": "influence", "guild": GN[g]},
                            f"1 Influence with the {_GUILD[g]}"))
    elif kind == "arrow":
        g = frame[1]
        out.append(_lbl({"type": "arrow", "skip": False},
                        f"{_GUILD[g]} Wheel: step onto the third space"))
        out.append(_lbl({"type": "arrow", "skip": True},
                        f"{_GUILD[g]} Wheel: take the arrow past it"))
    elif kind == "resource_any":
        for c in range(4):
            out.append(_lbl({"type": "resource", "colour": CN[c]}, f"gain a {CN[c]} Resource"))
    elif kind == "recruit_any":
        for g in range(4):
            if s["crew"][g]:
                out.append(_lbl({"type": "recruit", "guild": GN[g]},
                                f"recruit from the {_GUILD[g]}"))
    elif kind == "seal_any":
        for g in range(4):
            out.append(_lbl({"type": "seal", "guild": GN[g]}, f"a Seal for the {_GUILD[g]}"))
    elif kind == "trans":
        out = _transaction_moves(s, p, frame)
    elif kind == "place":
        if frame[2] > 0:
            for tile in sorted(set(frame[1])):
                if sink_placements(s, p, tile):
                    out.append(_lbl({"type": "pick_tile", "tile": tile},
                                    f"place the {N.sink_tile(tile)}"))
        if out:
            # A24: placing is optional; unplaced tiles go back to the bag
            out.append(_lbl({"type": "done"}, "stop placing (the rest back to the bag)"))
    elif kind == "place_at":
        for cell, rot in sink_placements(s, p, frame[1]):
            out.append(_lbl({"type": "place", "cell": cell, "rot": rot},
                            _placement(frame[1], False, cell, rot)))
        if len(frame) < 3 or not frame[2]:  # a must-place single draw has no skip (F15.2)
            out.append(_lbl({"type": "skip"},
                            f"return the {N.sink_tile(frame[1])} to the bag"))
    elif kind == "sonar":
        vp = D.SONAR[s["sonar"] + 1]["vp"]
        out.append(_lbl({"type": "sonar", "advance": True},
                        f"advance the Sonar marker to space {s['sonar'] + 1} (+{vp} VP)"))
        out.append(_lbl({"type": "sonar", "advance": False}, "leave the Sonar marker"))
    elif kind == "build":
        if frame[1] > 0 and B.open_cells(s, p):
            for tile in sorted(set(s["tiles"][p])):
                if can_pay(s, p, tile):
                    cost = ", ".join(f"{k} {c}" for c, k in B.sky(tile)["cost"].items())
                    out.append(_lbl({"type": "pick_tile", "tile": tile},
                                    f"build the {N.sky_tile(tile)} (pay {cost})"))
        if out:
            out.append(_lbl({"type": "done"}, "stop building"))
    elif kind == "build_at":
        tile = frame[1]
        for cell in B.open_cells(s, p):
            for rot in B.rotations(tile, "sky"):
                out.append(_lbl({"type": "build", "cell": cell, "rot": rot},
                                _placement(tile, True, cell, rot)))
    elif kind == "district":
        for c in B.districts(s["board"][frame[1]]):
            out.append(_lbl({"type": "district", "colour": CN[c]}, f"score the {CN[c]} District"))
    elif kind == "dive":
        seen = set()
        for icon, dkind in frame[1]:
            key = (icon, dkind if icon == "N" else "")
            if key in seen:
                continue
            seen.add(key)
            names = {"R": "a Resource", "T": "a Toxicity", "D": "a Depletion",
                     "S": "a Survivor", "N": f"a Sonar ({N.KIND_NAMES.get(dkind, dkind)} die)"}
            move = {"type": "resolve", "icon": icon}
            if icon == "N":
                move["kind"] = dkind
            out.append(_lbl(move, f"resolve {names[icon]} result"))
    elif kind == "cargo":
        for i in eligible_skiffs(s, p):
            colour = B.sink(s["board"][s["skiffs"][p][i]][0])["resource"]
            out.append(_lbl({"type": "cargo", "skiff": i}, f"a {colour} Barrel on Skiff {i + 1}"))
    elif kind == "deplete":
        for cell in depletion_targets(s, p, frame[1] if len(frame) > 1 else 1):
            out.append(_lbl({"type": "deplete", "cell": cell}, f"deplete the tile at {_at(cell)}"))
    elif kind == "research":
        dice, rerolls = frame[1], frame[2]
        if rerolls > 0:
            for i, (d, f, _) in enumerate(dice):
                out.append(_lbl({"type": "reroll", "die": i},
                                f"reroll die {i + 1} ({N.research_face(D.RESEARCH_DICE[d][f])})"))
            out.append(_lbl({"type": "done"}, "keep the dice"))
        else:
            for i, (d, f, wild) in enumerate(dice):
                if D.RESEARCH_DICE[d][f][0] == "wild" and wild < 0:
                    for g in range(4):
                        out.append(_lbl({"type": "wild", "die": i, "guild": GN[g]},
                                        f"wildcard die {i + 1} counts for the {_GUILD[g]}"))
                    break
    elif kind == "dial":
        for g in range(4):
            if s["dials"][g] < D.DIAL_MAX:
                out.append(_lbl({"type": "dial", "guild": GN[g]}, f"raise the {_GUILD[g]} Dial"))
        if frame[1] and out:
            out.append(_lbl({"type": "skip"}, "no Breakthrough"))
    elif kind == "switch":
        out.append(_lbl({"type": "join"}, "switch to the Skyside and join the Flotilla"))
        out.append(_lbl({"type": "skip"}, "stay on the Sinkside"))
    elif kind == "retire":
        out.append(_lbl({"type": "retire"}, "retire this card for its bonus"))
        out.append(_lbl({"type": "skip"}, "keep the card"))
    elif kind == "discard_type":
        g, left = frame[1], frame[2]
        if left > 0:
            for card in sorted(set(s["hand"][p])):
                if D.card_guild(card) in (g, -1):  # A13: from hand; F7.2: Academics count
                    out.append(_lbl({"type": "discard", "card": card},
                                    f"discard {_card_name(s, p, card)}"))
        if out:
            out.append(_lbl({"type": "done"}, "discard no more"))
    return out


def _transaction_moves(s: S, p: int, frame: list[Any]) -> list[Move]:
    """F11.2, F34.10: each Transaction the player can afford now; stop (A19: "up to" N)."""
    out: list[Move] = []
    coins = s["coins"][p]
    bought, sold = s["trade"]  # F12.3: per turn, whatever effect gave the Transactions
    if not s["sky"][p] and -1 in s["skiffs"][p] and coins >= D.SCORING["skiff_price"]:
        price_text = counted(D.SCORING["skiff_price"], "coin", "coins")
        out.append(_lbl({"type": "buy_skiff"}, f"buy a Skiff ({price_text})"))
    if s["outposts"][p] > 0:
        free = sites(s, p)
        dests = free if free else [-1]
        for k, pile in enumerate(s["obj_stacks"][s["sky"][p]]):
            if not pile:
                continue
            for site in dests:
                cost = outpost_price(s, p, site < 0)
                if coins >= cost:
                    where = f"Outpost at {_at(site)}" if site >= 0 else "Floating Outpost"
                    text = N.objective(pile[-1], bool(s["sky"][p]))
                    cost_text = counted(cost, "coin", "coins")
                    out.append(_lbl({"type": "objective", "stack": k, "site": site},
                                    f"{where} + objective “{text}” ({cost_text})"))
    for c in range(4):
        if not sold[c] and coins >= price(s, c):
            price_text = counted(price(s, c), "coin", "coins")
            out.append(_lbl({"type": "buy", "colour": CN[c]},
                            f"buy a {CN[c]} Resource for {price_text}"))
    for c in range(4):
        if not bought[c] and s["reserve"][p][c] > 0:
            price_text = counted(price(s, c), "coin", "coins")
            out.append(_lbl({"type": "sell", "colour": CN[c]},
                            f"sell a {CN[c]} Resource for {price_text}"))
    out.append(_lbl({"type": "done"}, "end transactions"))
    return out


def _end_transactions(s: S, p: int, ev: Events) -> None:
    s["stack"].pop()


def _on_empty(s: S, p: int, frame: list[Any], ev: Events) -> None:
    """A decision frame with nothing left to choose ends on its own."""
    s["stack"].pop()
    kind = frame[0]
    if kind == "place":
        for tile in frame[1]:
            return_tile(s, tile)  # F15.2: tiles not placed go back to the bag
    elif kind == "place_at":
        return_tile(s, frame[1])  # F15.2: no valid space for a must-place tile
    elif kind == "research":
        claim_research(s, p, frame[1], ev)


def _auto(s: S, p: int, frame: list[Any], ev: Events) -> None:
    kind = frame[0]
    if kind == "ops":
        if frame[2] >= len(frame[1]):
            s["stack"].pop()
        else:
            op = frame[1][frame[2]]
            frame[2] += 1
            run_op(s, p, op, ev)
    elif kind == "finish":
        s["stack"].pop()
        card, mode = frame[1], frame[2]
        if mode == "retire":
            s["retired"][p].append(card)  # F5.7
        elif mode == "hand":
            s["hand"][p].append(card)  # A10 (a)
        else:
            s["discard"][p].append(card)  # F4.2 step 3, F5.8: the played card goes on top last
    elif kind == "survivor":
        s["stack"].pop()
        rescue(s, p, ev)
    elif kind == "artifact":
        s["stack"].pop()
        discover(s, p, ev)
    elif kind == "hub":  # F26.2 step 2, after the Discovery Reward
        s["stack"].pop()
        s["hub"][GN.index(D.ARTIFACTS[frame[1]]["guild"])].append(frame[1])


def _end_turn(s: S, ev: Events) -> None:
    n = s["n"]
    bought, sold = s["trade"]
    if any(bought) or any(sold):
        # F12.2, F12.4: the Market moves once all the turn's Transactions are done
        adjust_market(s, s["turn"], bought, sold, ev)
        s["trade"] = [[0] * 4, [0] * 4]
    s["turn"] = (s["turn"] + 1) % n
    if s["turn"] == s["first"]:
        s["round"] += 1
        if s["end_round"] is not None and s["round"] > s["end_round"]:
            s["over"] = True  # F29.2: final scoring follows
            ev.append({"type": "game_over"})
            return
    s["stack"].append(["play"])


def settle(s: S, ev: Events) -> None:
    """Run automatic frames until a decision with options is on top, or the game is over."""
    while not s["over"]:
        if not s["stack"]:
            _end_turn(s, ev)
            continue
        frame = s["stack"][-1]
        if frame[0] in AUTO:
            _auto(s, s["turn"], frame, ev)
        elif frame[0] not in NEVER_EMPTY and not moves_for(s):
            _on_empty(s, s["turn"], frame, ev)
        else:
            return


def legal_moves(s: S) -> list[Move]:
    if s["over"]:
        return []
    return moves_for(s)


def _matching_move(legal: list[Move], move: Move) -> Move | None:
    """The legal move `move` names (labels ignored), or None.

    Quick `==` tests on each field pick the candidates (an apply's hottest loop, so plain
    loops rather than `all()` over a generator); `find_move` then checks strict JSON
    equality, so a client's `true` still never stands for 1."""
    wanted = [(k, v) for k, v in move.items() if k != "label"]
    kind = move.get("type")
    size = len(wanted) + 1  # every legal move carries a label
    for m in legal:
        if m["type"] != kind or len(m) != size:
            continue
        for k, v in wanted:
            if m.get(k, _MISSING) != v:
                break
        else:
            if find_move([m], move) is not None:
                return m
    return None


def apply_move(s: S, move: Move) -> Events:
    """Play one legal move, then run everything automatic that follows."""
    if s["over"]:
        raise IllegalMove(move, "the game is over")
    if not isinstance(move, dict):
        raise IllegalMove(move, "a move is a JSON object")
    found = _matching_move(moves_for(s), move)
    if found is None:
        raise IllegalMove(move, "not a legal move now")
    p = s["turn"]
    ev: Events = []
    _do(s, p, s["stack"][-1], found, ev)
    settle(s, ev)
    return ev


def _do(s: S, p: int, frame: list[Any], m: Move, ev: Events) -> None:
    t = m["type"]
    stack = s["stack"]
    kind = frame[0]
    if kind == "play":
        stack.pop()
        if t == "regroup":
            s["hand"][p].extend(s["discard"][p])
            s["discard"][p] = []
            ev.append({"type": "regroup", "seat": p})
            return
        card = m["card"]
        s["hand"][p].remove(card)
        ev.append({"type": "play", "seat": p, "card": card, "name": _card_name(s, p, card)})
        stack.append(["finish", card, "discard"])
        if card == D.ACADEMIC:
            stack.append(["academic"])
        else:
            start_face(s, p, card, ev)
    elif kind == "academic":
        stack.pop()
        target = s["discard"][m["target"]][-1]
        ev.append({"type": "copy", "seat": p, "target": m["target"], "card": target})
        if target != D.ACADEMIC:  # F7.4: copying an Academic does nothing
            # A15: the copied card's value is used, the Academic has none of its own;
            # A16: self-references of the copy (Retire) apply to the Academic itself
            start_face(s, p, target, ev)
    elif kind == "nav":
        if t == "done":
            stack.pop()
            return
        frame[1] -= 1
        if frame[1] == 0:
            stack.pop()
        i, cell = m["skiff"], m["cell"]
        s["skiffs"][p][i] = cell
        if cell == s["home"][p] and m.get("unload", True):
            for c in range(4):  # F21.4, F13.1: cargo into the Reserve; the move goes on
                s["reserve"][p][c] += s["cargo"][p][i][c]
                s["cargo"][p][i][c] = 0
    elif kind == "influence":
        g = GN.index(m["guild"])
        frame[1] -= 1
        frame[3].append(g)
        if frame[1] == 0:
            stack.pop()
        if (s["wheel"][p][g] + 1) % D.WHEEL_SPACES == D.ARROW_SPACE:
            stack.append(["arrow", g])  # F8.3: available on every lap (A18)
        else:
            step_wheel(s, p, g, False, ev)
    elif kind == "arrow":
        stack.pop()
        step_wheel(s, p, frame[1], m["skip"], ev)
    elif kind == "resource_any":
        stack.pop()
        s["reserve"][p][CN.index(m["colour"])] += 1
    elif kind == "recruit_any":
        stack.pop()
        recruit(s, p, GN.index(m["guild"]), ev)
    elif kind == "seal_any":
        stack.pop()
        place_seal(s, p, GN.index(m["guild"]), ev)
    elif kind == "trans":
        if t == "done":
            _end_transactions(s, p, ev)
            return
        frame[1] -= 1
        if t == "buy_skiff":
            s["coins"][p] -= D.SCORING["skiff_price"]
            s["skiffs"][p][s["skiffs"][p].index(-1)] = s["home"][p]
        elif t == "objective":
            buy_objective(s, p, m["stack"], m["site"], ev)
        elif t == "buy":
            c = CN.index(m["colour"])
            s["coins"][p] -= price(s, c)  # F12.2: the price as it stood (adjusted at the end)
            s["reserve"][p][c] += 1  # A21: bought Resources go to the Reserve
            s["trade"][0][c] += 1
        elif t == "sell":
            c = CN.index(m["colour"])
            s["coins"][p] += price(s, c)
            s["reserve"][p][c] -= 1
            s["trade"][1][c] += 1
        if frame[1] == 0:
            # the stack may have grown above the frame (none of these push): pop it
            _end_transactions(s, p, ev)
    elif kind == "place":
        if t == "done":
            _on_empty(s, p, frame, ev)
            return
        frame[1].remove(m["tile"])
        frame[2] -= 1
        stack.append(["place_at", m["tile"]])
    elif kind == "place_at":
        stack.pop()
        if t == "skip":
            return_tile(s, frame[1])
            below = stack[-1]
            if below[0] == "place":
                below[2] += 1  # a declined tile does not use up a placement
            return
        place_tile(s, p, frame[1], m["cell"], m["rot"], ev)
    elif kind == "build":
        if t == "done":
            stack.pop()
            return
        tile = m["tile"]
        frame[1] -= 1
        for c, k in B.sky(tile)["cost"].items():
            s["reserve"][p][CN.index(c)] -= k  # F18.1 step 2
        stack.append(["build_at", tile])
    elif kind == "build_at":
        stack.pop()
        build_tile(s, p, frame[1], m["cell"], m["rot"], ev)
    elif kind == "district":
        stack.pop()
        score_district(s, p, frame[1], CN.index(m["colour"]), ev)
    elif kind == "sonar":
        stack.pop()
        if m["advance"]:
            advance_sonar(s, p, ev)
    elif kind == "dive":
        resolve_dive(s, p, frame, m["icon"], m.get("kind", ""), ev)
    elif kind == "cargo":
        stack.pop()
        load_cargo(s, p, m["skiff"], ev)
    elif kind == "deplete":
        stack.pop()
        deplete(s, p, m["cell"], ev)
    elif kind == "research":
        dice = frame[1]
        if t == "done":
            frame[2] = 0
        elif t == "reroll":
            frame[2] -= 1
            dice[m["die"]][1] = randbelow(s, 6)
            ev.append({"type": "reroll", "seat": p, "die": m["die"],
                       "face": D.RESEARCH_DICE[dice[m["die"]][0]][dice[m["die"]][1]]})
        elif t == "wild":
            dice[m["die"]][2] = GN.index(m["guild"])  # F23.6: one colour, counted once
    elif kind == "dial":
        stack.pop()
        if t == "dial":
            g = GN.index(m["guild"])
            s["dials"][g] = min(D.DIAL_MAX, s["dials"][g] + 1)  # F20.7: at most 4
            ev.append({"type": "dial", "seat": p, "guild": GN[g], "value": s["dials"][g]})
    elif kind == "switch":
        stack.pop()
        if t == "join":
            join_flotilla(s, p, ev)
    elif kind == "retire":
        stack.pop()
        if t == "retire":
            finish_frame(s)[2] = "retire"
            stack.append(["ops", [list(op) for op in frame[1]], 0])
    elif kind == "discard_type":
        card = m.get("card")
        if t == "done":
            stack.pop()
            return
        frame[2] -= 1
        if frame[2] == 0:
            stack.pop()
        s["hand"][p].remove(card)
        s["discard"][p].append(card)  # F5.8: under the card being played
        stack.append(["ops", [list(op) for op in frame[3]], 0])
