"""`rpgdice play`: one process for the whole evening.

Each line is one rpgdice command without the word ``rpgdice``, run through the very
Click app the one-shot command runs (the root group's ``main``, the same parser, the
same error lines), so a session cannot drift from the command line. The session adds
its own words only: ``use RULESET`` (or ``use -``/``use dice``), ``as NAME`` (or
``as -``), ``exit`` and ``quit``, and ``#`` comment lines.

With stdin not a terminal the lines come from stdin (batch mode, here); at a terminal
they come from a prompt (:mod:`rpgdice.cli.prompt`, the only module importing
prompt_toolkit). A ``--json`` session adds ``--json`` to every command that takes it,
writes an error as ``{"error": ..., "line": N}`` on stdout in its place, and sends the
text of a command with no JSON form to stderr.
"""

from __future__ import annotations

import os
import re
import shlex
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any, Optional, TextIO

from rpgdice import rulesets
from rpgdice.cli import output
from rpgdice.cli.output import PROG

AS_ENV = "RPGDICE_AS"
ERROR = f"{PROG}: error: "
EXIT_WORDS = ("exit", "quit")
SESSION_WORDS = ("use", "as", "help", "?", *EXIT_WORDS)
"""The words a session reads itself; every other line is an rpgdice command."""
def _no_ruleset(name: Optional[str]) -> bool:
    """``use -``, or a ruleset with no group of its own (``use dice``): no ruleset, ``roll
    2d6`` is ordinary dice."""
    return name is None or name == "-" or not rulesets.known(name) or not rulesets.get(name).group
FAILED = 2
"""The session's exit status when any line failed (batch mode)."""
STOPPED = None
"""What :meth:`Session.line` returns for ``exit`` and ``quit``."""
READER_LEFT = 141
_QUOTING = re.compile(r"['\"\\]")
_EXPRESSION_LIKE = re.compile(r"^(?:[+\-]?[0-9(\[{]|[+\-]?d(?:[0-9%f(]|$)|/r|!r)", re.IGNORECASE)
"""A line that begins as an ordinary dice expression (or a peer's spelling of one): rolled as
``roll LINE`` when its first word is no command (CLI.md, "The session")."""
HELP = """The session's own words:
  use RULESET    roll that ruleset's commands without its name (use - for none)
  as NAME        roll for a saved character (as - for none)
  help [COMMAND] this list, or that command's help (help roll)
  exit, quit     end the session (or Ctrl-D)
A dice expression alone rolls it (2d6+3, d20 adv).
Commands, as after 'rpgdice':
"""
"""A line holding quotes or backslashes is split by shlex; any other by whitespace alone
(the same words, some 10 times faster)."""

MAX_ROUTES = 256
"""The most lines a session keeps what they run by their text (:meth:`Session._dispatch`)."""

MAX_LINE = 16 * 1024
"""The longest line a session reads, in characters (with ``--json`` or without, at the
prompt or from stdin): a longer one is refused in one line, unsplit and unparsed, and only
this much of it is ever held (a command of 2000 dice operators fits a few times over)."""


class TooLong(str):
    """What :func:`_lines` yields for a line over :data:`MAX_LINE`: its first characters
    (a ``#`` comment is still one), the rest read and dropped."""


def _lines(stream: TextIO) -> Iterator[str]:
    """The physical lines of ``stream``, without their line ends, each read at most
    :data:`MAX_LINE` (+ its end) at a time (a longer one: :class:`TooLong`); bytes the
    encoding cannot read come through as a command line's do (escaped, then named by the
    error they make)."""
    if hasattr(stream, "reconfigure"):
        stream.reconfigure(errors="surrogateescape")
    while True:
        line = stream.readline(MAX_LINE + 2)
        if not line:
            return
        text = line.rstrip("\r\n")
        if len(text) <= MAX_LINE:
            yield text
            continue
        while not line.endswith("\n"):  # the rest of the physical line, read and dropped
            line = stream.readline(64 * 1024)
            if not line:
                break
        yield TooLong(text[:80])


