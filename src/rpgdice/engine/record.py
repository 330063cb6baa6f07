"""The engine's data classes: typed dataclasses, built cheaply.

``@dataclass(frozen=True)`` generates six methods with ``exec`` when a module is
imported: about 1.4 ms a class here, 16 ms for the Seyruun module's eleven, and every
roll starts a process. ``@record`` generates ``__init__`` and ``__repr__`` only (about
0.6 ms). Records are compared by their fields where that matters (tests compare the
JSON data) and are not mutated after construction, by convention.

Type checkers see ``@record`` through PEP 681's ``dataclass_transform``: a decorator
that makes dataclasses (fields, ``__init__``), with no ``__eq__`` (``eq_default=False``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

T = TypeVar("T")

if TYPE_CHECKING:
    from typing_extensions import dataclass_transform  # typing's own from 3.11

    @dataclass_transform(eq_default=False)
    def record(cls: type[T], /) -> type[T]: ...

else:
    record = dataclass(eq=False)
