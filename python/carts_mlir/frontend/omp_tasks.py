"""OpenMP tasking: ``task``, ``taskgroup`` and ``taskloop``.

A task is an ``omp.task`` whose region holds the statement; what it captures follows the
data-sharing rules of ``omp_data_sharing``.  A taskloop is lowered here, before any pass:
its iterations are cut into chunks, one ``omp.task`` per chunk, created by an ``scf.for``
in a taskgroup.
"""

from __future__ import annotations

import dataclasses
import re
from contextlib import ExitStack, contextmanager
from typing import TYPE_CHECKING

import clang.cindex as ci
from mlir import ir
from mlir.dialects import arith, memref, scf
from mlir.dialects import openmp as omp

from ..errors import CartsError
from .omp_data_sharing import REDUCTION_OPS
from .pragmas import DEPEND_KINDS, Clause, Pragma, depend_base
from . import clang_support as cs
from . import typemap as tm
from .cursor_queries import decl_key, referenced_decl
from .reductions import combine_in_critical, own_copy, reduction_identity
from .state import Var
from .typemap import scalar_of

K = ci.CursorKind

if TYPE_CHECKING:
    from .openmp import OmpEmitter


@contextmanager
def pushed_reductions(owner: "OmpEmitter", declared: dict):
    """Task reductions ``declared`` (key -> the memref the tasks combine into) visible to the
    tasks created while the block runs."""
    saved = owner.task_reductions
    owner.task_reductions = {**saved, **declared}
    try:
        yield
    finally:
        owner.task_reductions = saved