class Session:
    """What a session keeps between lines (the ruleset in use, the character) and the
    running of one line through the root group."""

    def __init__(self, ruleset: Optional[str] = None, as_json: bool = False) -> None:
        from rpgdice.cli import root

        self.root: Any = root()  # built once: its groups, commands and parsers load on first use
        self.ruleset: Optional[str] = None if _no_ruleset(ruleset) else ruleset
        self.character: Optional[str] = None
        """The character ``as`` names, by its sheet's file name (None: the environment's
        ``RPGDICE_AS``, if any, applies as it would to a one-shot command)."""
        self.as_json = as_json
        self.numbered = True
        """Whether an error line names its input line (not at the prompt, where the
        error is right below the line)."""
        self.failed = False
        self._commands: dict[str, frozenset[str]] = {}
        self._parsed: dict[tuple[str, ...], object] = {}
        self._routes: dict[tuple[str, Optional[str]], tuple[list[str], bool]] = {}
        """What a line typed again runs, by its text and the ruleset in use: its one-shot
        arguments (``--json`` added) and whether they have a JSON form, for a line whose
        first word is a command (no alias, no session word, no bare expression: nothing
        that can run otherwise later in the session)."""
        """The roll values of lines already parsed, by their words (those whose value is
        their words' alone: rpgdice.cli.RpgdiceGroup.run_words)."""

    # The context --------------------------------------------------------------------

    @property
    def prompt(self) -> str:
        """``rpgdice> ``, ``seyruun> ``, ``seyruun:ysolde> `` (``dice:ysolde> ``: a
        character, and ``use -`` since)."""
        if self.character is None:
            return f"{self.ruleset or PROG}> "
        return f"{self.ruleset or 'dice'}:{self.character}> "

    def take_character(self, name: str, param: str = "as") -> None:
        """``as NAME``: roll for NAME (``RPGDICE_AS`` for every line after); with no
        ruleset in use, use the character's. A name no sheet has is a RulesError."""
        from rpgdice.table import sheets

        sheet = sheets.load(name, param)
        self.character = sheet.path.stem  # as TAB offers it (and the prompt shows it)
        os.environ[AS_ENV] = sheet.name
        if self.ruleset is None:
            self.ruleset = sheet.ruleset

    def drop_character(self) -> None:
        """``as -``: no character (not even the environment's)."""
        self.character = None
        os.environ.pop(AS_ENV, None)

    def group_commands(self, ruleset: str) -> frozenset[str]:
        """The command names of a ruleset's group (loaded once)."""
        if ruleset not in self._commands:
            group = self.root.get_command(None, ruleset)
            names = group.list_commands(None) if hasattr(group, "list_commands") else []
            self._commands[ruleset] = frozenset(names)
        return self._commands[ruleset]

    def argv(self, words: list[str]) -> list[str]:
        """The one-shot arguments of a line: with a ruleset in use, a line whose first
        word is a command of that ruleset's group runs in it; any other as typed."""
        if self.ruleset is not None and words and words[0] in self.group_commands(self.ruleset):
            return [self.ruleset, *words]
        return list(words)

    # One line -----------------------------------------------------------------------

    def line(self, text: str, number: int) -> Optional[int]:
        """Run one input line (``number`` counts physical lines from 1); its exit status,
        or :data:`STOPPED` for ``exit``/``quit``. Errors are reported on the line's
        streams: ``rpgdice: error: line N: ...`` on stderr, or with ``--json`` an
        ``{"error", "line"}`` object on stdout."""
        too_long = isinstance(text, TooLong) or len(text) > MAX_LINE
        stripped = text.lstrip()[:80] if too_long else text.strip()
        if not stripped or stripped.startswith("#"):
            return 0
        with self._errors(number) as caught:
            code = self._too_long() if too_long else self._dispatch(stripped)
        if code:
            self.failed = True
            if self.as_json and code != READER_LEFT:
                reason = caught.errors[0] if caught.errors else f"exit status {code}"
                if code == 1:  # stdout could not take it: said on stderr, as one-shot says it
                    self._stderr_error(reason, number)
                self._json_error(reason, number)
        return code

    @staticmethod
    def _stderr_error(reason: str, number: int) -> None:
        try:
            sys.stderr.write(f"rpgdice: error: line {number}: {reason}\n")
            sys.stderr.flush()
        except (OSError, ValueError):
            pass

    @staticmethod
    def _too_long() -> int:
        from rpgdice.cli.output import error

        error(f"the line is over {MAX_LINE:,} characters; a command is shorter (nothing of "
              "it was run)")
        return 2

    def _dispatch(self, text: str) -> Optional[int]:
        output.SPOKEN[:] = ["en", ""]  # the session's own lines speak English, whatever ran before
        route = self._routes.get((text, self.ruleset))
        if route is not None:
            return self._run(*route)
        from rpgdice.cli.output import error

        try:  # words split as a shell would (plain words need no shell rules)
            words = shlex.split(text) if _QUOTING.search(text) else text.split()
        except ValueError as e:  # an unclosed quote
            error(f"{str(e).lower()}: quote marks come in pairs (or escape one with \\)")
            return 2
        if not words:
            return 0
        if words[0] == PROG and len(words) > 1:  # rpgdice roll d20: the word rpgdice is not needed here
            words = words[1:]
        head, rest = words[0], words[1:]
        if head in ("help", "?"):
            return self._help(rest)
        if head in EXIT_WORDS and not rest:
            return STOPPED
        if head == "use":
            return self._use(rest)
        if head == "as":
            return self._as(rest)
        if head == "play":
            error("play: this is a session already (use and as change its context)")
            return 2
        if self._expression(head) or self._peers(words, text):
            return self.run(["roll", *words])
        argv = self.argv(words)
        if argv != words or self.root.get_command(None, head) is not None:  # a command's line
            route = self._routed(argv)
            if len(self._routes) >= MAX_ROUTES:
                self._routes.pop(next(iter(self._routes)))
            self._routes[(text, self.ruleset)] = route
            return self._run(*route)
        return self.run(argv)

    def _peers(self, words: list[str], text: str) -> bool:
        """Whether a line whose first word is no command, alias or command of the ruleset in
        use is a peer's spelling of a roll (``s 4d6``, ``dndstats``): rolled, so that the
        hint of the one table (grammar.PEERS) names the rpgdice form."""
        argv = self.argv(words)
        if argv != words or self._unaliased(argv) != argv or self.root.get_command(None, words[0]) is not None:
            return False
        from rpgdice.rulesets.dice.grammar import hint

        return hint(text.strip()) is not None

    def _expression(self, head: str) -> bool:
        """Whether a line whose first word is ``head`` is an ordinary dice expression alone
        (no command, alias or a ruleset's command of that name)."""
        if not _EXPRESSION_LIKE.match(head) or self.root.get_command(None, head) is not None:
            return False
        return not (self.ruleset is not None and head in self.group_commands(self.ruleset))

    def _help(self, rest: list[str]) -> int:
        """``help`` (or ``?``): the session's words and the commands; ``help COMMAND``: its
        ``--help``."""
        if rest:
            return self.run([*self.argv(rest), "--help"])
        import shutil
        import textwrap

        names = [n for n in self.root.list_commands(None) if n != "play"]
        width = max(40, min(shutil.get_terminal_size().columns, 100)) - 1
        listed = textwrap.fill(", ".join(names), width, initial_indent="  ",
                               subsequent_indent="  ", break_on_hyphens=False,
                               break_long_words=False)
        print(HELP + listed + "\n  (help COMMAND, or COMMAND --help, says more)")
        return 0

    def _use(self, rest: list[str]) -> int:
        from rpgdice.cli.output import error
        from rpgdice.core.names import fold

        accepts = f"accepts {', '.join(rulesets.NAMES)} or -"
        if len(rest) != 1:
            error(f"use: takes one ruleset; {accepts}")
            return 2
        name = "-" if rest[0] == "-" else fold(rest[0])
        if name not in (*rulesets.NAMES, "-"):
            from rpgdice.core.errors import shown

            error(f"use: {shown(rest[0])} is not a ruleset; {accepts}")
            return 2
        self.ruleset = None if _no_ruleset(name) else name
        return 0

    def _as(self, rest: list[str]) -> int:
        from rpgdice.cli.output import error
        from rpgdice.core.errors import RulesError

        if not rest:
            error("as: takes the name of a saved character (rpgdice char list), or - for none")
            return 2
        if rest == ["-"]:
            self.drop_character()
            return 0
        try:
            self.take_character(" ".join(rest))
        except RulesError as e:
            error(str(e))
            return 2
        return 0

    def run(self, argv: list[str]) -> int:
        """``rpgdice ARGV`` through the root group, as the one-shot command runs it; the
        environment as it was before (a command may tidy it). With ``--json``, ``--json``
        is added where the command takes it; else its text goes to stderr."""
        return self._run(*self._routed(argv))

    def _routed(self, argv: list[str]) -> tuple[list[str], bool]:
        """The arguments ``argv`` runs with (``--json`` added where the command takes it),
        and whether the command has a JSON form."""
        as_json = self.as_json and self.takes_json(argv)
        if as_json and "--json" not in argv:
            at = argv.index("--") if "--" in argv else len(argv)
            argv = [*argv[:at], "--json", *argv[at:]]
        return argv, as_json

    def _run(self, argv: list[str], as_json: bool) -> int:
        saved = _environment()
        try:
            if self.as_json and not as_json:
                with _stdout_to_stderr(True):
                    code = self.root.run_words(list(argv), self._parsed)
            else:
                code = self.root.run_words(list(argv), self._parsed)
        except SystemExit as e:
            code = e.code if isinstance(e.code, int) else 1
        finally:
            if _environment() != saved:
                _restore(saved)
        return int(code or 0)

    def takes_json(self, argv: list[str]) -> bool:
        """Whether the command ``argv`` names (aliases followed) has a JSON form: an
        option ``--json``, or ``again`` (which passes it on)."""
        cmd = self.root
        words = self._unaliased(argv)
        given = words[:words.index("--")] if "--" in words else words
        if any(w in ("--help", "-h", "--version") for w in given):
            return False  # a help page or the version: text
        while words and hasattr(cmd, "list_commands"):
            sub = cmd.get_command(None, words[0])
            if sub is None:
                break
            cmd, words = sub, words[1:]
        if cmd.name == "again":
            return True
        if cmd.name == "alias" and (words and not words[0].startswith("-") or "--rm" in words):
            return False  # setting or removing an alias says so in text, --json or not
        return any("--json" in getattr(p, "opts", ()) for p in cmd.params)

    def _unaliased(self, argv: list[str]) -> list[str]:
        if not argv or argv[0].startswith("-") or self.root.get_command(None, argv[0]) is not None:
            return argv
        from rpgdice.core.errors import RulesError
        from rpgdice.table import aliases

        try:
            known = aliases.load()
            if argv[0] in known:
                return [*aliases.split(argv[0], known[argv[0]]), *argv[1:]]
        except RulesError:  # the run reports it
            pass
        return argv

    # Reporting ----------------------------------------------------------------------

    def _errors(self, number: int) -> _ErrorLines:
        """stderr for one line (``with``): its error lines caught (and, without ``--json``,
        said with the line's number)."""
        return _ErrorLines(sys.stderr, number if self.numbered else None, self.as_json)

    def _json_error(self, reason: str, number: int) -> None:
        from rpgdice.core.jsontext import dumps

        sys.stdout.write(dumps({"error": reason, "line": number}, ensure_ascii=False) + "\n")
        sys.stdout.flush()

    def batch(self, lines: Iterable[str]) -> int:
        """Every line in turn, until ``exit``; exit status 2 if any line failed. Output
        that can no longer be delivered (the reader left, a full disk) ends it at once,
        with the one-shot command's status."""
        stdout = sys.stdout
        for number, text in enumerate(lines, 1):
            code = self.line(text, number)
            if code is STOPPED:
                break
            if code == READER_LEFT or sys.stdout is not stdout:
                return code
        return FAILED if self.failed else 0


