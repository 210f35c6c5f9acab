"""``#pragma omp`` constructs -> the upstream ``omp`` dialect (with ``-fopenmp``).

    #pragma omp parallel for ...      omp.parallel {
    for (i = lb; i < ub; i++) body      omp.wsloop <schedule, reduction, nowait> {
                                          omp.loop_nest (%i) : index = (lb) to (ub) step (1) {
                                            body; omp.yield } }
                                        omp.terminator }

``OmpEmitter`` is the entry point: it validates each pragma, sends each directive to what
emits it, and builds the region constructs itself (``parallel``, ``single``, ``master``,
``sections``, ``ordered``, ``critical``).  The rest are its parts, one module each:
``omp_clauses`` (clause arguments as values), ``omp_data_sharing`` (private copies,
reductions, what a task shares), ``omp_loops`` (worksharing loops), ``omp_tasks``
(``task``, ``taskgroup``, ``taskloop``) and ``omp_atomic`` (atomic statements).
"""

from __future__ import annotations

import dataclasses
import re
from contextlib import ExitStack, contextmanager
from typing import TYPE_CHECKING

import clang.cindex as ci
from mlir import ir
from mlir.dialects import arith, func, memref, scf
from mlir.dialects import openmp as omp

from ..errors import CartsError
from . import clang_support as cs
from . import omp_scan
from .omp_atomic import AtomicEmitter
from .omp_clauses import ClauseReader
from . import omp_reduction_copies as reduction_copies
from .omp_data_sharing import REDUCTION_OPS, DataSharing
from .omp_loops import WorksharingLoops
from .omp_tasks import TaskEmitter, pushed_reductions
from .pragmas import REDUCTION_CLAUSES, SUPPORTED, TASK_REDUCTION_CONSTRUCTS, Pragma
from .reductions import combine_in_critical, own_copy
from .state import Var, pushed
from .typemap import INT, scalar_of

if TYPE_CHECKING:
    from .function import FunctionEmitter

K = ci.CursorKind
_SCHEDULES = {"static", "dynamic", "guided", "auto", "runtime"}


@contextmanager
def pushed_count(owner, name: str):
    """``owner.<name>`` one higher while the block runs."""
    setattr(owner, name, getattr(owner, name) + 1)
    try:
        yield
    finally:
        setattr(owner, name, getattr(owner, name) - 1)


