"""Darwin's Journey's move labels and event descriptions in English or Brazilian Portuguese.

Outside the rules: a move or event is read by its canonical fields (its `type` and
parameters) and written as a gettext message with parameters, whose Portuguese text is in
`locales/pt_BR/LC_MESSAGES/darwins_journey.po` (the rulebook's terms: Trabalhador, Selo de
Cera, Lupa, Diário...). The few numbers a move carries only in its English label (the coins
a placement costs) are read from that label. English is written from the same messages: the
engine's own labels name locations by their ids ("explore.1").

    label(move, "pt_BR")      -> "Trabalhador 1 em Exploração 1, pagando 3 Moedas"
    describe(event, "pt_BR")  -> "Jogador 2: +3 Moedas"
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from core.texts import Catalog, Gettext, _noop, plural

LOCALES_DIR = Path(__file__).parent / "locales"
DOMAIN = "darwins_journey"
LOCALES = ("en", "pt_BR")

CATALOG = Catalog(LOCALES_DIR, DOMAIN)
AUTOMA = _noop("Alfred")  # the solo opponent, as the rulebook names him


def automa_name(locale: str) -> str:
    """The automa's name in `locale` (for the seat a solo game gives it)."""
    return CATALOG.gettext(locale)(AUTOMA)


# -- the game's words --------------------------------------------------------------------------


def colour(code: str, _: Gettext) -> str:
    """A seal's colour letter as a word."""
    return {"G": _("green"), "B": _("blue"), "R": _("red"), "Y": _("yellow"),
            "P": _("purple")}.get(code, code)


def specimen(k: int, _: Gettext) -> str:
    """Specimen 0..15 (colour k // 4, kind k % 4): a message each, so that the colour
    agrees with the kind in Portuguese ("planta vermelha", "réptil vermelho")."""
    return (_("green reptile"), _("green plant"), _("green bird"), _("green fossil"),
            _("blue reptile"), _("blue plant"), _("blue bird"), _("blue fossil"),
            _("red reptile"), _("red plant"), _("red bird"), _("red fossil"),
            _("yellow reptile"), _("yellow plant"), _("yellow bird"), _("yellow fossil"))[k]


def location(place: str, _: Gettext) -> str:
    """"explore.2" -> "Exploration 2"; "special.0" -> "Special action 1"."""
    page, _dot, number = place.partition(".")
    names = {"explore": _("Exploration"), "navigate": _("Navigation"),
             "correspond": _("Correspondence"), "academy": _("Academy"),
             "special": _("Special action"), "unlock": _("Unlock a lens"),
             "deliver": _("Museum: deliver"), "research": _("Museum: research"),
             "turn_order": _("Turn order")}
    name = names.get(page, place)
    if number.isdigit():
        return f"{name} {int(number) + 1 if page == 'special' else int(number)}"
    return name


def space(code: str, _: Gettext) -> str:
    """"O6" -> "ocean 6", "IB4" -> "island B 4"."""
    if code.startswith("O") and code[1:].isdigit():
        return _("ocean {n}").format(n=code[1:])
    if code.startswith("I") and len(code) > 2:
        return _("island {island} {n}").format(island=code[1], n=code[2:])
    return code


def slot(k: int | str, _: Gettext) -> str:
    """Objective slot 0-9 (or "silver3") -> "silver space 3"."""
    if isinstance(k, str):
        kind, number = k.rstrip("0123456789"), k[len(k.rstrip("0123456789")):]
        k = (0 if kind == "silver" else 5) + int(number) - 1
    if k < 5:
        return _("silver space {n}").format(n=k + 1)
    return _("gold space {n}").format(n=k - 4)


_COST = r"\((\d+) coins?\)$"  # a label's closing cost, "(3 coins)" or "(1 coin)"


def _number(label: str, pattern: str) -> str:
    found = re.search(pattern, label)
    return found.group(1) if found else "0"


# -- data actions (the "Do: ..." and "Choose ..." moves) ----------------------------------------

