"""Encyclopedia's move labels, event descriptions and catalog texts in English or Portuguese.

Outside the rules. A move's label is the engine's English text, made from a fixed message
("Take the {die} from the {space} space"): its Portuguese is that message's text in
`locales/pt_BR/LC_MESSAGES/encyclopedia.po` with the values translated in turn (an animal, an
expert, a continent). An event is written from its fields as a gettext message. The terms are
the Portuguese rulebook's (Ficha de Expedição, Selo Real, Especialista, Embaixada, Publicação...).

    label(move, "pt_BR")                -> "Pegar o seu dado Ásia 5 (do seu espaço 2 moedas)"
    describe(event, "pt_BR")            -> "Jogador 1: pesquisou o tipo II de Porco-da-terra"
    catalog(view["catalog"], "pt_BR")   -> the view's catalog with its texts in Portuguese
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from core.encyclopedia.data import DATA
from core.texts import Catalog, Gettext, _noop, plural, seat_name

CATALOG = Catalog(Path(__file__).parent / "locales", "encyclopedia")
LOCALES = ("en", "pt_BR")
AUTOMA = _noop("AI")  # the solo opponent, as the rulebook names it ("a IA")


def automa_name(locale: str) -> str:
    """The automa's name in `locale` (for the seat a solo game gives it)."""
    return CATALOG.gettext(locale)(AUTOMA)

# (singular, plural) of each reward kind
_REWARDS = {"coins": (_noop("{n} coin"), _noop("{n} coins")),
            "tokens": (_noop("{n} expedition token"), _noop("{n} expedition tokens")),
            "seals": (_noop("{n} royal seal"), _noop("{n} royal seals")),
            "vp": (_noop("{n} VP"), _noop("{n} VP")),
            "rep": (_noop("{n} reputation"), _noop("{n} reputation")),
            "animal": (_noop("{n} animal card"), _noop("{n} animal cards")),
            "expert": (_noop("{n} expert card"), _noop("{n} expert cards"))}
_ACTIONS = {"bank": _noop("Bank"), "embassy": _noop("Embassy"), "university": _noop("University"),
            "academy": _noop("Academy"), "expedition": _noop("Expedition"),
            "publish": _noop("Publish")}


# -- moves -------------------------------------------------------------------------------------


def label(move: dict[str, Any], locale: str) -> str:
    """The move's label in `locale` (the engine's own label in English); also the label an
    event of type "move" carries."""
    return CATALOG.label(move, locale)


# -- events ------------------------------------------------------------------------------------




def _continent(colour: int, _: Gettext) -> str:
    return _(DATA.colours[colour])


def _die(colour: int, value: int, _: Gettext) -> str:
    return _("{continent} {n}").format(continent=_continent(colour, _), n=value)


def _animal(card: int, _: Gettext) -> str:
    return _(DATA.animals[card].name)


def _reward(kind: str, amount: int, _: Gettext) -> str:
    """"2 coins", "1 animal card" (a reward of the reputation track or a die space)."""
    return _(plural(amount, *_REWARDS[kind])).format(n=amount)


def describe(event: dict[str, Any], locale: str = "en",
             seat_names: dict[int, str] | None = None) -> str:
    """One event in words, in `locale`; seats named by `seat_names` ("Player 2" otherwise)."""
    _ = CATALOG.gettext(locale)
    who = seat_name(event.get("seat"), _, seat_names)
    kind = str(event.get("type"))
    if event.get("redacted"):
        return _("{seat}: a hidden event").format(seat=who)
    try:
        write = _EVENTS.get(kind)
        text = write(event, who, _, seat_names, locale) if write else None
    except (KeyError, TypeError, ValueError, IndexError):
        text = None
    return text or kind


Writer = Callable[[dict[str, Any], str, Gettext, "dict[int, str] | None", str], str]


def _round(e: dict[str, Any], who: str, _: Gettext, names: Any, locale: str) -> str:
    return _("Round {round}: round tile “{text}”").format(
        round=e["round"], text=_(DATA.tile_texts[e["tile"]]))


def _publication(e: dict[str, Any], who: str, _: Gettext, names: Any, locale: str) -> str:
    cards = ", ".join(_animal(c, _) for c in e["cards"])
    if e.get("continental"):
        return _("{seat}: published from {cards}; also filed {extras} (Continental)").format(
            seat=who, cards=cards, extras=", ".join(_animal(c, _) for c in e["continental"]))
    return _("{seat}: published from {cards}").format(seat=who, cards=cards)


