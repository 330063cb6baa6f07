"""The prompt of ``rpgdice play`` at a terminal, built with prompt_toolkit: history in
the state folder (``history``; arrow keys, Ctrl-R searches it), TAB completion, Ctrl-C
clearing the line (or stopping the command running), Ctrl-D ending the session.

The only module that imports prompt_toolkit; nothing imports it but ``play`` at a
terminal. TAB completes the vocabulary the shell scripts complete (the same command
tree, :func:`rpgdice.cli.completion.model`, built at the first TAB), the session's own
words, and the user's names: characters, aliases, the extras of the encounter, and the
traits of the character rolling (``--as`` on the line, or the session's ``as``).
"""

from __future__ import annotations

import shlex
import signal
import sys
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Optional

from prompt_toolkit import PromptSession
from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document
from prompt_toolkit.history import FileHistory, History, InMemoryHistory

if TYPE_CHECKING:
    from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent

    from rpgdice.cli.completion import Node

from rpgdice.cli.session import SESSION_WORDS, STOPPED, Session

INTERRUPTED = 130
HISTORY_NAME = "history"
"""The session's history, a file in the state folder (beside the roll log)."""


def interact(session: Session) -> int:
    """Prompt, run, repeat, until ``exit``, ``quit`` or Ctrl-D (exit 0). Ctrl-C at the
    prompt clears the line; while a command runs it stops that command (one line,
    ``rpgdice: interrupted``) and the session goes on. One event loop serves every prompt
    (a loop made and closed per prompt cost some 3 ms a line); it is driven with
    ``run_until_complete``, which leaves Ctrl-C to Python's own handler, so a command that
    runs is interrupted where it is."""
    import asyncio

    prompt: PromptSession[str] = PromptSession(
        history=_history(), completer=SessionCompleter(session), complete_while_typing=False,
        key_bindings=_search_runs())
    session.numbered = False  # the error is right below its line
    old = signal.getsignal(signal.SIGINT)
    if old != signal.SIG_IGN:  # a background job keeps ignoring it
        signal.signal(signal.SIGINT, signal.default_int_handler)
    loop = asyncio.new_event_loop()
    try:
        number = 0
        while True:
            try:
                text = loop.run_until_complete(prompt.prompt_async(session.prompt))
            except KeyboardInterrupt:
                continue
            except EOFError:
                return 0
            number += 1
            if _run_line(session, text, number) is STOPPED:
                return 0
    finally:
        loop.close()
        signal.signal(signal.SIGINT, old)


def _search_runs() -> KeyBindings:
    """Enter during a Ctrl-R search runs the line found (CLI.md: "Ctrl-R finds a line and
    Enter runs it"), not only ends the search."""
    from prompt_toolkit.filters import is_searching
    from prompt_toolkit.key_binding import KeyBindings
    from prompt_toolkit.search import accept_search

    bindings = KeyBindings()

    @bindings.add("enter", filter=is_searching)
    def _(event: KeyPressEvent) -> None:
        accept_search()
        event.current_buffer.validate_and_handle()

    return bindings


def _run_line(session: Session, text: str, number: int) -> Optional[int]:
    try:
        code = session.line(text, number)
    except KeyboardInterrupt:  # outside the command, as it started or ended
        code = INTERRUPTED
    if code == INTERRUPTED:  # Typer makes Ctrl-C a silent exit 130: say it
        _say("rpgdice: interrupted")
    return code


