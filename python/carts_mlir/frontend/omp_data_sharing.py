"""OpenMP data sharing: which storage the body of a construct works on.

Variables are shared unless privatised.  ``private``/``firstprivate`` give the construct
a fresh ``memref.alloca`` in the current allocation scope (inside an ``omp.parallel``
region: one per thread; ``firstprivate`` copies the outer value in) and the body uses it;
no ``omp.private`` clauses are emitted, so later passes see plain allocas.  ``reduction``
uses the dialect's clause with an ``omp.declare_reduction`` per (operator, type); the
accumulator is the variable's rank-0 memref and the body updates the region argument.
A task's implicit sharing follows the enclosing ``parallel`` (``team_vars``), and its
``depend`` items name the memref they order on.
"""

from __future__ import annotations

import dataclasses
import re
from contextlib import ExitStack
from typing import TYPE_CHECKING

import clang.cindex as ci
from mlir import ir
from mlir.dialects import arith, memref, scf

from . import clang_support as cs
from . import typemap as tm
from ..errors import CartsError
from .cursor_queries import decl_key, referenced_decl
from .omp_clauses import ClauseReader
from .pragmas import Clause, Pragma
from .state import Var
from .typemap import scalar_of

if TYPE_CHECKING:
    from .function import FunctionEmitter

K = ci.CursorKind
#: C reduction operator -> the ``omp.declare_reduction`` kind it combines with.
REDUCTION_OPS = {"+": "add", "-": "add", "*": "mul", "max": "max", "min": "min",
                 "&": "and", "|": "or", "^": "xor", "&&": "land", "||": "lor"}