class OmpEmitter:
    """The OpenMP constructs of one function: dispatch, validation and the region
    constructs; loops, tasks, atomics and data sharing are its parts."""

    def __init__(self, fn: "FunctionEmitter") -> None:
        self.fn = fn
        self.clauses = ClauseReader(fn)
        self.sharing = DataSharing(fn, self.clauses)
        self.worksharing = WorksharingLoops(fn, self.clauses, self.sharing)
        self.tasks = TaskEmitter(self)
        self.atomics = AtomicEmitter(fn)
        #: Parallel regions around the statement being emitted, and of those the nested
        #: ones, which run as a team of one (libgomp's default: one active level).
        self.teams = 0
        self.serial = 0
        self.nested = 0
        #: Task bodies and worksharing loop bodies around the statement: a task created
        #: there is included (run at once by its creator).
        self.in_task = 0
        self.in_loop = 0
        #: The ``final`` conditions (``i1``) of the tasks around the statement: a task inside
        #: a final task is final too, so ``omp_in_final()`` there is their disjunction.
        self.finals: list[ir.Value] = []
        #: Scan loops being emitted (their `#pragma omp scan` is expected).
        self.in_scan = 0
        #: Task reductions the tasks being created may join (``in_reduction``): the key of
        #: each variable -> the memref their contributions combine into.
        self.task_reductions: dict[tuple, ir.Value] = {}
        #: A region's reductions its one single/master construct takes on (``parallel``).
        self.creator_reductions: tuple | None = None

    # ------------------------------------------------------------------ entry points

    def standalone(self, p: Pragma) -> None:
        if not self.fn.module.openmp:
            return
        self.validate(p)
        if self.serial and p.directive == "barrier":
            return  # a team of one
        if self.in_task and p.directive == "taskwait":
            return  # the tasks this one created were included: all done
        if p.directive == "error":
            self.error_at_execution(p)
            return
        if p.directive == "depobj":
            self.tasks.depobj(p)
            return
        if p.doacross is not None:  # its part of the loop body is an ordered region
            if not self.worksharing.in_ordered_loop():
                raise p.error(f"'#pragma omp ordered' with {p.doacross} outside a loop with the "
                              "'ordered' clause")
            return
        if p.directive == "scan":
            if not self.in_scan:
                raise p.error("'#pragma omp scan' outside the body of a loop with a "
                              "reduction(inscan, ...)")
            return  # the scan loop emits each phase on its own
        with self.fn.loc_of_pragma(p):
            if p.directive == "barrier":
                omp.BarrierOp()
            elif p.directive == "taskwait":  # with depend: waiting for every child is enough
                omp.TaskwaitOp([])
            # taskyield: a scheduling point; ARTS tasks run to completion, so nothing to do.
            # flush: a task sees memory as of its start and publishes its writes when it
            # ends (datablock versions); inside a task there is nothing more to order.

    def error_at_execution(self, p: Pragma) -> None:
        """``#pragma omp error at(execution)``: its message on stderr, where the program
        reaches it; a fatal one then ends the program with status 1."""
        fn = self.fn
        fatal = p.clause("severity").args[0] == "fatal"
        text = f"{p.location}: {'error' if fatal else 'warning'}: omp error: " \
               f"{p.clause('message').args[0]}\n".encode()
        i32, i64 = fn.types.i(32), fn.types.i(64)
        fn.module.declare_function("write", [i32, fn.types.llvm_ptr(), i64], [i64], None)
        with fn.loc_of_pragma(p):
            data = fn.module.string_pointer(text, None)
            func.CallOp([i64], ir.FlatSymbolRefAttr.get("write"),
                        [fn.const_int(2, i32), data, fn.const_int(len(text), i64)])
            if fatal:
                fn.module.declare_function("exit", [i32], [], None)
                func.CallOp([], ir.FlatSymbolRefAttr.get("exit"), [fn.const_int(1, i32)])

    def construct(self, pragmas: list[Pragma], stmt: ci.Cursor) -> None:
        """Directives (outermost first) applied to ``stmt``."""
        p, inner = pragmas[0], pragmas[1:]
        self.validate(p)
        if p.directive == "taskgroup" and not p.clauses and self.teams and not self.serial:
            lone = self._take_lone_construct(inner, stmt)
            if lone is not None:
                # `taskgroup { single { tasks } }` in a region: the other threads' taskgroups
                # hold no task, and the single's thread waits for its tasks at the end of its
                # taskgroup either way, so it is `single { taskgroup { tasks } }`, which a
                # region whose one construct creates the tasks takes
                marks, target = lone
                self.construct([*marks, p], target)
                return

        if p.directive == "parallel" and not self.serial:
            lone = self._lone_scan_loop(inner, stmt)
            if lone is not None:  # the region is its scan loop: a `parallel for` scan
                loop_pragma, loop = lone
                merged = dataclasses.replace(
                    loop_pragma, directive="parallel for",
                    clauses=[*p.clauses, *(c for c in loop_pragma.clauses if c.name != "nowait")])
                self.validate(merged)
                with pushed_count(self, "in_loop"):
                    omp_scan.scan_loop(self, merged, loop)
                return

        def body() -> None:
            if inner:
                self.construct(inner, stmt)
            else:
                with self.fn.loc(stmt):
                    self.fn.stmt.plain(stmt)

        d = p.directive
        if self.serial or (self.teams and d in ("parallel", "parallel for", "parallel sections")):
            if self.one_thread(p, d, inner, stmt, body):
                return
        if d == "task" and (self.in_task or self.in_loop or self._undeferred(p)):
            self.tasks.included(p, body, stmt)
            return
        if d == "sequential scan":  # `simd reduction(inscan, ...)`: the loop as it is
            with pushed_count(self, "in_scan"):
                body()
            return
        if d in ("for", "parallel for") and omp_scan.is_scan(p):
            with pushed_count(self, "in_loop"):
                omp_scan.scan_loop(self, p, stmt)
            return
        if d in ("for", "parallel for", "taskloop"):
            with pushed_count(self, "in_loop" if d != "taskloop" else "in_task"):
                self._construct(p, d, inner, stmt, body)
            return
        self._construct(p, d, inner, stmt, body)

    def _construct(self, p: Pragma, d: str, inner: list[Pragma], stmt: ci.Cursor, body) -> None:
        if d == "parallel for":
            if inner:
                raise p.error("a 'parallel for' must be followed by its loop")
            self.parallel(p, lambda: None, loop=stmt)
        elif d == "parallel":
            self.parallel(p, body, stmt_of_body=(inner, stmt))
        elif d == "for":
            if inner:
                raise p.error("an 'omp for' must be followed by its loop")
            self.worksharing.emit(p, stmt, self.worksharing.prepare(p, stmt))
        elif d == "single":
            self.single(p, body)
        elif d == "master":
            self.master(p, body)
        elif d == "masked":
            self.masked(p, body)
        elif d == "task":
            self.tasks.task(p, body, stmt)
        elif d == "taskgroup":
            self.tasks.taskgroup(p, body)
        elif d == "taskloop":
            if inner:
                raise p.error("an 'omp taskloop' must be followed by its loop")
            self.tasks.taskloop(p, stmt)
        elif d == "sections":
            if inner:
                raise p.error("an 'omp sections' must be followed by its block of sections")
            self.sections(p, stmt)
        elif d == "parallel sections":
            if inner:
                raise p.error("a 'parallel sections' must be followed by its block of sections")
            last = self.sharing.lastprivate_targets(p)
            self.parallel(p, lambda: self.sections(p, stmt, last), stmt_of_body=([], stmt))
        elif d == "section":
            raise p.error("'#pragma omp section' outside the block of an 'omp sections'")
        elif d == "critical":
            self.critical(p, body)
        elif d == "scope":
            self.scope(p, body)
        elif d == "ordered":
            self.ordered(p, body)
        elif d == "atomic":
            if inner:
                raise p.error("an 'omp atomic' must be followed by its expression statement")
            with self.fn.loc(stmt):
                self.atomics.atomic(p, stmt)

    def _undeferred(self, p: Pragma) -> bool:
        """A task whose ``if`` is the constant false and that has no ``depend`` items: an
        undeferred task its creator runs at once, in its own thread, as an included task
        runs."""
        c = p.clause("if")
        if c is None or p.clause("depend") or not c.args:
            return False
        text = re.sub(r"^\s*task\s*:", "", c.args[0])
        try:
            return self.clauses.constant(p, text) == 0
        except CartsError:
            return False

    # ------------------------------------------------------------------ validation

    def validate(self, p: Pragma) -> None:
        if p.directive not in SUPPORTED:
            what = p.spelled
            raise p.error(f"unsupported C construct: omp {what}")
        allowed = SUPPORTED[p.directive]
        for c in p.clauses:
            if c.name not in allowed:
                raise p.error(f"unsupported C construct: '{c.name}' clause on omp {p.directive}")
            if c.name == "default" and c.args not in (("shared",), ("none",)) and not (
                    c.args in (("private",), ("firstprivate",)) and p.directive in (
                        "parallel", "parallel for", "parallel sections", "task", "taskloop")):
                raise p.error(f"unsupported C construct: default({', '.join(c.args)}) on omp "
                              f"{p.directive}")
            if c.name == "schedule" and c.modifier not in _SCHEDULES:
                raise p.error(f"unknown schedule kind '{c.modifier}'")
            if c.name == "lastprivate" and c.flavor == "conditional" and (
                    p.directive != "parallel for" or p.clause("collapse")):
                raise p.error(f"unsupported C construct: lastprivate(conditional: ...) on omp "
                              f"{p.directive}{' with collapse' if p.clause('collapse') else ''} "
                              "(a 'parallel for' of one loop is supported)")
            if c.name in REDUCTION_CLAUSES:
                if c.modifier not in REDUCTION_OPS:
                    raise p.error(f"unsupported C construct: reduction operator '{c.modifier}'")
                if c.flavor not in (None, "default", "task", "inscan") or \
                        (c.flavor and c.name != "reduction"):
                    raise p.error(f"unknown reduction modifier '{c.flavor}' on {c.name}")
                if c.flavor == "task" and p.directive not in TASK_REDUCTION_CONSTRUCTS:
                    raise p.error(f"reduction(task, ...) on omp {p.directive} (it belongs on "
                                  "parallel, a worksharing construct or scope)")

    # ------------------------------------------------------------------ constructs

    def parallel(self, p: Pragma, body, loop: ci.Cursor | None = None,
                 stmt_of_body: tuple | None = None) -> None:
        """``stmt_of_body``: (the pragmas after this one, the statement) of a region whose
        body is a statement (not a loop)."""
        fn = self.fn
        loops = self.worksharing.prepare(p, loop) if loop is not None else None
        with fn.loc_of_pragma(p):
            num_threads = None
            if p.clause("num_threads"):
                num_threads = self.clauses.value(p, p.clause("num_threads").args[0], fn.types.i(32))
            elif fn.thread_count is not None and not self.teams:  # omp_set_num_threads(C)
                num_threads = fn.const_scalar(fn.thread_count, INT)
            if_expr = None
            if p.clause("if"):
                text = p.clause("if").args[0]
                text = re.sub(r"^\s*parallel\s*:", "", text)  # `if(parallel: e)`
                if_expr = self.clauses.condition(p, text)
            # A region's reductions: each thread accumulates into its own copy, which it
            # combines into the variable at the end of the region, in a critical section.
            # (a parallel loop's and sections' reductions are their own)
            # (arrays and sections: copies of their own, as a loop's that the dialect's
            # clause does not take)
            regional = loop is None and p.directive != "parallel sections"
            copied, rest = reduction_copies.split(fn, self.clauses, p, arrays=True) \
                if regional else ([], p)
            reductions = self.sharing.reductions(rest) if regional else []
            # A region that is one single/master: its one thread reduces (the others would
            # only combine identities), so its copies live there, in the creator of any tasks.
            creator_reduces = bool(reductions) and self._one_construct(stmt_of_body)
            copied_in = self._copyin_sources(p)
            conditional = self._conditional_bests(p)
            op = omp.ParallelOp([], [], [], [], num_threads=num_threads, if_expr=if_expr)
            block = op.region.blocks.append()
        with pushed(self.sharing.team_vars, {key: var.value for key, var in fn.vars.items()}):
            last = self.sharing.lastprivate_targets(p)
            with ir.InsertionPoint(block), ExitStack() as stack, fn.omp_region(block):
                with fn.loc_of_pragma(p):
                    own = [] if creator_reduces else self.own_reductions(
                        p, reductions, stack, "of a parallel region (reduce in its loops)")
                    copies = reduction_copies.make(fn, self.clauses, p, copied, stack)
                    body_stmt = loop if loop is not None else \
                        (stmt_of_body[1] if stmt_of_body else None)
                    loop_vars = tuple(lp.var.spelling for lp, _ in loops) if loops else ()
                    self.sharing.privatize(p, stack, body_stmt, loop_vars)
                    self._copy_in(p, copied_in)
                if creator_reduces:
                    self.creator_reductions = (p, reductions)
                task_keys = {self.clauses.variable(p, n.strip())[0] for c in p.all("reduction")
                             if c.flavor == "task" for n in c.args}
                joinable = {r[0]: r[1] for r in reductions if r[0] in task_keys}
                with pushed_count(self, "teams"), pushed_reductions(self, joinable):
                    if loop is not None:
                        self.worksharing.conditional = conditional
                        try:
                            self.worksharing.emit(p, loop, loops, last)
                        finally:
                            self.worksharing.conditional = {}
                    else:
                        body()
                with fn.loc_of_pragma(p):
                    if own:
                        combine_in_critical(own)
                    if copies:
                        reduction_copies.combine(copies)
                    omp.TerminatorOp()

    def _lone_construct(self, inner: list[Pragma], stmt: ci.Cursor):
        """The directives and statement of the one ``single``/``master`` construct a
        construct's statement is (stacked on it, or the only statement of its block), or
        None."""
        if inner:
            return (inner, stmt) if inner[0].directive in ("single", "master") else None
        kids = cs.children(stmt) if stmt.kind == K.COMPOUND_STMT else []
        if len(kids) != 1:
            return None
        marks = self.fn.module.pragmas.within(stmt.extent.start.offset, kids[0].extent.start.offset)
        if marks and marks[0].directive in ("single", "master") and \
                all(not m.standalone for m in marks):
            return list(marks), kids[0]
        return None

    def _lone_scan_loop(self, inner: list[Pragma], stmt: ci.Cursor):
        """(its ``for`` directive, the loop) when a region's statement is one ``omp for``
        with an inscan reduction (stacked on it, or the only statement of its block; taken
        from the queue then), else None."""
        if inner:
            if len(inner) == 1 and inner[0].directive == "for" and omp_scan.is_scan(inner[0]):
                return inner[0], stmt
            return None
        kids = cs.children(stmt) if stmt.kind == K.COMPOUND_STMT else []
        if len(kids) != 1 or kids[0].kind != K.FOR_STMT:
            return None
        marks = self.fn.module.pragmas.within(stmt.extent.start.offset, kids[0].extent.start.offset)
        if len(marks) != 1 or marks[0].directive != "for" or not omp_scan.is_scan(marks[0]):
            return None
        self.fn.module.pragmas.take_before(kids[0].extent.start.offset)
        return marks[0], kids[0]

    def _take_lone_construct(self, inner: list[Pragma], stmt: ci.Cursor):
        """``_lone_construct``, its directives taken from the queue when they mark the
        statement inside a block (so the statement emitter does not apply them again)."""
        lone = self._lone_construct(inner, stmt)
        if lone is not None and not inner:
            self.fn.module.pragmas.take_before(lone[1].extent.start.offset)
        return lone

    def _one_construct(self, stmt_of_body: tuple | None) -> bool:
        """Whether a region's body is one ``single`` or ``master`` construct: the next pragma
        on its statement, or the only statement of its block, under one."""
        if stmt_of_body is None:
            return False
        return self._lone_construct(*stmt_of_body) is not None

    def _creator_reductions(self, p: Pragma, stack: ExitStack) -> list:
        """The region's reductions, when this single/master is the whole region: its thread's
        own copies (see ``parallel``)."""
        if self.creator_reductions is None:
            return []
        region, reductions = self.creator_reductions
        self.creator_reductions = None
        with self.fn.loc_of_pragma(region):
            return self.own_reductions(region, reductions, stack, "of a parallel region "
                                       "(reduce in its loops)")

    def _conditional_bests(self, p: Pragma) -> dict:
        """``lastprivate(conditional: x)`` of a ``parallel for``: for each x (by key), a slot
        outside the region holding the number of the latest iteration that set x so far
        (-1: none); WorksharingLoops.emit keeps x's value of that iteration."""
        fn = self.fn
        bests = {}
        for c in p.all("lastprivate"):
            if c.flavor != "conditional":
                continue
            for name in c.args:
                key, _ = self.clauses.variable(p, name.strip())
                slot = fn.alloca(ir.MemRefType.get([], fn.types.i(64)))
                memref.StoreOp(fn.const_int(-1, fn.types.i(64)), slot, [])
                bests[key] = slot
        return bests

    def _copyin_sources(self, p: Pragma) -> list[tuple[str, ir.Value]]:
        """``copyin(x)`` of a region, before it: the encountering thread's copy of each
        threadprivate ``x``, as a value (a scalar) or in a slot of its own (an array), so
        that no thread of the team can change it before the others have copied it."""
        fn = self.fn
        out = []
        for name in (n.strip() for c in p.all("copyin") for n in c.args):
            if name not in fn.module.threadprivate:
                raise p.error(f"copyin variable '{name}' is not threadprivate")
            _, var = self.clauses.variable(p, name)
            if not var.is_array:
                out.append((name, memref.LoadOp(var.value, [var.lead]).result))
                continue
            shape = ir.MemRefType(var.value.type).shape[1:]
            slot = fn.alloca(ir.MemRefType.get(shape, ir.MemRefType(var.value.type).element_type))
            self._copy_elements(var.value, [var.lead], slot, [], shape)
            out.append((name, slot))
        return out

    def _copy_in(self, p: Pragma, sources: list[tuple[str, ir.Value]]) -> None:
        """Each thread's copy of the ``copyin`` variables set from ``_copyin_sources``."""
        for name, source in sources:
            _, var = self.clauses.variable(p, name)
            if isinstance(source.type, ir.MemRefType):
                self._copy_elements(source, [], var.value, [var.lead], source.type.shape)
            else:
                memref.StoreOp(source, var.value, [var.lead])

    def _copy_elements(self, src: ir.Value, src_lead: list, dst: ir.Value, dst_lead: list,
                       shape) -> None:
        """``dst[dst_lead..., i...] = src[src_lead..., i...]`` over a static ``shape``."""
        fn = self.fn
        ivs = []
        with ExitStack() as nest:
            for extent in shape:
                loop = scf.ForOp(fn.const_index(0), fn.const_index(extent), fn.const_index(1))
                with ir.InsertionPoint(loop.body):
                    end = scf.YieldOp([])
                ivs.append(loop.induction_variable)
                nest.enter_context(ir.InsertionPoint(end))  # the body, before its yield
            value = memref.LoadOp(src, src_lead + ivs).result
            memref.StoreOp(value, dst, dst_lead + ivs)

    def one_thread(self, p: Pragma, d: str, inner: list[Pragma], stmt: ci.Cursor, body) -> bool:
        """A construct inside a nested parallel region, which a team of one runs: the
        region is its statement (with its private copies and reductions), a worksharing
        loop the plain loop, ``single``/``master`` and each section their statements.
        Critical sections, atomics and tasks keep their meaning (the outer team's threads
        still run side by side). False for those, which the caller emits as usual."""
        fn = self.fn
        if d not in ("parallel", "parallel for", "parallel sections", "for", "single", "master",
                     "sections"):
            return False
        if d == "sections" or d == "parallel sections":
            if stmt.kind != K.COMPOUND_STMT:
                raise p.error(f"'#pragma omp {d}' must be followed by a block of sections")
            marks = fn.module.pragmas

            def run() -> None:
                for child in cs.children(stmt):
                    marks.take_directive_before(child.extent.start.offset, "section")
                    fn.stmt.emit(child)
        elif d in ("parallel for", "for"):
            def run() -> None:
                with fn.loc(stmt):
                    fn.stmt.plain(stmt)
        else:
            run = body
        reducing = d.startswith("parallel") or d == "for"
        with ExitStack() as stack:
            with fn.loc_of_pragma(p):
                own = self.own_reductions(p, self.sharing.reductions(p) if reducing else [],
                                          stack, "in a nested parallel region")
                self.sharing.privatize(p, stack)
            stack.enter_context(pushed_count(self, "serial"))
            if d.startswith("parallel"):
                stack.enter_context(pushed_count(self, "nested"))
            run()
        if own:
            with fn.loc_of_pragma(p):
                combine_in_critical(own)
        return True

    def own_reductions(self, p: Pragma, reductions, stack: ExitStack, what: str) -> list:
        """Each reduction item a copy of its own, set to the operator's identity and bound in
        place of the variable while ``stack`` lasts; (shared, own, scalar, kind) per item,
        for ``combine_in_critical``."""
        own = []
        for key, shared, ctype, sym in reductions:
            s = scalar_of(ctype)
            if s is None:
                raise p.error(f"unsupported C construct: a reduction on an array section {what}")
            kind = sym.split("_")[0]
            mine = own_copy(self.fn, kind, s)
            own.append((shared, mine, s, kind))
            stack.enter_context(self.fn.rebind(key, Var("mem", ctype, mine)))
        return own

    def scope(self, p: Pragma, body) -> None:
        """``#pragma omp scope``: every thread runs the statement, with its private copies
        and reductions (its own copy, combined in a critical section), then waits for the
        others unless ``nowait`` (outside a parallel region: the one thread)."""
        fn = self.fn
        with ExitStack() as stack:
            with fn.loc_of_pragma(p):
                own = self.own_reductions(p, self.sharing.reductions(p), stack, "of omp scope")
                self.sharing.privatize(p, stack)
            body()
        with fn.loc_of_pragma(p):
            if own:
                combine_in_critical(own)
            if self.teams and not self.serial and not p.clause("nowait"):
                omp.BarrierOp()

    def in_final(self) -> ir.Value | None:
        """``omp_in_final()`` in the body of a task with a ``final`` clause or inside one
        (an ``i32``); None elsewhere, where the runtime answers 0."""
        if not self.finals:
            return None
        final = self.finals[0]
        for other in self.finals[1:]:
            final = arith.OrIOp(final, other).result
        return arith.ExtUIOp(self.fn.types.i(32), final).result

    def team_of_one_answer(self, routine: str) -> int | None:
        """What a routine describing the team answers inside a nested region (a team of
        one), where the compiler knows it; None elsewhere or for other routines."""
        if not self.nested:
            return None
        return {"omp_get_thread_num": 0, "omp_get_num_threads": 1,
                "omp_get_level": 1 + self.nested}.get(routine)

    def single(self, p: Pragma, body) -> None:
        """``#pragma omp single``; with ``copyprivate(x)``, the single's thread stores its
        ``x`` in a slot of the team (allocated outside the region) and, after the barrier,
        every thread copies the slot into its own ``x``."""
        fn = self.fn
        copied = []
        if p.clause("copyprivate"):
            if p.clause("nowait"):
                raise p.error("copyprivate and nowait are exclusive on omp single")
            for name in (n.strip() for c in p.all("copyprivate") for n in c.args):
                key, var = self.clauses.variable(p, name)
                if var.kind != "mem" or var.is_array:
                    raise p.error(f"unsupported C construct: copyprivate variable '{name}' (a "
                                  "scalar variable is supported)")
                copied.append((key, var))
        team = self.teams and not self.serial and len(fn.alloca_scopes) > 1
        with fn.loc_of_pragma(p):
            slots = [self._team_slot(var.value.type if var.lead is None else
                                     ir.MemRefType.get([], ir.MemRefType(var.value.type).element_type))
                     for _, var in copied] if team else []
            op = omp.SingleOp([], [], [], [], nowait=ir.UnitAttr.get() if p.clause("nowait") else None)
            block = op.region.blocks.append()
        with ir.InsertionPoint(block), ExitStack() as stack, fn.omp_region():
            own = self._creator_reductions(p, stack)
            with fn.loc_of_pragma(p):
                self.sharing.privatize(p, stack)
            body()
            with fn.loc_of_pragma(p):
                if own:
                    combine_in_critical(own)
                for (key, var), slot in zip(copied, slots):
                    # a threadprivate variable is no local binding: its copy (``lead``) was
                    # looked up in the thread before the single
                    mine = fn.vars.get(key, var)
                    value = fn.load(mine.value) if mine.lead is None else \
                        memref.LoadOp(mine.value, [mine.lead]).result
                    memref.StoreOp(value, slot, [])
                omp.TerminatorOp()
        with fn.loc_of_pragma(p):
            for (_, var), slot in zip(copied, slots):
                memref.StoreOp(fn.load(slot), var.value, [] if var.lead is None else [var.lead])

    def _team_slot(self, mtype: ir.Type) -> ir.Value:
        """A slot every thread of the innermost region sees: an alloca of the scope around
        the region (the region's own allocas are per thread)."""
        fn = self.fn
        inner = fn.alloca_scopes.pop()
        try:
            return fn.alloca(mtype)
        finally:
            fn.alloca_scopes.append(inner)

    def fill(self, p: Pragma, block: ir.Block, body) -> None:
        """A construct's region: its statement, then the terminator."""
        fn = self.fn
        with ir.InsertionPoint(block), fn.omp_region():
            body()
            with fn.loc_of_pragma(p):
                omp.TerminatorOp()

    def master(self, p: Pragma, body) -> None:
        fn = self.fn
        with fn.loc_of_pragma(p):
            op = omp.MasterOp()
            block = op.region.blocks.append()
        with ExitStack() as stack:
            with ir.InsertionPoint(block):
                own = self._creator_reductions(p, stack)

            def reduced() -> None:
                body()
                if own:
                    with fn.loc_of_pragma(p):
                        combine_in_critical(own)
            self.fill(p, block, reduced)

    def masked(self, p: Pragma, body) -> None:
        """``#pragma omp masked filter(n)`` (n not 0; ``filter(0)`` is ``master``): the
        statement, run by the thread whose number is ``n``; no barrier. Outside a parallel
        region, or in a nested one, the thread is number 0."""
        fn = self.fn
        with fn.loc_of_pragma(p):
            wanted = self.clauses.value(p, p.clause("filter").args[0], fn.types.i(32))
            me = fn.thread_number() if self.teams and not self.serial else \
                fn.const_int(0, fn.types.i(32))
            branch = scf.IfOp(arith.CmpIOp(arith.CmpIPredicate.eq, me, wanted).result)
        with ir.InsertionPoint(branch.then_block):
            body()
            with fn.loc_of_pragma(p):
                scf.YieldOp([])

    def sections(self, p: Pragma, stmt: ci.Cursor, last=None) -> None:
        """``#pragma omp sections``: an ``omp.sections`` with one ``omp.section`` per
        section of the block. A section starts at the block's first statement and at
        each ``#pragma omp section``; the statements up to the next one belong to it.
        Each section has its own ``private``/``firstprivate``/``lastprivate`` copies and
        its own reduction copies (combined in a critical section at its end); the last
        section stores its ``lastprivate`` copies into the variables (``last``: their
        targets, found before any privatisation)."""
        fn = self.fn
        if last is None:
            last = self.sharing.lastprivate_targets(p)
        if stmt.kind != K.COMPOUND_STMT:
            raise p.error(f"'#pragma omp {p.directive}' must be followed by a block of sections")
        groups: list[list[ci.Cursor]] = []
        marks = fn.module.pragmas
        for child in cs.children(stmt):
            if marks.take_directive_before(child.extent.start.offset, "section") or not groups:
                groups.append([])
            groups[-1].append(child)
        for q in marks.take_directive_before(stmt.extent.end.offset, "section"):
            raise q.error("'#pragma omp section' is not followed by a statement")
        nowait = p.directive == "sections" and p.clause("nowait") is not None
        with fn.loc_of_pragma(p):
            op = omp.SectionsOp([], [], [], [], nowait=ir.UnitAttr.get() if nowait else None)
            block = op.region.blocks.append()
        with ir.InsertionPoint(block), fn.omp_region():
            for group in groups:
                with fn.loc(group[0]):
                    section = omp.SectionOp()
                    inner = section.region.blocks.append()
                with ir.InsertionPoint(inner), ExitStack() as own_stack:
                    with fn.loc_of_pragma(p):
                        own = self.own_reductions(p, self.sharing.reductions(p), own_stack,
                                                  "of omp sections")
                        self.sharing.privatize(p, own_stack)
                    for child in group:
                        fn.stmt.emit(child)
                    with fn.loc_of_pragma(p):
                        if own:
                            combine_in_critical(own)
                        if group is groups[-1]:
                            for key, target in last:
                                self.sharing.store_last(fn.vars[key].value, target)
                        omp.TerminatorOp()
            with fn.loc_of_pragma(p):
                omp.TerminatorOp()

    def ordered(self, p: Pragma, body) -> None:
        """``#pragma omp ordered`` (a block, in a loop with the ``ordered`` clause): an
        ``omp.ordered.region``. openmp-to-arts makes the ordered parts a chain."""
        fn = self.fn
        if not self.worksharing.in_ordered_loop():
            raise p.error("'#pragma omp ordered' outside a loop with the 'ordered' clause")
        with fn.loc_of_pragma(p):
            op = omp.OrderedRegionOp()
            block = op.region.blocks.append()
        self.fill(p, block, body)

    def critical(self, p: Pragma, body) -> None:
        """``#pragma omp critical [(name)]``: an ``omp.critical`` naming its
        ``omp.critical.declare`` (one per name; the unnamed section has none)."""
        fn = self.fn
        name = p.clause("name").args[0] if p.clause("name") else None
        with fn.loc_of_pragma(p):
            sym = fn.module.critical_name(name, p) if name else None
            op = omp.CriticalOp(name=ir.FlatSymbolRefAttr.get(sym) if sym else None)
            block = op.region.blocks.append()
        self.fill(p, block, body)
