"""C statements -> structured control flow: blocks, ``if``, jumps and the pragmas between
statements.

``StmtEmitter`` walks a function body in order: it emits the standalone directives before
a statement (the others go, with the statement, to the ``OmpEmitter``), dispatches on the
statement's kind, and keeps ``break``/``continue``/``return`` structured: after a statement
that may jump, the rest of the block runs under an ``scf.if`` on the control flags (see
``function.py``).  Loops and ``switch`` are the mixins it is made of (``scf_loops``,
``switch``): each is a self-contained lowering with its own helpers, while what stays here
is the walk that every statement goes through.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import clang.cindex as ci
from mlir import ir
from mlir.dialects import func, memref, scf
from mlir.dialects import openmp as omp

from . import clang_support as cs
from . import typemap as tm
from ..errors import CartsError
from .cursor_queries import if_jump
from .scf_loops import LoopStatements
from .state import LoopFlags
from .switch import SwitchStatements

if TYPE_CHECKING:
    from .function import FunctionEmitter
    from .pragmas import Pragma

K = ci.CursorKind


#: On an ``scf.if`` whose branch holds the rest of a body after a jump that may happen (an
#: early ``return``, ``break`` or ``continue``): the rest runs unless it did. Passes that
#: want code to run "once, in order" (a table's rows allocated after a NULL check that
#: returns) may see through it.
REST_OF_BODY = "arts.rest_of_body"


class StmtEmitter(LoopStatements, SwitchStatements):
    """Emits the statements of one function."""

    def __init__(self, fn: "FunctionEmitter") -> None:
        self.fn = fn
        self.expr = fn.expr
        self._case_ends: set[tuple] = set()  # breaks that end a switch case
        self._in_doacross = False  # emitting the ordered part of a doacross loop's body

    # ------------------------------------------------------------------ blocks

    def function_body(self, body: ci.Cursor) -> bool:
        """Emit the top-level block; True when it ended with a direct ``func.return``."""
        if self.fn.in_main_file:
            self.fn.module.pragmas.seek(body.extent.start.offset)
        stmts = cs.children(body)
        direct = bool(stmts) and stmts[-1].kind == K.RETURN_STMT and self.fn.ret.direct
        self.sequence(stmts[:-1] if direct else stmts)
        if direct:
            self._pragmas_before(stmts[-1])
            self.direct_return(stmts[-1])
        else:
            self._trailing_pragmas(body)
        return direct

    def compound(self, c: ci.Cursor) -> None:
        with self.fn.name_scope():
            self.sequence(cs.children(c), c.extent.end.offset)
            self._trailing_pragmas(c)

    def body(self, c: ci.Cursor) -> None:
        """A statement used as a body (braced or not)."""
        if c.kind == K.COMPOUND_STMT:
            self.compound(c)
        else:
            with self.fn.name_scope():
                self.sequence([c])

    def sequence(self, stmts: list[ci.Cursor], block_end: int | None = None) -> None:
        """Statements in order; after one that may jump, the rest is guarded. ``block_end``:
        where the block holding them ends (a doacross part may end there)."""
        k = 0
        while k < len(stmts):
            s = stmts[k]
            end = self._doacross_part_end(stmts, k, block_end)
            if end is not None:
                self._doacross_part(stmts[k:end])
                k = end
                continue
            k += 1
            rest = stmts[k:]
            jump = if_jump(s)
            if jump is not None and rest and not self._has_pragmas_before(s):
                self._if_jump(s, jump, rest)
                return
            self.emit(s)
            escapes = self.fn.analysis.escapes(s)
            if escapes and rest:
                with self.fn.loc(rest[0]):
                    guard = self.fn.still_running(escapes)
                if guard is not None:
                    with self.fn.loc(rest[0]):
                        if_op = scf.IfOp(guard)
                    if_op.operation.attributes[REST_OF_BODY] = ir.UnitAttr.get()
                    with ir.InsertionPoint(if_op.then_block):
                        self.sequence(rest)
                        scf.YieldOp([])
                    return

    def _if_jump(self, s: ci.Cursor, jump: ci.Cursor, rest: list[ci.Cursor]) -> None:
        """``if (c) JUMP; rest...`` -> ``scf.if c { jump effects } else { rest }``."""
        test = cs.children(s)[0]
        bit = self.expr.cond(test)
        with self.fn.loc(s):
            if_op = scf.IfOp(bit, [], has_else=True)
        if_op.operation.attributes[REST_OF_BODY] = ir.UnitAttr.get()
        with ir.InsertionPoint(if_op.then_block), self.fn.loc(jump):
            self.jump(jump)
            scf.YieldOp([])
        with ir.InsertionPoint(if_op.else_block):
            self.sequence(rest)
            scf.YieldOp([])

    # ------------------------------------------------------------------ doacross

    def _doacross_part_end(self, stmts: list[ci.Cursor], k: int,
                           block_end: int | None) -> int | None:
        """In the body of a doacross loop (``ordered(n)``), when an ``ordered depend(sink:
        ...)`` stands before ``stmts[k]`` or inside it (in an inner loop of the nest): the
        index of the statement after the part it opens, which the next ``ordered
        depend(source)`` closes (``len(stmts)`` when it is the last thing in the block)."""
        fn = self.fn
        if self._in_doacross or not (fn.in_main_file and fn.module.openmp) or \
                not fn.omp.worksharing.in_ordered_loop():
            return None
        upcoming = fn.module.pragmas.upcoming()
        sink = next((p for p in upcoming if p.offset < stmts[k].extent.end.offset
                     and p.doacross == "sink"), None)
        if sink is None:
            return None
        source = next((p for p in upcoming if p.offset > sink.offset and p.doacross == "source"),
                      None)
        limit = block_end if block_end is not None else stmts[-1].extent.end.offset
        if source is None or source.offset > limit:
            raise sink.error("a doacross 'ordered depend(sink: ...)' needs an 'ordered "
                             "depend(source)' after it in the same loop body")
        for m in range(k + 1, len(stmts)):
            if stmts[m].extent.start.offset > source.offset:
                return m
        return len(stmts)

    def _doacross_part(self, part: list[ci.Cursor]) -> None:
        """The statements of a doacross loop's body from its sink point to its source point
        (whole statements: an inner loop of the nest holding them is taken whole), as an
        ordered part: the iterations of the shared loop run it one after another in their
        order, so every sink (an earlier iteration's source point) is passed before it
        starts. Correct for every sink vector, since each names earlier iterations; what
        comes before the part overlaps between iterations."""
        fn = self.fn
        first, last = part[0], part[-1]
        source = next(p for p in fn.module.pragmas.upcoming() if p.doacross == "source"
                      and p.offset > first.extent.start.offset)
        attached = self._pragmas_before(first)  # the sink (and other stand-alone ones)
        for s in part:
            if fn.analysis.escapes(s):
                raise CartsError("unsupported C construct: a jump out of the part of a doacross "
                                 "loop between 'ordered depend(sink: ...)' and "
                                 "'ordered depend(source)'", cs.location_of(s))
        with fn.loc(first):
            op = omp.OrderedRegionOp()
            block = op.region.blocks.append()
        self._in_doacross = True
        try:
            with ir.InsertionPoint(block), fn.name_scope():
                if attached:
                    fn.omp.construct(attached, first)
                    self.sequence(part[1:])
                else:
                    self.sequence(part)
                with fn.loc(last):
                    omp.TerminatorOp()
        finally:
            self._in_doacross = False
        for p in fn.module.pragmas.take_before(source.offset + 1):
            fn.omp.validate(p)
            if p.standalone:
                fn.omp.standalone(p)
            else:
                raise p.error(f"'#pragma omp {p.directive}' is not followed by a statement")

    # ------------------------------------------------------------------ pragmas

    def _has_pragmas_before(self, s: ci.Cursor) -> bool:
        return self.fn.in_main_file and self.fn.module.pragmas.has_before(s.extent.start.offset)

    def _pragmas_before(self, s: ci.Cursor) -> list["Pragma"]:
        """Standalone directives before ``s`` are emitted; the others are returned (they
        apply to ``s``)."""
        if not self.fn.in_main_file:
            return []
        taken = self.fn.module.pragmas.take_before(s.extent.start.offset)
        attached = []
        for p in taken:
            self.fn.omp.validate(p)  # with or without -fopenmp: the same file, the same errors
            if p.standalone:
                self.fn.omp.standalone(p)
            else:
                attached.append(p)
        return attached

    def _trailing_pragmas(self, block: ci.Cursor) -> None:
        if not self.fn.in_main_file:
            return
        for p in self.fn.module.pragmas.take_before(block.extent.end.offset):
            self.fn.omp.validate(p)
            if p.standalone:
                self.fn.omp.standalone(p)
            else:
                raise p.error(f"'#pragma omp {p.directive}' is not followed by a statement")

    # ------------------------------------------------------------------ statements

    def emit(self, s: ci.Cursor) -> None:
        attached = self._pragmas_before(s)
        if attached and self.fn.module.openmp:
            self.fn.omp.construct(attached, s)
            return
        with self.fn.loc(s):
            try:
                self.plain(s)
            except ir.MLIRError as err:  # an op the builders refused: say where
                first = str(err).strip().splitlines()[0]
                raise CartsError(f"internal error: {first}", cs.location_of(s)) from None

    def plain(self, s: ci.Cursor) -> None:
        """A statement without OpenMP directives."""
        k = s.kind
        if k == K.COMPOUND_STMT:
            self.compound(s)
        elif k == K.DECL_STMT:
            for d in cs.children(s):
                if d.kind == K.VAR_DECL:
                    self.fn.declare_local(d)
                elif d.kind == K.STRUCT_DECL and tm.struct_fields(d.type) is not None:
                    continue
                elif d.kind in (K.STRUCT_DECL, K.UNION_DECL):
                    raise cs.unsupported(d, "union" if d.kind == K.UNION_DECL else
                                         tm.STRUCT_SUPPORTED)
                elif d.kind in (K.TYPEDEF_DECL, K.ENUM_DECL):
                    continue
                else:
                    raise cs.unsupported(d, f"declaration ({d.kind.name.lower()})")
        elif k == K.IF_STMT:
            self.if_stmt(s)
        elif k == K.FOR_STMT:
            self.for_stmt(s)
        elif k == K.WHILE_STMT:
            kids = cs.children(s)
            self.while_loop(s, kids[0], kids[1], inc=None)
        elif k == K.DO_STMT:
            self.do_while(s)
        elif k in (K.BREAK_STMT, K.CONTINUE_STMT, K.RETURN_STMT):
            self.jump(s)
        elif k == K.NULL_STMT:
            return
        elif k.is_expression():
            self.expr.discard(s)
        elif k == K.SWITCH_STMT:
            self.switch_stmt(s)
        elif k in (K.GOTO_STMT, K.INDIRECT_GOTO_STMT):
            raise cs.unsupported(s, "goto")
        elif k == K.LABEL_STMT:
            raise cs.unsupported(s, f"goto (label '{s.spelling}')")
        elif k in (K.CASE_STMT, K.DEFAULT_STMT):
            raise cs.unsupported(s, "switch")
        elif k.name in ("ASM_STMT", "GCC_ASM_STMT", "MS_ASM_STMT"):
            raise cs.unsupported(s, "inline assembly")
        else:
            raise cs.unsupported(s, f"statement ({k.name.lower()})")

    def if_stmt(self, s: ci.Cursor) -> None:
        kids = cs.children(s)
        if len(kids) not in (2, 3):
            raise cs.unsupported(s, "if statement with a declaration")
        bit = self.expr.cond(kids[0])
        if_op = scf.IfOp(bit, [], has_else=len(kids) == 3)
        with ir.InsertionPoint(if_op.then_block):
            self.body(kids[1])
            scf.YieldOp([])
        if len(kids) == 3:
            with ir.InsertionPoint(if_op.else_block):
                self.body(kids[2])
                scf.YieldOp([])

    # ------------------------------------------------------------------ jumps

    def jump(self, s: ci.Cursor) -> None:
        fn = self.fn
        if s.kind == K.BREAK_STMT and cs.node_key(s) in self._case_ends:
            return  # the end of a switch case: nothing follows it in the case
        if s.kind == K.BREAK_STMT:
            loop = self._loop(s)
            if loop.brk is None:
                raise cs.unsupported(s, "break here")
            fn.set_flag(loop.brk, True)
        elif s.kind == K.CONTINUE_STMT:
            loop = self._loop(s)
            if loop.cont is not None:
                fn.set_flag(loop.cont, True)
        else:
            if fn.omp_depth:
                raise cs.unsupported(s, "return inside an OpenMP region")
            kids = [k for k in cs.children(s) if k.kind.is_expression()]
            if kids and fn.ret.value is not None:
                v = self.expr.rvalue(kids[0])
                memref.StoreOp(self._return_value(v, kids[0]), fn.ret.value, [])
            elif kids:
                self.expr.discard(kids[0])
            if fn.ret.flag is None:
                raise cs.unsupported(s, "return here")
            fn.set_flag(fn.ret.flag, True)

    def _loop(self, s: ci.Cursor) -> LoopFlags:
        if not self.fn.loops:
            raise cs.unsupported(s, f"{s.kind.name.split('_')[0].lower()} outside a loop")
        loop = self.fn.loops[-1]
        if loop.omp and s.kind == K.BREAK_STMT:
            raise cs.unsupported(s, "break out of an OpenMP loop")
        return loop

    def direct_return(self, s: ci.Cursor) -> None:
        with self.fn.loc(s):
            kids = [k for k in cs.children(s) if k.kind.is_expression()]
            if kids and self.fn.result_type is not None:
                v = self._return_value(self.expr.rvalue(kids[0]), kids[0])
                func.ReturnOp([v])
            else:
                if kids:
                    self.expr.discard(kids[0])
                self.fn.emit_final_return()

    def _return_value(self, v: ir.Value, where: ci.Cursor) -> ir.Value:
        want = self.fn.result_type
        if v.type != want:
            v = self.expr.coerce_memref(v, want, where)
        return v