def _say(line: str) -> None:
    try:
        sys.stderr.write(line + "\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass


def _history() -> History:
    """The history file in the state folder; in memory (and one warning) when the
    folder cannot be made."""
    from rpgdice.cli.output import warning
    from rpgdice.table import paths

    home = paths.home_problem()
    problem = str(home) if home is not None else ""
    folder = paths.state_dir()
    try:
        if home is None:
            folder.mkdir(parents=True, exist_ok=True)
            return _KeptHistory(str(folder / HISTORY_NAME))
    except OSError as e:
        problem = str(e.strerror or e)
    warning(f"the history cannot be kept in {folder}: {problem}; this session's history is "
            "forgotten when it ends")
    return InMemoryHistory()


class _KeptHistory(FileHistory):
    """The history file; a line that cannot be written to it is kept in memory alone (one
    warning, the first time), never a failed prompt."""

    failed = False

    def store_string(self, string: str) -> None:
        try:
            super().store_string(string)
        except OSError as e:
            if not self.failed:
                from rpgdice.cli.output import warning

                warning(f"the history file {self.filename!s} cannot be written: "
                        f"{e.strerror or e}; this session's lines are kept in memory only")
            self.failed = True

    def load_history_strings(self) -> Iterable[str]:
        try:
            yield from super().load_history_strings()
        except OSError:  # unreadable: an empty history
            return


class SessionCompleter(Completer):
    """TAB: the words that may come next at the cursor, in the session's context."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self._tree: Node | None = None

    @property
    def tree(self) -> Node:
        if self._tree is None:
            from rpgdice.cli.completion import model

            self._tree = model()
        return self._tree

    def get_completions(self, document: Document, complete_event: CompleteEvent,
                        ) -> Iterator[Completion]:
        text = document.text_before_cursor
        words = _split(text)
        current = "" if not text or text[-1].isspace() else (words.pop() if words else "")
        try:
            found = list(dict.fromkeys(self.candidates(words, current)))
        except Exception:  # TAB offers nothing rather than end the session
            return
        for word in found:
            if word.lower().startswith(current.lower()):
                yield Completion(word, start_position=-len(current))

    def candidates(self, done: list[str], current: str) -> Iterable[str]:
        """Every word that may follow ``done`` (the words before the cursor's)."""
        if not done:
            yield from SESSION_WORDS
            yield from self._node_words(self.tree, [], current)
            if self.session.ruleset is not None:
                node = _child(self.tree, self.session.ruleset)
                if node is not None:
                    yield from (sub.path[-1] for sub in node.subcommands)
            return
        if done[0] == "use" and len(done) == 1:
            from rpgdice import rulesets

            yield from (*rulesets.NAMES, "-")
            return
        if done[0] == "as" and len(done) == 1:
            yield from (*_characters(None), "-")
            return
        argv = self._expanded(self.session.argv(done))
        node = self.tree
        for i, word in enumerate(argv):
            child = _child(node, word)
            if child is None:
                break
            node, rest = child, argv[i + 1:]
        else:
            rest = []
        yield from self._after(node, argv, rest, current)

    def _after(self, node: Node, argv: list[str], rest: list[str], current: str) -> Iterable[str]:
        """What follows a command's words: an option's values after that option, options
        after a dash, else its subcommands and its arguments' values."""
        option = next((o for o in node.options if rest and rest[-1] in o.names), None)
        if option is not None and option.takes_value:
            yield from self._expand(option.values, argv)
            return
        yield from self._node_words(node, argv, current)

    def _node_words(self, node: Node, argv: list[str], current: str) -> Iterable[str]:
        if current.startswith("-"):
            yield from node.all_options
            return
        yield from (sub.path[-1] for sub in node.subcommands)
        yield from self._expand(node.dynamic_subs, argv)
        for values in node.positionals:
            yield from self._expand(values, argv)

    def _expand(self, values: Iterable[str], argv: list[str]) -> Iterable[str]:
        """Fixed words as they are; the dynamic ones (``@characters``...) from the user's
        files, read now."""
        for value in values:
            if not value.startswith("@"):
                yield value
                continue
            kind, _, ruleset = value[1:].partition(":")
            try:
                yield from self._dynamic(kind, ruleset or None, argv)
            except Exception:  # a broken file completes nothing, never a traceback
                continue

    def _dynamic(self, kind: str, ruleset: Optional[str], argv: list[str]) -> Iterable[str]:
        if kind == "characters":
            return _characters(ruleset)
        if kind == "aliases":
            from rpgdice.table import aliases

            return list(aliases.load())
        if kind == "extras":
            from rpgdice.table import encounter

            enc = encounter.load()
            return [s.name for s in enc.order if not s.character] if enc else []
        if kind in ("traits", "skills"):
            return _traits(self._rolling_for(argv), skills=kind == "skills")
        if kind in ("combatants", "conditions"):
            return _combatants(argv, kind == "conditions")
        return []

    def _rolling_for(self, argv: list[str]) -> Optional[str]:
        """The character the line rolls for: its ``--as``, else the session's."""
        for i, word in enumerate(argv[:-1]):
            if word == "--as":
                return argv[i + 1]
        for word in argv:
            if word.startswith("--as="):
                return word.split("=", 1)[1]
        return self.session.character

    def _expanded(self, argv: list[str]) -> list[str]:
        return self.session._unaliased(argv)


def _combatants(argv: list[str], conditions: bool) -> list[str]:
    """``encounter mark|unmark``'s NAME: the encounter's combatants, while none is typed;
    its CONDITION (``conditions``): the conditions of the NAME typed."""
    from rpgdice.core.names import fold
    from rpgdice.table import encounter

    typed = [w for w in argv[argv.index("encounter") + 2:] if not w.startswith("-")] \
        if "encounter" in argv else []
    enc = encounter.load()
    if enc is None or len(typed) != int(conditions):
        return []
    if not conditions:
        return ["-".join(s.name.split()) for s in enc.order]
    return ["-".join(c.name.split()) for s in enc.order if fold(s.name) == fold(typed[0])
            for c in s.conditions]


def _split(text: str) -> list[str]:
    """The words of a line being typed (an open quote taken as closed)."""
    try:
        return shlex.split(text)
    except ValueError:
        return text.split()


def _child(node: Node, name: str) -> Node | None:
    return next((sub for sub in node.subcommands if sub.path[-1] == name), None)


def _characters(ruleset: Optional[str]) -> list[str]:
    """The saved characters' names (of ``ruleset`` only, when given), as the shell
    scripts offer them: each sheet's file name."""
    from rpgdice.table import sheets

    found = []
    for sheet in sheets.load_all():
        if isinstance(sheet, sheets.Sheet) and (ruleset is None or sheet.ruleset == ruleset):
            found.append(sheet.path.stem)
    return found


def _traits(name: Optional[str], skills: bool) -> list[str]:
    """The number traits (or, ``skills``, the skill traits) of the character ``name``."""
    if not name:
        return []
    from rpgdice.table import sheets

    sheet = sheets.load(name)
    return ["-".join(trait.split()) for trait, value in sheet.traits.items()
            if isinstance(value, str) == skills and trait != "wound"]