class TaskEmitter:
    """The tasking constructs of one function; part of its OmpEmitter."""

    #: Chunks of a taskloop without grainsize or num_tasks.
    TASKLOOP_DEFAULT_TASKS = 64

    def __init__(self, owner: "OmpEmitter") -> None:
        self.owner = owner
        #: A detached task was created in this function (see _detach).
        self.detached = False
        self.fn = owner.fn
        self.clauses = owner.clauses
        self.sharing = owner.sharing
        #: depobj variable -> [kind, the item's memref, the block of the directive that set
        #: it] (depobj).
        self.depend_objects: dict = {}

    # ------------------------------------------------------------------ depend objects

    def depobj(self, p: Pragma) -> None:
        """``#pragma omp depobj(o) depend(kind: item)`` / ``update(kind)`` / ``destroy``: what
        ``o`` stands for is kept here, in program order: the item's memref (evaluated at the
        directive, as OpenMP takes its address there) and the kind. A task's
        ``depend(depobj: o)`` then names that item with that kind."""
        fn = self.fn
        name = p.clause("object").args[0].strip() if p.clause("object") else ""
        if not re.fullmatch(r"[A-Za-z_]\w*", name):
            raise p.error(f"unsupported C construct: depobj({name}) (a depend object that is a "
                          "plain variable is supported, not an array element or a member)")
        key, _ = self.clauses.variable(p, name)
        if p.clause("depend"):
            clause = p.clause("depend")
            if clause.modifier not in DEPEND_KINDS or len(clause.args) != 1:
                raise p.error("a depobj's depend clause names one item of kind in, out, inout, "
                              "mutexinoutset or inoutset")
            item = clause.args[0]
            with fn.loc_of_pragma(p):
                target = self.sharing.depend_target(p, item, depend_base(item))
            self.depend_objects[key] = [clause.modifier, target, ir.InsertionPoint.current.block]
        elif p.clause("update"):
            kind = p.clause("update").args[0].strip() if p.clause("update").args else ""
            if kind not in DEPEND_KINDS:
                raise p.error(f"depobj update({kind}): the kind is one of in, out, inout, "
                              "mutexinoutset or inoutset")
            if key not in self.depend_objects:
                raise p.error(f"depobj({name}) update(...) before the object was initialised "
                              f"(#pragma omp depobj({name}) depend(kind: item))")
            self._check_reaches(p, name, key)
            self.depend_objects[key][0] = kind
        elif p.clause("destroy"):
            self.depend_objects.pop(key, None)
        else:
            raise p.error("a depobj directive takes one of depend(...), update(...), destroy")

    def _check_reaches(self, p: Pragma, name: str, key) -> None:
        """The directive that made ``key`` what it is now reaches the current point on every
        path: its block encloses the current one. A depobj initialised or updated in a branch
        or loop that the use is not inside is refused (which directive ran would depend on
        the path)."""
        block = ir.InsertionPoint.current.block
        made = self.depend_objects[key][2]
        while block != made:
            owner = block.owner
            if owner is None or owner.operation.parent is None:
                raise p.error(f"depend object '{name}' was set by a depobj directive in a branch "
                              "or loop this construct is not inside (unsupported: set it "
                              "where its uses can see it on every path)")
            block = owner.operation.block

    def _depend_object(self, p: Pragma, name: str):
        """(kind, memref) that ``depend(depobj: name)`` stands for here."""
        fn = self.fn
        if not re.fullmatch(r"[A-Za-z_]\w*", name):
            raise p.error(f"unsupported C construct: depend(depobj: {name}) (a depend object "
                          "that is a plain variable is supported)")
        key, _ = self.clauses.variable(p, name)
        if key not in self.depend_objects:
            raise p.error(f"depend(depobj: {name}): '{name}' was not initialised by a "
                          f"'#pragma omp depobj({name}) depend(kind: item)' before")
        self._check_reaches(p, name, key)
        loop_end = max((f.end if f.end is not None else fn.cursor.extent.end.offset
                        for f in fn.loops), default=None)
        if loop_end is not None and any(
                q.directive == "depobj" and q.clause("object") and
                q.clause("object").args[0].strip() == name and q.offset < loop_end
                for q in fn.module.pragmas.upcoming()):
            raise p.error(f"depend object '{name}' is set again after this task inside its "
                          "loop (unsupported: a later iteration's task would see the new "
                          "value)")
        kind, target, _ = self.depend_objects[key]
        return kind, target

    def task(self, p: Pragma, body, stmt: ci.Cursor):
        """``#pragma omp task``: an ``omp.task`` whose region holds the statement.

        Data sharing as OpenMP says when no clause names a variable: globals, and
        variables still bound as they were when the enclosing ``parallel`` began, are
        shared; every other variable the task uses is firstprivate (its value is read when
        the task is created and the task works on a copy of its own). Arrays are never
        copied: a task uses them where they are. ``depend`` items name the variable they
        order on; ``if``, ``final`` and ``priority`` keep their values on the op."""
        fn = self.fn
        joined, p = self._joined(p)
        self._check_element_uses(p, joined, stmt)
        p = self._detach(p)
        shared, copied, private = self.sharing.task_sharing(p, stmt)
        # `omp_all_memory`: the task comes after every sibling created before it and before
        # every one created after it: taskwaits around it. After a detached task, a task
        # with depend items comes after every task created before it (one of those may
        # fulfill the event it waits for).
        all_memory = any(item.strip() == "omp_all_memory" for c in p.all("depend") for item in c.args)
        if all_memory or (self.detached and p.clause("depend")):
            with fn.loc_of_pragma(p):
                omp.TaskwaitOp([])
        with fn.loc_of_pragma(p):
            captured = [(key, var, None if var.is_array else fn.load(var.value))
                        for key, var in copied]
            depend_vars, depend_kinds = [], []
            for clause in p.all("depend"):
                if clause.modifier == "depobj":
                    for name in clause.args:
                        kind, target = self._depend_object(p, name.strip())
                        depend_vars.append(target)
                        depend_kinds.append(ir.Attribute.parse(
                            f"#omp<clause_task_depend({DEPEND_KINDS[kind]})>"))
                    continue
                if clause.modifier not in DEPEND_KINDS:
                    raise p.error(f"unsupported C construct: depend({clause.modifier}: ...) "
                                  "(in, out, inout, mutexinoutset, inoutset and depobj are "
                                  "supported)")
                for item in clause.args:
                    if item.strip() == "omp_all_memory":
                        if clause.modifier not in ("out", "inout"):
                            raise p.error("omp_all_memory is a depend item of out or inout only")
                        continue
                    name = depend_base(item)
                    if not name:
                        raise p.error(f"depend item '{item}' does not name a variable")
                    depend_vars.append(self.sharing.depend_target(p, item, name))
                    depend_kinds.append(ir.Attribute.parse(
                        f"#omp<clause_task_depend({DEPEND_KINDS[clause.modifier]})>"))
            attrs = {}
            if depend_kinds:
                attrs["depend_kinds"] = ir.ArrayAttr.get(depend_kinds)
            for name in ("if", "final"):
                if p.clause(name):
                    attrs["if_expr" if name == "if" else name] = self.clauses.condition(p, p.clause(name).args[0])
            if p.clause("priority"):
                attrs["priority"] = arith.TruncIOp(fn.types.i(32), self.clauses.expression(p, p.clause("priority").args[0])).result
            for name in ("untied", "mergeable"):
                if p.clause(name):
                    attrs[name] = ir.UnitAttr.get()
            op = omp.TaskOp([], [], depend_vars, [], [], **attrs)
            block = op.region.blocks.append()
        with ir.InsertionPoint(block), ExitStack() as stack, fn.omp_region(block):
            self._own_copies(p, captured, private, stack)
            own = self._join(p, joined, stack)
            self.owner.in_task += 1
            if "final" in attrs:
                self.owner.finals.append(attrs["final"])
            try:
                body()
            finally:
                self.owner.in_task -= 1
                if "final" in attrs:
                    self.owner.finals.pop()
            with fn.loc_of_pragma(p):
                if own:
                    combine_in_critical(own)
                omp.TerminatorOp()
        if all_memory:
            with fn.loc_of_pragma(p):
                omp.TaskwaitOp([])
        return op

    def _detach(self, p: Pragma) -> Pragma:
        """``detach(event)``: the task completes when its body is done and the event is
        fulfilled. Its event variable gets a handle (the value is not used:
        ``omp_fulfill_event`` has nothing to do), and the tasks with depend items created
        after it in this function each wait for every task created before them, which
        orders them after the task that fulfills the event when that one comes first (the
        common shape: detached task, fulfilling task, dependent task)."""
        c = p.clause("detach")
        if c is None:
            return p
        fn = self.fn
        key, var = self.clauses.variable(p, c.args[0].strip())
        if var.kind != "mem" or scalar_of(var.ctype) is None:
            raise p.error("detach needs an omp_event_handle_t variable")
        with fn.loc_of_pragma(p):
            s = scalar_of(var.ctype)
            memref.StoreOp(fn.const_int(1, s.mlir()), var.value, [])
        self.detached = True
        return dataclasses.replace(p, clauses=[k for k in p.clauses if k.name != "detach"])

    def _joined(self, p: Pragma) -> tuple[list, Pragma]:
        """A task's ``in_reduction`` items, (kind, key, scalar, target) each, and the pragma
        that makes them private to it. The target is what the task's contribution combines
        into: the variable itself where a ``taskgroup task_reduction`` (or nothing the
        compiler sees) declares the reduction, the variable outside the region where a
        ``parallel reduction(task, ...)`` does (its threads work on copies of their own)."""
        items, names = [], []
        for c in p.all("in_reduction"):
            for name in c.args:
                name = name.strip()
                element = re.fullmatch(r"([A-Za-z_]\w*)\s*\[(.+)\]", name)
                if element:  # `sum[0]` of a pointer parameter, `part[2]` of an array
                    items.append(self._joined_element(p, c, name, element))
                    continue
                key, var = self.clauses.variable(p, name)
                s = scalar_of(var.ctype)
                if var.kind != "mem" or s is None:
                    raise p.error(f"unsupported C construct: in_reduction variable '{name}' (a "
                                  "scalar variable or an element of a 1-D array is supported)")
                target = self.owner.task_reductions.get(key, var.value)
                items.append((REDUCTION_OPS[c.modifier], key, var.ctype, s, target))
                names.append(name)
        if not items:
            return [], p
        kept = [c for c in p.clauses if c.name != "in_reduction"]
        private = [Clause("private", tuple(names))] if names else []
        return items, dataclasses.replace(p, clauses=kept + private)

    @staticmethod
    def _check_element_uses(p: Pragma, joined: list, stmt: ci.Cursor) -> None:
        """An array whose element ``a[k]`` the task joins a reduction with is the task's own
        inside it: refused where the statement uses ``a`` other than as that element."""
        elements = {key: k for _kind, key, _c, _s, target in joined if isinstance(target, tuple)
                    for k in (target[1],)}
        if not elements:
            return
        as_element = set()
        for c in cs.walk(stmt):
            if c.kind == K.ARRAY_SUBSCRIPT_EXPR:
                base, index = cs.children(c)
                ref = cs.strip_implicit(base)
                decl = referenced_decl(ref) if ref.kind == K.DECL_REF_EXPR else None
                if decl is not None and elements.get(decl_key(decl)) == cs.evaluate(index):
                    as_element.add(ref.hash)
        for c in cs.walk(stmt):
            decl = referenced_decl(c) if c.kind == K.DECL_REF_EXPR else None
            if decl is not None and decl_key(decl) in elements and c.hash not in as_element:
                raise CartsError(f"unsupported C construct: '{decl.spelling}' used other than as "
                                 f"its in_reduction element '{decl.spelling}"
                                 f"[{elements[decl_key(decl)]}]' in the task",
                                 cs.location_of(c))

    def _joined_element(self, p: Pragma, c: Clause, name: str, element: re.Match) -> tuple:
        """An ``in_reduction`` item ``a[k]``, ``k`` a constant, of a pointer or a local 1-D
        array: the task works on an array of its own whose element ``k`` starts at the
        identity, bound in place of ``a``, and combines that element into ``a[k]``. The
        task's statement must use ``a`` only as ``a[k]`` (checked when it is emitted)."""
        key, var = self.clauses.variable(p, element.group(1))
        k = self.clauses.constant(p, element.group(2))
        mtype = ir.MemRefType(var.value.type) if isinstance(var.value.type, ir.MemRefType) else None
        elem = var.ctype.get_array_element_type() if tm.is_array(var.ctype) else \
            tm.pointee(var.ctype) if var.ctype.kind == ci.TypeKind.POINTER else None
        s = scalar_of(elem) if elem is not None else None
        if mtype is None or mtype.rank != 1 or s is None or var.kind not in ("ssa", "mem") or \
                k < 0 or (not mtype.is_dynamic_dim(0) and k >= mtype.shape[0]):
            raise p.error(f"unsupported C construct: in_reduction item '{name}' (an element "
                          "of a pointer or of a local 1-D array, at a constant index, is "
                          "supported)")
        return (REDUCTION_OPS[c.modifier], key, var.ctype, s, (var, k))

    def _join(self, p: Pragma, joined: list, stack: ExitStack) -> list:
        """The task's own copies of its ``in_reduction`` items, set to the operator's
        identity and bound in place of the variables; (target, own, scalar, kind) each, for
        ``combine_in_critical`` when the task's statement is done."""
        own = []
        fn = self.fn
        with fn.loc_of_pragma(p):
            for kind, key, ctype, s, target in joined:
                if isinstance(target, tuple):  # an element a[k]: an array of the task's own
                    var, k = target
                    mtype = ir.MemRefType(var.value.type)
                    size = mtype.shape[0] if not mtype.is_dynamic_dim(0) else k + 1
                    mine = fn.alloca(ir.MemRefType.get([size], mtype.element_type))
                    at = [fn.const_index(k)]
                    memref.StoreOp(reduction_identity(kind, s), mine, at)
                    bound = mine if mine.type == var.value.type else \
                        memref.CastOp(var.value.type, mine).result
                    stack.enter_context(fn.rebind(key, dataclasses.replace(var, value=bound)))
                    own.append((var.value, mine, s, kind, at))
                    continue
                mine = own_copy(fn, kind, s)
                stack.enter_context(fn.rebind(key, Var("mem", ctype, mine)))
                own.append((target, mine, s, kind))
        return own

    def _own_copies(self, p: Pragma, captured, private, stack: ExitStack) -> None:
        """The task's firstprivate copies (of the values read at its creation; of an array,
        its contents when the task starts) and private variables, bound in place of the
        originals."""
        fn = self.fn
        with fn.loc_of_pragma(p):
            for key, var, value in captured:
                if value is None:  # an array: its copy, made when the task starts
                    mtype = ir.MemRefType(var.value.type)
                    dims = [memref.DimOp(var.value, fn.const_index(d)).result
                            for d in range(mtype.rank) if mtype.is_dynamic_dim(d)]
                    fresh = memref.AllocaOp(mtype, dims, []).result if dims else fn.alloca(mtype)
                    memref.CopyOp(var.value, fresh)
                else:
                    fresh = fn.alloca(var.value.type)
                    memref.StoreOp(value, fresh, [])
                stack.enter_context(fn.rebind(key, Var("mem", var.ctype, fresh)))
            for key, var in private:
                stack.enter_context(fn.rebind(key, Var("mem", var.ctype, fn.alloca(var.value.type))))

    def included(self, p: Pragma, body, stmt: ci.Cursor) -> None:
        """A task created inside another task or in a worksharing loop's body runs at once,
        in its creator, as an included task does: with its own copies of what it takes
        firstprivate, and done when the creator goes on, which satisfies its dependences
        (on siblings created before it, by the same thread) and any taskwait after it."""
        fn = self.fn
        joined, p = self._joined(p)
        self._check_element_uses(p, joined, stmt)
        shared, copied, private = self.sharing.task_sharing(p, stmt)
        with fn.loc_of_pragma(p):
            captured = [(key, var, None if var.is_array else fn.load(var.value))
                        for key, var in copied]
        with ExitStack() as stack:
            self._own_copies(p, captured, private, stack)
            own = self._join(p, joined, stack)
            body()
        if own:
            with fn.loc_of_pragma(p):
                combine_in_critical(own)

    def _chunk(self, p: Pragma, loop, bounds, ub: ir.Value, reduced: list[tuple[str, str, ir.Value | None]],
               lastprivate: list[str]) -> None:
        """A taskloop chunk's body: its iterations, on copies of its reduction variables
        (set to the operator's identity, combined in a critical section at the end into the
        variable, or into the target of an ``in_reduction`` item) and of its lastprivate ones (stored back by the chunk with the last
        iteration)."""
        fn = self.fn
        own = []
        with ExitStack() as stack:
            with fn.loc_of_pragma(p):
                for kind, name, target in reduced + [(None, n, None) for n in lastprivate]:
                    key, var = self.clauses.variable(p, name)
                    s = scalar_of(var.ctype)
                    if var.kind != "mem" or s is None:
                        raise p.error(f"unsupported C construct: taskloop {'reduction' if kind else 'lastprivate'} "
                                      f"variable '{name}' (a scalar variable is supported)")
                    mine = own_copy(fn, kind, s) if kind is not None else \
                        fn.alloca(ir.MemRefType.get([], s.mlir()))
                    own.append((var.value if target is None else target, mine, s, kind,
                                key == loop.var_key))
                    stack.enter_context(fn.rebind(key, Var("mem", var.ctype, mine)))
            fn.stmt.scf_for(loop, bounds)
        with fn.loc_of_pragma(p):
            combined = [o[:4] for o in own if o[3] is not None]
            if combined:
                combine_in_critical(combined)
            kept = [o for o in own if o[3] is None]
            if kept:
                holds_last = arith.CmpIOp(arith.CmpIPredicate.eq, bounds[1], ub).result
                branch = scf.IfOp(holds_last)
                with ir.InsertionPoint(branch.then_block):
                    for shared, mine, _s, _k, is_iv in kept:
                        # the loop's own variable: its value after the whole loop (the last
                        # chunk's first iteration is in step with the loop's)
                        value = fn.stmt.final_value(loop, bounds[0], ub, *bounds[2:]) if is_iv \
                            else memref.LoadOp(mine, []).result
                        memref.StoreOp(value, shared, [])
                    scf.YieldOp([])

    def taskgroup(self, p: Pragma, body) -> None:
        """``#pragma omp taskgroup [task_reduction(op: x)]``: its tasks done at its end.
        The tasks that join a task reduction (``in_reduction``) each combine their own
        copy into ``x`` when they finish, so ``x`` holds the total at the end."""
        fn = self.fn
        declared = {}
        for c in p.all("task_reduction"):
            for name in c.args:
                element = re.fullmatch(r"\s*([A-Za-z_]\w*)\s*\[.*\]\s*", name)
                if element:  # `a[k]`, `a[lo:len]`: the tasks' elements combine into `a` itself
                    self.clauses.variable(p, element.group(1))
                    continue
                key, var = self.clauses.variable(p, name.strip())
                if var.kind != "mem" or scalar_of(var.ctype) is None:
                    raise p.error(f"unsupported C construct: task_reduction variable '{name.strip()}' "
                                  "(a scalar variable is supported)")
                declared[key] = var.value
        with fn.loc_of_pragma(p):
            op = omp.TaskgroupOp([], [], [])
            block = op.region.blocks.append()
        with pushed_reductions(self.owner, declared):
            self.owner.fill(p, block, body)

    def taskloop(self, p: Pragma, stmt: ci.Cursor) -> None:
        """``#pragma omp taskloop``: the loop's iterations in chunks, one task per chunk
        (``grainsize(g)`` iterations each, or ``num_tasks(n)`` chunks, else
        TASKLOOP_DEFAULT_TASKS), created in order by the encountering thread, in a
        taskgroup unless ``nogroup``. The tasks take the data sharing of ``task``; the
        chunk's bounds are values of the creating loop."""
        fn = self.fn
        if p.clause("grainsize") and p.clause("num_tasks"):
            raise p.error("grainsize and num_tasks are exclusive on omp taskloop")
        reduced = [(REDUCTION_OPS[c.modifier], n.strip(), None) for c in p.all("reduction")
                   for n in c.args]
        lastprivate = [n.strip() for c in p.all("lastprivate") for n in c.args]
        if reduced and p.clause("nogroup"):
            raise p.error("reduction and nogroup are exclusive on omp taskloop")
        joined, p = self._joined(p)  # in_reduction: each chunk joins the enclosing reduction
        if any(isinstance(j[4], tuple) for j in joined):
            raise p.error("unsupported C construct: an in_reduction item that is an array "
                          "element on omp taskloop (a scalar variable is supported)")
        reduced += [(kind, name.strip(), target) for (kind, _k, _c, _s, target), name in
                    zip(joined, p.clauses[-1].args if joined else ())]
        if reduced or lastprivate:  # the chunks see the variables themselves, and their copies
            shared = Clause("shared", tuple(n for _, n, t in reduced if t is None) + tuple(lastprivate))
            p = dataclasses.replace(p, clauses=[c for c in p.clauses if c.name not in (
                "reduction", "lastprivate")] + [shared])
        # collapse(n): the chunks share the outermost loop's iterations, each running the
        # loops inside whole, in the collapsed nest's order (it only changes how many
        # iterations a chunk has, and grainsize/num_tasks stay what they count of the outer)
        p = dataclasses.replace(p, clauses=[c for c in p.clauses if c.name != "collapse"])
        (loop, (lb, ub, step, start)), = self.owner.worksharing.prepare(p, stmt)
        with fn.loc_of_pragma(p):
            trips = arith.CeilDivSIOp(arith.SubIOp(ub, lb).result, step).result
            trips = arith.MaxSIOp(trips, fn.const_index(0)).result
            one = fn.const_index(1)
            if p.clause("grainsize"):
                per = self.clauses.value(p, p.clause("grainsize").args[0], ir.IndexType.get())
            else:
                tasks = self.clauses.value(p, p.clause("num_tasks").args[0], ir.IndexType.get()) \
                    if p.clause("num_tasks") else fn.const_index(self.TASKLOOP_DEFAULT_TASKS)
                tasks = arith.MaxSIOp(tasks, one).result
                per = arith.CeilDivSIOp(trips, tasks).result
            per = arith.MaxSIOp(per, one).result
            stride = arith.MulIOp(per, step).result

        def create() -> None:
            with fn.loc_of_pragma(p):
                chunks = scf.ForOp(lb, ub, stride)
            with ir.InsertionPoint(chunks.body):
                first = chunks.induction_variable
                with fn.loc_of_pragma(p):
                    last = arith.MinSIOp(arith.AddIOp(first, stride).result, ub).result
                op = self.task(p, lambda: self._chunk(p, loop, (first, last, step, start), ub,
                                                      reduced, lastprivate), stmt)
                # The chunks write disjoint iterations: the datablock passes let them share
                # what they write, as the chunks of an `omp for` do.
                op.operation.attributes["arts.taskloop"] = ir.UnitAttr.get()
                scf.YieldOp([])

        if p.clause("nogroup"):
            create()
        else:
            self.taskgroup(p, create)