# the words of a counted data action ("coins 2"): (singular, plural)
_COUNTED_WORDS = {"coins": (_noop("{n} coin"), _noop("{n} coins")),
                  "vp": (_noop("{n} point"), _noop("{n} points"))}
_ACTION_WORDS = {"tk": _noop("{n} temporary knowledge"), "evo": _noop("evolution {n}"),
                 "deliver": _noop("deliver a specimen"),
                 "research_museum": _noop("research a specimen of the museum"),
                 "research_any": _noop("research any specimen"),
                 "research_island": _noop("research a specimen of an island"),
                 "turn_order": _noop("turn order"), "objective": _noop("take an objective"),
                 "free_seal": _noop("a free seal"), "place_explorer": _noop("a new explorer"),
                 "repeat_delivery": _noop("deliver a specimen again"),
                 "tk_convert": _noop("convert knowledge"), "purple": _noop("a purple seal"),
                 "locked": _noop("perform a locked location"),
                 "auto_fulfil": _noop("fulfil an objective for free"),
                 "copy_crew": _noop("copy a crew card"), "reactivate": _noop("re-activate a tent"),
                 "move_to_beagle": _noop("ship up to the HMS Beagle")}


def _action_word(word: str, n: str | None, _: Gettext) -> str | None:
    """A one-word data action with its number ("coins 1" -> "1 coin"), if it is one."""
    if word in _COUNTED_WORDS:
        return _(plural(n or "", *_COUNTED_WORDS[word])).format(n=n)
    if word in _ACTION_WORDS:
        return _(_ACTION_WORDS[word]).format(n=n)
    return None


def action_text(text: str, _: Gettext) -> str:
    """One of the engine's action texts ("explore up to 2 (1 extra stop)") translated."""
    if text.startswith("choose: "):
        options = text[len("choose: "):].split(" / ")
        return _("choose: {options}").format(options=" / ".join(
            ", ".join(action_text(part, _) for part in option.split(", ")) for option in options))
    patterns: list[tuple[str, Callable[[re.Match[str]], str]]] = [
        (r"(explore|navigate) up to (\d+)(?: \((\d+) extra stop\))?", lambda m: (
            (_("explore up to {n}") if m[1] == "explore" else _("navigate up to {n}"))
            .format(n=m[2]) + (_(" ({n} extra stop)").format(n=m[3]) if m[3] else ""))),
        (r"up to (\d+) stamps?( to any envelopes)?", lambda m: (
            plural(m[1], _("up to {n} stamp to any envelopes"),
                   _("up to {n} stamps to any envelopes")) if m[2]
            else plural(m[1], _("up to {n} stamp"), _("up to {n} stamps"))).format(n=m[1])),
        (r"academy(?:, (\d+) coins? less)?(?:, (\d+) extra seal)?", lambda m: _("academy") + (
            plural(m[1], _(", {n} coin less"), _(", {n} coins less")).format(n=m[1])
            if m[1] else "") + (
            _(", {n} extra seal").format(n=m[2]) if m[2] else "")),
        (r"unlock a lens location( for free)?", lambda m: (
            _("unlock a lens location for free") if m[1] else _("unlock a lens location"))),
        (r"tent on campsite (\w+)", lambda m: _("tent on campsite {campsite}").format(
            campsite=space(m[1], _))),
        (r"(\w+)(?: (-?\d+))?", lambda m: _action_word(m[1], m[2], _) or m[0]),
    ]
    for pattern, write in patterns:
        matched = re.fullmatch(pattern, text)
        if matched:
            return write(matched)
    return text


# -- moves -------------------------------------------------------------------------------------


def _place(move: dict[str, Any], _: Gettext) -> str:
    text = _("Worker {worker} to {location}").format(
        worker=move["worker"] + 1, location=location(move["location"], _))
    if move.get("knowledge"):
        text += _(", spending {k} knowledge").format(k=move["knowledge"])
    pay = _number(move.get("label", ""), r"paying (\d+) coins?")
    if pay != "0":
        text += plural(pay, _(", paying {pay} coin"), _(", paying {pay} coins")).format(pay=pay)
    return text


