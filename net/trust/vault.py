"""A client's fair-play secrets: sealed bids (amount, nonce) and shuffle seeds, kept until used.

A secret is written to disk (mode 0600, fsync'ed, renamed into place) before the
commitment that depends on it is sent, so a crash or a restart cannot lose a bid: the
client re-sends the reveal from disk when it is back.  The files live in
`<state dir>/secrets/` (the client's state dir, by default `<config dir>/state`), one per (game, auction or seed, seat); each is deleted once the
host has settled what it was for.  A client without a config dir (ephemeral keys, e.g.
the host's in-process stand-in bots) keeps them in memory: after a restart it could not
sign with the lost key anyway.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path

from modernart.net.durable import sync_directory
from modernart.net.trust.identity import private_temp_file


@dataclass(frozen=True)
class Secret:
    """What opens one commitment: a bid (kind "bid", auction > 0) or a seed (kind "seed")."""

    kind: str
    game: bytes
    auction: int  # 0 for a seed
    seat: int
    key: bytes  # the Ed25519 key that signed the commitment
    value: int  # the amount (0 for a seed)
    nonce: bytes  # the nonce, or the seed
    c: bytes  # the commitment it opens

    @property
    def name(self) -> str:
        return f"{self.game.hex()}-{self.kind}{self.auction}-s{self.seat}-{self.key.hex()[:16]}"

    def to_json(self) -> str:
        data = asdict(self)
        for k in ("game", "key", "nonce", "c"):
            data[k] = data[k].hex()
        return json.dumps(data)

    @classmethod
    def from_json(cls, text: str) -> "Secret":
        data = json.loads(text)
        for k in ("game", "key", "nonce", "c"):
            data[k] = bytes.fromhex(data[k])
        return cls(**data)


class Vault:
    """Secrets by name, on disk under `directory` (None: in memory only)."""

    def __init__(self, directory: str | os.PathLike | None) -> None:
        self.directory = Path(directory) / "secrets" if directory is not None else None
        self._memory: dict[str, Secret] = {}
        if self.directory is not None:
            self.directory.mkdir(parents=True, exist_ok=True, mode=0o700)

    def put(self, secret: Secret) -> None:
        """Store `secret` durably; returns only once it is on disk."""
        self._memory[secret.name] = secret
        if self.directory is None:
            return
        path = self.directory / f"{secret.name}.json"
        os.replace(private_temp_file(path, secret.to_json(), "ascii"), path)
        sync_directory(self.directory)  # the rename itself is durable too

    def find(self, kind: str, game: bytes, auction: int, key: bytes, seat: int | None = None) -> Secret | None:
        """The secret of this kind for (game, auction[, seat]) made with `key`, if any."""
        for secret in self.all(game):
            if (secret.kind, secret.auction, secret.key) == (kind, auction, key) and (
                seat is None or secret.seat == seat
            ):
                return secret
        return None

    def all(self, game: bytes) -> list[Secret]:
        if self.directory is not None:
            for path in self.directory.glob(f"{game.hex()}-*.json"):
                if path.stem not in self._memory:
                    try:
                        self._memory[path.stem] = Secret.from_json(path.read_text(encoding="ascii"))
                    except (OSError, ValueError, KeyError, TypeError):
                        continue  # unreadable: ignored (a reveal from it would fail anyway)
        return [s for s in self._memory.values() if s.game == game]

    def drop(self, secret: Secret) -> None:
        self._memory.pop(secret.name, None)
        if self.directory is not None:
            try:
                os.unlink(self.directory / f"{secret.name}.json")
            except FileNotFoundError:
                pass

    def drop_game(self, game: bytes) -> None:
        for secret in self.all(game):
            self.drop(secret)
