"""The game systems rpgdice knows, one folder each, and the registry that finds them.

A folder ``rulesets/<name>/`` holds one ruleset whole:

* ``rules.py`` — pure: its records and functions, dice from an injected source (no
  typer, rich, files, sqlite or clock);
* ``odds.py`` — its exact odds (icepool), loaded only on the odds path;
* ``commands.py`` — its Typer group, thin: parse, call the rules, hand the result on;
* ``view.py`` — its Rich views, loaded only when a person reads the output;
* and, where it has them, the operations that touch the user's state for it.

Its ``__init__.py`` declares one :class:`Ruleset` record — what everything outside the
folder reads instead of keeping a table of its own (titles, outcome words, the die, the
sheet's schema, costs, views). The registry below finds the rulesets itself: every folder
of this package that holds an ``__init__.py`` is one, and so is every entry point of the
group ``rpgdice.rulesets`` another package declares (a ruleset of its own, as a package
laid out the same way; docs/adding-a-ruleset.md). It maps a name to its folder lazily:
``get("seyruun")`` imports ``rulesets/seyruun/__init__.py`` alone, which imports nothing
heavy, so a roll still loads its own ruleset and no other; the entry points are read only
for a name no folder has, or to list every ruleset (help, completion).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import field
from importlib import import_module
from typing import TYPE_CHECKING, TypeVar

from rpgdice.core import registry
from rpgdice.core.parts import Cost as Cost
from rpgdice.core.parts import Fight as Fight
from rpgdice.core.parts import add_within as add_within
from rpgdice.core.parts import shifted as shifted
from rpgdice.core.record import frozen

if TYPE_CHECKING:
    from collections.abc import Hashable
    from contextlib import AbstractContextManager
    from importlib.metadata import EntryPoint
    from types import ModuleType

    from rich.console import RenderableType
    from rich.text import Text

    from rpgdice.core.command import Command
    from rpgdice.core.data import Loaded
    from rpgdice.core.record import Tagged
    from rpgdice.render.common import Line, View
    from rpgdice.table import sheets
    from rpgdice.table.sheets import Sheet, Trait

ENTRY_POINTS = "rpgdice.rulesets"
"""The entry point group a package's ruleset registers under: ``NAME = "package"`` (the
package's ``RULESET``) or ``NAME = "package:RECORD"``."""
TONES = ("good", "bad", "dire")
"""How an outcome reads, which the views turn into a style: good, bad, or a disaster."""



T = TypeVar("T")


def lazily(load: Callable[[], Callable[..., T]]) -> Callable[..., T]:
    """The function ``load()`` returns, loaded at its first call and kept: a record names
    what some commands need (an attack's take-back, a cost's plan, the verdict) by the
    function itself, without importing its module on every roll::

        @lazily
        def plan():
            from rpgdice.rulesets.seyruun.character import plan
            return plan
    """
    found: list[Callable[..., T]] = []

    def call(*args: object, **kwargs: object) -> T:
        if not found:
            found.append(load())
        return found[0](*args, **kwargs)

    call.__name__ = call.__qualname__ = load.__name__.lstrip("_")
    call.__doc__ = load.__doc__
    return call


@frozen
class Reserved:
    """A trait with a meaning of its own on a ruleset's sheets: ``words`` it takes (a
    wound level), or a whole number from 0 to ``most``."""

    name: str
    words: tuple[str, ...] = ()
    most: int | None = None
    """The highest value (None: the sheets' common limit)."""
    dice: bool = False
    """Also an ordinary dice expression, as text (a sheet's ``initiative``: ``1d20+2``)."""
    also: tuple[str, ...] = ()
    """Its other names, in the ruleset's own language (Reglas' ``iniciativa``): a sheet
    may spell it either way, and keeps the spelling it was given."""


@frozen
class Resource:
    """A trait spent and regained (Willpower, a Cypher Pool): its label and where its
    maximum comes from (``max_trait`` when set, else ``derive(sheet)``)."""

    name: str
    label: str
    max_trait: str
    derive: Callable[[Sheet], int | None] | None = None
    derived: str = ""
    """What ``derive`` adds up, as a person says it: "composure + resolve"."""
    shown: bool = False
    """Whether ``char show --json`` gives it and its maximum as keys of their own
    (Seyruun's ``willpower`` and ``willpower_max``)."""
    listed: bool = True
    """Whether it is one of the sheet's ``resources`` (``char show``); Seyruun's ``damage``,
    bounded by ``health``, is kept within its bounds but is no resource spent."""