def _fulfil(move: dict[str, Any], _: Gettext, free: bool) -> str:
    into = " into " in move.get("label", "")
    if free:
        message = (_("Fulfil objective {tile} into {slot} for free") if into
                   else _("Fulfil objective {tile} in {slot} for free"))
    else:
        message = (_("Fulfil objective {tile} into {slot}") if into
                   else _("Fulfil objective {tile} in {slot}"))
    return message.format(tile=move["tile"], slot=slot(move["slot"], _))


def _alfred(move: dict[str, Any], _: Gettext) -> str:
    kind = move.get("kind")
    card, worker = move.get("card"), move.get("worker")
    if kind == "rest":
        return _("Alfred (card {card}): worker {worker} rests (7 coins, bonus track +2)").format(
            card=card, worker=worker)
    if kind == "main_diary":
        text = _("Alfred (card {card}): worker {worker} to {location}").format(
            card=card, worker=worker, location=location(move["location"], _))
        if move.get("knowledge"):
            text += _(", {n} temporary knowledge").format(n=move["knowledge"])
        if move.get("penalty"):
            text += _(", penalty {n}").format(n=move["penalty"])
        return text
    if kind == "special_diary":
        return _("Alfred (card {card}): worker {worker} to {location} (bonus track +4)").format(
            card=card, worker=worker, location=location(move["location"], _))
    if kind == "small_diary":
        return _("Alfred (card {card}): worker {worker} unlocks {location}").format(
            card=card, worker=worker, location=location(move["unlock"], _))
    return _("Alfred (card {card}): worker {worker} delivers specimens").format(
        card=card, worker=worker)


