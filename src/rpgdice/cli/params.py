"""Parsers for command-line values, shared by every ruleset's commands.

Each parser turns one string into a value or raises ``typer.BadParameter`` with a
reason that names what the argument accepts; a parser of named values carries them
as ``parser.choices``, which shell completion offers; the top-level command prints it as
``rpgdice: error: --option: reason`` and exits 2. Sums such as ``4+2`` are parsed
term by term, never evaluated.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence

import typer

from rpgdice.core.budget import MAX_TIMES as MAX_TIMES  # -n's limit, re-exported
from rpgdice.core.errors import RulesError, shown
from rpgdice.core.names import lookup

MAX_NUMBER = 1000
"""No count or modifier a user types is larger than this; huge integers are refused at once."""

MAX_DIGITS = 20
"""Digits read from one number (2**64 - 1, the largest seed, has 20). A longer run of
digits is refused as out of range without converting it, so a huge integer costs
nothing."""

# ASCII digits only: ``int()`` would also take '٣' or '３', which no user means here.
_INT = re.compile(r"[+-]?[0-9]+")
_TERM = re.compile(r"[0-9]+")
_FACE = re.compile(r"-?[0-9]+")
"""A face given by hand: a Fudge die's may be −1 (any die refuses a face it does not have)."""

MINUS_SIGNS = "\u2212\u2013"
"""Typed minus signs read as ``-``: the minus sign (U+2212) and the en dash (U+2013)."""
_MINUS = str.maketrans({c: "-" for c in MINUS_SIGNS})


def ascii_minus(text: str) -> str:
    """``text`` with every typed minus sign (``−``, ``–``) as ``-``."""
    return text.translate(_MINUS)


def _value(text: str) -> int | None:
    """The value of a string ``_INT`` matched, or None when it has more than
    ``MAX_DIGITS`` digits (leading zeros aside)."""
    core = text.lstrip("+-").lstrip("0") or "0"
    if len(core) > MAX_DIGITS:
        return None
    return -int(core) if text.startswith("-") else int(core)


def _whole(text: str, accepts: str) -> int:
    text = text.strip()
    if not _INT.fullmatch(ascii_minus(text)):
        raise typer.BadParameter(f"{shown(text)} is not a whole number; accepts {accepts}")
    value = _value(ascii_minus(text))
    if value is None:
        raise typer.BadParameter(f"{shown(text)} is out of range; accepts {accepts}")
    return value


def _accepting(parse: Callable[[str], object], accepts: str, kind: str) -> Callable[[str], object]:
    """Record on a parser what it accepts, for messages about a missing value, and name
    it by the kind of value it takes (``--help`` shows an argument's type by that name)."""
    parse.accepts = accepts  # type: ignore[attr-defined]
    parse.__name__ = parse.__qualname__ = kind
    return parse


def _accepts(lo: int | None, hi: int | None) -> str:
    if lo is not None and hi is not None:
        return f"a whole number from {lo} to {hi}"
    if lo is not None:
        return f"a whole number of at least {lo}"
    return "a whole number"


def integer(lo: int | None = None, hi: int | None = None) -> Callable[[str], int]:
    """A parser for a whole number in ``lo..hi``."""
    accepts = _accepts(lo, hi)

    def parse(text: str) -> int:
        if isinstance(text, int):  # a default
            return text
        value = _whole(text, accepts)
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            raise typer.BadParameter(f"{value} is out of range; accepts {accepts}")
        return value

    return _accepting(parse, accepts, "integer")  # type: ignore[return-value]


def signed(limit: int = MAX_NUMBER) -> Callable[[str], int]:
    """A signed modifier such as ``+2`` or ``-3``."""
    return integer(-limit, limit)


MAX_TERMS = 20
"""A pool written as a sum holds at most this many terms."""

POOL_FORMS = "a number such as 5, or a sum such as 4+2 or 3+2+1-2"
"""The one pool syntax: every pool, attribute, skill, index and contest side takes it."""