@frozen
class SheetSchema:
    """What a ruleset's character sheet may hold."""

    reserved: tuple[Reserved, ...] = ()
    skill_words: tuple[str, ...] = ()
    """Words any other trait may hold instead of a number (Cypher's skill levels)."""
    resources: tuple[Resource, ...] = ()
    attributes: frozenset[str] = frozenset()
    """Traits that are attributes (Seyruun: the Attribute of Attribute + Skill)."""
    effort_pools: tuple[str, ...] = ()
    """The Pools that may pay Effort (Cypher's ``--pool``), each with its ``POOL-edge``."""
    headings: tuple[str, str] = ("Traits", "Traits")
    """How ``char show`` heads the sheet's attributes and its other traits."""
    defaults: Callable[[Sheet, str | None], dict[str, object]] | None = None
    """What the sheet gives the options a command line leaves out (Seyruun's ``--wound``,
    Cypher's ``--edge`` from the chosen ``--pool``): ``defaults(sheet, pool)``."""
    follows: Callable[[Sheet, set[str]], dict[str, Trait]] | None = None
    """What follows from a change of the sheet: ``follows(sheet, folded traits changed)`` gives
    more traits to set (Seyruun's wound from its damage)."""
    labels: Callable[[Sheet, str, set[str]], list[tuple[str, str]]] | None = None
    """What a character's roll says it took from the sheet besides its traits (the
    sheet's wound): ``labels(sheet, command, options typed)``, as ``(what, text)``."""
    negative: bool = False
    """Whether its traits may be below 0 (a user's ruleset file's sheets)."""


@frozen
class Die:
    """The die a ruleset's rolls use, and where its results show the faces rolled:
    ``dice`` the list key in a result's JSON (None: one face at ``face``)."""

    sides: int
    dice: str | None
    face: str


@frozen
class Views:
    """A ruleset's views, keyed by result class: ``show[cls](result)`` is its lines;
    ``summaries[cls]`` (a label of one result, the noun) sums repeated results (``-n``) up
    in the roll type's own terms (the others count outcomes in the ruleset's words);
    ``closings[cls](tally)`` writes that closing line itself."""

    show: Mapping[type, View]
    summaries: Mapping[type, tuple[Callable[..., Hashable], str]] = field(default_factory=dict)
    closings: Mapping[type, Callable[..., Text | None]] = field(default_factory=dict)
    after: Mapping[type, Callable[..., Sequence[Line]]] = field(default_factory=dict)
    """``--odds``: the lines under a roll, by odds class, where an odds record is shown only
    there and says more than the chance of the outcome rolled (an attack's damage chart,
    an ordinary roll's chance of its total)."""
    repeats: Mapping[type, Callable[..., list[Text]]] = field(default_factory=dict)
    """``-n`` shown compactly (when the command asks, ``show(compact=True)``): the lines of
    all the results (an iterable of them), by result class (ordinary dice: ``4d6kh3 ×6:
    12, 13, 11, 10, 18, 10``)."""
    figures: Mapping[str, Callable[[Loaded], str]] = field(default_factory=dict)
    """The roll log's few words on one stored result (its JSON object), by command:
    ``4 10 9 → 4 succ.``, ``d20 12 vs 9``."""
    verdicts: Mapping[str, Callable[[Loaded], tuple[str, str]]] = field(default_factory=dict)
    """The roll log's word for one stored result where the outcome's word reads wrong, by
    command, with its tone: an attack's ``("Hit", "good")``, an initiative's ``("Order", "")``."""
    sheet_part: Callable[[sheets.Sheet], RenderableType] | None = None
    """``char show``: what the ruleset shows of a sheet besides its traits (Willpower and
    the wound, the Pools)."""


@frozen
class Words:
    """How a ruleset is named and speaks: its title, how a sentence names it, its group's
    help, its outcomes as nouns, and what says a line of rpgdice's in its language."""

    title: str
    """As a person writes it: "Reglas Básicas"."""
    short: str = ""
    """As a sentence names it: "a Cypher character", "Reglas Básicas rolls" ("": the title)."""
    called: str = ""
    """How a sentence names the system ("the Cypher System"; "": its title)."""
    help: str = ""
    """Its group's one-line help."""
    nouns: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    """Each JSON ``outcome`` value as a noun in the rules' language, singular and plural,
    for counting them (the ``-n`` summary: "3 successes, 1 botch", "3 éxitos, 1 fracaso")."""
    translate: Callable[[str], str] | None = None
    """Says an error or warning line in the ruleset's language (None: the lines stay
    English)."""


