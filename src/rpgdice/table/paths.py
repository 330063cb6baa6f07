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

APP = "rpgdice"
HOME_ENV = "RPGDICE_HOME"
CONFIG_NAME = "config.toml"
CHARACTERS_NAME = "characters"
LOG_NAME = "log.sqlite3"


def home() -> Path | None:
    """``RPGDICE_HOME`` as a path, or None when it is unset or empty."""
    value = os.environ.get(HOME_ENV, "").strip()
    return Path(value).expanduser() if value else None


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