# The engine's label of a die taken from another player's board, which names them by number.
_TAKEN_FROM = re.compile(r"Take Player (\d+)'s (.+) \(they receive (.+)\)\Z")


def _move(e: dict[str, Any], who: str, _: Gettext, names: Any, locale: str) -> str:
    """The move an event repeats: its label, translated the way the move's is, except that a
    die taken from another board names its owner as the reader knows them ("You", "AI")."""
    taken = _TAKEN_FROM.match(str(e.get("label", "")))
    owner = (names or {}).get(int(taken[1]) - 1) if taken else None
    if taken and owner:
        return _("{seat}: took the {die} of {owner} (the owner gets {reward})").format(
            seat=who, die=CATALOG.translate(taken[2], locale), owner=owner,
            reward=CATALOG.translate(taken[3], locale))
    return f"{who}: {label(e, locale)}"


_EVENTS: dict[str, Writer] = {
    # the move an event repeats: its label, translated the way the move's is
    "move": lambda e, who, _, names, locale: _move(e, who, _, names, locale),
    "reputation_bonus": lambda e, who, _, names, locale: _(
        "{seat}: reputation bonus at space {space}: {reward}").format(
        seat=who, space=e["space"], reward=_reward(e["kind"], e["amount"], _)),
    "deck_animal": lambda e, who, _, names, locale: _(
        "{seat}: took {animal} from the animal deck").format(
        seat=who, animal=_animal(e["card"], _)),
    "deck_expert": lambda e, who, _, names, locale: _(
        "{seat}: took {expert} from the expert deck").format(
        seat=who, expert=_(DATA.experts[e["card"]].name)),
    "round": _round,
    "dice_drawn": lambda e, who, _, names, locale: _("{seat}: drew and rolled {dice}").format(
        seat=who, dice=", ".join(_die(colour, value, _) for _d, colour, value in e["dice"])),
    "round_end": lambda e, who, _, names, locale: _(
        "End of round {round}; first player: {first}").format(
        round=e["round"], first=seat_name(e["first"], _, names)),
    "game_over": lambda e, who, _, names, locale: _("Game over"),
    "reroll": lambda e, who, _, names, locale: _("{seat}: re-rolled a die: {die}").format(
        seat=who, die=_die(DATA.die_colour[e["die"]], e["value"], _)),
    # "{seat}: ..." rather than a verb after the seat: the reader's own seat may be "You".
    "owner_reward": lambda e, who, _, names, locale: _(
        "{seat} (owner of the die taken): {reward}").format(
        seat=who, reward=_reward(e["kind"], e["amount"], _)),
    "action": lambda e, who, _, names, locale: _("{seat}: {action} with {die}").format(
        seat=who, action=_(_ACTIONS.get(e["action"], e["action"])),
        die=_die(e["colour"], e["value"], _)),
    "colour_match": lambda e, who, _, names, locale: _(
        "{seat}: the expert matches the die's colour: +1 expedition token").format(seat=who),
    "research": lambda e, who, _, names, locale: _(
        "{seat}: researched type {type} of {animal}").format(
        seat=who, type=DATA.types[e["slot"]], animal=_animal(e["card"], _)),
    "published": lambda e, who, _, names, locale: _(
        "{seat}: published the type {type} cube of {animal}").format(
        seat=who, type=DATA.types[e["slot"]], animal=_animal(e["card"], _)),
    "publication": _publication,
}


# -- the view's catalog ------------------------------------------------------------------------


def catalog(texts: dict[str, Any], locale: str) -> dict[str, Any]:
    """A view's `catalog` with every text a person reads in `locale` (continents, die spaces,
    the round tile, animals and their categories, experts and their effects)."""
    if locale == "en":
        return texts
    _ = CATALOG.gettext(locale)
    out = dict(texts)
    out["colours"] = [_(name) for name in texts.get("colours", [])]
    out["spaces"] = [_(name) for name in texts.get("spaces", [])]
    if isinstance(texts.get("tile"), str):
        out["tile"] = _(texts["tile"])
    out["animals"] = {k: {**card, "name": _(card["name"]),
                          "categories": [_(c) for c in card["categories"]]}
                      for k, card in texts.get("animals", {}).items()}
    out["experts"] = {k: {**card, "name": _(card["name"]),
                          "text": CATALOG.translate(card["text"], locale)}
                      for k, card in texts.get("experts", {}).items()}
    return out