@frozen
class Ruleset:
    """One game system, as everything outside its folder sees it: what is the ruleset's own.
    What is a command's — its parameters, its builder, its result classes, its roles — is
    in the command's record (:class:`rpgdice.core.command.Command`), which
    :attr:`commands` gives."""

    name: str
    words: Words
    language: str
    """Of its views and help: "es" for Reglas Básicas, else "en"."""
    outcomes: Mapping[str, tuple[str, str]]
    """Each JSON ``outcome`` value, in order, to its word in the rules' language and its
    tone (:data:`TONES`)."""
    die: Die | None
    sheet: SheetSchema | None
    """None: no character sheets (ordinary dice)."""
    commands: Callable[[Ruleset], Sequence[Command]]
    """Its rolling commands' records: ``commands(record)`` (its ``commands.py``, imported
    at the first call)."""
    plan: Callable[[str, Loaded, Sheet, str | None], Cost] | None = None
    """What a command run for a character (``--as``) may cost: ``plan(command, params,
    sheet, pool)`` (pool: Cypher's ``--pool``); None when nothing ever costs."""
    fight: Fight = Fight()
    """Its parts of an encounter (its initiative, its damage track, who is out)."""
    order: int = 100
    """Where help, the README and every list put it (the four systems 10 to 40, ordinary
    dice 90; a ruleset of another package 100, then by name)."""
    group: bool = True
    """Whether its commands are a group of their own (``rpgdice NAME ...``); ordinary
    dice's are the top-level ``roll`` and ``odds``."""

    @property
    def title(self) -> str:
        return self.words.title

    @property
    def short(self) -> str:
        return self.words.short or self.words.title

    @property
    def called(self) -> str:
        return self.words.called

    @property
    def help(self) -> str:
        return self.words.help

    @property
    def nouns(self) -> Mapping[str, tuple[str, str]]:
        return self.words.nouns

    @property
    def module(self) -> str:
        """The package of its folder: where its ``commands`` function was declared."""
        return str(getattr(self.commands, "__module__", "") or f"{__name__}.{self.name}")

    def views(self) -> Views:
        """Its Rich views: its ``view.py``'s ``TABLE`` (imported when called)."""
        table: Views = import_module(f"{self.module}.view").TABLE
        return table

    def odds(self) -> ModuleType:
        """Its ``odds.py`` (icepool loads with it)."""
        return import_module(f"{self.module}.odds")

    def rules(self) -> ModuleType:
        """Its ``rules.py``."""
        return import_module(f"{self.module}.rules")

    def verdict(self) -> Callable[[object], tuple[str, str]] | None:
        """A roll's verdict in the rules' words and its tone: its ``verdict.py``'s
        ``verdict(result)`` for every result class its commands make (imported when first
        asked; None: the folder has none) — the JSON's ``verdict`` and ``tone``, which every
        view says."""
        where = f"{self.module}.verdict"
        try:
            module = import_module(where)
        except ModuleNotFoundError as e:
            if e.name != where:
                raise
            return None
        found: Callable[[object], tuple[str, str]] | None = getattr(module, "verdict", None)
        return found

    def records(self) -> tuple[Command, ...]:
        """Its rolling commands' records (loaded on first call): everything known of a
        command is read from them."""
        found = _RECORDS.get(self.name)
        if found is None or found[0] is not self:
            found = (self, tuple(self.commands(self)))
            _RECORDS[self.name] = found
        return found[1]

    def command(self, name: str) -> Command | None:
        """The record of its command ``name`` (None: no rolling command of that name)."""
        return next((c for c in self.records() if c.name == name), None)

    @property
    def outcome_stats(self) -> bool:
        """Whether ``log stats`` holds its rolls' outcomes against their exact odds (ordinary
        dice, most of whose rolls name no outcome: no, their faces alone are judged)."""
        return not any(c.stats and c.faces_judged for c in self.records())

    def record_class(self, name: str) -> type:
        """The record class ``name`` of its ``rules.py`` (a result class :attr:`results`
        names, or a record an odds spec holds); a KeyError for any other name, so stored
        data can only ever make this ruleset's records."""
        from dataclasses import is_dataclass

        rules = self.rules()
        cls = getattr(rules, name, None) if name.isidentifier() else None
        if not (isinstance(cls, type) and is_dataclass(cls) and cls.__module__ == rules.__name__):
            raise KeyError(name)
        return cls

    def result_class(self, command: str) -> type | None:
        """The one result class ``command`` makes (None when it makes several, or is no
        rolling command): how an entry of an older rpgdice, which stored no class names,
        is rebuilt."""
        found = self.command(command)
        made = found.results if found is not None else ()
        return made[0] if len(made) == 1 else None

    def result_names(self) -> frozenset[str]:
        """The names of every result class its commands make."""
        return frozenset(cls.__name__ for c in self.records() for cls in c.results)

    def odds_functions(self) -> dict[str, Callable[..., object]]:
        """The odds functions its commands declare, by name: those a stored odds spec may
        name."""
        return {f.__name__: f for c in self.records() for f in c.odds_functions}

    def word(self, outcome: str | None) -> str:
        """An outcome in the ruleset's own words ("Fracaso")."""
        return self.outcomes.get(outcome or "", (str(outcome or "rolled"), "bad"))[0]

    def counted(self, outcome: str | None, n: int) -> str:
        """``n`` outcomes, counted in the ruleset's nouns: "3 successes", "1 fracaso" (an
        outcome without a noun: its word)."""
        one, many = self.nouns.get(outcome or "", (self.word(outcome),) * 2)
        return f"{n} {one if n == 1 else many}"

    def tone(self, outcome: str | None) -> str:
        """An outcome's tone (:data:`TONES`), "" for a value the ruleset does not know."""
        return self.outcomes.get(outcome or "", ("", ""))[1]


