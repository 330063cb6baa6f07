"""Character sheets: one TOML file per character, ``characters/KEY.toml``.

A sheet is plain TOML a player may edit by hand::

    name = "Ysolde"
    ruleset = "seyruun"

    [traits]
    dexterity = 3
    stealth = 3
    composure = 3
    resolve = 2
    willpower = 5      # current points; the maximum is composure + resolve
    wound = "none"

KEY is the name folded (:func:`key`): lower case, no accents, spaces and underscores
as ``-``; so the shell can list the names, and two names that match (case, accents,
spaces, hyphens and underscores aside) share one file. Traits match the same way
(:func:`rpgdice.core.names.fold`). Keys and tables a user adds by hand, and
comments, survive every change rpgdice makes (``tomlkit`` keeps them).

Spending (:func:`spend`, :func:`settle`) happens under the lock of the folder that holds
the sheet's real file (a symlinked sheet: its target's folder), so ten terminals spending Willpower from one sheet at once lose no update; a sheet
that cannot pay is left as it was.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from contextlib import AbstractContextManager
from contextvars import ContextVar
from dataclasses import dataclass, field
from difflib import get_close_matches
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, TypeAlias, TypeVar

from rpgdice.core import registry
from rpgdice.core.data import JSONObject
from rpgdice.core.errors import RulesError, cut, shown, visible
from rpgdice.core.names import fold
from rpgdice.table import files, paths

if TYPE_CHECKING:
    from tomlkit import TOMLDocument

T = TypeVar("T")
Trait: TypeAlias = "int | str"
"""A trait's value on a sheet: a whole number, or a word (a Seyruun wound, a Cypher skill)."""

MAX_NAME = 40
MAX_VALUE = 1000
"""No trait is rated above this (the commands' own limit on a number)."""
MAX_FILE_NAME = 255
"""The longest file name (in bytes) a file system takes: a few letters (``ﷺ``) fold to many."""
_NAME = re.compile(r"[\w \-]+")
NAME_ACCEPTS = f"letters, digits, spaces, - and _ (at most {MAX_NAME})"


class ReservedTrait(Protocol):
    """A trait with a meaning of its own on a ruleset's sheets (what the table reads of a
    :class:`rpgdice.rulesets.Reserved`)."""

    @property
    def name(self) -> str: ...
    @property
    def words(self) -> tuple[str, ...]: ...
    @property
    def most(self) -> int | None: ...
    @property
    def dice(self) -> bool: ...
    @property
    def also(self) -> tuple[str, ...]: ...


class SheetResource(Protocol):
    """A trait spent and regained (what the table reads of a :class:`rpgdice.rulesets.Resource`)."""

    @property
    def name(self) -> str: ...
    @property
    def label(self) -> str: ...
    @property
    def max_trait(self) -> str: ...
    @property
    def derive(self) -> Callable[[Sheet], int | None] | None: ...
    @property
    def derived(self) -> str: ...
    @property
    def shown(self) -> bool: ...
    @property
    def listed(self) -> bool: ...


class SheetSchema(Protocol):
    """What a ruleset's sheet may hold, as the layers beneath the rulesets read it (a
    :class:`rpgdice.rulesets.SheetSchema`)."""

    @property
    def reserved(self) -> tuple[ReservedTrait, ...]: ...
    @property
    def skill_words(self) -> tuple[str, ...]: ...
    @property
    def resources(self) -> tuple[SheetResource, ...]: ...
    @property
    def attributes(self) -> frozenset[str]: ...
    @property
    def effort_pools(self) -> tuple[str, ...]: ...
    @property
    def headings(self) -> tuple[str, str]: ...
    @property
    def defaults(self) -> Callable[[Sheet, str | None], Mapping[str, object]] | None: ...
    @property
    def follows(self) -> Callable[[Sheet, set[str]], Mapping[str, Trait]] | None: ...
    @property
    def labels(self) -> Callable[[Sheet, str, set[str]], list[tuple[str, str]]] | None: ...
    @property
    def negative(self) -> bool: ...


def schema(ruleset: str) -> SheetSchema:
    """What a sheet of ``ruleset`` may hold (a :class:`rpgdice.rulesets.SheetSchema`): its
    ruleset's record says, found through :mod:`rpgdice.core.registry` (this package imports
    nothing of the rulesets)."""
    found = registry.get(ruleset).sheet
    if found is None:
        raise KeyError(ruleset)
    return found


def resource_of(ruleset: str, name: str) -> SheetResource | None:
    """The :class:`rpgdice.rulesets.Resource` ``name`` of ``ruleset``'s sheets, or None."""
    return next((r for r in schema(ruleset).resources if r.name == name), None)


