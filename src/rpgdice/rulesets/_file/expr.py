"""The expressions of a ruleset file (``kind = "dice"``): a small language of our own, read
by a recursive-descent parser (never ``eval``) into a tree of tuples, and evaluated by
walking it. Bounded: an expression is at most :data:`MAX_TEXT` characters and
:data:`MAX_DEPTH` levels deep, has no loops and no way to name itself, so its work is
bounded by its length and the dice it looks at. Pure.

    expr   := or ;  or := and ('or' and)* ;  and := not ('and' not)*
    not    := 'not' not | cmp ;  cmp := sum (('=='|'!='|'<'|'<='|'>'|'>=') sum)?
    sum    := term (('+'|'-') term)* ;  term := unary (('*'|'/'|'%') unary)*
    unary  := '-' unary | atom
    atom   := NUMBER | 'true' | 'false' | NAME | NAME '(' args ')' | '(' expr ')'
    arg    := expr | '[' NAME (',' NAME)* ']'      (a list of dice groups)

``/`` divides rounding down (``7 / 2`` is 3); ``%`` is the remainder. Functions:
``if(c, a, b)``, ``min``, ``max``, ``abs``, and the dice's: ``count(G, test)``,
``sum(G[, value])``, ``high(G[, value])``, ``low(G[, value])``, ``top(G, k[, value])``
(the sum of the k highest), ``alike(G[, value])`` (the most dice sharing one value) — G
a group's name or ``[g1, g2]``, ``test`` and ``value`` read each die (``face``, a symbol
die's letters) — and, for the JSON keys only, ``faces(G)`` and ``effect(G)`` (Cortex's
effect die: the one system-specific function).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

MAX_TEXT = 500
MAX_DEPTH = 40
AGGREGATES = ("count", "sum", "high", "low", "top", "alike")
KEY_ONLY = ("faces", "effect")
NUMERIC = ("if", "min", "max", "abs")
FUNCTIONS = AGGREGATES + KEY_ONLY + NUMERIC
WORDS = ("and", "or", "not", "true", "false")
_TOKEN = re.compile(r"\s*(?:(\d{1,9})|([A-Za-z_][A-Za-z0-9_]*)|(==|!=|<=|>=|[-+*/%<>(),\[\]]))")

Node = tuple[Any, ...]


class ExprError(ValueError):
    """A bad expression: what is wrong and where (a column, from 1)."""

    def __init__(self, message: str, column: int) -> None:
        super().__init__(f"at column {column}: {message}")
        self.column = column


def tokens(text: str) -> list[tuple[str, Any, int]]:
    """The tokens of ``text``: ``("num", n, col)``, ``("name", s, col)``, ``("op", s, col)``."""
    if len(text) > MAX_TEXT:
        raise ExprError(f"is longer than {MAX_TEXT} characters", MAX_TEXT + 1)
    out: list[tuple[str, Any, int]] = []
    at = 0
    while at < len(text):
        if text[at:].strip() == "":
            break
        m = _TOKEN.match(text, at)
        if m is None:
            col = at + len(text[at:]) - len(text[at:].lstrip()) + 1
            raise ExprError(f"{text[col - 1]!r} is not part of an expression", col)
        col = m.start(m.lastindex or 0) + 1
        if m.group(1):
            out.append(("num", int(m.group(1)), col))
        elif m.group(2):
            out.append(("name", m.group(2), col))
        else:
            out.append(("op", m.group(3), col))
        at = m.end()
    out.append(("end", None, len(text) + 1))
    return out


class _Reader:
    def __init__(self, text: str) -> None:
        self.toks = tokens(text)
        self.i = 0
        self.depth = 0

    def peek(self) -> tuple[str, Any, int]:
        return self.toks[self.i]

    def take(self, value: str | None = None) -> tuple[str, Any, int]:
        tok = self.toks[self.i]
        if value is not None and tok[1] != value:
            said = "the end" if tok[0] == "end" else repr(str(tok[1]))
            raise ExprError(f"expected {value!r}, found {said}", tok[2])
        self.i += 1
        return tok

    def deeper(self, col: int) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise ExprError(f"nests more than {MAX_DEPTH} levels deep", col)

    def binary(self, ops: tuple[str, ...], lower: Callable[[], Node]) -> Node:
        left = lower()
        while self.peek()[1] in ops and self.peek()[0] in ("op", "name"):
            _, op, col = self.take()
            left = ("op", op, left, lower(), col)
        return left

    def expr(self) -> Node:
        self.deeper(self.peek()[2])
        node = self.binary(("or",), lambda: self.binary(("and",), self.negation))
        self.depth -= 1
        return node

    def negation(self) -> Node:
        if self.peek()[:2] == ("name", "not"):
            return self.prefixed("not", self.negation)
        left = self.sum()
        if self.peek()[0] == "op" and self.peek()[1] in ("==", "!=", "<", "<=", ">", ">="):
            _, op, col = self.take()
            left = ("op", op, left, self.sum(), col)
        return left

    def sum(self) -> Node:
        return self.binary(("+", "-"), lambda: self.binary(("*", "/", "%"), self.unary))

    def unary(self) -> Node:
        if self.peek()[:2] == ("op", "-"):
            return self.prefixed("neg", self.unary)
        return self.atom()

    def prefixed(self, kind: str, operand: Callable[[], Node]) -> Node:
        """A prefix operator (``not``, ``-``) just taken, and its operand, one level deeper."""
        col = self.take()[2]
        self.deeper(col)
        node = (kind, operand(), col)
        self.depth -= 1
        return node

    def atom(self) -> Node:
        kind, value, col = self.take()
        if kind == "num":
            return ("num", value, col)
        if kind == "op" and value == "(":
            node = self.expr()
            self.take(")")
            return node
        if kind == "name" and value in ("true", "false"):
            return ("num", value == "true", col)
        if kind == "name" and value not in WORDS:
            if self.peek()[1] == "(" and self.peek()[0] == "op":
                return self.call(value, col)
            return ("name", value, col)
        said = "the end" if kind == "end" else repr(str(value))
        raise ExprError(f"expected a number, a name or '(', found {said}", col)

    def call(self, fname: str, col: int) -> Node:
        if fname not in FUNCTIONS:
            raise ExprError(f"{fname}() is no function ({', '.join(FUNCTIONS)})", col)
        self.take("(")
        args: list[Node] = []
        while True:
            if self.peek()[:2] == ("op", "["):
                args.append(self.groups())
            else:
                args.append(self.expr())
            if self.peek()[1] != ",":
                break
            self.take(",")
        self.take(")")
        return ("call", fname, tuple(args), col)

    def groups(self) -> Node:
        col = self.take("[")[2]
        names = []
        while True:
            kind, value, at = self.take()
            if kind != "name":
                raise ExprError("expected a dice group's name", at)
            names.append(value)
            if self.peek()[1] != ",":
                break
            self.take(",")
        self.take("]")
        return ("groups", tuple(names), col)


def parse(text: str) -> Node:
    """The tree of ``text`` (an :class:`ExprError` naming the column at fault)."""
    if not isinstance(text, str) or not text.strip():
        raise ExprError("is empty", 1)
    p = _Reader(text)
    node = p.expr()
    kind, value, col = p.peek()
    if kind != "end":
        raise ExprError(f"unexpected {str(value)!r}", col)
    return node


def walk(node: Node) -> list[Node]:
    """Every node of the tree, outermost first."""
    out, todo = [], [node]
    while todo:
        n = todo.pop()
        out.append(n)
        if n[0] == "op":
            todo += [n[3], n[2]]
        elif n[0] in ("not", "neg"):
            todo.append(n[1])
        elif n[0] == "call":
            todo += list(reversed(n[2]))
    return out


def names(node: Node) -> set[str]:
    """The names the tree reads (groups in calls included)."""
    found: set[str] = set()
    for n in walk(node):
        if n[0] == "name":
            found.add(n[1])
        elif n[0] == "groups":
            found.update(n[1])
    return found


def group_arg(node: Node) -> tuple[str, ...] | None:
    """The groups a dice function's first argument names (None: it names none)."""
    if node[0] == "groups":
        return tuple(node[1])
    if node[0] == "name":
        return (node[1],)
    return None