def _move_text(move: dict[str, Any], _: Gettext) -> str | None:
    kind = move.get("type")
    label = str(move.get("label") or "")
    fixed = {"skip": _("Skip this action"), "done": _("Do none of the remaining actions"),
             "end_turn": _("End the turn"), "pass": _("Fulfil nothing more now"),
             "alfred_draw": _("Alfred draws an action card")}
    if kind in fixed:
        return fixed[kind]
    if kind == "place":
        return _place(move, _)
    if kind == "draft":
        return _("Keep crew card {card}").format(card=move["card"])
    if kind == "pair":
        return _("Take starting objectives {silver} and {gold}").format(
            silver=move["silver"], gold=move["gold"])
    if kind == "fulfil_objective":
        return _fulfil(move, _, free=False)
    if kind == "auto_fulfil":
        return _fulfil(move, _, free=True)
    if kind == "fulfil_crew":
        return _("Fulfil crew card {card} with worker {worker}").format(
            card=move["card"], worker=move["worker"] + 1)
    if kind == "seal":
        sides = (_("left"), _("middle"), _("right"))
        cost = _number(label, _COST)
        return plural(cost, _("Take a {colour} seal from scroll {scroll} ({side}) onto worker "
                              "{worker} ({cost} coin)"),
                      _("Take a {colour} seal from scroll {scroll} ({side}) onto worker "
                        "{worker} ({cost} coins)")).format(
            colour=colour(move["colour"], _), scroll=move["scroll"] + 1,
            side=sides[move["position"]], worker=move["worker"] + 1, cost=cost)
    if kind == "objective":
        if move.get("slot", -1) < 0:
            return _("Take objective {tile} into the reserve").format(tile=move["tile"])
        return _("Take objective {tile} onto {slot}").format(tile=move["tile"],
                                                             slot=slot(move["slot"], _))
    if kind == "research":
        message = (_("Research from the museum the {specimen}") if "museum" in label
                   else _("Research the {specimen}"))
        return message.format(specimen=specimen(move["specimen"], _))
    if kind == "deliver":
        return _("Deliver the {specimen}").format(specimen=specimen(move["specimen"], _))
    if kind == "tent":
        cost = _number(label, _COST)
        return plural(cost, _("Put a tent on campsite {campsite}, slot {slot} ({cost} coin)"),
                      _("Put a tent on campsite {campsite}, slot {slot} ({cost} coins)")).format(
            campsite=space(move["campsite"], _), slot=move["slot"] + 1, cost=cost)
    if kind == "explore":
        message = (_("Explorer on island {island} stops at {space} and goes on")
                   if move.get("stop") else _("Explorer on island {island} to {space}"))
        return message.format(island=move["island"], space=space(move["space"], _))
    if kind == "navigate":
        message = (_("Ship stops at {space} and goes on") if move.get("stop")
                   else _("Ship to {space}"))
        return message.format(space=space(move["space"], _))
    if kind == "stamp":
        if move["stack"] == 3:
            return _("Stamp from the tray to envelope {envelope}").format(
                envelope=move["envelope"] + 1)
        return _("Stamp from stack {stack} to envelope {envelope}").format(
            stack=move["stack"] + 1, envelope=move["envelope"] + 1)
    if kind == "reactivate":
        return _("Re-activate the tent on campsite {campsite}, slot {slot}").format(
            campsite=space(move["campsite"], _), slot=move["slot"] + 1)
    if kind == "explorer":
        return _("Put an explorer on island {island}").format(island=move["island"])
    if kind == "locked":
        return _("Perform locked location {location}").format(
            location=location(move["location"], _))
    if kind == "unlock":
        cost = _number(label, _COST)
        return plural(cost, _("Unlock {location} ({cost} coin)"),
                      _("Unlock {location} ({cost} coins)")).format(
            location=location(move["location"], _), cost=cost)
    if kind == "beagle":
        return _("Move the ship up to the HMS Beagle ({space})").format(
            space=space(_number(label, r"\((\w+)\)$"), _))
    if kind == "purple":
        return _("Purple seal onto worker {worker}").format(worker=move["worker"] + 1)
    if kind == "convert":
        n = _number(label, r"into (\d+)")
        if move.get("into") == "coins":
            return plural(n, _("1 knowledge into {n} coin"),
                          _("1 knowledge into {n} coins")).format(n=n)
        return plural(n, _("1 knowledge into {n} point"),
                      _("1 knowledge into {n} points")).format(n=n)
    if kind == "choose":
        return _("Choose {what}").format(what=action_text(label.removeprefix("Choose "), _))
    if kind == "copy":
        return _("Copy crew card {card}").format(card=move["card"])
    if kind == "act":
        return _("Do: {what}").format(what=action_text(label.removeprefix("Do: "), _))
    if kind == "alfred":
        return _alfred(move, _)
    return None


def label(move: dict[str, Any], locale: str) -> str:
    """The move's label in `locale`, written from its fields (the engine's own label for a
    move this module has no message for)."""
    english = str(move.get("label") or move.get("type") or "")
    try:
        text = _move_text(move, CATALOG.gettext(locale))
    except (KeyError, TypeError, ValueError, IndexError):
        text = None
    return text or english


# -- the view's catalog -------------------------------------------------------------------------


def catalog(texts: dict[str, Any], locale: str) -> dict[str, Any]:
    """A view's `catalog` with its card and tile texts and objective requirements in
    `locale` (a copy: the view's own catalog is shared between views)."""
    if locale == "en":
        return texts
    # The texts are data (components.json, views._need_text), not messages of this module:
    # their ids are in the catalog all the same (tests/api/test_i18n.py checks each).
    data_text = CATALOG.gettext(locale)
    out = dict(texts)
    for kind in ("special", "correspondence", "beagle_goals", "crew"):
        out[kind] = [{**entry, "text": data_text(entry["text"])} for entry in texts.get(kind, [])]
    out["objectives"] = [{**entry, "needs": [_need(need, data_text) for need in entry["needs"]]}
                         for entry in texts.get("objectives", [])]
    return out