def key(name: str) -> str:
    """A name as its file is called: ``'Armas de Fuego'`` -> ``'armas-de-fuego'``."""
    plain = name.strip().lower()
    if not name.isascii():  # an ASCII name decomposes to itself: no unicodedata for a roll
        import unicodedata

        decomposed = unicodedata.normalize("NFKD", name.strip().casefold())
        plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return re.sub(r"[\s_]", "-", plain)


def check_name(name: str, param: str = "NAME", what: str = "a name") -> str:
    """``name`` stripped (and composed: an accent typed as a combining mark is part of
    its letter), or a usage error saying what a name may hold."""
    text = name.strip()
    if not name.isascii():
        import unicodedata

        text = unicodedata.normalize("NFC", name).strip()
    if not text or len(text) > MAX_NAME or not _NAME.fullmatch(text) or not fold(text):
        raise RulesError(param, f"{shown(name)} is not {what}; accepts {NAME_ACCEPTS}")
    size = len(f"{key(text)}.toml".encode())
    if param != "TRAIT" and size > MAX_FILE_NAME:
        raise RulesError(param, f"{shown(name)} spells out as a file name of {size} bytes, more than "
                         f"the {MAX_FILE_NAME} a file system takes; choose a shorter name")
    return text


def check_trait_name(name: str) -> str:
    text = check_name(name, "TRAIT", "a trait name")
    if not text[0].isalpha():
        raise RulesError("TRAIT", f"{shown(name)} does not start with a letter; a trait name is "
                         f"{NAME_ACCEPTS}, starting with a letter")
    return text


def label(trait: str) -> str:
    """A trait's name as a view shows it: its spelling on the sheet, capitalised."""
    return trait[:1].upper() + trait[1:]


@dataclass
class Sheet:
    """A character sheet as read from its file."""

    name: str
    ruleset: str
    traits: dict[str, Trait]
    """Trait name as spelled in the file -> value (a whole number, or a word for a
    Seyruun wound and Cypher skills)."""
    path: Path
    marked: tuple[str, ...] = ()
    """Traits the sheet marks as attributes (its ``attributes = [...]`` key), beside
    those its ruleset names (:attr:`SheetSchema.attributes`)."""
    _folded: dict[str, str] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        self._folded = {fold(k): k for k in self.traits}

    # Looking traits up ---------------------------------------------------------

    def spelling(self, trait: str) -> str | None:
        """The sheet's spelling of ``trait`` (matched by :func:`fold`; a reserved trait by
        any of its names: Reglas' ``initiative`` is its ``iniciativa``), or None."""
        folded = fold(trait)
        found = self._folded.get(folded)
        if found is None:
            for other in names_of(self.ruleset, folded):
                found = self._folded.get(other)
                if found is not None:
                    break
        return found

    def is_attribute(self, trait: str) -> bool:
        """Whether ``trait`` is an attribute: its ruleset names it one, or the sheet
        marks it (``attributes = ["occult-lore"]``)."""
        folded = fold(trait)
        return (folded in {fold(a) for a in schema(self.ruleset).attributes}
                or folded in {fold(a) for a in self.marked})

    def get(self, trait: str, default: Trait | None = None) -> Trait | None:
        spelled = self.spelling(trait)
        return self.traits[spelled] if spelled is not None else default

    def closest(self, term: str) -> str | None:
        names = [k for k in self.traits if isinstance(self.traits[k], int)]
        folded = {fold(k): k for k in names}
        close = get_close_matches(fold(term), list(folded), n=1, cutoff=0.5)
        return folded[close[0]] if close else None

    def missing(self, param: str, term: str) -> RulesError:
        close = self.closest(term)
        hint = f" (the closest is '{close}')" if close else ""
        return RulesError(param, f"{self.name} has no trait {shown(term)}{hint}")

    # Seyruun ------------------------------------------------------------------

    def maximum(self, name: str) -> int | None:
        """The most ``name`` (a resource of the ruleset) may hold: the sheet's own
        ``max_trait`` when it has one, else what the ruleset derives; None: no bound."""
        found = resource_of(self.ruleset, name)
        if found is None:
            return None
        own = self.get(found.max_trait)
        if isinstance(own, int):
            return own
        return found.derive(self) if found.derive is not None else None

    @property
    def willpower_max(self) -> int | None:
        return self.maximum("willpower")

    @property
    def willpower(self) -> int:
        value = self.get("willpower")
        return value if isinstance(value, int) else 0

    @property
    def wound(self) -> str | None:
        value = self.get("wound")
        return value if isinstance(value, str) and value != "none" else None

    # Cypher -------------------------------------------------------------------

    def edge(self, pool: str) -> int:
        value = self.get(f"{pool}-edge", 0)
        return value if isinstance(value, int) else 0

    @property
    def effort_level(self) -> int | None:
        value = self.get("effort")
        return value if isinstance(value, int) else None

    def data(self) -> JSONObject:
        """``char show --json``."""
        out: JSONObject = {
            "name": self.name,
            "ruleset": self.ruleset,
            "traits": {key(k): v for k, v in self.traits.items()},
        }
        own: JSONObject = {}
        for found in schema(self.ruleset).resources:
            top = self.maximum(found.name)
            if found.listed and (self.spelling(found.name) is not None or top is not None):
                own[found.name] = {"value": resource(self, found.name), "max": top}
        out["resources"] = own
        for found in schema(self.ruleset).resources:
            if found.shown:
                out[found.name] = resource(self, found.name)
                out[f"{found.name}_max"] = self.maximum(found.name)
        return out


