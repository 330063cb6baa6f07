"""`rpgdice NAME` for a user's ruleset file: thin — the arguments parsed into a roll value,
one builder for every file. ``commands:NAME`` is the group of the file ``NAME``: its
commands' records (:func:`COMMANDS` of its record, :func:`commands_for` of its name: made
on first use with the file's kind, title and option help), made into a group as every
ruleset's records are (rpgdice.cli ``RecordGroup``). Each takes the file's rules at the time of the command line as an
argument of the roll (a hidden option read from the file while parsing, never typed), so
the log keeps them.

Every public name of this module holds an underscore or a capital letter: ``commands.NAME``
is the file ``NAME``'s commands (:func:`__getattr__`), and a file's name never does."""

from typing import Any, Optional

from rpgdice.core.budget import Work
from rpgdice.core.command import REQUIRED, Command, Param
from rpgdice.core.errors import BadValue
from rpgdice.roll.odds import exact_odds
from rpgdice.roll.plan import Plan
from rpgdice.rulesets import lazily

# The functions of its odds.py its exact odds are computed by, each imported (with icepool)
# at its first call.


@lazily
def file_odds() -> Any:
    from rpgdice.rulesets._file.odds import file_odds

    return file_odds


_RECORDS: dict[tuple[str, str], tuple[Command, ...]] = {}
"""Each file's commands, by its name and kind (a file of another kind has other arguments)."""


def __getattr__(name: str) -> Any:
    """``commands.NAME``: the commands of the user's ruleset ``NAME`` (what the executor
    looks up to register their builders, rpgdice.roll.execute)."""
    from rpgdice.rulesets._file.schema import NAME

    if not NAME.match(name):
        raise AttributeError(name)
    return commands_for(name)


def _sum(text: Any) -> int:
    """A signed number or a sum of numbers (``3``, ``-2``, ``4+2-1``)."""
    from rpgdice.cli import params

    if isinstance(text, int):
        return text
    raw = params.ascii_minus(str(text).strip())
    for twice, once in (("+-", "-"), ("--", "+"), ("-+", "-"), ("++", "+")):
        while twice in raw.replace(" ", ""):  # a negative trait's number in a sum
            raw = raw.replace(" ", "").replace(twice, once)
    if raw[:1] in ("+", "-"):
        raw = "0" + raw
    return sum(params.terms(raw, accepts=_SUM_ACCEPTS))


_SUM_ACCEPTS = "a number such as 3 or -2, or a sum such as 4+2-1"
# what --help shows as an argument's type, and what a missing one is told it accepts
_sum.__name__ = _sum.__qualname__ = "number"
_sum.accepts = _SUM_ACCEPTS  # type: ignore[attr-defined]



def file_build(name: str, rules: str, **given: Any) -> Plan:
    """The plan of one roll of a user's ruleset, whatever its kind (the arguments its kind
    does not take keep their defaults; a custom file's are its own)."""
    from rpgdice.rulesets._file import rules as R

    if R.parsed(rules)["kind"] == "custom":
        return custom_build(name, rules, given)
    return _build(name, rules, **given)


def custom_build(name: str, rules: str, given: dict[str, Any]) -> Plan:
    from rpgdice.core import jsontext
    from rpgdice.rulesets._file import engine
    from rpgdice.rulesets._file import rules as R

    parsed = R.parsed(rules)
    args = engine.check_args(parsed, {k: v for k, v in given.items() if v is not None})
    spec = R.FileRoll(name=name, rules=rules, args=jsontext.dumps(args, sort_keys=True))
    exact = exact_odds(name, file_odds, spec)
    return Plan(lambda source: R.roll(spec, source), work=Work(R.work(spec)), odds=exact,
                stats=exact)


def _build(name: str, rules: str, pool: int = 0, difficulty: int = 1, mod: int = 0,
           target: Optional[int] = None) -> Plan:
    from rpgdice.rulesets._file import rules as R

    spec = R.FileRoll(name=name, rules=rules, pool=pool, difficulty=difficulty, mod=mod,
                      target=target)
    parsed = spec.parsed
    if parsed["kind"] == "total":
        R.check_target(parsed, spec)
    exact = exact_odds(name, file_odds, spec)
    return Plan(lambda source: R.roll(spec, source), work=Work(R.work(spec)), odds=exact,
                stats=exact)


