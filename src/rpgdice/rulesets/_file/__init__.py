"""A user's own ruleset, written as a file: ``rulesets/NAME.toml`` in the config folder
(beside ``config.toml``). One more way to declare a ruleset: the registry
(rpgdice.rulesets) finds the files for a name no folder or package has, and each file
becomes a :class:`FileRuleset` record — the same record every ruleset declares — whose
rules, odds, commands and views are this folder's, one implementation for every file.

The file is read when a command needs it and read again when it changed (its size and
time), so a file edited while ``serve`` runs counts from its next roll. A roll carries
the file's checked content with it (:class:`.rules.FileRoll`), so the log replays a roll
by the rules it was made with.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rpgdice.core import jsontext
from rpgdice.core.commands import NOT_COMMANDS, ROOT_COMMANDS
from rpgdice.core.errors import RulesError, visible
from rpgdice.core.record import frozen
from rpgdice.rulesets import Die, Ruleset, SheetSchema, Views, Words
from rpgdice.rulesets._file.schema import NAME, check, fold

SUFFIX = ".toml"
RESERVED = frozenset(ROOT_COMMANDS) | frozenset(NOT_COMMANDS)
"""Names a user's ruleset may not take: the root's commands, ``help`` and ordinary dice."""


if TYPE_CHECKING:
    from rpgdice.core.command import Command


@frozen
class FileRuleset(Ruleset):
    """The record of a user's ruleset file: a :class:`Ruleset` whose rules, odds, views and
    commands are this folder's, and ``text`` its checked rules (JSON), ``file`` its path."""

    file: str = ""
    text: str = ""
    kind: str = ""

    @property
    def module(self) -> str:
        return __name__

    def views(self) -> Views:
        from rpgdice.rulesets._file import view

        return view.table(self.name, self.text if self.kind == "custom" else "")

    def record_class(self, name: str) -> type:
        from rpgdice.rulesets._file import rules

        found = (rules.custom_classes(self.name, rules.parsed(self.text)) if self.kind ==
                 "custom" else rules.classes(self.name)).get(name)
        if found is None:
            raise KeyError(name)
        return found


def folder() -> Path:
    from rpgdice.table import paths

    return paths.config_dir() / "rulesets"


def path_of(name: str) -> Path:
    return folder() / f"{name}{SUFFIX}"


def taken() -> frozenset[str]:
    from rpgdice import rulesets

    return RESERVED | rulesets.builtin_names()


def shadowed_alias(name: str) -> str | None:
    """The warning that the file ``rulesets/NAME.toml`` hides the user's alias of the same
    name (a command's name wins over an alias's), or None. ``config.toml`` is parsed only
    when it holds the name at all: a roll of a user's ruleset reads no TOML otherwise."""
    from rpgdice.table import files, paths

    try:
        text = files.read_text(paths.config_file())
        if not text or name not in text:
            return None
        from rpgdice.table import aliases  # shlex with it: only when the name is there

        if name not in aliases.load():
            return None
    except (OSError, RulesError):
        return None
    return (f"the ruleset file {name}{SUFFIX} hides your alias '{name}' (rpgdice {name} rolls "
            "the file; rename the alias or the file to use both)")


_AS_ROLLED: ContextVar[dict[str, FileRuleset]] = ContextVar("as_rolled")
"""The records made from the rules a logged roll carried (:func:`as_rolled`), by name:
while an entry is shown they stand for today's files (edited or deleted since)."""


def exists(name: str) -> bool:
    """Whether a file could hold the ruleset ``name`` (a stat, nothing read), or a logged
    roll being shown carried its rules."""
    if name in _AS_ROLLED.get({}):
        return True
    if not NAME.match(name) or name in RESERVED:
        return False
    try:
        return path_of(name).is_file()
    except (OSError, RulesError):
        return False


def stems() -> list[str]:
    """The names of the files in the folder, sorted (nothing read)."""
    try:
        return sorted(p.name[:-len(SUFFIX)] for p in folder().glob(f"*{SUFFIX}"))[:1000]
    except (OSError, RulesError):
        return []