def terms(text: str, limit: int = MAX_NUMBER, accepts: str = POOL_FORMS) -> tuple[int, ...]:
    """The signed terms of a pool as typed: ``3+2+1-2`` is ``(3, 2, 1, -2)``. A number or
    a sum of numbers joined by ``+`` and ``-`` (or ``−``), the first unsigned; each term
    at most ``limit``. Split, never evaluated."""
    raw = text.strip()
    folded = ascii_minus(raw)
    if folded.startswith("-"):
        raise typer.BadParameter(f"{shown(raw)} is negative; accepts {accepts}")
    pieces = re.split(r"\s*([+-])\s*", folded)
    numbers, signs = pieces[0::2], pieces[1::2]
    if len(numbers) > MAX_TERMS:
        raise typer.BadParameter(
            f"{shown(raw)} has more than {MAX_TERMS} terms; accepts {accepts}")
    if not all(_TERM.fullmatch(n) for n in numbers):
        raise typer.BadParameter(f"{shown(raw)} is not a number or a sum; accepts {accepts}")
    out = []
    for sign, number in zip(["+", *signs], numbers):
        value = _value(number)
        if value is None or value > limit:
            raise typer.BadParameter(
                f"{shown(number)} in {shown(raw)} is more than {limit}; accepts {accepts}")
        out.append(-value if sign == "-" else value)
    return tuple(out)


def pool_terms(limit: int = MAX_NUMBER, accepts: str = POOL_FORMS) -> Callable[[str], tuple[int, ...]]:
    """A parser for a pool's terms (:func:`terms`), for commands that read them one by one
    (a Seyruun pool: Attribute, Skill, then bonuses and penalties)."""

    def parse(text: str) -> tuple[int, ...]:
        if isinstance(text, tuple):
            return text
        return terms(text, limit, accepts)

    return _accepting(parse, accepts, "pool")  # type: ignore[return-value]


def pool_sum(limit: int = MAX_NUMBER, accepts: str | None = None,
             kind: str = "pool") -> Callable[[str], int]:
    """A non-negative count or a sum (``4+2``: attribute plus skill, ``4-2``), its total
    from 0 to ``limit``."""
    accepts = accepts or f"{POOL_FORMS}, from 0 to {limit} in all"

    def parse(text: str) -> int:
        if isinstance(text, int):
            return text
        total = sum(terms(text, limit, accepts))
        if total < 0:
            raise typer.BadParameter(f"{shown(text.strip())} is {total}, below 0; accepts {accepts}")
        if total > limit:
            raise typer.BadParameter(f"{shown(text.strip())} is more than {limit}; accepts {accepts}")
        return total

    return _accepting(parse, accepts, kind)  # type: ignore[return-value]


def level(table: Mapping[str, int], lo: int, hi: int | None = None,
          describe: Callable[[int], str] = str) -> Callable[[str], int]:
    """A named level from ``table`` (matched ignoring case, accents, spaces, hyphens,
    underscores) or a number in ``lo..hi``. ``describe`` says what a level's number
    means, for shell completion (``parser.descriptions``)."""
    number = integer(lo, hi)

    def parse(text: str) -> int:
        if isinstance(text, int):
            return text
        if _INT.fullmatch(ascii_minus(text.strip())):
            return number(text)
        try:
            return lookup("", text, table)
        except RulesError as e:
            raise typer.BadParameter(f"{e.message}, or {_accepts(lo, hi)}") from None

    parse.choices = tuple(table)  # type: ignore[attr-defined]  # read by cli/completion.py
    parse.descriptions = {name: describe(value) for name, value in table.items()}  # type: ignore[attr-defined]
    accepts = f"one of {', '.join(table)}, or {_accepts(lo, hi)}"
    return _accepting(parse, accepts, "name or number")  # type: ignore[return-value]