# Values ------------------------------------------------------------------------


def reserved_of(ruleset: str, trait: str) -> ReservedTrait | None:
    """The reserved trait of ``ruleset``'s sheets that ``trait`` names (by its name or
    one of its other names), or None."""
    folded = fold(trait)
    for reserved in schema(ruleset).reserved:
        if folded == fold(reserved.name) or folded in {fold(a) for a in reserved.also}:
            return reserved
    return None


def names_of(ruleset: str, folded: str) -> tuple[str, ...]:
    """Every name (folded) of the reserved trait ``folded`` names, but ``folded``;
    none for any other trait."""
    reserved = reserved_of(ruleset, folded) if folded else None
    if reserved is None or not reserved.also:
        return ()
    return tuple(n for n in (fold(reserved.name), *map(fold, reserved.also)) if n != folded)


def reserved_names(ruleset: str) -> set[str]:
    """Every name (folded) of ``ruleset``'s reserved traits, their other names too."""
    return {fold(n) for r in schema(ruleset).reserved for n in (r.name, *r.also)}


def canonical(ruleset: str, trait: str) -> str:
    """A reserved trait's spelling as its ruleset declares the name given (Reglas'
    ``Iniciativa`` is ``iniciativa``, ``INITIATIVE`` ``initiative``), else ``trait``."""
    reserved = reserved_of(ruleset, trait)
    if reserved is None:
        return trait
    return next((n for n in (reserved.name, *reserved.also) if fold(n) == fold(trait)),
                reserved.name)


def _word(words: tuple[str, ...], text: object) -> str | None:
    """The one of ``words`` that ``text`` names (case, accents... aside), or None."""
    if isinstance(text, str):
        for w in words:
            if fold(w) == fold(text):
                return w
    return None


def check_value(ruleset: str, trait: str, value: object, where: str = "TRAIT") -> Trait:
    """``value`` (text from the command line, or a TOML value) as the sheet keeps it;
    a :class:`RulesError` naming ``where`` when the trait cannot hold it. What a trait
    may hold is its ruleset's sheet schema: a reserved trait's words (a wound level) or
    range (Effort), other traits' words (Cypher skill levels), else a whole number."""
    own = schema(ruleset)
    name = canonical(ruleset, trait)
    reserved = reserved_of(ruleset, trait)
    text = value.strip() if isinstance(value, str) else value
    if reserved is not None and reserved.words:
        word = _word(reserved.words, text)
        if word is None:
            raise RulesError(where, f"{name} {shown(value)} is not one of {', '.join(reserved.words)}")
        return word
    if isinstance(text, str) and not re.fullmatch(r"[+-]?[0-9]{1,6}", text):
        if reserved is not None and reserved.dice:  # an ordinary dice expression, read when rolled
            if not re.fullmatch(r"[0-9dD%+\- ]{1,60}", text) or "d" not in text.lower():
                raise RulesError(where, f"{name}: {shown(value)} is not a whole number or "
                                 "ordinary dice (1d20+2)")
            return text
        if own.skill_words and reserved is None:
            word = _word(own.skill_words, text)
            if word is None:
                raise RulesError(where, f"{name}: {shown(value)} is not a whole number or one of "
                                 f"{', '.join(own.skill_words)}")
            return word
        raise RulesError(where, f"{name}: {shown(value)} is not a whole number from 0 to {MAX_VALUE}")
    if isinstance(text, bool) or not isinstance(text, (int, str)):
        raise RulesError(where, f"{name}: {shown(value)} is not a whole number from 0 to {MAX_VALUE}")
    number = int(text)
    hi = reserved.most if reserved is not None and reserved.most is not None else MAX_VALUE
    lo = -MAX_VALUE if own.negative and reserved is None else 0
    if not lo <= number <= hi:
        raise RulesError(where, f"{name}: {number} is not from {lo} to {hi}")
    return number


# Files -------------------------------------------------------------------------


