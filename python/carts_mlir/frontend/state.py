"""The records the emitters of one function share: how a C variable lives in the IR, where
allocas go, the flags of the loops being emitted, the return state, the name scopes."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from typing import Iterator

import clang.cindex as ci
from mlir import ir

from . import typemap as tm


@contextlib.contextmanager
def pushed(stack: list, item) -> Iterator[None]:
    """``item`` on top of ``stack`` for the ``with`` block (popped also on an error)."""
    stack.append(item)
    try:
        yield
    finally:
        stack.pop()


@dataclass
class Var:
    """How a C variable lives in the IR.

    ``ssa``: ``value`` is its (never reassigned) value.  ``mem``: ``value`` is a memref
    holding it (rank 0 for scalars and pointers, the array shape for arrays).  ``iv``:
    ``value`` is a loop induction variable of type index and ``c_value`` the same value in
    the variable's C type.
    """

    kind: str
    ctype: ci.Type
    value: ir.Value
    c_value: ir.Value | None = None
    loc: ir.Location | None = None
    #: For a pointer into an array (``double *row = p + i * m``, never reassigned): the
    #: array is ``value`` and the pointer's element index in it this ``index`` value.
    #: Kind ``walk`` (a pointer moved with ``++``/``+=``): ``offset`` is a ``memref<index>``
    #: slot holding the index.
    offset: ir.Value | None = None
    #: A ``threadprivate`` global: ``value`` holds a copy per thread (its first dimension)
    #: and this ``index`` value is the current thread's.
    lead: ir.Value | None = None

    @property
    def is_array(self) -> bool:
        return tm.is_aggregate(self.ctype)


@dataclass
class AllocaScope:
    """Where ``memref.alloca``s go: the entry block of the function or of an
    ``omp.parallel`` region (per thread)."""

    block: ir.Block
    last: ir.Operation | None = None


@dataclass
class LoopFlags:
    brk: ir.Value | None = None
    cont: ir.Value | None = None
    omp: bool = False
    #: where the loop statement ends in the file (a depend object set again before it)
    end: int | None = None


@dataclass
class ReturnState:
    flag: ir.Value | None = None
    value: ir.Value | None = None
    direct: bool = True


@dataclass
class NameScope:
    names: dict[str, tuple] = field(default_factory=dict)
