"""A rolling command as data: :class:`Command`, with its arguments and options as
:class:`Param` descriptors.

A ruleset declares each of its rolling commands once, as a record: its name, its
parameters (name, kind, default, limits, help in the ruleset's language, what TAB
offers), its builder (``build(**arguments) -> Plan``), the result classes it makes,
and its roles (it takes ``--as``, ``again`` repeats it, a seat may run it, ``log stats``
counts it, ``RULESET odds NAME`` gives its odds alone). Everything else is made from
these records: the Typer command and its ``--help`` (rpgdice.cli.made), completion, what
a seat may run and the description of each command the seat's panel draws its form
from (:func:`describe`, ``GET /api/panel``). A new option is one descriptor.

Pure data: nothing here imports Typer, Click, Rich or the user's files.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Optional, Union

from rpgdice.core.record import record

KINDS = ("number", "traits", "choice", "flag", "dice", "text", "character")
"""What a parameter takes: a whole number (``number``), a sum of trait names or numbers
(``traits``), one of its ``choices`` (``choice``), nothing (``flag``), an ordinary dice
expression (``dice``), words (``text``) or a saved character's name (``character``)."""

Parser = Callable[[str], object]
Value = Union[int, str, bool, None, tuple[object, ...]]


@record
class Param:
    """One argument or option of a rolling command, as declared once."""

    name: str
    """The builder's keyword (``die_mod``)."""
    kind: str
    """One of :data:`KINDS`."""
    flags: tuple[str, ...] = ()
    """Its option names (``("-d", "--difficulty")``); () for an argument."""
    help: str = ""
    """Its help, in the ruleset's language."""
    default: object = None
    """Its default (None: none; ``REQUIRED``: it must be given)."""
    metavar: str = ""
    parse: Optional[Parser] = None
    """Reads one typed word into its value (raising the command line's bad-parameter
    error with a reason that names what it accepts); None: the word as typed."""
    multiple: bool = False
    """Repeatable (``--die-mod 2 --die-mod 1``): a tuple of values."""
    choices: tuple[str, ...] = ()
    """A ``choice``'s values (else what its parser names), offered by TAB and the panel."""
    lo: Optional[int] = None
    hi: Optional[int] = None
    """A ``number``'s limits, where it has them."""
    show_default: bool = False
    """Whether its help names the default (Typer's ``[default: …]``)."""
    eager: bool = False
    on_parse: Optional[Callable[..., object]] = None
    """Called with the parsing context and the value as soon as it is read (``--vs``:
    the target's sheet is read before the pools that name its traits)."""
    negative: str = ""
    """A flag's name for off (``--no-log``)."""
    envvar: str = ""
    panel: str = ""
    """The help panel it is listed under ("": the command's own options)."""
    hidden: bool = False
    completes: str = ""
    """What TAB offers beside its choices: ``characters``, ``extras``, ``traits``."""
    target: Optional[Callable[[str], object]] = None
    """A ``character`` option naming the roll's target (``--vs``): reads what a name names,
    ``(sheet, extra)`` — a saved character's sheet or an extra of the encounter (its
    ruleset's ``target_named``). The executor calls it (rpgdice.roll.target)."""
    target_traits: bool = False
    """Its words may name the target's traits (``--defense dexterity+athletics``): the
    executor reads them from the target's sheet, then its parser reads the numbers."""

    @property
    def option(self) -> Optional[str]:
        """Its long flag (None: an argument)."""
        return next((f for f in self.flags if f.startswith("--")), self.flags[0] if self.flags
                    else None)

    @property
    def required(self) -> bool:
        return self.default is REQUIRED


class _Required:
    """The default of a parameter that must be given."""

    def __repr__(self) -> str:
        return "REQUIRED"


REQUIRED: object = _Required()