def folder() -> Path:
    return paths.characters_dir()


def path_of(name: str) -> Path:
    """The file of the character ``name``: ``KEY.toml``, or an existing file whose
    name matches ``name`` the forgiving way."""
    base = folder()
    path = base / f"{key(name)}.toml"
    if path.is_file():
        return path
    wanted = fold(name)
    try:
        for other in base.glob("*.toml"):
            if fold(other.stem) == wanted:
                return other
    except OSError:
        pass
    return path


def names() -> list[Path]:
    """Every sheet's file, by name; a characters folder that is a file is an error."""
    base = folder()
    problem = paths.home_problem()
    if problem is not None:
        raise problem
    if files.is_file(base):
        raise files.not_a_folder(base)
    try:
        return sorted(base.glob("*.toml"))
    except OSError:
        return []


def not_a_sheet(path: Path) -> RulesError | None:
    """Why the entry ``path`` of the characters folder is no sheet to read (a folder, a
    FIFO, a device, a link to nothing...), found by its status alone: a FIFO is never
    opened, so nothing blocks on it. None for a regular file (or a link to one)."""
    import os
    import stat

    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return RulesError(str(path), "is a link to nothing; left out (remove the link, or "
                          "make it point to a sheet)")
    except OSError as e:
        return RulesError(str(path), f"could not be read: {e.strerror or e}; left out")
    if stat.S_ISREG(mode):
        return None
    kind = ("a folder" if stat.S_ISDIR(mode) else "a FIFO (named pipe)" if stat.S_ISFIFO(mode)
            else "a socket" if stat.S_ISSOCK(mode)
            else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "not a regular file")
    return RulesError(str(path), f"is {kind}, not a sheet file; left out (rpgdice reads only "
                      "regular files)")


def from_data(path: Path, data: JSONObject) -> Sheet:
    """Check what a sheet file holds; a hand-made mistake is reported, never fixed."""
    name = data.get("name", path.stem)
    if not isinstance(name, str) or not name.strip():
        raise files.broken(path, "'name' is not a text")
    if fold(name) != fold(path.stem):
        # A sheet copied by hand and not renamed: it is not the character it says, and
        # what it spends must never be taken from the sheet its name leads to.
        raise files.broken(path, f"its name {shown(name)} is not its file's ({shown(path.name)}), as "
                           f"in a sheet copied by hand: set name to match the file, or rename "
                           f"the file to {cut(key(name))}.toml")
    ruleset = data.get("ruleset")
    if not registry.keeps_sheets(ruleset):
        raise files.broken(path, f"'ruleset' is {shown(ruleset)}, not one of {', '.join(registry.sheet_names())}")
    traits = data.get("traits", {})
    if not isinstance(traits, dict):
        raise files.broken(path, "'traits' is not a table")
    seen: dict[str, str] = {}
    checked: dict[str, Trait] = {}
    for trait, value in traits.items():
        folded = fold(trait)
        if folded in seen:
            raise files.broken(path, f"traits '{seen[folded]}' and '{trait}' are the same trait")
        seen[folded] = trait
        try:
            # The value as the check reads it ("2" is 2, "Trained" is trained), so a
            # sheet that passes the check rolls as `char set` would have saved it; the
            # file itself is left as the user wrote it.
            checked[trait] = check_value(ruleset, trait, value)
        except RulesError as e:
            raise files.broken(path, f"traits: {e.message}") from None
    marked = data.get("attributes", [])
    if not isinstance(marked, list) or not all(isinstance(m, str) for m in marked):
        raise files.broken(path, "'attributes' is not a list of trait names")
    return Sheet(name=name.strip(), ruleset=ruleset, traits=checked, path=path,
                 marked=tuple(marked))


def load(name: str, param: str = "NAME") -> Sheet:
    """The sheet of ``name``; an error naming ``param`` when there is none."""
    check_name(name, param)
    path = path_of(name)
    data = files.read_toml(path)
    if data is None:
        raise RulesError(param, f"no character {shown(name)} in {folder()}; "
                         f"create one with rpgdice char new{_closest(name)}")
    found = from_data(path, data)
    view = SEEN.get()
    return found if view is None else view(found)


SEEN: ContextVar[Callable[[Sheet], Sheet] | None] = ContextVar("seen", default=None)
"""While a seat's odds are computed (rpgdice.cli.seated): each sheet :func:`load` reads is
given as the table saw it (what unrevealed secret rolls changed taken back). Nothing is
paid or written meanwhile."""


