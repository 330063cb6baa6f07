"""The players' seats at the table: ``seats.toml`` beside ``config.toml``.

    [seat.Ana]
    token = "…"               # at least 128 random bits, URL-safe
    characters = ["Ysolde"]

    [gm]
    token = "…"               # the GM's screen (?gm=), at least 128 random bits

A seat is a player's place: a name, a secret token (their link's ``?seat=``) and the saved
characters it rolls as. The file is readable by its owner alone (mode 0600) and written
whole or not at all, under the config folder's lock (rpgdice.table.files)."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Optional

from rpgdice.core.errors import RulesError, shown
from rpgdice.table import files, paths

if TYPE_CHECKING:
    from tomlkit import TOMLDocument

FILE = "seats.toml"
SECTION = "seat"
LOCK = ".seats.lock"
MAX_NAME = 40
TOKEN_BYTES = 24
"""The token's random bytes (192 bits; CLI.md asks at least 128)."""
_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")
NAME_ACCEPTS = f"a letter, then letters, digits, - and _ (at most {MAX_NAME})"


@dataclass(frozen=True)
class Seat:
    name: str
    token: str
    characters: tuple[str, ...]


def path() -> Path:
    return paths.config_dir() / FILE


def check_name(name: str) -> str:
    if len(name) > MAX_NAME or not _NAME.fullmatch(name):
        raise RulesError("NAME", f"{shown(name)} is not a seat name; accepts {NAME_ACCEPTS}")
    return name


def new_token() -> str:
    import secrets

    return secrets.token_urlsafe(TOKEN_BYTES)


def load(where: Optional[Path] = None) -> list[Seat]:
    """Every seat, in the file's order; a broken file is an error naming it."""
    where = where or path()
    data = files.read_toml(where)
    if not data:
        return []
    table = data.get(SECTION, {})
    if not isinstance(table, dict):
        raise files.broken(where, f"'{SECTION}' is not a table")
    out = []
    for name, body in table.items():
        if not isinstance(body, dict):
            raise files.broken(where, f"seat '{name}' is not a table")
        token, characters = body.get("token"), body.get("characters", [])
        if not isinstance(token, str) or len(token) < 16:
            raise files.broken(where, f"seat '{name}' has no token (rpgdice seat link "
                               f"{name} --new makes one)")
        if not isinstance(characters, list) or not all(isinstance(c, str) for c in characters):
            raise files.broken(where, f"seat '{name}': characters is not a list of names")
        out.append(Seat(str(name), token, tuple(characters)))
    return out


def find(name: str) -> Seat:
    for seat in load():
        if seat.name.casefold() == name.casefold():
            return seat
    names = ", ".join(s.name for s in load()) or "none yet"
    raise RulesError("NAME", f"no seat {shown(name)}; seats: {names}")


def _write(doc: TOMLDocument) -> None:
    import tomlkit

    where = path()
    files.write_text(where, tomlkit.dumps(doc))
    try:
        os.chmod(where, 0o600)
    except OSError as e:
        raise files.failed(where, e, "write") from None


def _document() -> TOMLDocument:
    import tomlkit

    doc = files.read_document(path())
    if SECTION not in doc:
        doc[SECTION] = tomlkit.table(is_super_table=True)
    return doc


def add(name: str, characters: list[str]) -> Seat:
    """A new seat (an error when one has that name)."""
    import tomlkit

    check_name(name)
    with files.locked(paths.config_dir(), LOCK):
        if any(s.name.casefold() == name.casefold() for s in load()):
            raise RulesError("NAME", f"there is a seat {shown(name)} already (rpgdice seat rm "
                             f"{name} --yes, or seat link {name} for its link)")
        doc = _document()
        body = tomlkit.table()
        seat = Seat(name, new_token(), tuple(characters))
        body["token"] = seat.token
        body["characters"] = list(characters)
        doc[SECTION][name] = body
        _write(doc)
        return seat


def renew(name: str) -> Seat:
    """The seat with a new token (the old one stops at once)."""
    with files.locked(paths.config_dir(), LOCK):
        seat = find(name)
        doc = _document()
        token = new_token()
        doc[SECTION][seat.name]["token"] = token
        _write(doc)
        return Seat(seat.name, token, seat.characters)


GM = "gm"
"""The section of the GM's screen's token (its link's ``?gm=``)."""


def gm_token(where: Optional[Path] = None) -> Optional[str]:
    """The GM's screen's token (None: none made yet); a broken one is an error naming the
    file."""
    where = where or path()
    data = files.read_toml(where)
    section = data.get(GM) if data else None
    if section is None:
        return None
    token = section.get("token") if isinstance(section, dict) else None
    if not isinstance(token, str) or len(token) < 16:
        raise files.broken(where, "[gm] has no token (rpgdice seat link --gm --new makes one)")
    return token


def gm_link_token(new: bool = False) -> str:
    """The GM's screen's token: the one kept, or (none kept, or ``new``) a new one written
    to ``seats.toml`` (the old one stops at once, a running serve too)."""
    import tomlkit

    with files.locked(paths.config_dir(), LOCK):
        token = gm_token()
        if token is not None and not new:
            return token
        doc = _document()
        body = tomlkit.table()
        body["token"] = new_token()
        doc[GM] = body
        _write(doc)
        return str(body["token"])


def remove(name: str) -> Seat:
    with files.locked(paths.config_dir(), LOCK):
        seat = find(name)
        doc = _document()
        del doc[SECTION][seat.name]
        _write(doc)
        return seat


class Watched:
    """The seats as a running server sees them: read again whenever the file changes
    (a ``seat link --new`` stops the old token at once)."""

    def __init__(self, where: Path) -> None:
        self.where = where
        self.stamp: tuple[int, int, int] | None = None
        self.seats: list[Seat] = []
        self.gm: Optional[str] = None
        """The GM's screen's token (``[gm] token``; None: none, or a broken file)."""
        import threading

        self.lock = threading.Lock()
        """Requests and the server's follower both ask (each from its own thread)."""

    def current(self) -> list[Seat]:
        with self.lock:
            return self._current()

    def _current(self) -> list[Seat]:
        try:
            info = os.stat(self.where)
            stamp: tuple[int, int, int] | None = (info.st_mtime_ns, info.st_size, info.st_ino)
        except OSError:
            stamp = None
        if stamp != self.stamp:
            try:
                self.seats = load(self.where) if stamp is not None else []
            except RulesError:
                self.seats = []  # a broken file lets no seat in
            try:
                self.gm = gm_token(self.where) if stamp is not None else None
            except RulesError:
                self.gm = None  # nor the GM's screen
            self.stamp = stamp
        return self.seats

    def is_gm(self, token: str) -> bool:
        """Whether ``token`` is the GM's screen's, compared in constant time."""
        import hmac

        with self.lock:
            self._current()
            gm = self.gm
        return gm is not None and hmac.compare_digest(token.encode("utf-8", "replace"),
                                                       gm.encode("utf-8"))

    def by_token(self, token: str) -> Optional[Seat]:
        """The seat whose token ``token`` is, compared in constant time."""
        import hmac

        given = token.encode("utf-8", "replace")
        found = None
        for seat in self.current():
            if hmac.compare_digest(given, seat.token.encode("utf-8")):
                found = seat
        return found