def _need(need: str, data_text: Gettext) -> str:
    """"2 red wax seal(s)" in the catalog's language, its number kept (the message is
    "{n} red wax seal(s)")."""
    count, _space, rest = need.partition(" ")
    if count.isdigit():
        return data_text("{n} " + rest).format(n=count)
    return data_text(need)


# -- events ------------------------------------------------------------------------------------


def _seat(seat: Any, _: Gettext, names: dict[int, str] | None = None) -> str:
    """A seat by its given name (the reader's "You", the automa's "Alfred"), else "Player n"."""
    if not isinstance(seat, int):
        return _("Alfred")
    return (names or {}).get(seat) or _("Player {n}").format(n=seat + 1)


def describe(event: dict[str, Any], locale: str = "en",
             seat_names: dict[int, str] | None = None) -> str:
    """One event in words, in `locale`; seats named by `seat_names` ("Player 2" otherwise)."""
    _ = CATALOG.gettext(locale)
    seat = event.get("seat")
    who = _seat(seat, _, seat_names)
    kind = event.get("type")
    n = event.get("n")
    if event.get("redacted"):
        return _("{seat}: a hidden event").format(seat=who)
    try:
        text = _event_text(kind, event, who, n, _, seat_names or {})
    except (KeyError, TypeError, ValueError, IndexError):
        text = None
    return text or str(kind)


def _signed(n: Any) -> str:
    return f"{n:+d}" if isinstance(n, int) else str(n)


