"""C ``switch`` -> one ``scf.if`` per case (a mixin of ``StmtEmitter``).

A case runs when the value matches one of its labels or the case before it fell through,
so the conditions are computed from the value alone and no flag is needed.  The grouping
of labels into cases and the rule that a ``break`` may only end a case are specific to
``switch``; nothing else in the statement emitter needs them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import clang.cindex as ci
from mlir import ir
from mlir.dialects import arith, scf

from . import clang_support as cs
from .cursor_queries import LOOP_KINDS
from .typemap import scalar_of

if TYPE_CHECKING:
    from .expressions import ExprEmitter
    from .function import FunctionEmitter

K = ci.CursorKind


class SwitchStatements:
    """The ``switch`` statement of ``StmtEmitter`` (a mixin of it).  Case bodies are
    emitted with its ``sequence``; ``jump`` drops the breaks recorded in ``_case_ends``."""

    fn: "FunctionEmitter"
    expr: "ExprEmitter"
    _case_ends: set[tuple]

    def switch_stmt(self, s: ci.Cursor) -> None:
        """``switch`` -> one ``scf.if`` per case, in order. A case runs when the value
        matches one of its labels (the default: none of the switch's labels), or when the
        case before it ran and falls through into it; the conditions are computed from
        the value alone, so no flag is needed. A break ends its case (only at the end of
        the case's statements; a break before it is refused)."""
        fn = self.fn
        kids = cs.children(s)
        if len(kids) != 2 or kids[1].kind != K.COMPOUND_STMT:
            raise cs.unsupported(s, "switch (a switch needs a braced body and no declaration "
                                 "in its condition)")
        cond, body = kids
        sv = scalar_of(cond.type)
        if sv is None or sv.is_float:
            raise cs.unsupported(cond, "switch on a value that is not an integer")
        groups: list[tuple[list[int | None], list[ci.Cursor], ci.Cursor]] = []
        for child in cs.children(body):
            if child.kind in (K.CASE_STMT, K.DEFAULT_STMT):
                if not groups or groups[-1][1]:
                    groups.append(([], [], child))
                node = child
                while node.kind in (K.CASE_STMT, K.DEFAULT_STMT):
                    parts = cs.children(node)
                    if node.kind == K.CASE_STMT:
                        value = cs.evaluate(parts[0])
                        if not isinstance(value, int) or len(parts) != 2:
                            raise cs.unsupported(node, "case label that is not an integer "
                                                 "constant (or a case range)")
                        groups[-1][0].append(value)
                    else:
                        groups[-1][0].append(None)
                    node = parts[-1]
                groups[-1][1].append(node)
            elif not groups:
                raise cs.unsupported(child, "statement before the first case of a switch")
            else:
                groups[-1][1].append(child)
        for labels, stmts, where in groups:
            trailing = _trailing_break(stmts)
            for b in _switch_breaks(stmts):
                if trailing is None or cs.node_key(b) != cs.node_key(trailing):
                    raise cs.unsupported(b, "break before the end of a switch case")
            if trailing is not None:
                self._case_ends.add(cs.node_key(trailing))
        v = self.expr.rvalue(cond)
        i1 = fn.types.i(1)
        with fn.loc(s):
            matches, any_case = [], None
            for labels, _, _ in groups:
                bit = None
                for value in labels:
                    if value is None:
                        continue
                    eq = arith.CmpIOp(arith.CmpIPredicate.eq, v, fn.const_int(value, v.type)).result
                    bit = eq if bit is None else arith.OrIOp(bit, eq).result
                    any_case = eq if any_case is None else arith.OrIOp(any_case, eq).result
                matches.append(bit)
            none = arith.XOrIOp(any_case, fn.const_int(1, i1)).result if any_case is not None \
                else fn.const_int(1, i1)
            runs, previous = [], None
            for (labels, stmts, _), bit in zip(groups, matches):
                if None in labels:
                    bit = none if bit is None else arith.OrIOp(bit, none).result
                if previous is not None:
                    bit = arith.OrIOp(bit, previous).result
                runs.append(bit)
                previous = None if _ends_case(stmts) else bit

        def emit(k: int) -> None:
            for j in range(k, len(groups)):
                _, stmts, where = groups[j]
                with fn.loc(where):
                    if_op = scf.IfOp(runs[j], [])
                with ir.InsertionPoint(if_op.then_block):
                    with fn.name_scope():
                        self.sequence(stmts)
                    scf.YieldOp([])
                escapes = set()
                for st in stmts:
                    escapes |= fn.analysis.escapes(st)
                if escapes and j + 1 < len(groups):
                    with fn.loc(groups[j + 1][2]):
                        guard = fn.still_running(frozenset(escapes))
                    if guard is not None:
                        with fn.loc(groups[j + 1][2]):
                            outer = scf.IfOp(guard)
                        with ir.InsertionPoint(outer.then_block):
                            emit(j + 1)
                            scf.YieldOp([])
                        return

        emit(0)


def _trailing_break(stmts: list[ci.Cursor]) -> ci.Cursor | None:
    """The break that ends a case's statements, possibly inside a trailing block."""
    if not stmts:
        return None
    last = stmts[-1]
    while last.kind == K.COMPOUND_STMT and cs.children(last):
        last = cs.children(last)[-1]
    return last if last.kind == K.BREAK_STMT else None


def _ends_case(stmts: list[ci.Cursor]) -> bool:
    """Whether a case's statements end by leaving it (break, continue, return)."""
    last = stmts[-1]
    while last.kind == K.COMPOUND_STMT and cs.children(last):
        last = cs.children(last)[-1]
    return last.kind in (K.BREAK_STMT, K.CONTINUE_STMT, K.RETURN_STMT)


def _switch_breaks(stmts: list[ci.Cursor]) -> list[ci.Cursor]:
    """The breaks among ``stmts`` that would leave the switch (not nested loops' or
    nested switches')."""
    out = []
    stack = list(stmts)
    while stack:
        c = stack.pop()
        if c.kind == K.BREAK_STMT:
            out.append(c)
        elif c.kind not in LOOP_KINDS and c.kind != K.SWITCH_STMT:
            stack.extend(cs.children(c))
    return out