def _not_typed(ctx: Any, value: Any) -> Any:
    source = ctx.get_parameter_source("rules")
    if source is not None and source.name == "COMMANDLINE":
        raise BadValue("is no option (the rules are the file's)")
    return value


def _params(name: str, kind: str) -> tuple[Param, ...]:
    """The arguments and options of the ``roll`` (and ``odds``) of a file of ``kind``,
    ending with the hidden one that takes the file's rules while parsing."""

    def today() -> str:
        from rpgdice.rulesets._file import load, shadowed_alias

        text = load(name).text
        hidden = shadowed_alias(name)
        if hidden is not None:
            from rpgdice.render.output import warning

            warning(hidden)
        return text

    rules = Param("rules", "text", flags=("--rules",), hidden=True, default=today,
                  on_parse=_not_typed)
    if kind == "custom":
        from rpgdice.rulesets._file import load
        from rpgdice.rulesets._file.rules import parsed

        return (*custom_params(parsed(load(name).text)), rules)
    pool = Param("pool", "traits", parse=_sum, metavar="POOL", default=REQUIRED,
                 help="Dice in the pool, a number or a sum (3+2).")
    if kind == "pool":
        return (pool, Param("difficulty", "number", flags=("--difficulty", "-d"), default=1,
                            lo=0, hi=1000, show_default=True, metavar="N",
                            help="Successes needed."), rules)
    if kind == "total":
        return (Param("mod", "traits", parse=_sum, metavar="[MOD]", default=0,
                      help="Added to the dice: a signed number or a sum."),
                Param("target", "traits", flags=("--target",), parse=_sum, metavar="N",
                      help="The target the rules compare with."), rules)
    return (pool, rules)


def _size(text: Any) -> int:
    """A die's size, ``8`` or ``d8``."""
    raw = str(text).strip().lower()
    raw = raw[1:] if raw.startswith("d") else raw
    if not raw.isdigit() or len(raw) > 4:
        raise BadValue(f"{text!r} is no die; a size such as 8 or d8")
    return int(raw)


_size.__name__ = _size.__qualname__ = "die"
_size.accepts = "a die's size, such as 8 or d8"  # type: ignore[attr-defined]


def custom_params(rules: dict[str, Any]) -> tuple[Param, ...]:
    """A custom file's arguments and options, as the records every command's are."""
    out = []
    for a in rules["args"]:
        flags, kind = tuple(a["flags"]), a["type"]
        if kind == "flag":
            out.append(Param(a["name"], "flag", flags=flags, default=False, help=a["help"]))
            continue
        default = a["default"]
        choices = tuple(str(c) for c in a.get("choices") or ())  # the panel offers them
        if kind == "dice":
            out.append(Param(a["name"], "text", flags=flags, parse=_size, multiple=True,
                             metavar=a["metavar"] + "...", help=a["help"], choices=choices,
                             default=REQUIRED if default is None and not flags else default))
            continue
        metavar = a["metavar"] if flags or default is None else f"[{a['metavar']}]"
        out.append(Param(a["name"], "traits", flags=flags, parse=_sum, metavar=metavar,
                         choices=choices,
                         default=REQUIRED if default is None and not flags else default,
                         lo=a["min"], hi=a["max"], show_default=default is not None,
                         help=_ranged(a)))
    return tuple(out)


def _ranged(arg: dict[str, Any]) -> str:
    """A number argument's help with its range, as rpgdice's own options say theirs
    (``How many of the dice are Hunger dice (0 to 1000).``); choices are the help's."""
    text, lo, hi = str(arg["help"]), arg["min"], arg["max"]
    if arg["choices"] or (lo is None and hi is None):
        return text
    span = (f"{lo} to {hi}" if lo is not None and hi is not None
            else f"at least {lo}" if lo is not None else f"at most {hi}")
    if span in text:
        return text
    stem = text[:-1] if text.endswith(".") else text
    return f"{stem} ({span})." if stem else span[0].upper() + span[1:] + "."


def _other(arg: dict[str, Any]) -> int:
    """A value of a number option to compare with in its help's example: one more than
    its default (12 with none), within its range."""
    value = 12 if arg["default"] is None else arg["default"] + 1
    if arg["max"] is not None:
        value = min(value, arg["max"])
    return value if arg["min"] is None else max(value, arg["min"])


def commands_for(name: str) -> tuple[Command, ...]:
    """The commands of the user's ruleset ``name`` (a RulesError for a broken file)."""
    from rpgdice import rulesets

    return COMMANDS(rulesets.get(name))