def _folders() -> frozenset[str]:
    """The rulesets of this package: its folders that hold an ``__init__.py``."""
    global _FOLDERS
    if _FOLDERS is None:
        here = os.path.dirname(__file__)
        with os.scandir(here) as entries:
            _FOLDERS = frozenset(
                e.name for e in entries
                if e.is_dir() and e.name.isidentifier() and not e.name.startswith("_")
                and os.path.isfile(os.path.join(here, e.name, "__init__.py")))
    return _FOLDERS


_RECORDS: dict[str, tuple[Ruleset, tuple[Command, ...]]] = {}
_FOLDERS: frozenset[str] | None = None
_PLUGINS: dict[str, EntryPoint] | None = None
_LOADED: dict[str, Ruleset] = {}


def _plugins() -> dict[str, EntryPoint]:
    """The entry points of :data:`ENTRY_POINTS`, by name (read once; a built-in name wins)."""
    global _PLUGINS
    if _PLUGINS is None:
        found: dict[str, EntryPoint] = {}
        if _may_declare():
            from importlib.metadata import entry_points

            for ep in entry_points(group=ENTRY_POINTS):
                if ep.name not in _folders() and ep.name.isidentifier():
                    found.setdefault(ep.name, ep)
        _PLUGINS = found
    return _PLUGINS


def _may_declare() -> bool:
    """Whether an installed distribution may declare an entry point of
    :data:`ENTRY_POINTS`: the group's name is in the ``entry_points.txt`` of a distribution
    in a folder on ``sys.path``, or something else finds distributions (a zip on the path,
    a finder of its own), which only :mod:`importlib.metadata` reads. Without one, the
    entry points are not read at all: importing :mod:`importlib.metadata` and reading every
    distribution's metadata cost a listing (``log``, ``--help``) more than all its own work."""
    from importlib.machinery import PathFinder

    if any(hasattr(f, "find_distributions") and f is not PathFinder for f in sys.meta_path):
        return True
    group = ENTRY_POINTS.encode()
    for entry in sys.path:
        try:
            with os.scandir(entry or ".") as found:
                metadata = [e.path for e in found
                            if e.name.endswith((".dist-info", ".egg-info")) and e.is_dir()]
        except NotADirectoryError:  # a zip: importlib.metadata reads it
            return True
        except OSError:  # a folder that is not there
            continue
        for folder in metadata:
            try:
                with open(os.path.join(folder, "entry_points.txt"), "rb") as f:
                    if group in f.read():
                        return True
            except OSError:
                continue
    return False


def forget() -> None:
    """Read the folders and entry points again (a test that installs a ruleset)."""
    global _FOLDERS, _PLUGINS
    _FOLDERS, _PLUGINS = None, None
    _LOADED.clear()
    _RECORDS.clear()
    if "rpgdice.rulesets._file" in sys.modules:
        sys.modules["rpgdice.rulesets._file"].forget()


@contextmanager
def lent(ruleset: Ruleset) -> Iterator[Ruleset]:
    """``with lent(record):`` :func:`get` gives ``record`` by its name meanwhile, and
    afterwards what it gave before (completion builds the commands of a user's ruleset
    file of each kind from a record no file holds)."""
    before = _LOADED.get(ruleset.name)
    _LOADED[ruleset.name] = ruleset
    try:
        yield ruleset
    finally:
        if before is None:
            _LOADED.pop(ruleset.name, None)
        else:
            _LOADED[ruleset.name] = before