def _closest(name: str) -> str:
    """`` (did you mean 'Ysolde'?)`` for the saved character closest to a mistyped name."""
    from difflib import get_close_matches

    if len(name) >= 64:
        return ""
    try:
        stems = {fold(p.stem): p.stem for p in sorted(folder().glob("*.toml"))[:1000]}
    except OSError:
        return ""
    close = get_close_matches(fold(name), list(stems), n=1)
    if not close and fold(name):  # the first name of a longer one: 'borin' for Borin Ironhand
        close = [s for s in stems if s.startswith(fold(name))]
    return f" (did you mean {shown(stems[close[0]])}?)" if len(close) == 1 else ""


def _read(sheet: Sheet, param: str) -> tuple[Sheet, str]:
    """The sheet from the very file ``sheet`` was read from (under the lock: it may have
    changed since), and that file's text."""
    text = files.read_text(sheet.path)
    if text is None:
        raise RulesError(param, f"{cut(sheet.name)}'s sheet {sheet.path} is gone; "
                         "nothing was rolled or spent")
    return from_data(sheet.path, files.parse(sheet.path, text)), text


def load_all() -> Iterator[Sheet | RulesError]:
    """Every sheet, or the error of a broken one (or of an entry that is no regular
    file), by file name."""
    for path in names():
        problem = not_a_sheet(path)
        if problem is not None:
            yield problem
            continue
        try:
            data = files.read_toml(path)
            if data is not None:
                yield from_data(path, data)
        except RulesError as e:
            yield e


# Changing sheets ---------------------------------------------------------------


def _set_traits(sheet: Sheet, doc: TOMLDocument, changes: Mapping[str, Trait | None]) -> None:
    """Apply ``changes`` (trait -> value, None to remove) to ``doc``, keeping the
    sheet's spelling of a trait it already has."""
    import tomlkit

    if "traits" not in doc:
        doc.add(tomlkit.nl())
        doc["traits"] = tomlkit.table()
    table = doc["traits"]
    for trait, value in changes.items():
        spelled = sheet.spelling(trait)
        if value is None:
            if spelled is not None:
                del table[spelled]
                del sheet.traits[spelled]
            continue
        if spelled is None:
            spelled = canonical(sheet.ruleset, trait)
        table[spelled] = value
        sheet.traits[spelled] = value
    sheet.__post_init__()


def new(name: str, ruleset: str, changes: Mapping[str, object]) -> Sheet:
    """Create the sheet of ``name``; a name already taken is refused."""
    import tomlkit

    name = check_name(name)
    with files.locked(folder()):
        path = path_of(name)
        if path.exists():
            existing = files.read_toml(path) or {}
            taken = existing.get("name", path.stem) if isinstance(existing, dict) else path.stem
            raise RulesError("NAME", f"{shown(name)} is taken (by {shown(taken)}, {path}); "
                             "change it with rpgdice char set, or remove it with rpgdice char rm")
        sheet = Sheet(name=name, ruleset=ruleset, traits={}, path=path)
        doc = tomlkit.document()
        doc.add(tomlkit.comment("A character sheet of rpgdice: edit it by hand or with "
                                "`rpgdice char set`."))
        doc["name"] = name
        doc["ruleset"] = ruleset
        given = {k: check_value(ruleset, k, v) for k, v in changes.items() if v is not None}
        _set_traits(sheet, doc, given)
        _follow(sheet, doc, {fold(t) for t in given})
        _new_maxima(sheet, doc)
        _check_sheet(sheet)
        _check_readable(path, doc)
        files.write_document(path, doc)
    return sheet


def _new_maxima(sheet: Sheet, doc: TOMLDocument) -> None:
    """A new sheet's resources: Willpower starts at its maximum (composure + resolve)
    when it is not given; a resource given without a maximum (``-max``, or what its
    ruleset derives) takes the value given as its maximum."""
    for found in schema(sheet.ruleset).resources:
        if not found.listed:
            continue
        top = sheet.maximum(found.name)
        given = sheet.spelling(found.name) is not None
        if found.derive is not None and not given and top is not None:
            _set_traits(sheet, doc, {found.name: top})
        elif given and top is None:
            _set_traits(sheet, doc, {found.max_trait: resource(sheet, found.name)})


class Relative(tuple[int, str]):
    """A relative change of a trait, ``TRAIT+=N`` or ``TRAIT-=N``: ``delta`` (signed) and the
    change as typed. A tuple, not a dataclass: only ``char set`` makes one, and every roll
    with ``--as`` loads this module (a frozen dataclass compiles its methods at import)."""

    def __new__(cls, delta: int, typed: str) -> Relative:
        return super().__new__(cls, (delta, typed))

    @property
    def delta(self) -> int:
        return self[0]

    @property
    def typed(self) -> str:
        return self[1]

    def __repr__(self) -> str:
        return f"Relative(delta={self[0]!r}, typed={self[1]!r})"


