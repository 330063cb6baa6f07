"""Where rpgdice keeps the user's files.

``RPGDICE_HOME``, when set (non-empty), holds everything: ``config.toml``,
``characters/`` and the roll log. Otherwise the platform's own places, found with
platformdirs: on Linux ``$XDG_CONFIG_HOME/rpgdice`` (default ``~/.config/rpgdice``)
for ``config.toml`` and ``characters/``, and ``$XDG_STATE_HOME/rpgdice`` (default
``~/.local/state/rpgdice``) for the log. Nothing here creates a directory: a command
creates what it writes, when it writes it.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rpgdice.core.errors import RulesError

APP = "rpgdice"
HOME_ENV = "RPGDICE_HOME"
CONFIG_NAME = "config.toml"
CHARACTERS_NAME = "characters"
LOG_NAME = "log.sqlite3"


def home() -> Path | None:
    """``RPGDICE_HOME`` as a path, or None when it is unset or empty."""
    value = os.environ.get(HOME_ENV, "").strip()
    return Path(value).expanduser() if value else None


MAX_PATH = 4000
"""A longer ``RPGDICE_HOME`` leaves no room for the files in it (Linux takes 4096 bytes)."""


def home_problem() -> RulesError | None:
    """What makes ``RPGDICE_HOME`` unusable as a folder (a file, a device, too long),
    as the usage error naming it; None when it is unset or may be a folder."""
    from rpgdice.core.errors import RulesError, shown

    root = home()
    if root is None:
        return None
    size = len(os.fsencode(str(root)))
    longest = max((len(os.fsencode(part)) for part in root.parts), default=0)
    if size > MAX_PATH or longest > 255:
        return RulesError(HOME_ENV, f"{shown(root)} is longer than a file system takes "
                          f"({size} bytes); set it to a shorter path")
    try:
        if root.exists() and not root.is_dir():
            return RulesError(HOME_ENV, f"{shown(root)} is not a folder; set it to a folder "
                              "(or unset it)")
    except OSError:
        pass
    return None


def config_dir() -> Path:
    """The folder of ``config.toml`` and ``characters/``."""
    root = home()
    if root is not None:
        return root
    from platformdirs import user_config_path

    return user_config_path(APP, appauthor=False)


def state_dir() -> Path:
    """The folder of the roll log."""
    root = home()
    if root is not None:
        return root
    from platformdirs import user_state_path

    return user_state_path(APP, appauthor=False)


def config_file() -> Path:
    return config_dir() / CONFIG_NAME


def characters_dir() -> Path:
    return config_dir() / CHARACTERS_NAME


def log_file() -> Path:
    return state_dir() / LOG_NAME
