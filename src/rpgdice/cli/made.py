"""A rolling command's Typer command, made from its record
(:class:`rpgdice.core.command.Command`).

Each record becomes one ``typer.Typer`` holding one command, whose function's signature
is made from the record's parameters and the shared options (:data:`SHARED`, declared
once in rpgdice.cli.common) — ``inspect.Signature`` with ``typer.Option`` defaults, which
is how Typer reads any function — and Typer's documented ``get_command`` makes the Click
command of it (rpgdice.cli.typer_private names it). The command's body receives every
value as an argument, the shared options included (no callback fills a run), and hands
the roll to :func:`rpgdice.cli.common.submit_values`.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import TYPE_CHECKING, Optional, TypeVar

import typer

from rpgdice.core.command import Command, Param
from rpgdice.core.errors import BadValue

R = TypeVar("R")

if TYPE_CHECKING:
    from rpgdice.cli.common import Shared

SHARED_NAMES = ("dice", "seed", "times", "json", "odds", "log_choice", "short", "secret",
                "blind", "compare")
"""The shared options' parameter names (the signature's, after the command's own)."""
CHARACTER_NAMES = ("as_name", "pool_name")


def _annotation(p: Param) -> object:
    """The Python type Typer reads a parameter's shape from (the parser reads the value)."""
    if p.kind == "flag":
        return bool
    if p.kind == "number" and p.parse is None and not p.multiple:  # Click's own integer
        return Optional[int] if p.default is None else int
    if p.multiple:
        return Optional[list[str]] if p.default is None else list[str]
    return Optional[str] if p.default is None else str


def _info(p: Param, language: str, hook: str = "", default: object = ...) -> object:
    """The ``typer.Argument`` or ``typer.Option`` a parameter is declared by, holding its
    ``default`` (``...``: required). ``hook``: how a trait-taking parameter reads names
    (rpgdice.cli.traits), read by a parser and a callback."""
    kwargs: dict[str, object] = {"help": p.help or None, "show_default": p.show_default}
    if hook:
        from rpgdice.cli.traits import chooser, reader

        assert p.parse is not None and p.on_parse is None, p.name
        parse = translated(p.parse)
        kwargs.update(parser=reader(parse, hook), callback=chooser(parse, hook))
    elif p.parse is not None:
        kwargs["parser"] = translated(p.parse)
    elif p.kind == "number" and not p.multiple:  # Click's integer, within lo..hi
        kwargs.update({k: v for k, v in (("min", p.lo), ("max", p.hi)) if v is not None})
    if p.metavar:
        kwargs["metavar"] = p.metavar
    if p.panel:
        kwargs["rich_help_panel"] = p.panel
    if p.hidden:
        kwargs["hidden"] = True
    if not p.flags:
        return typer.Argument(default, **kwargs)  # type: ignore[call-overload]
    if p.eager:
        kwargs["is_eager"] = True
    if p.on_parse is not None:
        kwargs["callback"] = translated(p.on_parse)
    if p.envvar:
        kwargs["envvar"] = p.envvar
        kwargs["show_envvar"] = False
    decls = [f"{f}/{p.negative}" if p.negative and f.startswith("--") else f for f in p.flags]
    return typer.Option(default, *decls, **kwargs)  # type: ignore[call-overload]


def _parameter(p: Param, language: str, hook: str = "") -> inspect.Parameter:
    """A parameter of the signature Typer reads, declared as ``name: type =
    typer.Option(default, ...)``: Typer's older form, which it reads as it reads
    ``Annotated[type, typer.Option(...)] = default``, without making an ``Annotated``
    type for each (20 of them cost a roll 0.6 ms)."""
    from rpgdice.core.command import REQUIRED

    default = ... if p.default is REQUIRED else p.default
    return inspect.Parameter(p.name, inspect.Parameter.KEYWORD_ONLY,
                             default=_info(p, language, hook, default),
                             annotation=_annotation(p))