# Evaluation ----------------------------------------------------------------------------


class EvalError(ValueError):
    """An expression that cannot be worked out (a division by 0): its column."""


MAX_NUMBER = 10**18
"""The largest number (either sign) arithmetic may make: beyond it an expression is
refused, never worked out (values that multiply values grow without bound, and a number of
more than 4300 digits is not even printed)."""


def _arith(op: str, a: Any, b: Any, col: int) -> Any:
    if op in ("+", "-", "*"):
        made = a + b if op == "+" else a - b if op == "-" else a * b
        if isinstance(made, int) and abs(made) > MAX_NUMBER:
            raise EvalError(f"at column {col}: makes a number beyond 10**18")
        return made
    if b == 0:
        raise EvalError(f"at column {col}: divides by 0")
    return a // b if op == "/" else a % b


COMPARE: dict[str, Callable[[Any, Any], bool]] = {
    "==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b}


def evaluate(node: Node, lookup: Callable[[str], Any],
             call: Callable[[str, tuple[Node, ...]], Any]) -> Any:
    """The value of the tree: ``lookup(name)`` reads a name, ``call(fname, args)`` works
    out a dice function (its arguments unevaluated)."""
    kind = node[0]
    if kind == "num":
        return node[1]
    if kind == "name":
        return lookup(node[1])
    if kind == "neg":
        return -evaluate(node[1], lookup, call)
    if kind == "not":
        return not evaluate(node[1], lookup, call)
    if kind == "op":
        op = node[1]
        a = evaluate(node[2], lookup, call)
        if op == "and":
            return bool(a) and bool(evaluate(node[3], lookup, call))
        if op == "or":
            return bool(a) or bool(evaluate(node[3], lookup, call))
        b = evaluate(node[3], lookup, call)
        if op in COMPARE:
            return COMPARE[op](a, b)
        return _arith(op, a, b, node[4])
    fname, args = node[1], node[2]
    if fname == "if":
        return evaluate(args[1] if evaluate(args[0], lookup, call) else args[2], lookup, call)
    if fname in NUMERIC:
        values = [evaluate(a, lookup, call) for a in args]
        return {"min": min, "max": max}[fname](values) if fname != "abs" else abs(values[0])
    return call(fname, args)
