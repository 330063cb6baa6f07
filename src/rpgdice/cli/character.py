"""Trait names on the command line: a line that names a character (``--as NAME``, or
``RPGDICE_AS``) keeps them as typed, and the executor reads them from the sheet
(rpgdice.roll.character); a line that names none answers them with what to do (the same
words the executor says when ``RPGDICE_AS`` names nobody). Parsing only: no sheet is read
here."""

from __future__ import annotations

from rpgdice.roll.character import looks_like_names, without_as

__all__ = ["looks_like_names", "without_as"]
