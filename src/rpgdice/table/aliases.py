"""Aliases, as git has them: ``[alias]`` in ``config.toml``.

    [alias]
    sneak = "seyruun roll dexterity stealth --as ysolde"

``rpgdice sneak -d moderate`` runs ``rpgdice seyruun roll dexterity stealth --as
ysolde -d moderate``. An alias may not take a command's name, and one that leads to
another alias is an error, not a loop.
"""

from __future__ import annotations

import re
import shlex

from rpgdice.core.errors import RulesError, shown
from rpgdice.table import files, paths

SECTION = "alias"
LOCK = ".config.lock"
MAX_NAME = 40
_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")
NAME_ACCEPTS = f"a letter, then letters, digits, - and _ (at most {MAX_NAME})"


def check_name(name: str) -> str:
    if len(name) > MAX_NAME or not _NAME.fullmatch(name):
        raise RulesError("NAME", f"{shown(name)} is not an alias name; accepts {NAME_ACCEPTS}")
    return name


def load() -> dict[str, str]:
    """Every alias, name -> command text; a broken ``config.toml`` is an error naming it."""
    path = paths.config_file()
    data = files.read_toml(path)
    if not data:
        return {}
    table = data.get(SECTION, {})
    if not isinstance(table, dict):
        raise files.broken(path, f"'{SECTION}' is not a table")
    for name, command in table.items():
        if not isinstance(command, str):
            raise files.broken(path, f"alias '{name}' is not a text (the command to run)")
    return dict(table)


def split(name: str, command: str) -> list[str]:
    """An alias's command as the words it stands for."""
    try:
        words = shlex.split(command)
    except ValueError as e:
        raise RulesError("COMMAND", f"alias '{name}': {e} in {shown(command)}") from None
    if not words:
        raise RulesError("COMMAND", f"alias '{name}' is empty")
    return words


def define(name: str, command: str) -> None:
    import tomlkit

    try:
        command.encode("utf-8")
    except UnicodeEncodeError:  # a byte that is no UTF-8: config.toml is UTF-8 text
        raise RulesError("COMMAND", f"alias '{name}': {shown(command)} holds bytes that are "
                         "not UTF-8 text; type it again in UTF-8") from None

    path = paths.config_file()
    with files.locked(path.parent, LOCK):
        doc = files.read_document(path)
        if SECTION not in doc:
            if len(doc):
                doc.add(tomlkit.nl())
            doc[SECTION] = tomlkit.table()
        doc[SECTION][name] = command
        files.write_document(path, doc)


def remove(name: str) -> str:
    path = paths.config_file()
    if name not in load():  # said before anything is created
        _no_alias(name)
    with files.locked(path.parent, LOCK):
        known = load()
        if name not in known:
            _no_alias(name)
        doc = files.read_document(path)
        del doc[SECTION][name]
        files.write_document(path, doc)
        return known[name]


def _no_alias(name: str) -> None:
    names = ", ".join(load()) or "none yet"
    raise RulesError("--rm", f"no alias {shown(name)}; aliases: {names}")
