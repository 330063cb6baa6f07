"""The data classes of results and rulesets: typed dataclasses, built cheaply.

``@dataclass(frozen=True)`` with every generated method costs about 1.4 ms a class at
import, and every roll starts a process. ``@record`` generates ``__init__`` and
``__repr__`` only (about 0.6 ms); ``@frozen`` adds the ``__setattr__`` and
``__delattr__`` that refuse a change. Records are compared by their fields where that
matters (tests compare the JSON data).

Type checkers see both through PEP 681's ``dataclass_transform``: decorators that make
dataclasses (fields, ``__init__``), with no ``__eq__`` (``eq_default=False``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

T = TypeVar("T")

if TYPE_CHECKING:
    from typing_extensions import dataclass_transform  # typing's own from 3.11

    @dataclass_transform(eq_default=False)
    def record(cls: type[T], /) -> type[T]: ...

    @dataclass_transform(eq_default=False, frozen_default=True)
    def frozen(cls: type[T], /) -> type[T]: ...

else:
    record = dataclass(eq=False)
    frozen = dataclass(eq=False, frozen=True)