def _typed(sheet: Sheet, trait: str, value: object) -> Trait | None:
    """A change's new value as the sheet keeps it: a :class:`Relative` change adds to the
    trait's value (0 for a trait the sheet lacks), never below 0."""
    if not isinstance(value, Relative):
        return None if value is None else check_value(sheet.ruleset, trait, value)
    old = sheet.get(trait, 0)
    if not isinstance(old, int):
        raise RulesError("TRAIT", f"{shown(value.typed)}: {sheet.spelling(trait)} is "
                         f"{shown(old)}, not a number; nothing was changed")
    new = old + value.delta
    if new < 0:
        raise RulesError("TRAIT", f"{shown(value.typed)}: {old} − {-value.delta} is below 0; "
                         "nothing was changed")
    return check_value(sheet.ruleset, trait, new)


def change(name: str, changes: Mapping[str, object]) -> Sheet:
    """Set (or with None remove) traits of ``name``'s sheet, or change them by a
    :class:`Relative` amount, keeping everything else in the file as it was."""
    found = load(name)  # no such sheet, or a broken one: said before anything is created
    with _locked(found):
        sheet, text = _read(found, "NAME")
        files.check_writable(sheet.path)
        doc = files.document(sheet.path, text)
        typed = {trait: _typed(sheet, trait, v) for trait, v in changes.items()}
        before = _over(sheet)
        _set_traits(sheet, doc, typed)
        _follow(sheet, doc, {fold(t) for t in typed})
        _check_sheet(sheet, before, {fold(t) for t in typed})
        _check_readable(sheet.path, doc)
        files.write_document(sheet.path, doc)
    return sheet


def _follow(sheet: Sheet, doc: TOMLDocument, changed: set[str]) -> None:
    """Set what follows from the change (Seyruun's wound from its damage)."""
    follows = schema(sheet.ruleset).follows
    more = follows(sheet, changed) if follows is not None else {}
    more = {k: v for k, v in more.items() if sheet.get(k) != v}
    if more:
        _set_traits(sheet, doc, more)


def _over(sheet: Sheet) -> dict[str, int]:
    """How far each resource is above its maximum (0: within it, or no maximum)."""
    out = {}
    for found in schema(sheet.ruleset).resources:
        top = sheet.maximum(found.name)
        out[found.name] = max(0, resource(sheet, found.name) - top) if top is not None else 0
    return out


def _check_sheet(sheet: Sheet, before: dict[str, int] | None = None,
                 changed: set[str] | None = None) -> None:
    """No resource above its maximum, nor a maximum above what a trait may hold. A
    sheet already over (set so by hand) refuses only a change that takes it further
    over, or a change of that resource itself: other traits can still be set."""
    for found in schema(sheet.ruleset).resources:
        top = sheet.maximum(found.name)
        why = found.max_trait if isinstance(sheet.get(found.max_trait), int) else found.derived
        if top is not None and top > MAX_VALUE:
            raise RulesError("TRAIT", f"{found.name}'s maximum {top} ({why}) is more than "
                             f"{MAX_VALUE}, the most a trait holds")
        value = resource(sheet, found.name)
        if top is None or value <= top:
            continue
        worse = before is None or value - top > before.get(found.name, 0)
        if worse or fold(found.name) in (changed or set()):
            raise RulesError("TRAIT", f"{found.name} {value} is more than its maximum {top} ({why}); "
                             "nothing was changed")


def _check_readable(path: Path, doc: TOMLDocument) -> None:
    """What is about to be written reads back as a sheet (the reader's own checks)."""
    try:
        from_data(path, doc.unwrap())
    except RulesError as e:
        raise RulesError("TRAIT", f"the sheet would not read back: {e.message}") from None


def _locked(sheet: Sheet) -> AbstractContextManager[None]:
    """The lock that guards ``sheet``'s file: that of the folder holding the real file
    (a sheet linked from two homes is one file, so both take one lock, never each its
    own); for a file that is no link, its characters folder's lock as ever."""
    import os

    return files.locked(Path(os.path.realpath(sheet.path)).parent)


def remove(name: str) -> Sheet:
    found = load(name)
    with _locked(found):
        sheet, _ = _read(found, "NAME")
        try:
            sheet.path.unlink()
        except OSError as e:
            raise files.failed(sheet.path, e, "write") from None
    return sheet