def known(name: str) -> bool:
    """Whether ``name`` is a ruleset's (the entry points are read only for a name no
    folder of this package has and no file of the user's: a user's ruleset file is a stat,
    and wins over an installed package's ruleset of its name)."""
    return name in _folders() or _user(name) or (name.isidentifier() and name in _plugins())


def _user(name: str) -> bool:
    """Whether a user's ruleset file ``rulesets/NAME.toml`` is there (a stat)."""
    from rpgdice.rulesets import _file

    return _file.exists(name)


def builtin_names() -> frozenset[str]:
    """The rulesets of this package's folders: the names a user's ruleset file may not
    take (a file may take an installed package's ruleset's name, and wins over it)."""
    return _folders()


def get(name: str) -> Ruleset:
    """The ruleset called ``name``: its folder's ``RULESET``, or the record an entry point
    names; a KeyError for any other name."""
    ruleset = _LOADED.get(name)
    if ruleset is not None:
        return ruleset
    if name in _folders():
        ruleset = import_module(f"{__name__}.{name}").RULESET
    elif _user(name):  # read again when the file changed; a broken file: a RulesError
        from rpgdice.rulesets import _file

        return _file.load(name)
    elif name.isidentifier() and name in _plugins():
        loaded = _plugins()[name].load()
        ruleset = getattr(loaded, "RULESET", loaded)
        if not isinstance(ruleset, Ruleset) or ruleset.name != name:
            raise KeyError(name)
    else:
        raise KeyError(name)
    _LOADED[name] = ruleset
    return ruleset


def names() -> tuple[str, ...]:
    """Every ruleset, in the order help and the README list them (:attr:`Ruleset.order`,
    then by name): the four systems, ordinary dice, then other packages' rulesets, then the
    user's ruleset files (the good ones). Imports every record and reads the entry points
    and the files: for lists, never for a roll."""
    from rpgdice.rulesets import _file

    files = [r for r in _file.valid() if r.name not in _folders()]
    mine = {r.name for r in files}
    found = [get(n) for n in sorted({*_folders(), *_plugins()} - mine)] + files
    return tuple(r.name for r in sorted(found, key=lambda r: (r.order, r.name)))


def built_in(groups: bool = False) -> tuple[str, ...]:
    """:func:`names` (with ``groups``, :func:`group_names`) without the user's ruleset
    files: what a help page, an option's choices and the completion scripts list (the files
    are read where a name is parsed, and the shells read the folder)."""
    found = [get(n) for n in {*_folders(), *_plugins()}]
    return tuple(r.name for r in sorted(found, key=lambda r: (r.order, r.name))
                 if r.group or not groups)


def group_names() -> tuple[str, ...]:
    """The rulesets with a command group of their own (``rpgdice NAME ...``): all but
    ordinary dice, whose commands are the top-level ``roll`` and ``odds``."""
    return tuple(n for n in names() if get(n).group)


def __getattr__(attr: str) -> tuple[str, ...]:
    """``NAMES`` (:func:`names`) and ``SHEET_RULESETS`` (:func:`group_names`), read when
    first asked for."""
    if attr == "NAMES":
        return names()
    if attr == "SHEET_RULESETS":
        return group_names()
    raise AttributeError(f"module {__name__!r} has no attribute {attr!r}")


def of(result: Tagged) -> Ruleset:
    """The ruleset a result record belongs to (its class's ``RULESET``)."""
    return get(type(result).RULESET)


def with_sheets() -> Iterator[Ruleset]:
    """The rulesets that keep character sheets, in order (imports each one's record)."""
    return (r for r in map(get, names()) if r.sheet is not None)


def view(result: Tagged) -> View:
    """The view of ``result``, found from its class through its ruleset's record."""
    return of(result).views().show[type(result)]


def as_rolled(entry: object) -> AbstractContextManager[None]:
    """``with as_rolled(entry):`` a logged roll of a user's ruleset file is shown by the
    rules it carried (the file edited or deleted since): :func:`get` and :func:`known` give
    their record meanwhile. Nothing for any other roll."""
    spec = entry.get("roll") if isinstance(entry, dict) else None
    name = spec.get("ruleset") if isinstance(spec, dict) else None
    if not isinstance(name, str) or name in _folders():
        from contextlib import nullcontext

        return nullcontext()
    from rpgdice.rulesets import _file

    return _file.as_rolled(entry)


registry.register(get, names, group_names, known, as_rolled)  # what the layers beneath find the rulesets by
