"""`rpgdice completion bash|zsh|fish`: static shell completion scripts.

The scripts are generated from the app itself: the generator walks the Click
command tree Typer builds (every group, command and option) and offers the named
values an option or argument accepts, read from its parser (``parser.choices``,
set by :func:`rpgdice.cli.params.level` and :func:`rpgdice.cli.params.choice`) or
from a Click ``Choice``. So a new command, option or level shows up in completion
with nothing else to edit.

Each script is a shell template in ``rpgdice/templates/`` (``rpgdice.bash.in``,
``_rpgdice.in``, ``rpgdice.fish.in``): the fixed shell code as it is, and a marker line
``# @@NAME@@`` where :func:`fill` puts what the command tree gives (each command's words,
each option's values).

The scripts are pure shell: pressing TAB runs no Python. ``completions/`` in the
source tree holds them, committed; regenerate them after changing the CLI with::

    python -m rpgdice.cli.completion --write          # or --check, to compare

This module must not import rich (printing a script is a plain write).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from rpgdice.cli import params
from rpgdice.cli.common import Command
from rpgdice.core.data import JSONObject

PROG = "rpgdice"
SHELLS = {"bash": "rpgdice.bash", "zsh": "_rpgdice", "fish": "rpgdice.fish"}
"""Each shell and the name of its file in ``completions/``."""
REGENERATE = "python -m rpgdice.cli.completion --write"

app = typer.Typer(add_completion=False)


@app.command("completion", cls=Command)
def completion_cmd(
    shell: Annotated[
        str,
        typer.Argument(
            parser=params.choice(SHELLS, {n: f"the {n} script" for n in SHELLS}),
            metavar="SHELL", show_default=False,
            help="bash, zsh or fish.",
        ),
    ],
) -> None:
    """Print the TAB-completion script for bash, zsh or fish.

    The script is plain shell: TAB starts no Python. Save it where your shell looks, then open a new shell:

    - bash: rpgdice completion bash > ~/.local/share/bash-completion/completions/rpgdice
    - zsh: rpgdice completion zsh > ~/.zfunc/_rpgdice, with fpath=(~/.zfunc $fpath) before compinit in ~/.zshrc
    - fish: rpgdice completion fish > ~/.config/fish/completions/rpgdice.fish

    Or just this bash session: source <(rpgdice completion bash)
    """
    sys.stdout.write(generate(shell))
    sys.stdout.flush()


# ---------------------------------------------------------------- the model ---

_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]*")
_OPTION = re.compile(r"--?[A-Za-z0-9][A-Za-z0-9-]*")


@dataclass
class Opt:
    names: list[str]
    takes_value: bool
    values: list[str]
    help: str
    descriptions: list[str] = field(default_factory=list)  # one per value


@dataclass
class Node:
    """A group or command: its path of names from the root, and what follows it."""

    path: tuple[str, ...]
    help: str = ""
    dynamic_subs: list[str] = field(default_factory=list)  # offered, never walked into
    subcommands: list[Node] = field(default_factory=list)
    options: list[Opt] = field(default_factory=list)
    positionals: list[list[str]] = field(default_factory=list)  # named values of each argument
    described: dict[str, str] = field(default_factory=dict)  # each argument value's description
    variadic: bool = False  # the last argument takes any number of values
    apart: list[Node] = field(default_factory=list)  # walked into, never offered (@ruleset)

    def walk(self):
        yield self
        for sub in [*self.subcommands, *self.apart]:
            yield from sub.walk()

    @property
    def key(self) -> str:
        return " ".join(self.path)

    @property
    def value_options(self) -> list[str]:
        return [n for o in self.options if o.takes_value for n in o.names]

    @property
    def all_options(self) -> list[str]:
        return [n for o in self.options for n in o.names]


def _one_line(text: str | None, limit: int = 80) -> str:
    """The first sentence of a help text, on one line."""
    line = " ".join((text or "").split())
    line = re.split(r"(?<=[.;])\s+(?=[A-Z(])", line, maxsplit=1)[0].rstrip(".;")
    return line if len(line) <= limit else line[: limit - 1].rstrip() + "…"


COLUMNS = 79
"""A described candidate, ``name -- description``, fits in this many columns: one less
than an 80-column terminal, whose last column zsh would wrap into an empty line."""


def _fit(label: str, text: str) -> str:
    """``text`` cut short with an ellipsis so that ``label`` and it fit in :data:`COLUMNS`:
    ``label`` is what a shell shows before the description (zsh's padded ``name  -- ``;
    for fish, which shows the description beside the name, ``name -- ``)."""
    room = COLUMNS - len(label)
    return text if len(text) <= room else text[: room - 1].rstrip() + "…"


DYNAMIC = {"characters": "@characters", "aliases": "@aliases", "extras": "@extras",
           "rulesets": "@rulesets", "combatants": "@combatants", "conditions": "@conditions"}
"""Words the scripts expand when TAB is pressed, from the user's own files (no Python):
``@characters`` the sheets' names (``characters/*.toml``), ``@characters:RULESET`` those
whose sheet says ``ruleset = "RULESET"`` (a ruleset's own commands), ``@aliases`` the
names under ``[alias]`` in ``config.toml``, ``@extras`` the extras of the current encounter
(``encounter.toml``'s ``[[order]]`` tables with ``character = false``; a parser adds it
with ``parser.also_completes``), ``@combatants`` every combatant of the encounter,
``@conditions`` the conditions of the combatant named by the argument before (``encounter
unmark NAME CONDITION``), ``@traits`` the number traits of the
character ``--as`` names (its sheet's ``[traits]``), ``@skills`` its skill traits. A
parser asks for one with ``parser.completes``; an argument that reads trait names with
``--as`` (cli/__init__.py marks its type with ``hook``) gets ``@traits`` or ``@skills``."""
DYNAMIC_DESCRIPTIONS = {"characters": "a saved character", "aliases": "your alias",
                        "rulesets": "your own ruleset",
                        "extras": "an extra of the encounter",
                        "combatants": "a combatant of the encounter",
                        "conditions": "a condition of NAME",
                        "traits": "a trait of the --as character",
                        "skills": "a skill of the --as character"}
_HOOKS = {"traits": "@traits", "skill": "@skills"}
"""The word each kind of trait-reading argument (rpgdice.cli.traits: its parser's ``hook``) adds."""


def _ruleset_of(path: Sequence[str]) -> str | None:
    """The ruleset whose commands ``path`` names, when that ruleset keeps sheets."""
    from rpgdice import rulesets

    if path and path[0] in rulesets.NAMES and rulesets.get(path[0]).sheet is not None:
        return path[0]
    return None


def _dynamic(word: str) -> str:
    """The kind of a dynamic word (``@characters:seyruun`` -> ``characters``)."""
    return word[1:].split(":")[0]


def _descriptions(param: Any, path: Sequence[str] = ()) -> list[str]:
    """What each named value of a parameter means (``parser.descriptions``), in the order
    of :func:`_values`: a shell shows it beside the value."""
    parse = getattr(param.type, "func", None)
    names = getattr(parse, "choices", None) or getattr(param.type, "choices", None) or ()
    described = getattr(parse, "descriptions", {})
    fixed = [" ".join(str(described.get(name, name)).split()) for name in names]
    return [DYNAMIC_DESCRIPTIONS[_dynamic(w)] if w.startswith("@") else text
            for w, text in zip(_values(param, path), [*fixed, *[""] * 2])]


def _values(param: Any, path: Sequence[str] = ()) -> list[str]:
    """The named values a parameter accepts, as words a shell can offer; under a ruleset
    that keeps sheets, its characters only."""
    ptype = param.type
    completes = getattr(getattr(ptype, "func", None), "completes", None)
    if completes:
        ruleset = _ruleset_of(path) if completes == "characters" else None
        also = getattr(getattr(ptype, "func", None), "also_completes", None)
        return [DYNAMIC[completes] + (f":{ruleset}" if ruleset else ""),
                *([DYNAMIC[also]] if also else [])]
    names = getattr(getattr(ptype, "func", None), "choices", None)
    if names is None:
        names = getattr(ptype, "choices", None)
    words = []
    for name in names or ():
        # Names match ignoring spaces and hyphens, so offer a spaced name hyphenated.
        word = "-".join(str(name).split())
        if not _WORD.fullmatch(word):
            raise ValueError(f"{param.name}: {name!r} cannot be offered as a completion word")
        words.append(word)
    hook = getattr(getattr(ptype, "func", None), "hook", None)  # rpgdice.cli.traits
    return words + ([_HOOKS[hook]] if hook in _HOOKS else [])


def _node(cmd: Any, ctx: Any, path: tuple[str, ...]) -> Node:
    node = Node(path=path, help=_one_line(cmd.get_short_help_str(limit=200)))
    for param in cmd.get_params(ctx):
        if getattr(param, "hidden", False):
            continue
        if param.param_type_name == "option":
            # Short names first: Click builds the help option's names from a set.
            names = sorted([*param.opts, *param.secondary_opts], key=lambda n: n.startswith("--"))
            for name in names:
                if not _OPTION.fullmatch(name):
                    raise ValueError(f"{' '.join(path)}: option {name!r} cannot be completed")
            takes_value = not param.is_flag and not param.count
            values = _values(param, path) if takes_value else []
            node.options.append(Opt(names, takes_value, values, _one_line(param.help),
                                    _descriptions(param, path) if values else []))
        elif param.param_type_name == "argument":
            node.described.update(zip(_values(param, path), _descriptions(param, path)))
            for _ in range(max(param.nargs, 1)):
                node.positionals.append(_values(param, path))
            node.variadic = param.nargs == -1
    if hasattr(cmd, "list_commands"):  # a group
        for name in cmd.list_commands(ctx):
            sub = cmd.get_command(ctx, name)
            if sub is None or sub.hidden:
                continue
            if not _WORD.fullmatch(name):
                raise ValueError(f"command {name!r} cannot be completed")
            sub_ctx = typer.Context(sub, info_name=name, parent=ctx, **sub.context_settings)
            node.subcommands.append(_node(sub, sub_ctx, path + (name,)))
    return node


def model() -> Node:
    """The app's command tree, built the way a run builds it."""
    from rpgdice.cli import app as root_app
    from rpgdice.cli.typer_private import get_command

    root = get_command(root_app)
    ctx = typer.Context(root, info_name=PROG, **root.context_settings)
    tree = _node(root, ctx, ())
    tree.subcommands = [s for s in tree.subcommands if not _own_file(s.path[-1])]
    # the user's aliases run as commands, and the user's ruleset files are groups
    tree.dynamic_subs = [DYNAMIC["aliases"], DYNAMIC["rulesets"]]
    tree.apart = [_own_node(ctx)]
    return tree


OWN = "@ruleset"
"""The node of every user's ruleset file (``rulesets/NAME.toml``): the scripts walk into it
at a word that names a good file (its ``name`` the file's, its ``kind`` one rpgdice knows)."""
_OWN_KINDS: dict[str, JSONObject] = {"pool": {"die": 6, "success": 6}, "total": {"dice": "1d6"},
              "highest": {"die": 6}}


def _own_file(name: str) -> bool:
    from rpgdice import rulesets

    return rulesets.known(name) and bool(getattr(rulesets.get(name), "file", ""))


def _own_node(ctx: Any) -> Node:
    """The commands of a user's ruleset file, whatever its kind: ``roll`` and ``odds`` with
    the options of every kind (each built as a file of that kind is)."""
    from rpgdice import rulesets
    from rpgdice.cli import load_ruleset
    from rpgdice.rulesets import _file
    from rpgdice.rulesets._file.schema import check

    own = Node(path=(OWN,), help="your own ruleset (rulesets/NAME.toml)")
    helps = {"roll": "Roll your own ruleset", "odds": "Exact odds of a roll of your own ruleset"}
    for kind, keys in _OWN_KINDS.items():
        name = f"own-{kind}"
        rules, _ = check({"name": name, "title": "Own", "kind": kind, **keys,
                          "outcomes": [{"name": "Any", "tone": "good"}]})
        assert rules is not None
        with rulesets.lent(_file.make(rules, "")):
            group = load_ruleset(name)
            node = _node(group, typer.Context(group, info_name=name, parent=ctx,
                                              **group.context_settings), (OWN,))
        for sub in node.subcommands:
            sub.help = helps[sub.path[-1]]
            mine = next((m for m in own.subcommands if m.path == sub.path), None)
            if mine is None:
                own.subcommands.append(sub)
                continue
            for opt in sub.options:
                if opt.names not in [o.names for o in mine.options]:
                    at = next(i for i, o in enumerate(mine.options)  # before the shared ones
                              if {"--dice", "--json"} & set(o.names))
                    mine.options.insert(at, opt)
    return own


# --------------------------------------------------------------- generators ---

_HEADER = """\
{comment} {shell} completion for rpgdice: generated from the app by `rpgdice completion {shell}`.
{comment} Do not edit; regenerate with `{regen}`.
{comment} Pure shell: pressing TAB starts no Python.
"""


def _header(shell: str, comment: str = "#") -> str:
    return _HEADER.format(comment=comment, shell=shell, regen=REGENERATE)


TEMPLATES = Path(__file__).resolve().parents[1] / "templates"
"""Each shell's script as a template (package data): plain shell, with a line
``# @@NAME@@`` where the generator puts what the command tree gives ``NAME``, and lines
starting ``#@`` (notes on the template) that are dropped."""
_MARKER = re.compile(r"[ \t]*# @@([A-Z]+)@@")


def fill(template: str, **sections: str) -> str:
    """The script of ``template`` (a file in :data:`TEMPLATES`), each marker line replaced
    by its section (without the section's final newline); every section must be used."""
    out, used = [], set()
    for line in (TEMPLATES / template).read_text(encoding="utf-8").splitlines(keepends=True):
        marker = _MARKER.fullmatch(line.rstrip("\n"))
        if marker:
            used.add(marker[1])
            out.append(sections[marker[1]].removesuffix("\n") + "\n")
        elif not line.startswith("#@"):
            out.append(line)
    if used != set(sections):
        raise ValueError(f"{template}: no marker for {', '.join(sorted(set(sections) - used))}")
    return "".join(out)


def _bash_node_cases(tree: Node) -> str:
    out = []
    for node in tree.walk():
        subs = " ".join([s.path[-1] for s in node.subcommands] + node.dynamic_subs)
        opts = " ".join(node.all_options)
        vopts = " ".join(node.value_options)
        out.append(f'        "{node.key}") subs="{subs}" opts="{opts}" vopts="{vopts}" ;;')
    return "\n".join(out)


def _value_cases(tree: Node, label: str, assign: str, open_: str = "") -> str:
    """One case branch per (command, option or positional index) with named values:
    ``label`` quotes one ``key|word`` pattern; ``open_`` starts the pattern list."""
    out = []
    for node in tree.walk():
        branches = [(opt.names, opt.values, "") for opt in node.options if opt.values]
        branches += [([f"#{i}"], values, "") for i, values in enumerate(node.positionals, 1) if values]
        if node.variadic and node.positionals[-1]:  # the last argument's later values too
            branches.append((["#"], node.positionals[-1], "*"))
        for words, values, more in branches:
            patterns = "|".join(label.format(key=node.key, word=w) + more for w in words)
            out.append(f"        {open_}{patterns}) {assign.format(values=' '.join(values))} ;;")
    return "\n".join(out)


def _reserved() -> list[str]:
    """``ruleset:trait`` of each sheet's traits that are no pool's: a ruleset's reserved
    traits (Willpower, damage, Pools, Edge) and its resources' maxima (``willpower-max``),
    which ``@traits`` leaves out."""
    from rpgdice import rulesets
    from rpgdice.table.sheets import schema

    out = []
    for record in rulesets.with_sheets():
        own = schema(record.name)
        names = [n for r in own.reserved for n in (r.name, *r.also)]
        names += [r.max_trait for r in own.resources]
        out += [f"{record.name}:{n}" for n in dict.fromkeys(names) if n]
    return out


def _reserved_case(open_: str = "") -> str:
    """The shell ``case`` branch that skips :func:`_reserved` traits (zsh opens with "(")."""
    words = _reserved()
    return f"{' ' * 20}{open_}{'|'.join(words)}) continue ;;" if words else ""


def bash(tree: Node) -> str:
    return fill("rpgdice.bash.in", HEADER=_header("bash"), NODES=_bash_node_cases(tree),
                VALUES=_value_cases(tree, '"{key}|{word}"', 'vals="{values}"'),
                RESERVED=_reserved_case())


def _zq(text: str) -> str:
    """A zsh single-quoted word."""
    return "'" + text.replace("'", "'\\''") + "'"


def _zsh_described(name: str, text: str) -> str:
    """A zsh listing line: the (padded) name, then its description, in :data:`COLUMNS`."""
    label = f"{name}  -- "
    return label + _fit(label, text)


def _zsh_node_cases(tree: Node) -> str:
    out = []
    for node in tree.walk():
        width = max([len(s.path[-1]) for s in node.subcommands] + [len(n) for n in node.all_options] + [1])
        subs = " ".join(s.path[-1] for s in node.subcommands)
        sdescs = " ".join(_zq(_zsh_described(f"{s.path[-1]:<{width}}", s.help)) for s in node.subcommands)
        opts = " ".join(node.all_options)
        odescs = " ".join(_zq(_zsh_described(f"{n:<{width}}", o.help)) for o in node.options for n in o.names)
        vopts = " ".join(node.value_options)
        dsubs = " ".join(node.dynamic_subs)
        out.append(f"        ({_zq(node.key)})\n"
                   f"            subs=({subs}) sdescs=({sdescs}) dsubs=({dsubs})\n"
                   f"            opts=({opts}) odescs=({odescs})\n"
                   f"            vopts=({vopts}) ;;")
    return "\n".join(out)


def zsh(tree: Node) -> str:
    return fill("_rpgdice.in", HEADER=_header("zsh"), NODES=_zsh_node_cases(tree),
                VALUES=_value_cases(tree, "'{key}|{word}'", "vals=({values})", "("),
                RESERVED=_reserved_case("("))


def _fq(text: str) -> str:
    """A fish single-quoted word."""
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def _fish_seen(path: Sequence[str]) -> list[str]:
    return [f"__fish_seen_subcommand_from {name}" for name in path]


def _fish_values(values: Sequence[str], descriptions: Sequence[str] = ()) -> str:
    """A fish ``-a`` word: named values, each with its own description (fish splits a
    candidate from its description at a tab), or the user's names read when TAB is
    pressed."""
    words = []
    for value, text in zip(values, [*descriptions, *[""] * len(values)]):
        if value.startswith("@"):
            words.append(f"({_FISH_DYNAMIC[_dynamic(value)]}{value.partition(':')[2]})".replace(" )", ")"))
        else:
            words.append(f"{value}\\t{_fq(_fit(value + ' -- ', text))}" if text else value)
    return _fq(" ".join(words))


_FISH_DYNAMIC = {"characters": "__rpgdice_characters ", "aliases": "__rpgdice_aliases",
                 "rulesets": "__rpgdice_rulesets",
                 "extras": "__rpgdice_extras",
                 "combatants": "__rpgdice_combatants", "conditions": "__rpgdice_combatants conditions",
                 "traits": "__rpgdice_traits", "skills": "__rpgdice_traits skills"}
"""The fish function that lists each dynamic word's names (a ruleset follows a space)."""


def fish(tree: Node) -> str:
    words = " ".join(_reserved())
    return fill("rpgdice.fish.in", HEADER=_header("fish"), TITLES=_fish_titles(),
                COMMANDS=_fish_commands(tree),
                RESERVED=f"{' ' * 12}contains -- $rs:$name {words}; and continue" if words else "")


def _fish_titles() -> str:
    """A ``switch`` case per ruleset that keeps sheets: its title, from its record."""
    from rpgdice import rulesets

    return "\n".join(f"        case {name}\n            echo {_fq(_one_line(rulesets.get(name).title, 40))}"
                     for name in rulesets.NAMES if _ruleset_of((name,)))


def _fish_commands(tree: Node) -> str:
    """Each command's ``complete`` lines, after a blank line and its name."""
    lines = []
    for node in tree.walk():
        seen = _fish_seen(node.path)
        if node.subcommands:
            children = " ".join(s.path[-1] for s in [*node.subcommands, *node.apart])
            here = "; and ".join(seen + [f"not __fish_seen_subcommand_from {children}"])
        else:
            here = "; and ".join(seen) or "true"
        if not node.path:  # after an alias, what it runs completes (__rpgdice_expand), and
            # after a user's ruleset file's name, every file's group (__rpgdice_own_expand)
            here += "; and not __rpgdice_aliased; and not __rpgdice_own"
        lines.append("")
        lines.append(f"# {' '.join((PROG,) + node.path)}")
        for sub in node.subcommands:
            lines.append(f"complete -c {PROG} -n {_fq(here)} -a {sub.path[-1]} "
                         f"-d {_fq(_fit(sub.path[-1] + ' -- ', sub.help))}")
        for word in node.dynamic_subs:
            lines.append(f"complete -c {PROG} -n {_fq(here)} -a {_fish_values([word])} "
                         f"-d {_fq(DYNAMIC_DESCRIPTIONS[_dynamic(word)])}")
        for opt in node.options:
            spec = []
            for name in opt.names:
                if name.startswith("--"):
                    spec.append(f"-l {name[2:]}")
                elif len(name) == 2:
                    spec.append(f"-s {name[1:]}")
                else:
                    spec.append(f"-o {name[1:]}")
            if opt.takes_value:
                spec.append("-x")
                if opt.values:
                    spec.append(f"-a {_fish_values(opt.values, opt.descriptions)}")
            lines.append(f"complete -c {PROG} -n {_fq(here)} {' '.join(spec)} "
                         f"-d {_fq(_fit(max(opt.names, key=len) + ' -- ', opt.help))}")
        values = sorted({v for vs in node.positionals for v in vs}, key=[v for vs in node.positionals for v in vs].index)
        if values:
            descriptions = [node.described[v] for v in values]
            lines.append(f"complete -c {PROG} -n {_fq(here)} -a {_fish_values(values, descriptions)}")
    return "\n".join(lines)


GENERATORS = {"bash": bash, "zsh": zsh, "fish": fish}


def generate(shell: str, tree: Node | None = None) -> str:
    """The completion script for ``shell`` (one of :data:`SHELLS`)."""
    return GENERATORS[shell](tree or model())


def source_dir() -> Path:
    """``completions/`` of the source checkout this module runs from."""
    return Path(__file__).resolve().parents[3] / "completions"


def main(argv: Optional[Sequence[str]] = None) -> int:
    """``python -m rpgdice.cli.completion [--write | --check] [DIR]``: print, write or
    check every shell's script (DIR defaults to the checkout's ``completions/``)."""
    import argparse

    ap = argparse.ArgumentParser(prog="python -m rpgdice.cli.completion", description=main.__doc__)
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--write", action="store_true", help="write the scripts into DIR")
    mode.add_argument("--check", action="store_true", help="exit 1 if a script in DIR is stale")
    ap.add_argument("dir", nargs="?", type=Path, default=None, metavar="DIR")
    args = ap.parse_args(argv)
    out = args.dir or source_dir()
    if args.dir is None and (args.write or args.check) and not (out.parent / "pyproject.toml").is_file():
        ap.error(f"{out.parent} is not a source checkout of rpgdice: give DIR")
    tree = model()
    stale = []
    for shell, filename in SHELLS.items():
        text = generate(shell, tree)
        target = out / filename
        if args.write:
            out.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
            print(f"wrote {target}")
        elif args.check:
            if not target.is_file() or target.read_text(encoding="utf-8") != text:
                stale.append(str(target))
        else:
            sys.stdout.write(text)
    if stale:
        print("stale completion scripts (run: " + REGENERATE + "): " + ", ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
