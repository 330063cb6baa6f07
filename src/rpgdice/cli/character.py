"""Trait names on the command line: a line that names a character (``--as NAME``, or
``RPGDICE_AS``) keeps them as typed, and the executor reads them from the sheet
(rpgdice.roll.character); a line that names none answers them with what to do.
Parsing only: no sheet is read here."""

from __future__ import annotations

from rpgdice.core.errors import shown


def looks_like_names(value: object) -> bool:
    """Whether an argument's value holds a word, as a trait name is: a term (of a sum)
    that starts with a letter."""
    if not isinstance(value, str):
        return False
    import re

    return any(term.strip()[:1].isalpha() for term in re.split(r"[+\-\u2212\u2013]", value))


def without_as(value: str, reason: str, skill: bool = False) -> str:
    """The error of an argument given trait names (``seyruun roll dexterity stealth``,
    ``cypher task --skill stealth``) when no character rolls: that they look like trait
    names, and what to do (``--as NAME`` reads them from a saved character's sheet)."""
    text = value.strip()
    if skill:
        return (f"{reason}; {shown(text)} looks like a skill's name, which only a character's "
                "roll reads from its sheet: add --as NAME (a saved character: rpgdice char list)")
    what = "trait names" if any(c in text for c in "+-\u2212\u2013") else "a trait name"
    return (f"{shown(text)} is no number but looks like {what}, which only a character's roll "
            "reads from its sheet: add --as NAME (a saved character: rpgdice char list), "
            "or give numbers such as 3+2")