def _event_text(kind: Any, event: dict[str, Any], who: str, n: Any, _: Gettext,
                names: dict[int, str]) -> str | None:
    phases = {"draft": _("crew card draft"), "start_objectives": _("starting objectives"),
              "actions": _("action phase"), "rewards": _("reward phase"), "over": _("game over")}
    simple: dict[str, Callable[[], str]] = {
        "coins": lambda: plural(n, _("{seat}: {n} coin"), _("{seat}: {n} coins")).format(
            seat=who, n=_signed(n)),
        "vp": lambda: plural(n, _("{seat}: {n} point"), _("{seat}: {n} points")).format(
            seat=who, n=_signed(n)),
        "evolution": lambda: _("{seat}: evolution {n}").format(seat=who, n=_signed(n)),
        "knowledge": lambda: _("{seat}: {n} temporary knowledge").format(seat=who, n=_signed(n)),
        "place": lambda: _("{seat}: worker {worker} to {location}").format(
            seat=who, worker=_worker(event), location=location(event["location"], _)),
        "navigate": lambda: _("{seat}: ship to {space}").format(
            seat=who, space=space(event["space"], _)),
        "explore": lambda: _("{seat}: explorer to {space}").format(
            seat=who, space=space(event["space"], _)),
        "explorer": lambda: _("{seat}: a new explorer on island {island}").format(
            seat=who, island=event["island"]),
        "research": lambda: _("{seat}: researched the {specimen}").format(
            seat=who, specimen=specimen(event["specimen"], _)),
        "deliver": lambda: _("{seat}: delivered the {specimen} to the museum").format(
            seat=who, specimen=specimen(event["specimen"], _)),
        "seal": lambda: _("{seat}: {colour} seal on worker {worker}").format(
            seat=who, colour=colour(event["colour"], _), worker=_worker(event)),
        "stamp": lambda: _("{seat}: a stamp on envelope {envelope}").format(
            seat=who, envelope=event["envelope"] + 1),
        "stamps": lambda: plural(n, _("{seat}: {n} stamp on envelope {envelope}"),
                                 _("{seat}: {n} stamps on envelope {envelope}")).format(
            seat=who, n=n, envelope=event["envelope"] + 1),
        "stamps_discarded": lambda: plural(
            n, _("{seat}: {n} stamp discarded from envelope {envelope}"),
            _("{seat}: {n} stamps discarded from envelope {envelope}")).format(
            seat=who, n=n, envelope=event["envelope"] + 1),
        "stack_emptied": lambda: _("{seat}: stamp stack {stack} emptied").format(
            seat=who, stack=event["stack"] + 1),
        "unlock": lambda: _("{seat}: unlocked {location}").format(
            seat=who, location=location(event["location"], _)),
        "locked_performed": lambda: _("{seat}: performed the locked location {location}").format(
            seat=who, location=location(event["location"], _)),
        "tent": lambda: _("{seat}: tent on the campsite at {space}").format(
            seat=who, space=space(event["campsite"], _)),
        "tent_reactivated": lambda: _("{seat}: a tent re-activated").format(seat=who),
        "ribbon": lambda: _("{seat}: golden ribbon at {space}").format(
            seat=who, space=space(event["space"], _)),
        "beagle_goal": lambda: plural(
            event["points"], _("{seat}: Beagle goal, {points} point (delay {delay})"),
            _("{seat}: Beagle goal, {points} points (delay {delay})")).format(
            seat=who, points=event["points"], delay=event["delay"]),
        "draft": lambda: _("{seat}: kept crew card {card}").format(seat=who, card=event["card"]),
        "drafted": lambda: _("{seat}: chose a crew card").format(seat=who),
        "crew_revealed": lambda: _("{seat}: crew cards {cards}").format(
            seat=who, cards=", ".join(str(c) for c in event["cards"])),
        "crew_fulfilled": lambda: _("{seat}: crew card {card} fulfilled").format(
            seat=who, card=event["card"]),
        "starting_objectives": lambda: _("{seat}: starting objectives {silver} and "
                                         "{gold}").format(seat=who, silver=event["silver"],
                                                          gold=event["gold"]),
        "objective_taken": lambda: _("{seat}: took objective {tile}").format(
            seat=who, tile=event["tile"]),
        "objective_fulfilled": lambda: _("{seat}: fulfilled objective {tile} ({slot})").format(
            seat=who, tile=event["tile"], slot=slot(event["slot"], _)),
        "worker5": lambda: _("{seat}: gains the fifth worker").format(seat=who),
        "phase": lambda: _("Round {round}: {phase}").format(
            round=event["round"], phase=phases.get(event["phase"], event["phase"])),
        "majority": lambda: _("Envelope {envelope}: first {first}, second {second}").format(
            envelope=event["envelope"] + 1, first=_seats(event["first"], _, names),
            second=_seats(event["second"], _, names)),
        "turn_order": lambda: _("Turn order: {order}").format(
            order=_seats(event["order"], _, names)),
        "game_over": lambda: _("Game over"),
        "alfred_card": lambda: _("Alfred draws action card {card}").format(card=event["card"]),
        "alfred_rest": lambda: _("Alfred rests worker {worker}").format(
            worker="ABCD"[event["worker"]]),
        "alfred_bonus": lambda: _("Alfred: bonus track +{steps} (space {space})").format(
            steps=event["steps"], space=event["space"]),
        "alfred_bonus_card": lambda: _("Alfred: bonus card {card} (round {round})").format(
            card=event["card"], round=event["round"]),
        "alfred_lap": lambda: _("Alfred completes a lap of the bonus track"),
        "alfred_reshuffle": lambda: _("Alfred shuffles his action cards"),
        "alfred_discard_objective": lambda: _("Alfred discards objective {tile}").format(
            tile=event["objective"]),
        "alfred_effect": lambda: _("Alfred: bonus effect {effect}").format(
            effect=_(_ALFRED_EFFECTS.get(event["effect"], event["effect"]))),
    }
    write = simple.get(str(kind))
    return write() if write else None


def _worker(event: dict[str, Any]) -> str:
    index = event.get("worker")
    return str(index + 1) if isinstance(index, int) else str(index)


def _seats(seats: list[int], _: Gettext, names: dict[int, str]) -> str:
    return ", ".join(_seat(s, _, names) for s in seats) or _("nobody")


# Alfred's permanent effects (alfred.py), as the player's objectives that grant them read.
_ALFRED_EFFECTS = {"free_scrolls": _noop("no scroll costs at the Academy"),
                   "delay_cap": _noop("each Beagle delay costs at most 2 points")}