@record
class Command:
    """One rolling command of a ruleset, as declared once."""

    name: str
    build: Callable[..., object]
    """``build(**arguments) -> Plan`` (rpgdice.roll.plan): what the executor calls, whichever path the roll came
    by (a command line, ``play``, a seat, a replay)."""
    params: tuple[Param, ...] = ()
    help: str = ""
    """Its help page's text (Markdown), in the ruleset's language."""
    kind: str = "roll"
    """``roll``, or ``odds`` (it computes exact odds and rolls nothing)."""
    results: tuple[type, ...] = ()
    """The result classes it makes (its ruleset's ``rules.py``'s: the log stores a result's
    class name and rebuilds the record from its data)."""
    takes_as: bool = False
    """It rolls for a saved character (``--as``)."""
    repeated: bool = True
    """``again`` repeats it (not a re-roll after the fact)."""
    seated: bool = True
    """A seat (and the GM's token) may run it at the table's server."""
    stats: bool = False
    """A single roll ``log stats`` holds against its exact odds."""
    odds_type: bool = False
    """A roll type whose odds alone ``rpgdice RULESET odds NAME ...`` computes."""
    entry_arg: Optional[tuple[str, str]] = None
    """It acts on a logged roll: its argument naming the entry, and the key of its result
    saying which entry it was (``reroll``: ``("entry_id", "rerolls")``)."""
    without: frozenset[str] = frozenset()
    """Shared options it does not take (``times``, ``odds``, ``compare``)."""
    after: frozenset[str] = frozenset()
    """Its own options its help lists after the shared ``--dice`` … ``--odds``."""
    option_help: Optional[Mapping[str, str]] = None
    """A shared option's help, where it says more for this command."""
    odds_functions: tuple[Callable[..., object], ...] = ()
    """The functions its exact odds are computed by (each its ruleset's ``odds.py``'s,
    imported at its first call): a stored odds spec names one of them by its name, and
    one naming any other is refused, never called."""
    faces_judged: bool = False
    """``log stats`` judges its rolls' faces alone, not their outcomes (ordinary dice, most
    of whose rolls name no outcome)."""
    style: str = ""
    """The command class its help is laid out by ("": a ruleset's roll; ``notation``:
    ordinary dice, whose expression words are joined)."""

    def param(self, name: str) -> Optional[Param]:
        return next((p for p in self.params if p.name == name), None)


def roll_and_odds(build: Callable[..., object], params: tuple[Param, ...], result: type,
                  odds_function: Callable[..., object], odds_help: str,
                  ) -> tuple[Command, Command]:
    """A ruleset's plain ``roll`` (its help the builder's docstring; it takes ``--as``,
    ``log stats`` holds it against its odds) and its ``odds``: the same builder and
    arguments, its odds alone."""
    return (Command("roll", build, params, help=build.__doc__ or "", results=(result,),
                    takes_as=True, stats=True, odds_functions=(odds_function,)),
            Command("odds", build, params, help=odds_help, kind="odds", takes_as=True,
                    odds_functions=(odds_function,)))


def describe(command: Command, line: str, language: str = "en") -> dict[str, object]:
    """A command as the seat's panel draws its form from it (``GET /api/panel``):
    ``{"line", "help", "params": [{"name", "option", "kind", "choices", "default",
    "help"}]}``."""
    return {
        "line": line,
        "help": first_paragraph(command.help),
        "language": language,
        "params": [_param_data(p) for p in command.params if not p.hidden],
    }


def _param_data(p: Param) -> dict[str, object]:
    choices = p.choices or tuple(getattr(p.parse, "choices", ()) or ())
    default = None if p.required else p.default
    if not isinstance(default, (int, str, bool, type(None))):
        default = None
    return {"name": p.name, "option": p.option, "kind": p.kind,
            "choices": list(choices), "default": default, "help": p.help,
            "multiple": p.multiple, "required": p.required,
            "min": p.lo, "max": p.hi}


def first_paragraph(text: str) -> str:
    """A help text's first paragraph, on one line."""
    head = text.strip().split("\n\n", 1)[0]
    return " ".join(head.split())