def settle(who: str | Sheet, ruleset: str, pay: Callable[[Sheet], tuple[dict[str, int], T]],
           param: str = "--as") -> T:
    """Read the sheet of ``who`` (a name, or a sheet already read: then that very file,
    whatever its name says), let ``pay(sheet)`` decide what it costs, and write the
    sheet's new resources, all under the lock: ``pay`` returns ``(new values by
    resource, its own result)``; it raises (a :class:`RulesError`) to pay nothing, and
    then the sheet is left as it was. A sheet that could not be written (read-only,
    its folder) is refused before ``pay`` runs."""
    found = who if isinstance(who, Sheet) else load(who, param)
    with _locked(found):
        sheet, text = _read(found, param)
        if sheet.ruleset != ruleset:
            raise RulesError(param, f"{visible(sheet.name)} is a {sheet.ruleset} character, not {ruleset}")
        files.check_writable(sheet.path)
        values, result = pay(sheet)
        changes = {k: v for k, v in values.items() if sheet.get(k) != v}
        if changes:
            quick = _quick_text(sheet, text, changes)
            if quick is not None:  # the same file tomlkit would write, without loading it
                files.write_document(sheet.path, quick)
                for trait, value in changes.items():
                    sheet.traits[sheet.spelling(trait) or canonical(sheet.ruleset, trait)] = value
                sheet.__post_init__()
            else:
                doc = files.document(sheet.path, text)
                _set_traits(sheet, doc, changes)
                files.write_document(sheet.path, doc)
    return result


_BARE = re.compile(r"[A-Za-z0-9_-]+")
_LINE = r"^([ \t]*{key}[ \t]*=[ \t]*)(-?[0-9]+|\"[a-z]*\"|'[a-z]*')([ \t]*(?:#.*)?)$"


def _quick_text(sheet: Sheet, text: str, changes: Mapping[str, Trait]) -> str | None:
    """The sheet's text with ``changes`` (resources spent, damage taken: numbers and
    words) made in place of the values in its ``[traits]`` table, or added at the table's
    end, every other byte kept; None when the file is laid out otherwise (tomlkit then
    writes it). The text made is read back and must hold exactly the sheet with the
    changes, or None: this is a shortcut, never a different result."""
    lines = text.split("\n")
    heads = [i for i, line in enumerate(lines) if line.lstrip().startswith("[")]
    start = next((i for i in heads if re.fullmatch(r"\[[ \t]*traits[ \t]*\][ \t]*(#.*)?",
                                                   lines[i].strip())), None)
    if start is None:
        return None
    end = next((i for i in heads if i > start), len(lines))
    added = []
    for trait, value in changes.items():
        spelled = sheet.spelling(trait) or canonical(sheet.ruleset, trait)
        if not _BARE.fullmatch(spelled) or not isinstance(value, (int, str)) or value is True:
            return None
        shown_value = str(value) if isinstance(value, int) else f'"{value}"'
        pattern = re.compile(_LINE.format(key=re.escape(spelled)))
        found = [i for i in range(start + 1, end) if pattern.match(lines[i])]
        if len(found) > 1:
            return None
        if found:
            m = pattern.match(lines[found[0]])
            assert m is not None
            lines[found[0]] = m.group(1) + shown_value + m.group(3)
        elif sheet.spelling(trait) is None:
            added.append(f"{spelled} = {shown_value}")
        else:
            return None  # the trait is there, written some other way
    last = max((i for i in range(start, end) if lines[i].strip()
                and not lines[i].lstrip().startswith("#")), default=start)
    lines[last + 1:last + 1] = added
    out = "\n".join(lines)
    return out if _reads_as(sheet, text, out, changes) else None


def _reads_as(sheet: Sheet, old: str, new: str, changes: Mapping[str, Trait]) -> bool:
    """Whether ``new`` reads as ``old`` with ``changes`` made to its traits, and nothing else."""
    try:
        before, after = files.parse(sheet.path, old), files.parse(sheet.path, new)
    except RulesError:
        return False
    found = before.get("traits") or {}
    traits = dict(found) if isinstance(found, dict) else {}
    for trait, value in changes.items():
        traits[sheet.spelling(trait) or canonical(sheet.ruleset, trait)] = value
    return after == {**before, "traits": traits}


def spend(who: str | Sheet, ruleset: str, costs: dict[str, int],
          param: str = "--as") -> tuple[dict[str, int], dict[str, int]]:
    """Pay ``costs`` (resource -> points: ``willpower``, or a Cypher Pool ``might``,
    ``speed``, ``intellect``) from the sheet of ``who``, under the lock; return
    ``(spent, left)`` (``who`` as :func:`settle` takes it). A sheet that cannot pay all of it pays nothing: a
    :class:`RulesError` naming ``param``, and the file is untouched."""

    def pay(sheet: Sheet) -> tuple[dict[str, int], tuple[dict[str, int], dict[str, int]]]:
        have = {r: resource(sheet, r) for r in costs}
        for r, cost in costs.items():
            if cost > have[r]:
                raise cannot_pay(sheet, param, r, cost, have[r])
        left = {r: have[r] - cost for r, cost in costs.items()}
        return left, (dict(costs), left)

    return settle(who, ruleset, pay, param)


