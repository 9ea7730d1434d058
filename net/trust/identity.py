"""Keys: the player's Ed25519 identity, CURVE transport keys, the host's keys; signing.

A player's keys live in the user's config directory (`$MODERNART_CONFIG_DIR`, else the
platform's, see net/user_dirs.py), one JSON file per identity,
mode 0600.  Seats are bound to the Ed25519 public key; the CURVE pair only secures the
transport.  Every signature covers a domain tag followed by exact bytes, so a signature
made for one purpose can never be replayed as another (the tags and the bodies they
cover: net/protocol/signed.py).
"""

from __future__ import annotations

import base64
import functools
import hashlib
import json
import os
import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Protocol, TypeVar

import zmq
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from zmq.utils import z85

from modernart.net import user_dirs
from modernart.net.durable import open_fd
from modernart.net.protocol import ProtocolError
from modernart.net.protocol.signed import HOST_KEY_DOMAIN, KEY_FPR_DOMAIN


def config_dir(override: str | os.PathLike | None = None) -> Path:
    """Where keys are kept: `override`, else the user's config directory (created with
    mode 0700 on first use)."""
    path = Path(override) if override is not None else user_dirs.config_dir()
    path.mkdir(parents=True, exist_ok=True, mode=0o700)
    return path


def private_temp_file(path: Path, text: str, encoding: str = "utf-8") -> Path:
    """`text` written to a new file beside `path`, mode 0600, synced to disk; its path.
    The caller moves it into place (replace, or link to never overwrite)."""
    tmp = path.with_suffix(f".tmp{os.getpid()}")
    fd = open_fd(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding=encoding) as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    return tmp


def b32(data: bytes) -> str:
    return base64.b32encode(data).decode("ascii").rstrip("=")


def unb32(text: str) -> bytes:
    text = text.strip().upper()
    return base64.b32decode(text + "=" * (-len(text) % 8))


def fingerprint(key: bytes) -> str:
    """A short, readable fingerprint of a public key, e.g. 'K3QF-7XZA'."""
    digest = b32(hashlib.sha256(KEY_FPR_DOMAIN + key).digest())
    return f"{digest[:4]}-{digest[4:8]}"


def join_code(host_curve_public: bytes) -> str:
    """The 60-bit code that authenticates a host key, shown as 'XXXX-XXXX-XXXX'."""
    digest = b32(hashlib.sha256(HOST_KEY_DOMAIN + host_curve_public).digest())[:12]
    return f"{digest[:4]}-{digest[4:8]}-{digest[8:12]}"


def normalise_code(code: str) -> str:
    """Typed join codes are case-insensitive; 0, 1 and 8 are read as O, I and B."""
    text = code.strip().upper().replace("-", "").replace(" ", "")
    text = text.translate(str.maketrans("018", "OIB"))
    return f"{text[:4]}-{text[4:8]}-{text[8:12]}" if len(text) == 12 else text


@functools.lru_cache(maxsize=4096)
def _public_key(vk: bytes) -> Ed25519PublicKey:
    """The parsed key for `vk` (parsed once: a game checks the same few keys thousands of times)."""
    return Ed25519PublicKey.from_public_bytes(vk)


#: How many verified signatures a process remembers (a few KiB each at most: key, signature
#: and the exact signed bytes); the oldest is forgotten first
VERIFIED_MAX = 4096
_verified: OrderedDict[tuple[bytes, bytes, bytes], None] = OrderedDict()
_verified_lock = threading.Lock()


def verify(vk: bytes, tag: bytes, data: bytes, sig: bytes) -> bool:
    """Whether `sig` is `vk`'s Ed25519 signature of `tag + data`.

    Each signature is checked once per process: the clients of one process (a bot host, a
    spectator beside a player, the benchmarks' clients) and a client checking an event's
    relayed signatures again get the remembered answer.  Only a signature that verified is
    remembered, keyed by the key, the signature and the exact signed bytes, so an answer is
    only ever reused for the very input that earned it (Ed25519 verification is a function
    of those three); a forgery is checked in full every time and changes nothing here.
    """
    try:
        message = tag + data
        entry = (vk, sig, message)
        with _verified_lock:  # an audit in an executor thread checks signatures too
            if entry in _verified:
                _verified.move_to_end(entry)
                return True
        _public_key(vk).verify(sig, message)
    except (InvalidSignature, ValueError, TypeError):  # TypeError: not bytes (or unhashable)
        return False
    with _verified_lock:
        _verified[entry] = None
        if len(_verified) > VERIFIED_MAX:
            _verified.popitem(last=False)
    return True


