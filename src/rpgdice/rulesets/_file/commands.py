"""`rpgdice NAME` for a user's ruleset file: thin — the arguments parsed into a roll value,
one builder for every file. ``commands:NAME`` is the group of the file ``NAME`` (made on
first use, :func:`app_for`); its commands are registered with ``rolls()`` as every
ruleset's are, and take the file's rules at the time of the command line as an argument
of the roll (read from the file while parsing, never typed), so the log keeps them."""

# (no "from __future__ import annotations": the builders are made in a function, and
# Typer reads their annotations, which name its local types)

import re
from typing import Annotated, Any, Optional

import typer

from rpgdice.cli import params
from rpgdice.cli.common import Plan, RollCommand, Work, exact_odds, rolls, ruleset_app

_APPS: dict[tuple[str, str], Any] = {}
"""Each file's group, by its name and kind (a file of another kind has other arguments)."""


def __getattr__(name: str) -> Any:
    """``commands.NAME``: the Typer group of the user's ruleset ``NAME``."""
    if name.startswith("__"):
        raise AttributeError(name)
    return app_for(name)


NEGATIVE = re.compile(r"^-[0-9][0-9+-]*$")


class SignedCommand(RollCommand):
    """A command whose arguments may be negative (a total's MOD, a pool that names a
    negative trait): ``-1`` is read as the number, never as an option."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        return super().parse_args(ctx, ["\u2212" + a[1:] if NEGATIVE.match(a) else a
                                        for a in args])


def _sum(text: Any) -> int:
    """A signed number or a sum of numbers (``3``, ``-2``, ``4+2-1``)."""
    if isinstance(text, int):
        return text
    raw = params.ascii_minus(str(text).strip())
    for twice, once in (("+-", "-"), ("--", "+"), ("-+", "-"), ("++", "+")):
        while twice in raw.replace(" ", ""):  # a negative trait's number in a sum
            raw = raw.replace(" ", "").replace(twice, once)
    if raw[:1] in ("+", "-"):
        raw = "0" + raw
    return sum(params.terms(raw, accepts="a number such as 3 or -2, or a sum such as 4+2-1"))


def build(name: str, rules: str, pool: int = 0, difficulty: int = 1, mod: int = 0,
          target: Optional[int] = None) -> Plan:
    """The plan of one roll of a user's ruleset, whatever its kind (the arguments its kind
    does not take keep their defaults)."""
    from rpgdice.rulesets._file import rules as R

    spec = R.FileRoll(name=name, rules=rules, pool=pool, difficulty=difficulty, mod=mod,
                      target=target)
    parsed = spec.parsed
    if parsed["kind"] == "total":
        R.check_target(parsed, spec)
    exact = exact_odds(name, "file_odds", spec)
    return Plan(lambda source: R.roll(spec, source), work=Work(R.work(spec)), odds=exact,
                stats=exact)


def _not_typed(ctx: Any, param: Any, value: Any) -> Any:
    source = ctx.get_parameter_source(param.name)
    if source is not None and source.name == "COMMANDLINE":
        raise typer.BadParameter("is no option (the rules are the file's)")
    return value


def _roll_command(name: str, kind: str, Rules: Any) -> Any:
    """The builder whose signature is the ``roll`` command of a file of ``kind``
    (``Rules``: the hidden argument that takes the file's rules while parsing)."""
    Pool = Annotated[int, typer.Argument(parser=params.takes_traits(_sum), metavar="POOL",
                                         show_default=False,
                                         help="Dice in the pool, a number or a sum (3+2).")]
    if kind == "pool":
        def roll_cmd(pool: Pool, difficulty: Annotated[int, typer.Option(
                "--difficulty", "-d", min=0, max=1000, show_default=True, metavar="N",
                help="Successes needed.")] = 1, *, rules: Rules) -> Plan:
            return build(name, rules, pool=pool, difficulty=difficulty)
    elif kind == "total":
        def roll_cmd(  # type: ignore[misc]
                mod: Annotated[int, typer.Argument(
                    parser=params.takes_traits(_sum), metavar="[MOD]", show_default=False,
                    help="Added to the dice: a signed number or a sum.")] = 0,
                target: Annotated[Optional[int], typer.Option(
                    "--target", parser=params.takes_traits(_sum), metavar="N",
                    show_default=False, help="The target the rules compare with.")] = None,
                *, rules: Rules) -> Plan:
            return build(name, rules, mod=mod, target=target)
    else:
        def roll_cmd(pool: Pool, *, rules: Rules) -> Plan:  # type: ignore[misc]
            return build(name, rules, pool=pool)

    return roll_cmd


def _broken(name: str, error: Exception) -> Any:
    """The group of a broken file: ``roll`` and ``odds`` take any words and say what is
    wrong with the file (exit 2)."""
    app = ruleset_app(f"Your own ruleset {name} (its file has a problem).",
                      command_cls=SignedCommand)
    loose = {"ignore_unknown_options": True, "allow_extra_args": True, "help_option_names": []}

    def broken(words: Annotated[Optional[list[str]], typer.Argument(hidden=True)] = None) -> None:
        raise error

    for command in ("roll", "odds"):
        app.command(command, context_settings=loose, help="Your own ruleset's file has a "
                    "problem: run it to see which.")(broken)
    return app


def app_for(name: str) -> Any:
    """The group of the user's ruleset ``name``: ``roll`` and ``odds`` with its kind's
    arguments."""
    from rpgdice import rulesets
    from rpgdice.core.errors import RulesError
    from rpgdice.roll import execute
    from rpgdice.rulesets._file import load

    try:
        record: Any = rulesets.get(name)
    except RulesError as e:  # a broken file: its commands name the problem when run
        return _broken(name, e)
    app = _APPS.get((name, record.kind))
    if app is not None:
        return app
    app = ruleset_app(record.help, command_cls=SignedCommand)

    def today() -> str:
        from rpgdice.rulesets._file import shadowed_alias

        text = load(name).text
        hidden = shadowed_alias(name)
        if hidden is not None:
            from rpgdice.cli.output import warning

            warning(hidden)
        return text

    Rules = Annotated[str, typer.Option("--rules", hidden=True, default_factory=today,
                                        callback=_not_typed, show_default=False)]
    roll_cmd = _roll_command(name, record.kind, Rules)
    example = {"pool": f"rpgdice {name} roll 5 -d 2", "total": f"rpgdice {name} roll +1",
               "highest": f"rpgdice {name} roll 3"}[record.kind]
    roll_cmd.__doc__ = (f"Roll {record.title}: {record.help.split(': ', 1)[1]}\n\n"
                        f"Example: {example}")
    compare = {"pool": "--compare '-d 2'", "total": "--compare '--target 12'",
               "highest": "(this kind takes no option to compare)"}[record.kind]
    option_help = {"compare": "Compare the odds with these arguments added (repeatable): "
                   f"{compare}."}
    rolls(app, "roll", name, option_help=option_help)(roll_cmd)
    odds_doc = f"Exact odds of a {record.title} roll, without rolling.\n\nExample: " + \
        example.replace(" roll", " odds")

    def odds_cmd(**kwargs: Any) -> Plan:
        return roll_cmd(**kwargs)

    import functools

    odds_cmd = functools.wraps(roll_cmd)(odds_cmd)
    odds_cmd.__doc__ = odds_doc
    rolls(app, "odds", name, kind="odds", option_help=option_help)(odds_cmd)
    # Every roll of the file, whatever its kind was when it was logged, is built by
    # build(): a replay of an entry made before the file changed kind still builds.
    execute.register(name, "roll", functools.partial(build, name))
    execute.register(name, "odds", functools.partial(build, name), odds=True)
    _APPS[(name, record.kind)] = app
    return app