def resource(sheet: Sheet, name: str) -> int:
    value = sheet.get(name, 0)
    return value if isinstance(value, int) else 0


HIDDEN: ContextVar[Mapping[str, frozenset[str]] | None] = ContextVar("hidden", default=None)
"""While a seat's roll is made (rpgdice.cli.seated): by character (its name folded), the
traits unrevealed secret rolls changed (raw keys: ``willpower``, ``might``...). A refusal
to the seat names none of their values (it says what is missing as the table saw it)."""


def hidden(sheet: Sheet) -> frozenset[str]:
    """The traits of ``sheet`` whose values are held back from the seat rolling now."""
    return (HIDDEN.get() or {}).get(fold(sheet.name), frozenset())


def cannot_pay(sheet: Sheet, param: str, name: str, cost: int, have: int) -> RulesError:
    found = resource_of(sheet.ruleset, name)
    what = found.label if found is not None else name
    if fold(name) in hidden(sheet):  # what it has is not what the table saw: no number
        return RulesError(param, f"{visible(sheet.name)} has not the {cost} {what} this may "
                          "cost; nothing was rolled or spent")
    return RulesError(param, f"{visible(sheet.name)} has {have} {what}, and this may cost "
                      f"{cost}; nothing was rolled or spent")


# Rolling by trait name ---------------------------------------------------------


@dataclass
class Term:
    """One term of a pool argument: its sign, the trait it named (None for a number
    typed as such) and its value."""

    sign: str
    trait: str | None
    value: int

    def text(self, first: bool) -> str:
        sign = "" if first and self.sign == "+" else (" − " if self.sign == "-" else " + ")
        if first and self.sign == "-":
            sign = "−"
        return sign + (f"{label(self.trait)} {self.value}" if self.trait else str(self.value))


def describe(terms: list[Term]) -> str:
    """``Dexterity 3 + Stealth 3 − 2``."""
    return "".join(t.text(i == 0) for i, t in enumerate(terms))


_NUMBER = re.compile(r"[0-9]+")


MAX_TERMS = 64
"""The most ``+``/``-`` terms a pool argument naming traits may have."""


def resolve(sheet: Sheet, text: str, param: str) -> tuple[str, list[Term]] | None:
    """A pool argument that names traits (``dexterity+stealth``,
    ``armas-de-fuego-2``) as the numbers it stands for (``3+3``, ``3-2``) and its
    terms; None when it names no trait (a plain number or sum, left to its parser).

    Each ``+`` term is first matched whole against the sheet's traits; a term that
    is no trait reads as its longest leading trait name followed by subtractions
    (of numbers or traits). A trait the sheet lacks is an error naming the closest."""
    plain = text.replace("\u2212", "-")
    if not any(c.isalpha() for c in plain):
        return None
    if plain.count("+") + plain.count("-") > MAX_TERMS:  # the longest-name search is quadratic
        raise RulesError(param, f"{shown(text)} has more than {MAX_TERMS} terms; a pool is a "
                         "few traits and numbers")
    terms: list[Term] = []
    for raw in plain.split("+"):
        term = raw.strip()
        if not term:
            return None  # an empty term: the argument's own parser says what is wrong
        if _NUMBER.fullmatch(term):
            terms.append(Term("+", None, int(term)))
            continue
        if sheet.spelling(term) is not None:
            terms.append(Term("+", sheet.spelling(term), _number(sheet, term, param)))
            continue
        pieces = term.split("-")
        i, sign = 0, "+"
        while i < len(pieces):
            piece = pieces[i].strip()
            if i == 0 and not piece:  # a leading minus
                i, sign = 1, "-"
                continue
            if _NUMBER.fullmatch(piece):
                terms.append(Term(sign, None, int(piece)))
                i, sign = i + 1, "-"
                continue
            for j in range(len(pieces), i, -1):
                name = "-".join(pieces[i:j]).strip()
                if name and sheet.spelling(name) is not None:
                    terms.append(Term(sign, sheet.spelling(name), _number(sheet, name, param)))
                    i, sign = j, "-"
                    break
            else:
                raise sheet.missing(param, term if i == 0 else "-".join(pieces[i:]).strip())
    numbers = "".join(("" if k == 0 and t.sign == "+" else t.sign) + str(t.value)
                      for k, t in enumerate(terms))
    return numbers, terms


def _number(sheet: Sheet, trait: str, param: str) -> int:
    spelled = sheet.spelling(trait)
    value = sheet.traits[spelled] if spelled is not None else None
    if not isinstance(value, int):
        raise RulesError(param, f"{sheet.name}'s {spelled} is {shown(value)}, not a number of dice "
                         "or dots")
    return value