class DataSharing:
    """Privatisation, reductions and task sharing for the constructs of one function."""

    def __init__(self, fn: "FunctionEmitter", clauses: ClauseReader) -> None:
        self.fn = fn
        self.clauses = clauses
        # Per enclosing ``parallel`` construct: the variables visible at its start, with the
        # value they had then. A task shares what is still bound the same way (shared in
        # the parallel region); everything else it captures is firstprivate.
        self.team_vars: list[dict[tuple, ir.Value]] = []

    # ------------------------------------------------------------------ private copies

    def lastprivate_targets(self, p: Pragma) -> list[tuple[tuple, Var]]:
        """The variables of ``lastprivate(...)`` as they are outside the construct."""
        out = []
        for clause in p.all("lastprivate"):
            for name in clause.args:
                key, var = self.clauses.variable(p, name)
                fixed_array = var.kind == "mem" and var.is_array and var.lead is None and \
                    ir.MemRefType(var.value.type).has_static_shape
                if (var.kind != "mem" or scalar_of(var.ctype) is None) and not fixed_array:
                    raise p.error(f"lastprivate variable '{name}' must be a scalar variable or "
                                  "an array of fixed size")
                out.append((key, var))
        return out

    def store_last(self, mine: ir.Value, outer: Var) -> None:
        """A lastprivate copy stored into the variable outside: a scalar's value, an array's
        elements."""
        if ir.MemRefType(mine.type).rank:
            memref.CopyOp(mine, outer.value)
        else:
            memref.StoreOp(self.fn.load(mine), outer.value, [])

    def copy_out_last(self, loops, ivs, last: list[tuple[tuple, Var]]) -> None:
        """``lastprivate``: the iteration that is last in sequential order stores its
        private copies into the variables outside. The last index value of a loop
        ``lb .. ub step s`` is ``lb + ((ub - lb - 1) / s) * s``."""
        fn = self.fn
        is_last = None
        for (_, (lb, ub, step, _start)), iv in zip(loops, ivs):
            span = arith.SubIOp(arith.SubIOp(ub, lb).result, fn.const_index(1)).result
            final = arith.AddIOp(lb, arith.MulIOp(arith.DivSIOp(span, step).result, step).result).result
            here = arith.CmpIOp(arith.CmpIPredicate.eq, iv, final).result
            is_last = here if is_last is None else arith.AndIOp(is_last, here).result
        if_op = scf.IfOp(is_last)
        with ir.InsertionPoint(if_op.then_block):
            for key, outer in last:
                loop = next(((lp, b) for lp, b in loops if lp.var_key == key), None)
                if loop is not None:  # the loop's own variable: its value after the loop
                    memref.StoreOp(fn.stmt.final_value(loop[0], *loop[1]), outer.value, [])
                else:
                    self.store_last(fn.vars[key].value, outer)
            scf.YieldOp([])

    def privatize(self, p: Pragma, stack: ExitStack, stmt: ci.Cursor | None = None,
                  loop_vars: tuple = ()) -> None:
        """``private``/``firstprivate``: a fresh alloca in the current (per-thread)
        allocation scope, rebound for the rest of the construct. With ``default(private)``
        or ``default(firstprivate)``, every local variable ``stmt`` uses and no clause names
        (but the loop's own ``loop_vars``) is treated so too."""
        fn = self.fn
        p = self._with_default(p, stmt, loop_vars)
        firstprivate = {n for c in p.all("firstprivate") for n in c.args}
        for clause in p.clauses:
            if clause.name not in ("private", "firstprivate", "lastprivate"):
                continue
            for name in clause.args:
                if clause.name == "lastprivate" and name in firstprivate:
                    continue  # the firstprivate copy is the one copied out
                key, var = self.clauses.variable(p, name)
                if var.kind != "mem":
                    raise p.error(f"cannot privatise '{name}' here")
                fresh = fn.alloca(var.value.type)
                if clause.name == "firstprivate":
                    if ir.MemRefType(var.value.type).rank:
                        memref.CopyOp(var.value, fresh)
                    else:
                        memref.StoreOp(memref.LoadOp(var.value, []).result, fresh, [])
                stack.enter_context(fn.rebind(key, Var("mem", var.ctype, fresh)))

    def _with_default(self, p: Pragma, stmt: ci.Cursor | None, loop_vars: tuple) -> Pragma:
        """``p`` with ``default(private|firstprivate)`` spelled out as the clause over the
        local variables ``stmt`` uses that no clause names (globals stay shared)."""
        default = p.clause("default").args[0].strip() if p.clause("default") else None
        if default not in ("private", "firstprivate") or stmt is None:
            return p
        named = {n.strip().split("[")[0] for c in p.clauses if c.name in (
            "private", "firstprivate", "lastprivate", "shared", "reduction", "copyin")
            for n in c.args}
        start, end = stmt.extent.start.offset, stmt.extent.end.offset
        names: list[str] = []
        for c in cs.walk(stmt):
            if c.kind != K.DECL_REF_EXPR:
                continue
            decl = referenced_decl(c)
            if decl is None or decl.kind not in (K.VAR_DECL, K.PARM_DECL):
                continue
            loc = decl.location
            if loc.file is not None and loc.file.name == stmt.location.file.name and \
                    start <= loc.offset < end:
                continue  # declared inside the construct
            var = self.fn.vars.get(decl_key(decl))
            name = decl.spelling
            if var is None or var.kind != "mem" or name in named or name in names or \
                    name in loop_vars:
                continue
            names.append(name)
        if not names:
            return p
        return dataclasses.replace(p, clauses=p.clauses + [Clause(default, tuple(names))])

    # ------------------------------------------------------------------ reductions

    def reductions(self, p: Pragma) -> list[tuple[tuple, ir.Value, ci.Type, str]]:
        """The ``reduction`` items: (key, accumulator memref, C type, reduction symbol)."""
        out = []
        for clause in p.all("reduction"):
            for name in clause.args:
                section = name.strip()
                if "[" in section:  # `a[:n]`, `a[0:n]`: the whole array, element by element
                    key, var = self._array_section(p, section)
                    s = scalar_of(var.ctype.get_array_element_type())
                else:
                    key, var = self.clauses.variable(p, name)
                    s = scalar_of(var.ctype)
                    if var.kind != "mem" or s is None:
                        raise p.error(f"reduction variable '{name}' must be a scalar variable")
                if s.is_float and clause.modifier in ("&", "|", "^", "&&", "||"):
                    raise p.error(f"reduction({clause.modifier}: {name}) needs an integer "
                                  "variable")
                sym = self.fn.module.reduction(REDUCTION_OPS[clause.modifier], s, p)
                out.append((key, var.value, var.ctype, sym))
        return out

    def _array_section(self, p: Pragma, text: str) -> tuple[tuple, Var]:
        """``a[:n]`` / ``a[0:n]`` of a reduction: a local 1-D array of at most 64 elements,
        the section its whole (the partials are kept per element)."""
        m = re.fullmatch(r"([A-Za-z_]\w*)\s*\[\s*([^:\]]*)\s*:\s*([^\]]*)\]", text)
        if not m:
            raise p.error(f"unsupported C construct: array-section reduction '{text}' (a section "
                          "'a[:n]' of a whole local array is supported)")
        key, var = self.clauses.variable(p, m.group(1))
        mtype = ir.MemRefType(var.value.type) if isinstance(var.value.type, ir.MemRefType) else None
        if var.kind != "mem" or not tm.is_array(var.ctype) or mtype is None or mtype.rank != 1 or \
                scalar_of(var.ctype.get_array_element_type()) is None:
            raise p.error(f"unsupported C construct: array-section reduction '{text}' on "
                          "something other than a local 1-D array")
        start = self.clauses.constant(p, m.group(2)) if m.group(2).strip() else 0
        length = self.clauses.constant(p, m.group(3)) if m.group(3).strip() else mtype.shape[0]
        if start != 0 or length != mtype.shape[0] or length > 64:
            raise p.error(f"unsupported C construct: array-section reduction '{text}' (the "
                          "section must be the whole array, of at most 64 elements)")
        return key, var

    @staticmethod
    def reduction_attrs(reductions) -> dict:
        """The reduction attributes of the construct op that combines ``reductions``."""
        if not reductions:
            return {}
        return {
            "reduction_syms": ir.ArrayAttr.get([ir.FlatSymbolRefAttr.get(r[3]) for r in reductions]),
            "reduction_byref": ir.DenseBoolArrayAttr.get([False] * len(reductions)),
        }

    # ------------------------------------------------------------------ tasks

    def depend_target(self, p: Pragma, item: str, name: str) -> ir.Value:
        """The memref a depend item orders on: the array of ``a[i]`` / ``a[lo:len]`` (the
        whole array: datablocks are per array until partitioned), the variable ``x``."""
        fn = self.fn
        _, var = self.clauses.variable(p, name)
        subscripted = "[" in item
        if var.kind == "ssa" and isinstance(var.value.type, ir.MemRefType):
            if subscripted:
                return self._element_view(p, item, var.value)
        elif var.kind == "mem":
            mtype = ir.MemRefType(var.value.type)
            if not subscripted or var.is_array:
                return self._element_view(p, item, var.value) if subscripted else var.value
            if mtype.rank == 0 and isinstance(mtype.element_type, ir.MemRefType):
                return self._element_view(p, item, fn.load(var.value))
        raise p.error(f"depend item '{item}': unsupported C construct (a scalar variable, or "
                      "an element or section of an array, is supported)")

    def _element_view(self, p: Pragma, item: str, array: ir.Value) -> ir.Value:
        """``a[e]`` on a one-dimensional array whose index ``e`` is an integer expression of
        variables: a one-element view of ``a`` at ``e`` (create-dbs may order the task on that
        element alone); any other item names the whole array."""
        m = re.fullmatch(r"\s*[A-Za-z_]\w*\s*\[(.*)\]\s*", item)
        mtype = ir.MemRefType(array.type)
        if m is None or mtype.rank != 1 or str(mtype.layout) != "affine_map<(d0) -> (d0)>" or \
                re.search(r"[\[\]:]", m.group(1)):
            return array
        try:
            index = self.clauses.expression(p, m.group(1))
        except CartsError:
            return array
        index = arith.IndexCastOp(ir.IndexType.get(), index).result
        dynamic = ir.ShapedType.get_dynamic_stride_or_offset()
        view = ir.MemRefType.get([1], mtype.element_type,
                                 ir.StridedLayoutAttr.get(dynamic, [1]), mtype.memory_space)
        return memref.SubViewOp(view, array, [index], [], [], [dynamic], [1], [1]).result

    def task_sharing(self, p: Pragma, stmt: ci.Cursor):
        """(shared, firstprivate, private) variables of a task: lists of (key, Var) for the
        scalars kept in memory that the task's statement uses and does not declare."""
        fn = self.fn
        explicit: dict[tuple, str] = {}
        for clause in p.clauses:
            if clause.name in ("shared", "firstprivate", "private"):
                for name in clause.args:
                    key, _ = self.clauses.variable(p, name)
                    explicit[key] = clause.name
        default = p.clause("default").args[0] if p.clause("default") else None
        team = self.team_vars[-1] if self.team_vars else {}
        start, end = stmt.extent.start.offset, stmt.extent.end.offset
        seen: set[tuple] = set()
        shared, copied, private = [], [], []
        for c in cs.walk(stmt):
            if c.kind != K.DECL_REF_EXPR:
                continue
            decl = referenced_decl(c)
            if decl is None:
                continue
            key = decl_key(decl)
            if key in seen:
                continue
            seen.add(key)
            loc = decl.location
            if loc.file is not None and loc.file.name == stmt.location.file.name and \
                    start <= loc.offset < end:
                continue  # declared inside the task
            var = fn.vars.get(key)
            if var is None or var.kind == "global":
                continue  # globals are shared
            kind = explicit.get(key)
            if kind is None:
                if default == "none":
                    raise p.error(f"'{decl.spelling}' not specified in enclosing 'task' "
                                  "(default(none))")
                if default in ("firstprivate", "private"):
                    kind = default
                else:
                    kind = "shared" if default == "shared" or team.get(key) is var.value else \
                        "firstprivate"
            if var.is_array and kind == "firstprivate" and var.kind == "mem":
                copied.append((key, var))  # copied when the task starts (TaskEmitter)
                continue
            if var.is_array and kind == "private" and var.kind == "mem":
                private.append((key, var))  # a fresh array of the task's own
                continue
            if var.kind != "mem" or var.is_array:
                continue  # values are copied anyway; shared arrays are used in place
            if ir.MemRefType(var.value.type).rank:
                continue
            (shared if kind == "shared" else copied if kind == "firstprivate" else private).append((key, var))
        for key, kind in explicit.items():
            if key not in seen and kind == "private":
                var = fn.vars.get(key)
                if var is not None and var.kind == "mem":
                    private.append((key, var))
        return shared, copied, private