def _environment() -> dict[Any, Any]:
    """The environment as it is now: ``os.environ``'s own mapping copied (a C-level copy
    of its encoded keys and values, some 50 times faster than decoding every one)."""
    data = getattr(os.environ, "_data", None)
    return dict(data) if isinstance(data, dict) else dict(os.environ)


def _restore(saved: dict[Any, Any]) -> None:
    """Put the environment back as :func:`_environment` saw it."""
    key, value = getattr(os.environ, "decodekey", None), getattr(os.environ, "decodevalue", None)
    items = saved
    if key is not None and value is not None and isinstance(getattr(os.environ, "_data", None), dict):
        items = {key(k): value(v) for k, v in saved.items()}
    os.environ.clear()
    os.environ.update(items)


class _ErrorLines:
    """A stderr that catches ``rpgdice: error: ...`` lines: kept in :attr:`errors`,
    and said as ``rpgdice: error: line N: ...`` (or not at all with ``--json``, whose
    error object says it). Anything else goes through as written."""

    def __init__(self, real: TextIO, number: Optional[int], as_json: bool) -> None:
        self.real = real
        self.number = number
        self.as_json = as_json
        self.errors: list[str] = []
        self._pending = ""
        self._wrote = False

    def write(self, text: str) -> int:
        self._wrote = True
        self._pending += text
        while "\n" in self._pending:
            line, self._pending = self._pending.split("\n", 1)
            self._line(line)
        return len(text)

    def _line(self, line: str) -> None:
        if line.startswith(ERROR):
            reason = _at_the_prompt(line[len(ERROR):])
            self.errors.append(reason)
            if self.as_json:
                return
            if self.number is not None:
                line = f"{ERROR}line {self.number}: {reason}"
            elif _is_terminal(self.real):
                line = _wrapped(f"{ERROR}{reason}")
        self.real.write(line + "\n")

    def __enter__(self) -> _ErrorLines:
        sys.stderr = self
        return self

    def __exit__(self, *exc: object) -> None:
        self.close_line()
        if sys.stderr is self:
            sys.stderr = self.real

    def close_line(self) -> None:
        if self._pending:
            self.real.write(self._pending)
            self._pending = ""
        if self._wrote:  # nothing written through it: nothing to flush (most lines)
            self.flush()

    def flush(self) -> None:
        try:
            self.real.flush()
        except (OSError, ValueError):
            pass

    def __getattr__(self, name: str) -> object:  # encoding, isatty, fileno, buffer...
        self._wrote = True  # what it hands out may write: flushed at the line's end
        return getattr(self.real, name)


def _at_the_prompt(reason: str) -> str:
    """An error's hint as the session reads it: a command to type never starts with
    ``rpgdice`` (CLI.md, "The session")."""
    return reason.replace(f"'{PROG} ", "'").replace(f"({PROG} --help", "(help")


def _is_terminal(stream: TextIO) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, OSError, ValueError):
        return False


def _wrapped(line: str) -> str:
    """An error line at the prompt, wrapped between words to the terminal's width."""
    import shutil
    import textwrap

    width = shutil.get_terminal_size((80, 24)).columns
    if len(line) <= width:
        return line
    return "\n".join(textwrap.wrap(line, width=max(width, 20), break_long_words=False,
                                    break_on_hyphens=False, subsequent_indent="  "))


@contextmanager
def _stdout_to_stderr(redirect: bool) -> Iterator[None]:
    """A ``--json`` session's text of a command with no JSON form: on stderr."""
    if not redirect:
        yield
        return
    stdout = sys.stdout
    sys.stdout = sys.stderr.real if isinstance(sys.stderr, _ErrorLines) else sys.stderr
    try:
        yield
    finally:
        sys.stdout.flush()
        if sys.stdout is not stdout:
            sys.stdout = stdout