def problems(path: Path, stem: str | None = None) -> tuple[dict[str, Any] | None, list[tuple[str, str]]]:
    """The rules of the file at ``path`` and its problems (a file that cannot be read: a
    RulesError, as a broken sheet)."""
    from rpgdice.table import files

    data = files.read_toml(path)
    if data is None:
        raise RulesError(str(path), "no such file")
    return check(data, stem, taken())


_CACHE: dict[str, tuple[tuple[int, ...], FileRuleset]] = {}
"""Each file's record by its path, with the stamp (time, size, inode, change time) it was
read at."""


def load(name: str) -> FileRuleset:
    """The record of the file ``rulesets/NAME.toml`` (read again when it changed); a
    RulesError naming the file and its first problem. While a logged roll is shown
    (:func:`as_rolled`), the record of the rules that roll carried instead."""
    shown = _AS_ROLLED.get({}).get(name)
    if shown is not None:
        return shown
    path = path_of(name)
    try:
        st = path.stat()
    except OSError:
        raise RulesError(name, f"no ruleset file {path}") from None
    stamp = (st.st_mtime_ns, st.st_size, st.st_ino, st.st_ctime_ns)
    cached = _CACHE.get(str(path))
    if cached is not None and cached[0] == stamp:
        return cached[1]
    rules: dict[str, Any] | None = None
    found: list[tuple[str, str]] = []
    data = _parsed(name, path, stamp)
    if data is not None:
        rules, found = check(data, name, taken())
    if rules is None:  # no good copy: the file itself
        from rpgdice.table import files

        data = files.read_toml(path)
        if data is None:
            raise RulesError(str(path), "no such file")
        rules, found = check(data, name, taken())
        if rules is not None:
            _keep(name, path, stamp, data)
    if rules is None:
        key, what = found[0]
        raise RulesError(str(path), f"{key}: {what}")
    record = make(rules, str(path))
    _CACHE[str(path)] = (stamp, record)
    return record


PARSED_VERSION = 1
"""The form of a file's parsed copy (:func:`_keep`); another is read as none."""


def parsed_path(name: str) -> Path:
    """Where the parsed copy of the file ``NAME.toml`` is kept: the state folder's
    ``cache/rulesets/NAME.json`` (beside the log; nothing of the user's own)."""
    from rpgdice.table import paths

    return paths.state_dir() / "cache" / "rulesets" / f"{name}.json"


def _parsed(name: str, path: Path, stamp: tuple[int, ...]) -> Any:
    """The file's content from its parsed copy, None when there is no copy of the file as
    it is now. Every roll starts a process, and reading TOML costs its parser's import
    (about 2 ms), where JSON is loaded for a file's rules anyway. The content is checked
    again as the file's would be."""
    import stat

    from rpgdice.table import files

    copy = parsed_path(name)
    try:  # a regular file itself: a link, a FIFO or a device is no copy
        if not stat.S_ISREG(os.lstat(copy).st_mode):
            return None
        text = files.read_text(copy)
        kept = jsontext.loads(text) if text is not None else None
    except (OSError, RulesError, ValueError, RecursionError):
        return None
    if not (isinstance(kept, dict) and kept.get("version") == PARSED_VERSION
            and kept.get("file") == str(path) and kept.get("stamp") == list(stamp)):
        return None
    return kept.get("data")


def _keep(name: str, path: Path, stamp: tuple[int, ...], data: dict[str, Any]) -> None:
    """Keep the parsed copy of a good file for the next process (a failure to write it
    costs nothing but the next read)."""
    from rpgdice.table import files

    kept = {"version": PARSED_VERSION, "file": str(path), "stamp": list(stamp), "data": data}
    try:
        files.replace_file(parsed_path(name), jsontext.dumps(kept, ensure_ascii=False))
    except (RulesError, OSError, TypeError, ValueError):
        pass


def forget() -> None:
    _CACHE.clear()