def COMMANDS(record: Any) -> tuple[Command, ...]:  # the name every commands.py declares
    """The commands of the user's ruleset file whose record is ``record``: ``roll`` and
    ``odds`` with its kind's arguments, their builders registered with the executor."""
    import functools

    from rpgdice.roll import execute

    name = record.name
    made = _RECORDS.get(_key(record)) or (_custom_made(name, record) if record.kind == "custom"
                                          else _made(name, record))
    # Every roll of the file, whatever its kind was when it was logged, is built by
    # file_build(): a replay of an entry made before the file changed kind still builds.
    build = functools.partial(file_build, name)
    execute.register(name, "roll", build)
    execute.register(name, "odds", build, odds=True)
    return made


def _key(record: Any) -> tuple[str, str]:
    return (record.name, record.text if record.kind == "custom" else record.kind)


KIND_RESULTS = {"pool": "PoolResult", "total": "TotalResult", "highest": "HighestResult"}
"""The result class a file's roll makes, by its kind."""


def _made(name: str, record: Any) -> tuple[Command, ...]:
    import functools

    from rpgdice.rulesets._file import rules as file_rules

    example = {"pool": f"rpgdice {name} roll 5 -d 2", "total": f"rpgdice {name} roll +1",
               "highest": f"rpgdice {name} roll 3"}[record.kind]
    compare = {"pool": "--compare '-d 2'", "total": "--compare '--target 12'",
               "highest": "(this kind takes no option to compare)"}[record.kind]
    option_help = {"compare": "Compare the odds with these arguments added (repeatable): "
                   f"{compare}."}
    build = functools.partial(file_build, name)
    taken = _params(name, record.kind)
    made = (
        Command("roll", build, taken,
                help=f"Roll {record.help}\n\n"
                f"Example: {example}",
                results=(file_rules.classes(name)[KIND_RESULTS[record.kind]],), takes_as=True,
                stats=True,
                option_help=option_help, odds_functions=(file_odds,), style="signed"),
        Command("odds", build, taken,
                help=f"Exact odds of a {record.title} roll, without rolling.\n\nExample: "
                + example.replace(" roll", " odds"),
                kind="odds", takes_as=True, option_help=option_help,
                odds_functions=(file_odds,), style="signed"),
    )
    _RECORDS[(name, record.kind)] = made
    return made


def _example(rules: dict[str, Any]) -> str:
    """A roll of a custom file's, as its help shows it: each argument it needs."""
    words = []
    for a in rules["args"]:
        if a["type"] == "flag" or a["default"] is not None:
            continue
        choices = a["choices"]
        value = ("8 6" if a["type"] == "dice" else str(choices[len(choices) // 2]) if choices
                 else str(a["default"]) if a["default"] is not None
                 else str(max(a["min"] if a["min"] is not None else 1, 1)))
        words.append(f"{a['flags'][0]} {value}" if a["flags"] else value)
    return " ".join(words)


def _custom_made(name: str, record: Any) -> tuple[Command, ...]:
    import functools

    from rpgdice.rulesets._file import rules as file_rules

    rules = file_rules.parsed(record.text)
    made_classes = file_rules.custom_classes(name, rules)
    example = f"rpgdice {name} roll {rules.get('example') or _example(rules)}".rstrip()
    build = functools.partial(file_build, name)
    taken = _params(name, "custom")
    options = [a for a in rules["args"] if a["flags"] and a["type"] == "number"]
    said = [f"{a['flags'][0]} {_other(a)}" for a in options]
    option_help = {"compare": "Compare the odds with these arguments added (repeatable)" + (
        f": --compare '{said[0]}'." if said else ".")}
    made: tuple[Command, ...] = (
        Command("roll", build, taken,
                help=f"Roll {record.help}\n\n"
                f"Example: {example}", results=(made_classes["CustomResult"],), takes_as=True,
                stats=True, option_help=option_help, odds_functions=(file_odds,),
                style="signed"),
        Command("odds", build, taken,
                help=f"Exact odds of a {record.title} roll, without rolling.\n\nExample: "
                + example.replace(" roll", " odds", 1), kind="odds", takes_as=True,
                option_help=option_help, odds_functions=(file_odds,), style="signed"))
    push = rules.get("push")
    if push:
        from rpgdice.rulesets._file.push import push_command

        made = (*made, push_command(name, push, made_classes["PushResult"]))
    _RECORDS[_key(record)] = made
    return made