def translated(function: Callable[..., R]) -> Callable[..., R]:
    """A record's parser (or ``on_parse`` callback) whose complaint, rpgdice's own
    :class:`~rpgdice.core.errors.BadValue`, becomes the command line's usage error
    (``typer.BadParameter``, which names the parameter). Its name, marks (``accepts``,
    ``choices``…) and signature are the function's."""

    @functools.wraps(function)
    def call(*args: object, **kwargs: object) -> R:
        try:
            return function(*args, **kwargs)
        except BadValue as e:
            raise typer.BadParameter(e.message) from None

    return call


def trait_hook(command: Command, p: Param) -> str:
    """How ``p`` of ``command`` reads trait names (rpgdice.cli.traits), "" if it does not:
    a pool of the target's (``--vs``), a trait sum or Cypher's ``--skill`` with ``--as``."""
    if p.target_traits:
        return "target"
    if command.takes_as and p.kind == "traits":
        return "traits"
    if command.takes_as and p.completes == "skills":
        return "skill"
    return ""


def shared_params(command: Command, language: str) -> tuple[list[Param], list[Param]]:
    """The shared options the command takes, as parameters: those listed right after
    its own arguments and options, and those listed last (before ``--help``)."""
    from rpgdice.cli.common import FIRST, SHARED

    takes_odds = command.kind == "odds" or "odds" not in command.without
    first: list[Param] = []
    last: list[Param] = []
    for s in SHARED:
        if command.kind not in s.kinds or s.attr in command.without:
            continue
        if s.attr == "compare" and not takes_odds:
            continue
        help = (command.option_help or {}).get(s.attr) or s.help[language]
        (first if s.attr in FIRST else last).append(_shared_param(s, language, help))
    return first, last


def _shared_param(s: Shared, language: str, help: str) -> Param:
    from rpgdice.cli.common import PANELS

    flags = tuple(s.decls)
    negative = ""
    if flags and "/" in flags[0]:  # --log/--no-log
        on, negative = flags[0].split("/")
        flags = (on,)
    kind = "flag" if s.flag else "text"
    return Param(s.attr, kind, flags=flags, help=help, default=s.default,
                 metavar=s.metavar[language] if s.metavar else "", parse=s.parse,
                 multiple=s.multiple, negative=negative,
                 panel=PANELS[language][s.panel] or "")


def character_params(command: Command, ruleset: str, language: str) -> list[Param]:
    """``--as NAME`` (and ``RPGDICE_AS``), and Cypher's ``--pool`` beside ``--effort``."""
    from rpgdice import rulesets
    from rpgdice.cli import AS_ENV, params
    from rpgdice.cli.common import PANELS

    if not command.takes_as:
        return []
    schema = rulesets.get(ruleset).sheet
    if schema is None:
        return []
    spanish = language == "es"
    out = [Param(
        "as_name", "character", flags=("--as",), parse=params.character, envvar=AS_ENV,
        eager=True, metavar="NOMBRE" if spanish else "NAME",
        panel=PANELS[language]["options"] or "", completes="characters",
        help=(f"Tira por un personaje guardado: rasgos por nombre, costes de su hoja. También "
              f"{AS_ENV}.") if spanish else
        f"Roll for a saved character: traits by name, costs paid from its sheet. Also {AS_ENV}.")]
    pools = schema.effort_pools
    if pools and command.param("effort") is not None:
        out.append(Param(
            "pool_name", "choice", flags=("--pool",), choices=pools, eager=True,
            parse=params.choice(dict.fromkeys(pools),
                                {p: f"the {p.title()} Pool and its Edge" for p in pools}),
            metavar="POOL",
            help=f"With --as: the Pool that pays the Effort ({', '.join(pools[:-1])} or "
            f"{pools[-1]}), whose Edge lowers it."))
    return out