def text_of(rules: dict[str, Any]) -> str:
    """The checked rules as a roll carries them: JSON, keys sorted."""
    return jsontext.dumps(rules, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def make(rules: dict[str, Any], file: str) -> FileRuleset:
    """The record of checked ``rules``."""
    name, title, kind = rules["name"], visible(rules["title"]), rules["kind"]
    # a file's text is checked for control characters; a log's rules may be forged: shown
    # visibly whatever they hold
    outcomes = {fold(o["name"]): (visible(o["name"]), o["tone"]) for o in rules["outcomes"]}
    sides = rules.get("die") if kind != "custom" else _one_size(rules)
    what = {"pool": "a pool counted for successes", "total": f"{rules.get('dice')} against bands",
            "highest": "the highest die of a pool", "custom": "its own dice and outcomes"}[kind]
    return FileRuleset(
        name=name, language="en",
        words=Words(title, help=f"{title}: {what} (your own ruleset, {Path(file).name}).",
                    nouns={k: (w, w) for k, (w, _) in outcomes.items()}),
        outcomes=outcomes, die=Die(sides, "dice", "face") if sides else None,
        sheet=SheetSchema(negative=True), plan=None, commands=_commands,
        order=200, file=file, text=text_of(rules), kind=kind)


def _one_size(rules: dict[str, Any]) -> int | None:
    """The sides of every die a custom file rolls, when all are plain dice of one fixed
    size (``log stats`` counts their faces, as a pool's): None for dice of several
    sizes, sizes an argument gives, or faces and symbols of the file's own."""
    sizes = {g.get("sides") for g in rules.get("dice") or ()
             if not g.get("faces") and not g.get("symbols")}
    plain = all(not g.get("faces") and not g.get("symbols") for g in rules.get("dice") or ())
    (size,) = sizes if len(sizes) == 1 and plain else (None,)
    return size if isinstance(size, int) and not isinstance(size, bool) else None


def _commands(record: Ruleset) -> tuple[Command, ...]:
    """A file's commands' records: ``roll`` and ``odds`` with its kind's arguments."""
    from rpgdice.rulesets._file.commands import COMMANDS

    return COMMANDS(record)


def rolled_with(entry: Any) -> FileRuleset | None:
    """The record of the rules a logged roll of a user's ruleset carried (its stored spec's
    ``rules``), or None: another ruleset's roll, or rules no file could have made (a log
    edited by hand)."""
    from rpgdice import rulesets
    from rpgdice.rulesets._file import rules as file_rules

    spec = entry.get("roll") if isinstance(entry, dict) else None
    name = spec.get("ruleset") if isinstance(spec, dict) else None
    args = spec.get("args") if isinstance(spec, dict) else None
    text = args.get("rules") if isinstance(args, dict) else None
    if (not isinstance(name, str) or not isinstance(text, str) or not NAME.match(name)
            or name in RESERVED or name in rulesets.builtin_names()):
        return None
    try:
        rules = file_rules.parsed(text)
        outcomes = rules["outcomes"]
        if (rules.get("name") != name or not isinstance(rules.get("title"), str) or not outcomes
                or not all(isinstance(o, dict) and isinstance(o.get("name"), str)
                           and isinstance(o.get("tone"), str) and isinstance(o.get("when"), dict)
                           for o in outcomes)):
            return None
        return make(rules, str(path_of(name)))
    except Exception:  # rules forged into a shape no file makes: today's file, if any
        return None


@contextmanager
def as_rolled(entry: Any) -> Iterator[None]:
    """While the entry is shown, its ruleset (a user's file) is the one its roll carried:
    the title, the outcomes' words and tones and the bands of the time of the roll, whatever
    the file says now, and whether or not it is still there."""
    record = rolled_with(entry)
    if record is None:
        yield
        return
    token = _AS_ROLLED.set({**_AS_ROLLED.get({}), record.name: record})
    try:
        yield
    finally:
        _AS_ROLLED.reset(token)


def valid() -> list[FileRuleset]:
    """The records of the good files, by name (a broken or misnamed file is left out), and
    those of a logged roll being shown (:func:`as_rolled`)."""
    shown = _AS_ROLLED.get({})
    out = [r for n, r in sorted(shown.items()) if n not in stems()]
    for stem in stems():
        if stem in shown:
            out.append(shown[stem])
        elif NAME.match(stem) and stem not in RESERVED:
            try:
                out.append(load(stem))
            except RulesError:
                continue
    return out


def commands_module() -> Any:
    return import_module(f"{__name__}.commands")