def choice(table: Mapping[str, object],
           descriptions: Mapping[str, str] | None = None,
           current: Callable[[], Iterable[str]] | None = None) -> Callable[[str], str]:
    """One of the names of ``table``, returned in its canonical spelling; ``descriptions``
    says what each name means, for shell completion (``parser.descriptions``). With
    ``current``, the names are the ones it gives when a value is parsed (a ruleset file
    added since the option was made counts); ``table`` is then what help and completion
    list."""
    canonical = {name: name for name in table}

    def parse(text: str) -> str:
        names = canonical if current is None else {name: name for name in current()}
        try:
            return lookup("", text, names)
        except RulesError as e:
            raise typer.BadParameter(e.message) from None

    parse.choices = tuple(table)  # type: ignore[attr-defined]  # read by cli/completion.py
    parse.descriptions = dict(descriptions or {n: str(v) for n, v in table.items()})  # type: ignore[attr-defined]
    return _accepting(parse, f"one of {', '.join(table)}", "name")  # type: ignore[return-value]


def faces(text: str) -> list[int]:
    """Faces rolled by hand: ``4,7,2`` (commas and/or spaces). ``--dice ""`` gives no
    faces, which is right for a roll that rolls nothing (a Crytures pool the die
    modifiers emptied, a routine Cypher task) and too few for any other."""
    if isinstance(text, list):
        return text
    text = text.strip()
    parts = re.split(r"\s*,\s*|\s+", text) if text else []
    out = []
    for p in parts:
        if not p:  # 7,,8 or a comma at either end
            raise typer.BadParameter(
                f"{shown(text)} has an empty face (nothing between commas); accepts {FACES_ACCEPTS}"
            )
        if not _FACE.fullmatch(p):
            raise typer.BadParameter(f"{shown(p)} is not a face; accepts {FACES_ACCEPTS}")
        face = _value(p)
        if face is None:
            raise typer.BadParameter(f"face {shown(p)} is not on any die; accepts {FACES_ACCEPTS}")
        out.append(face)
    return out


def summed(values: Sequence[int] | None, param: str, limit: int = MAX_NUMBER) -> tuple[int, ...]:
    """A repeated option's values (``--mod 2 --mod 3``), whose sum keeps to the limit
    of one value: 100000 times ``--mod=1000`` is not a way past it."""
    given = tuple(values or ())
    total = sum(given)
    if abs(total) > limit:
        raise RulesError(param, f"given {len(given)} times, adding up to {total}, which is more "
                         f"than {limit} in size; accepts values whose sum is at most {limit} in size")
    return given


FACES_ACCEPTS = "faces such as 4,7,2 (commas or spaces), each on the die rolled"
faces.accepts = FACES_ACCEPTS  # type: ignore[attr-defined]


def character(text: str) -> str:
    """The name of a saved character (``--as``, ``--vs``, ``char show``): checked when
    its sheet is read. Shell completion offers the names of the sheets in the user's
    ``characters/`` folder (``parser.completes``, read by cli/completion.py)."""
    return text


_accepting(character, "the name of a saved character (see rpgdice char list)", "name")
character.completes = "characters"  # type: ignore[attr-defined]


def target(extra: str = "an extra of the encounter") -> Callable[[str], str]:
    """An attack's target (``--vs``): a saved character's name or ``extra``. TAB offers the
    saved characters and the encounter's extras."""

    def parse(text: str) -> str:
        return character(text)

    parse.accepts = f"the name of a saved character (see rpgdice char list) or {extra}"  # type: ignore[attr-defined]
    parse.completes = "characters"  # type: ignore[attr-defined]
    parse.also_completes = "extras"  # type: ignore[attr-defined]
    parse.__name__ = parse.__qualname__ = character.__name__
    return parse


def alias_name(text: str) -> str:
    """The name of one of the user's aliases (``alias --rm``): checked when config.toml
    is read. Shell completion offers the names under its ``[alias]``."""
    return text


alias_name.completes = "aliases"  # type: ignore[attr-defined]