def all_params(command: Command, ruleset: str, language: str) -> list[Param]:
    """Every parameter of the command line, in the order its help lists them."""
    first, last = shared_params(command, language)
    own = [p for p in command.params if p.name not in command.after]
    later = [p for p in command.params if p.name in command.after]
    return [*own, *first, *later, *last, *character_params(command, ruleset, language)]


def click_command(command: Command, ruleset: str, language: str, cls: type) -> object:
    """The Click command of ``command`` (Typer's, from a signature made of its record)."""
    from rpgdice.cli.common import submit_values

    every = all_params(command, ruleset, language)
    own = frozenset(p.name for p in command.params)

    def parsed(ctx: typer.Context, **values: object) -> None:
        submit_values(ctx, ruleset, command.name,
                      {k: v for k, v in values.items() if k in own},
                      {k: v for k, v in values.items() if k not in own})

    context = inspect.Parameter("ctx", inspect.Parameter.KEYWORD_ONLY, annotation=typer.Context)
    parsed.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [context, *(_parameter(p, language, trait_hook(command, p)) for p in every)],
        return_annotation=None)
    parsed.__annotations__ = {"ctx": typer.Context}  # as objects: Typer reads them twice, a
    # string (this module's annotations are) is compiled and evaluated at each reading
    parsed.__name__ = parsed.__qualname__ = command.name
    app = typer.Typer(add_completion=False, rich_markup_mode="markdown")
    app.command(command.name, cls=cls, help=command.help)(parsed)
    from rpgdice.cli.typer_private import get_command

    made = get_command(app)
    made.rpgdice_record = command  # type: ignore[attr-defined]  # what the rest reads of it
    made.rpgdice_kind = command.kind  # type: ignore[attr-defined]
    made.rpgdice_shared = True  # type: ignore[attr-defined]
    return made


Builder = Callable[..., object]

CONTEXT = "rpgdice_context"
"""The parameter Typer hands a :func:`with_shared` command's context by (its type
``typer.Context``): no name a command's own parameter takes."""


def with_shared(*, kind: str = "roll", without: tuple[str, ...] = (),
                after: tuple[str, ...] = (), language: str = "en") -> Callable[[Builder], Builder]:
    """A Typer command function that is no ruleset's roll but takes the shared options of
    ``kind`` (less ``without``; ``after``: its own options listed after the shared ``--dice``
    … ``--odds``), as declared once in :data:`rpgdice.cli.common.SHARED`: its signature gains
    them, and it is called with their values as ``choices`` (``encounter start``, which
    rolls initiative). Registered with ``app.command`` as any command."""
    def wrap(function: Builder) -> Builder:
        hidden = dict(function.__annotations__)
        function.__annotations__.pop("choices", None)  # known only to a type checker
        signature = inspect.signature(function, eval_str=True)
        function.__annotations__.update(hidden)
        own = [p.replace(kind=inspect.Parameter.KEYWORD_ONLY)
               for name, p in signature.parameters.items() if name != "choices"]
        first, last = shared_params(Command(function.__name__, function, kind=kind,
                                            without=frozenset(without)), language)
        context = inspect.Parameter(CONTEXT, inspect.Parameter.KEYWORD_ONLY,
                                    annotation=typer.Context)  # the run's words (argv)
        parameters = [context, *(p for p in own if p.name not in after),
                      *(_parameter(p, language) for p in first),
                      *(p for p in own if p.name in after),
                      *(_parameter(p, language) for p in last)]

        @functools.wraps(function)
        def call(**values: object) -> object:
            from rpgdice.cli.common import Choices, current_run

            ctx = values.pop(CONTEXT)
            shared = {k: values.pop(k) for k in list(values) if k in SHARED_NAMES}
            return function(**values, choices=Choices(shared, current_run(ctx).argv))

        call.__signature__ = signature.replace(parameters=parameters)  # type: ignore[attr-defined]
        call.__annotations__ = {CONTEXT: typer.Context, **{
            k: v for k, v in function.__annotations__.items()
            if k != "choices"}}  # what Typer reads besides the signature
        return call

    return wrap
