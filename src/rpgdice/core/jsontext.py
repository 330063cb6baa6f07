"""JSON text, written and read by the C accelerator the ``json`` package itself uses
(``_json``), without importing that package.

Every roll starts a process. The ``json`` package's import (its decoder, scanner and
encoder modules, with their regular expressions) cost a ``--json`` roll 2 ms of its start,
a third of what it costs beyond ``import typer``; a roll of a ruleset file reads JSON and
writes it too. :func:`dumps` and :func:`loads` call the same C functions ``json.dumps``
and ``json.loads`` call, with the arguments they pass (the same since Python 3.6), so
their text and their values are the package's own (tests/test_startup_costs.py holds them
to it); its errors are its own too (the package is imported to raise them). Where the
interpreter has no such accelerator, the ``json`` package does the work.
"""

from __future__ import annotations

from typing import Any

__all__ = ["dumps", "loads"]


def dumps(value: object, *, ensure_ascii: bool = True, sort_keys: bool = False,
          separators: tuple[str, str] = (", ", ": "), allow_nan: bool = True) -> str:
    """``json.dumps(value, ...)`` with these of its arguments (its defaults)."""
    if _ENCODER is None:
        import json

        return json.dumps(value, ensure_ascii=ensure_ascii, sort_keys=sort_keys,
                          separators=separators, allow_nan=allow_nan)
    make_encoder, plain, ascii_only = _ENCODER
    item, key = separators
    # json.encoder's call: circular references checked, no indent, no key skipped
    encode = make_encoder({}, _unknown, ascii_only if ensure_ascii else plain, None, key, item,
                          sort_keys, False, allow_nan)
    return "".join(encode(value, 0))


def loads(text: str | bytes | bytearray) -> Any:
    """``json.loads(text)``: its value, or its ``JSONDecodeError`` (a ValueError). Bytes
    are read by the package (their encoding found as it finds it)."""
    if _SCANNER is None or not isinstance(text, str) or text.startswith("\ufeff"):
        import json  # the package's own answer (a BOM is its error)

        return json.loads(text)
    start = len(text) - len(text.lstrip(_WHITESPACE))
    try:
        value, end = _SCANNER(text, start)
    except StopIteration as e:
        from json import JSONDecodeError

        raise JSONDecodeError("Expecting value", text, e.value) from None
    if text[end:].strip(_WHITESPACE):
        from json import JSONDecodeError

        end = len(text) - len(text[end:].lstrip(_WHITESPACE))
        raise JSONDecodeError("Extra data", text, end)
    return value


_WHITESPACE = " \t\n\r"
"""What JSON (and ``json.loads``) reads as whitespace around a value."""


def _unknown(value: object) -> object:
    """What ``json.dumps`` says of a value it cannot write."""
    raise TypeError(f"Object of type {value.__class__.__name__} is not JSON serializable")


class _Reading:
    """What the C scanner reads of ``json.JSONDecoder()`` (``json.loads``' own): strict,
    no hooks, Python's ``float`` and ``int``, and NaN and the infinities allowed."""

    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int
    parse_constant = {"-Infinity": float("-inf"), "Infinity": float("inf"),
                      "NaN": float("nan")}.__getitem__
    memo: dict[str, str] = {}


def _accelerated() -> tuple[Any, Any]:
    try:
        import _json
    except ImportError:  # an interpreter without it
        return None, None
    encoder = (_json.make_encoder, _json.encode_basestring, _json.encode_basestring_ascii)
    reading: Any = _Reading()  # what it reads of a decoder (typeshed: a scanner)
    return encoder, _json.make_scanner(reading)


_ENCODER, _SCANNER = _accelerated()
