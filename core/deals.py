"""Deals no participant can know, and anyone can check afterwards.

A game's *effective seed* decides every shuffle, draw and roll. If a client chose it, that
client could run `new_game(options, seed)` offline and read every hidden card. So, unless a
client asks for an unranked game (fully reproducible from its seed, for analysis and tests),
the server mixes the client's seed (if any) with a fresh secret nonce of its own:

    seed = first 53 bits of sha256("bgb-deal:<client seed or ->:<nonce hex>")

and publishes at creation only a commitment to it,

    commitment = sha256("bgb-seed:<seed>:<salt hex>")

with a random salt (the seed alone has 53 bits: hashing it bare could be brute-forced).
When the game ends the server reveals seed, salt, client seed and nonce: anyone can then
check the commitment, check that the client's seed was mixed in, and replay the game from
the seed and the move log (`bgb verify GAME`).

Pure functions only; the API draws the randomness and stores the deal.
"""

from __future__ import annotations

import hashlib
from dataclasses import asdict, dataclass
from typing import Any

SEED_BITS = 53  # exact in every JSON implementation
SCHEME = "seed = sha256('bgb-deal:<client_seed or ->:<server_nonce>')[:53 bits]; " \
         "commitment = sha256('bgb-seed:<seed>:<salt>')"


@dataclass(frozen=True)
class Deal:
    """Everything that decided a game's seed; secret until the game ends."""

    seed: int
    salt: str
    client_seed: int | None
    server_nonce: str | None  # None for an unranked game: the client's seed is used as is
    unranked: bool

    @property
    def commitment(self) -> str:
        """The published hash of the seed (and salt)."""
        return commitment(self.seed, self.salt)

    def to_json(self) -> dict[str, Any]:
        """The deal as stored (and as revealed once the game is over)."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Deal:
        """A deal from `to_json`."""
        return cls(int(data["seed"]), str(data["salt"]), data.get("client_seed"),
                   data.get("server_nonce"), bool(data.get("unranked", False)))


def mixed_seed(client_seed: int | None, server_nonce: str) -> int:
    """The effective seed of a ranked game: the client's seed mixed with the server's nonce."""
    text = f"bgb-deal:{'-' if client_seed is None else client_seed}:{server_nonce}"
    digest = hashlib.sha256(text.encode("ascii")).digest()
    return int.from_bytes(digest[:8], "big") >> (64 - SEED_BITS)


def commitment(seed: int, salt: str) -> str:
    """sha256 of the seed and salt, hex."""
    return hashlib.sha256(f"bgb-seed:{seed}:{salt}".encode("ascii")).hexdigest()


def make_deal(client_seed: int | None, unranked: bool, server_nonce: str, salt: str,
              fallback_seed: int) -> Deal:
    """The deal of a new game. `server_nonce`, `salt` and `fallback_seed` (the seed of an
    unranked game whose client gave none) are fresh randomness from the caller."""
    if unranked:
        seed = fallback_seed if client_seed is None else client_seed
        return Deal(seed, salt, client_seed, None, True)
    return Deal(mixed_seed(client_seed, server_nonce), salt, client_seed, server_nonce, False)


def check_revealed(published_commitment: str, revealed: dict[str, Any]) -> list[str]:
    """What is wrong with a revealed deal (empty when it holds): the commitment matches the
    seed and salt, and a ranked game's seed is the client's seed mixed with the nonce."""
    faults: list[str] = []
    deal = Deal.from_json(revealed)
    if deal.commitment != published_commitment:
        faults.append("the revealed seed and salt do not match the published commitment")
    if not deal.unranked:
        if deal.server_nonce is None:
            faults.append("a ranked deal without a server nonce")
        elif mixed_seed(deal.client_seed, deal.server_nonce) != deal.seed:
            faults.append("the seed is not the client's seed mixed with the server's nonce")
    return faults
