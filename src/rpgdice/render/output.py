"""The one place that writes to the user: results to stdout, errors to stderr — for the
command line, the session and the executor alike (``rpgdice.cli.output`` hands the same
names on).

Rich is imported only on the terminal path; ``--json`` and errors never load it.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any, cast

from rpgdice.core.data import JSONObject
from rpgdice.core.envelope import JSON_EXTRA as JSON_EXTRA

if TYPE_CHECKING:
    from rpgdice.core.envelope import Rolled
    from rpgdice.core.record import Tagged
    from rpgdice.render.common import Odds, Outcome

Compared = object
"""An alternative's odds (``--compare``): written as data, and shown beside the base's."""

PROG = "rpgdice"


def emit(items: Iterable[Rolled], *, as_json: bool, odds: Odds | None = None, total: int = 1,
         keys: JSONObject | None = None, compact: bool = False,
         compare: list[tuple[str, Compared]] | None = None) -> None:
    """Print ``items`` (``total`` of them: :class:`~rpgdice.core.envelope.Rolled`, each a
    result and its envelope) as they come. ``odds`` (the exact odds of the command's
    roll, asked for with ``--odds``) adds the chance of each result's outcome: one line
    under the breakdown, or an ``odds`` key in JSON. ``keys`` (the seed, ...) are added
    to every JSON object. A character's roll (``--as``) adds the ``character``, ``spent``
    and ``left`` keys of its envelope's ``table`` to JSON, and the view shows that line;
    an attack target's keys (``vs_keys``) and line (``vs_table``) likewise. ``compact``:
    the terminal shows repeats in their ruleset's short form (``roll 4d6kh3 -n 6``)."""
    if as_json:
        write = _jsonl().write

        def more(item: Rolled) -> JSONObject:
            out: JSONObject = dict(keys or {})
            out.update(item.envelope.json_keys())  # --as, and seyruun attack --vs
            if odds is not None:
                out.update(odds_key(odds, cast("Outcome", item.result)))  # --odds: a result with an outcome
                if compare:
                    from rpgdice.core.data import to_data

                    out["odds"] = {**to_data(out["odds"]), "compare": compared}
            return out

        compared = _compared(compare) if compare else []
        write(items, sys.stdout, more, result=_result)
    else:
        from rpgdice.render import common

        _tolerant_stdout()
        after = None
        if odds is not None:
            after = lambda r: common.odds_lines(odds, r)  # noqa: E731
        common.show(items, after=after, total=total, compact=compact)
        if compare:
            from rpgdice.render import compare as comparing

            comparing.show(odds, compare)
    sys.stdout.flush()


def _jsonl() -> Any:
    """:mod:`rpgdice.render.jsonl`, imported at the first JSON written and kept (an import
    statement at every session line is a microsecond). Kept only once its import is done:
    a thread of the server that finds it being imported by another waits for it, as the
    import statement waits (``sys.modules`` holds a module before its body has run)."""
    if not _JSONL:
        from rpgdice.render import jsonl

        _JSONL.append(jsonl)
    return _JSONL[0]


_JSONL: list[Any] = []


def _compared(compare: list[tuple[str, Compared]] | None) -> list[JSONObject]:
    """``--compare``'s JSON: ``{args, odds}`` for each alternative, in order."""
    from rpgdice.core.data import to_data

    return [{"args": args, "odds": to_data(odds)} for args, odds in compare or ()]


def _result(item: Rolled) -> Tagged:
    return item.result


def emit_odds(result: object, *, as_json: bool, extra: JSONObject | None = None,
              compare: list[tuple[str, Compared]] | None = None) -> None:
    """Print the exact odds an ``odds`` command computed (``extra``: a character's, ``--as``;
    ``compare``: each ``--compare`` alternative's args and odds)."""
    if as_json:
        from rpgdice.render import jsonl

        def keys(r: object) -> JSONObject:
            out = {k: v for k, v in (extra or {}).items() if k in JSON_EXTRA}
            if compare:
                out["compare"] = _compared(compare)
            return out

        jsonl.write([result], sys.stdout, keys)
    else:
        from rpgdice.render import compare as comparing

        _tolerant_stdout()
        comparing.show_odds([result], compare=compare)
    sys.stdout.flush()


def _tolerant_stdout() -> None:
    """A terminal that cannot show a character (an ASCII or Latin-1 locale) gets '?'
    for it rather than no roll at all."""
    if getattr(sys.stdout, "errors", None) == "strict" and hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(errors="replace")


