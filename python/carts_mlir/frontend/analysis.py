"""Pre-analysis of one C function before any IR is emitted.

It answers the questions the emitters need to pick a structured shape:

- which locals are assigned after their declaration (the others become SSA values, the
  rest ``memref.alloca`` + load/store);
- which jumps (``break``, ``continue``, ``return``) can leave a statement, so that the
  statements after it are guarded by control flags;
- whether a ``for`` loop is canonical (``scf.for`` / ``omp.loop_nest``) or not
  (``scf.while``): that matching is the ``CanonicalLoops`` mixin (``canonical_loops``).

Questions about a single cursor that need no function context are in ``cursor_queries``.
"""

from __future__ import annotations

import functools

import clang.cindex as ci

from . import clang_support as cs
from . import typemap as tm
from .canonical_loops import CanonicalLoop, CanonicalLoops
from .cursor_queries import (ASSIGN_OPS, LOOP_KINDS, decl_key, if_jump, is_local_decl, referenced_decl,
                             var_initializer)

K = ci.CursorKind


class FunctionAnalysis(CanonicalLoops):
    """Facts about one function body, computed lazily and cached."""

    def __init__(self, function: ci.Cursor, clause_names: set[str]) -> None:
        self.function = function
        self.body = next((k for k in function.get_children() if k.kind == K.COMPOUND_STMT), None)
        self.clause_names = clause_names
        self._escapes: dict[tuple, frozenset[str]] = {}
        self._mutated: dict[tuple, frozenset[tuple]] = {}
        self._canonical: dict[tuple, CanonicalLoop | None] = {}
        self.assigned = self.mutated_in(function) if self.body is not None else frozenset()
        self.uses_return_flag = self._needs_return_flag()

    # ---------------------------------------------------------------- the nthreads ICV

    @functools.cached_property
    def thread_count_settings(self) -> dict[int, int | None] | None:
        """The ``omp_set_num_threads(n)`` calls of the function, by their offset, when each
        is a statement of the function's body itself (no branch or loop around it): n if it
        is an integer constant, else None (not known from there on); None when one is
        anywhere else. Between such calls the ICV is known while the function is emitted
        in order."""
        if self.body is None:
            return {}
        top = {cs.node_key(k) for k in cs.children(self.body)}
        found: dict[int, int | None] = {}
        for c in cs.walk(self.body):
            if c.kind != K.CALL_EXPR or c.spelling != "omp_set_num_threads":
                continue
            if cs.node_key(c) not in top:
                return None
            args = list(c.get_arguments())
            value = cs.evaluate(args[0]) if len(args) == 1 else None
            found[c.extent.start.offset] = value if isinstance(value, int) and value >= 1 else None
        return found

    # ---------------------------------------------------------------- mutation

    def mutated_in(self, root: ci.Cursor) -> frozenset[tuple]:
        """Keys of the variables assigned, incremented or address-taken inside ``root``."""
        key = cs.node_key(root)
        cached = self._mutated.get(key)
        if cached is not None:
            return cached
        out: set[tuple] = set()
        for c in cs.walk(root):
            target = None
            if c.kind in (K.BINARY_OPERATOR, K.COMPOUND_ASSIGNMENT_OPERATOR):
                if cs.binary_operator(c) in ASSIGN_OPS:
                    target = cs.children(c)[0]
            elif c.kind == K.UNARY_OPERATOR:
                if cs.unary_operator(c) in ("pre++", "pre--", "post++", "post--", "&"):
                    target = cs.children(c)[0]
            if target is None:
                continue
            target = cs.strip_parens(target)
            if target.kind == K.DECL_REF_EXPR:
                decl = referenced_decl(target)
                if decl is not None:
                    out.add(decl_key(decl))
        result = frozenset(out)
        self._mutated[key] = result
        return result

    def is_walked_pointer(self, decl: ci.Cursor) -> bool:
        """A local pointer the function moves with ``++``, ``--``, ``+=`` or ``-=``."""
        if self.body is None or not tm.is_pointer(decl.type):
            return False
        key = decl_key(decl)
        for c in cs.walk(self.body):
            target = None
            if c.kind == K.UNARY_OPERATOR and cs.unary_operator(c) in ("pre++", "pre--", "post++", "post--"):
                target = cs.children(c)[0]
            elif c.kind == K.COMPOUND_ASSIGNMENT_OPERATOR and cs.binary_operator(c) in ("+=", "-="):
                target = cs.children(c)[0]
            if target is not None:
                target = cs.strip_parens(target)
                if target.kind == K.DECL_REF_EXPR and referenced_decl(target) is not None and \
                        decl_key(referenced_decl(target)) == key:
                    return True
        return False

    def is_ssa(self, decl: ci.Cursor) -> bool:
        """A local that is never assigned after its initialisation, not named in an OpenMP
        data-sharing clause, and not an array: its value can be an SSA value."""
        if decl_key(decl) in self.assigned or decl.spelling in self.clause_names:
            return False
        if decl.kind == K.PARM_DECL:
            return True
        if tm.is_array(decl.type):
            return False
        return is_local_decl(decl) and var_initializer(decl) is not None

    # ---------------------------------------------------------------- control flow

    def escapes(self, stmt: ci.Cursor) -> frozenset[str]:
        """Jumps that can leave ``stmt``: subsets of {"break", "continue", "return"}."""
        key = cs.node_key(stmt)
        cached = self._escapes.get(key)
        if cached is not None:
            return cached
        k = stmt.kind
        if k == K.BREAK_STMT:
            result = frozenset({"break"})
        elif k == K.CONTINUE_STMT:
            result = frozenset({"continue"})
        elif k == K.RETURN_STMT:
            result = frozenset({"return"})
        elif k.is_expression() or k == K.DECL_STMT:
            result = frozenset()
        else:
            acc: set[str] = set()
            for child in cs.children(stmt):
                if child.kind.is_statement() or child.kind == K.COMPOUND_STMT:
                    acc |= self.escapes(child)
            if k in LOOP_KINDS:
                acc -= {"break", "continue"}
            elif k == K.SWITCH_STMT:
                acc -= {"break"}  # a break in a switch leaves the switch
            result = frozenset(acc)
        self._escapes[key] = result
        return result

    def needs_continue_flag(self, loop: ci.Cursor, body: ci.Cursor) -> bool:
        """Whether a ``continue`` of this loop needs a flag: it does unless every continue
        is an ``if (c) continue;`` directly in the loop body (then the rest of the body
        simply goes into the else branch)."""
        if "continue" not in self.escapes(body):
            return False
        top = cs.children(body) if body.kind == K.COMPOUND_STMT else [body]
        trick = set()
        for s in top:
            jump = if_jump(s)
            if jump is not None and jump.kind == K.CONTINUE_STMT:
                trick.add(cs.node_key(jump))
        for c in _walk_loop_body(body):
            if c.kind == K.CONTINUE_STMT and cs.node_key(c) not in trick:
                return True
        return False

    def _needs_return_flag(self) -> bool:
        if self.body is None:
            return False
        top = cs.children(self.body)
        for c in cs.walk(self.body):
            if c.kind == K.RETURN_STMT and not (top and c == top[-1]):
                return True
        return False

def _walk_loop_body(body: ci.Cursor):
    """Walk a loop body without entering nested loops (their jumps are their own), nor
    the breaks of a switch (they leave the switch)."""
    stack = [(body, False)]
    while stack:
        c, in_switch = stack.pop()
        if not (in_switch and c.kind == K.BREAK_STMT):
            yield c
        if c is not body and c.kind in LOOP_KINDS:
            continue
        inner = in_switch or c.kind == K.SWITCH_STMT
        stack.extend((k, inner) for k in cs.children(c))