def forget_verified() -> None:
    """Forget every remembered verification: the next check of each signature is made in
    full (a benchmark timing a check as another process would make it)."""
    with _verified_lock:
        _verified.clear()


class _KeyedBody(Protocol):
    """A decoded signed body that names the key that signed it."""

    @property
    def key(self) -> bytes: ...


_Body = TypeVar("_Body", bound=_KeyedBody)


def signed(tag: bytes, body: bytes, sig: bytes, decode: Callable[[bytes], _Body]) -> _Body:
    """Decode a signed body after checking the signature of the key it names.

    The key is taken from the decoded body (its `key`), but the signature is checked on
    the exact received bytes; the caller still checks that the key may speak for the seat.
    """
    value = decode(body)
    if not verify(value.key, tag, body, sig):
        raise ProtocolError("bad_signature", "the signature does not verify with the key the body names")
    return value


def new_nonce() -> bytes:
    """A fresh 256-bit nonce (or seed)."""
    return secrets.token_bytes(32)


@dataclass(frozen=True)
class Keys:
    """One Ed25519 signing key plus one CURVE key pair (z85 bytes, as pyzmq wants them)."""

    signing: Ed25519PrivateKey
    curve_public: bytes
    curve_secret: bytes

    @functools.cached_property
    def vk(self) -> bytes:
        """The Ed25519 public key (derived once: a client names its key after every event)."""
        return self.signing.public_key().public_bytes_raw()

    @property
    def curve_public_raw(self) -> bytes:
        return z85.decode(self.curve_public)

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.vk)

    def sign(self, tag: bytes, data: bytes) -> bytes:
        return self.signing.sign(tag + data)

    @classmethod
    def generate(cls) -> "Keys":
        public, secret = zmq.curve_keypair()
        return cls(Ed25519PrivateKey.generate(), public, secret)

    def to_json(self) -> str:
        seed = self.signing.private_bytes_raw().hex()
        return json.dumps({"version": 1, "ed25519": seed, "curve_secret": self.curve_secret.decode("ascii")})

    @classmethod
    def from_json(cls, text: str) -> "Keys":
        data = json.loads(text)
        if not isinstance(data, dict) or data.get("version") != 1:
            raise ValueError("not a modernart key file")
        signing = Ed25519PrivateKey.from_private_bytes(bytes.fromhex(data["ed25519"]))
        secret = data["curve_secret"].encode("ascii")
        return cls(signing, zmq.curve_public(secret), secret)

    @classmethod
    def load_or_create(cls, directory: str | os.PathLike | None = None, name: str = "player") -> "Keys":
        """The identity `name` from the config dir, created (mode 0600) on first use."""
        path = config_dir(directory) / f"{name}.key"
        try:
            return cls.from_json(path.read_text(encoding="ascii"))
        except FileNotFoundError:
            pass
        except (ValueError, KeyError, TypeError) as exc:
            raise ValueError(f"key file {path} is corrupt: {exc}") from None
        keys = cls.generate()
        tmp = private_temp_file(path, keys.to_json(), "ascii")
        try:
            os.link(tmp, path)  # never overwrite a key another process just created
        except FileExistsError:
            os.unlink(tmp)
            return cls.from_json(path.read_text(encoding="ascii"))
        os.unlink(tmp)
        return keys


def check_zmq() -> None:
    """Refuse to run without CURVE or on a libzmq with known CURVE vulnerabilities."""
    if not zmq.has("curve"):
        raise RuntimeError("this pyzmq/libzmq has no CURVE support; install pyzmq from PyPI wheels")
    if zmq.zmq_version_info() < (4, 3, 2):
        raise RuntimeError(f"libzmq {zmq.zmq_version()} is too old (CVE-2019-13132); need 4.3.2 or later")