def odds_key(odds: Odds, result: Outcome) -> JSONObject:
    """``--odds --json``: the chance of this result's outcome and of every outcome
    (odds that know better, such as ordinary dice's, give their own key)."""
    own = getattr(odds, "json_key", None)
    if own is not None:
        return own(result)
    if getattr(odds, "type", None) is not None:  # a roll type's: every key of its odds
        from rpgdice.core.data import to_data

        return {"odds": {"outcome": odds.outcomes[result.outcome], **to_data(odds)}}
    return {"odds": {"outcome": odds.outcomes[result.outcome], "outcomes": odds.outcomes}}


LONG_WORD = 80
"""A word of an error line longer than this (a pasted blob echoed back) is cut short."""
LONG_LINE = 320
"""An error line's reason longer than this loses its middle (``…``): the start names
what was wrong, the end what is accepted, and no parser's echo can flood stderr."""


def _squeezed(text: str) -> str:
    words = []
    for word in text.split():
        if len(word) > LONG_WORD:
            word = word[:LONG_WORD] + "…"
        words.append("".join(c if c.isprintable() else repr(c)[1:-1] for c in word))
    return " ".join(words)


def one_line(message: object, keep: str | None = None) -> str:
    """``message`` as one printable line of at most about ``LONG_LINE`` characters:
    whitespace runs become one space, control characters are escaped, overlong words
    are cut with an ellipsis, and an overlong line loses its middle. ``keep``, a part of
    ``message`` that is short and printable (an expression echoed as typed, which an
    error position counts in), is left whole, its spaces as they are."""
    text = str(message)
    if keep and keep in text and len(keep) <= LONG_WORD and keep.isprintable() and keep.strip():
        before, after = text.split(keep, 1)
        line = "".join((_squeezed(before), " " if before[-1:].isspace() and before.strip() else "",
                        keep, " " if after[:1].isspace() and after.strip() else "", _squeezed(after)))
    else:
        line = _squeezed(text)
    if len(line) > LONG_LINE:
        half = LONG_LINE // 2
        head, tail = line[:half], line[-half:]
        head = head.rsplit(" ", 1)[0] if " " in head else head  # whole words at the cut
        tail = tail.split(" ", 1)[1] if " " in tail else tail
        line = f"{head} … {tail}"
    return line


class _PerThread:
    """A two-item list each thread sees its own copy of (``SPOKEN[:] = [...]``,
    ``SPOKEN[0]``): the table's server runs seats' commands in several threads at once."""

    def __init__(self, first: list[str]) -> None:
        import threading

        class Local(threading.local):
            def __init__(self) -> None:  # in each thread, at its first use
                self.now = list(first)

        self.local = Local()

    def _now(self) -> list[str]:
        now: list[str] = self.local.now
        return now

    def __getitem__(self, i: int) -> str:
        now: list[str] = self.local.now
        return now[i]

    def __setitem__(self, i: slice, value: Iterable[str]) -> None:
        self.local.now[i] = value

    def __len__(self) -> int:
        return len(self._now())

    def __iter__(self) -> Iterator[str]:
        return iter(self._now())

    def __eq__(self, other: object) -> bool:
        return self._now() == other

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return repr(self._now())


SPOKEN = _PerThread(["en", ""])
"""The language of the ruleset whose command runs, and that ruleset (its record says both;
the root group sets them as it resolves the command): its error and warning lines speak it.
Each thread's own."""


def spoken(reason: str) -> str:
    """``reason`` in the language of the ruleset whose command runs: its record's
    ``messages`` say it (Reglas Básicas in Spanish, :mod:`rpgdice.rulesets.reglas.messages`)."""
    if SPOKEN[0] == "en" or not SPOKEN[1]:
        return reason

    from rpgdice.core import registry

    record = registry.get(SPOKEN[1]) if registry.known(SPOKEN[1]) else None
    if record is None or record.words.translate is None:
        return reason
    return str(record.words.translate(reason))


def error(message: str, keep: str | None = None) -> None:
    """One line on stderr: ``rpgdice: error: <reason>``. A stderr that cannot take it
    (closed, or the same closed pipe as stdout) loses it; the exit status still tells.
    ``keep``: see :func:`one_line`."""
    line = one_line(spoken(str(message)), keep)
    try:
        sys.stderr.write(f"{PROG}: error: {line}\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass


def warning(message: str) -> None:
    """One line on stderr: ``rpgdice: warning: <what>``; the command goes on."""
    try:
        sys.stderr.write(f"{PROG}: warning: {one_line(spoken(message))}\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass
