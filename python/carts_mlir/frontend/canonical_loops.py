"""Canonical ``for`` loops: the loops that become ``scf.for`` / ``omp.loop_nest`` rather
than ``scf.while``.

``for_parts`` splits a ``for`` header; ``CanonicalLoops`` (a mixin of
``FunctionAnalysis``) decides whether a loop has the shape ``for (v = init; v CMP bound;
v += step)`` with a constant step, a body that neither assigns ``v`` nor leaves the loop
early, and a bound the body cannot change.  It is the largest question the analysis
answers and asks the rest of it only for ``mutated_in`` and ``escapes``, so it is kept
apart from the mutation and control-flow facts.
"""

from __future__ import annotations

from dataclasses import dataclass

import clang.cindex as ci

from . import clang_support as cs
from . import typemap as tm
from .cursor_queries import ASSIGN_OPS, decl_key, is_local_decl, referenced_decl, var_initializer

K = ci.CursorKind

_COMPARISONS = {"<", "<=", ">", ">=", "!="}
_FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "!=": "!="}


@dataclass
class ForParts:
    init: ci.Cursor | None
    cond: ci.Cursor | None
    inc: ci.Cursor | None
    body: ci.Cursor


@dataclass
class CanonicalLoop:
    """``for (v = init; v CMP bound; v += step)``, normalised so that ``v`` is on the
    left of the comparison.  ``step`` is the (positive) magnitude."""

    var: ci.Cursor
    declared_in_init: bool
    init: ci.Cursor
    bound: ci.Cursor
    cmp: str
    step: int
    increasing: bool
    body: ci.Cursor
    cursor: ci.Cursor

    @property
    def var_key(self) -> tuple:
        return decl_key(self.var)


def for_parts(loop: ci.Cursor) -> ForParts:
    """Split a FOR_STMT into init/cond/inc/body (libclang omits absent parts, so the
    semicolons of the header tell which child is which)."""
    kids = cs.children(loop)
    body, header = kids[-1], kids[:-1]
    if len(header) == 3:
        return ForParts(header[0], header[1], header[2], body)
    semis: list[int] = []
    depth = 0
    tokens = list(loop.get_tokens())
    if tokens and tokens[0].spelling == "for":
        for tok in tokens[1:]:
            s = tok.spelling
            if s == "(":
                depth += 1
            elif s == ")":
                depth -= 1
                if depth == 0:
                    break
            elif s == ";" and depth == 1:
                semis.append(tok.extent.start.offset)
    parts: dict[str, ci.Cursor | None] = {"init": None, "cond": None, "inc": None}
    if len(semis) == 2:
        for k in header:
            off = k.extent.start.offset
            slot = "init" if off < semis[0] else "cond" if off < semis[1] else "inc"
            parts[slot] = k
    elif header:
        raise cs.unsupported(loop, "for statement whose header comes from a macro")
    return ForParts(parts["init"], parts["cond"], parts["inc"], body)


class CanonicalLoops:
    """Recognition of canonical loops, cached per loop (a mixin of ``FunctionAnalysis``,
    whose ``mutated_in`` and ``escapes`` it asks about the body)."""

    _canonical: dict[tuple, CanonicalLoop | None]

    def canonical_loop(self, loop: ci.Cursor) -> CanonicalLoop | None:
        key = cs.node_key(loop)
        if key not in self._canonical:
            self._canonical[key] = self._canonical_loop(loop)
        return self._canonical[key]

    def _canonical_loop(self, loop: ci.Cursor) -> CanonicalLoop | None:
        parts = for_parts(loop)
        if parts.init is None or parts.cond is None or parts.inc is None:
            return None
        # init: `int v = e` or `v = e`
        declared = False
        if parts.init.kind == K.DECL_STMT:
            decls = cs.children(parts.init)
            if len(decls) != 1 or decls[0].kind != K.VAR_DECL:
                return None
            var, init = decls[0], var_initializer(decls[0])
            declared = True
        elif _is_op(parts.init, "="):
            lhs, init = cs.children(parts.init)
            lhs = cs.strip_parens(lhs)
            var = referenced_decl(lhs) if lhs.kind == K.DECL_REF_EXPR else None
        else:
            return None
        if var is None or init is None or not is_local_decl(var) or not tm.is_int(var.type):
            return None
        vkey = decl_key(var)
        # cond: `v CMP bound` or `bound CMP v`
        cond = cs.strip_parens(parts.cond)
        if cond.kind != K.BINARY_OPERATOR or cs.binary_operator(cond) not in _COMPARISONS:
            return None
        lhs, rhs = cs.children(cond)
        cmp = cs.binary_operator(cond)
        if self._is_var(lhs, vkey):
            bound = rhs
        elif self._is_var(rhs, vkey):
            bound, cmp = lhs, _FLIP[cmp]
        else:
            return None
        # inc: ++v, v++, --v, v--, v += c, v -= c, v = v + c, v = v - c
        step = self._step(parts.inc, vkey)
        if step is None or step == 0:
            return None
        increasing = step > 0
        magnitude = abs(step)
        if cmp == "!=":
            if magnitude != 1:
                return None
            cmp = "<" if increasing else ">"
        if increasing != (cmp in ("<", "<=")):
            return None
        # body: must not touch v, nor leave the loop early
        body = parts.body
        if vkey in self.mutated_in(body):
            return None
        jumps = self.escapes(body)
        if "break" in jumps or "return" in jumps:
            return None
        if not self._invariant(bound, body, vkey) or self._mentions(init, vkey):
            return None
        return CanonicalLoop(var, declared, init, bound, cmp, magnitude, increasing, body, loop)

    @staticmethod
    def _is_var(c: ci.Cursor, vkey: tuple) -> bool:
        c = cs.strip_implicit(c)
        if c.kind != K.DECL_REF_EXPR:
            return False
        decl = referenced_decl(c)
        return decl is not None and decl_key(decl) == vkey

    def _step(self, inc: ci.Cursor, vkey: tuple) -> int | None:
        inc = cs.strip_parens(inc)
        if inc.kind == K.UNARY_OPERATOR:
            op = cs.unary_operator(inc)
            if op in ("pre++", "post++", "pre--", "post--") and self._is_var(cs.children(inc)[0], vkey):
                return 1 if op.endswith("++") else -1
            return None
        if inc.kind == K.COMPOUND_ASSIGNMENT_OPERATOR:
            op = cs.binary_operator(inc)
            lhs, rhs = cs.children(inc)
            if op in ("+=", "-=") and self._is_var(lhs, vkey):
                value = _constant_int(rhs)
                if value is None:
                    return None
                return value if op == "+=" else -value
            return None
        if _is_op(inc, "="):
            lhs, rhs = cs.children(inc)
            if not self._is_var(lhs, vkey):
                return None
            rhs = cs.strip_parens(rhs)
            if rhs.kind != K.BINARY_OPERATOR or cs.binary_operator(rhs) not in ("+", "-"):
                return None
            a, b = cs.children(rhs)
            op = cs.binary_operator(rhs)
            if self._is_var(a, vkey):
                value = _constant_int(b)
                if value is None:
                    return None
                return value if op == "+" else -value
            if op == "+" and self._is_var(b, vkey):
                return _constant_int(a)
        return None

    def _mentions(self, expr: ci.Cursor, vkey: tuple) -> bool:
        for c in cs.walk(expr):
            if c.kind == K.DECL_REF_EXPR:
                decl = referenced_decl(c)
                if decl is not None and decl_key(decl) == vkey:
                    return True
        return False

    def _invariant(self, bound: ci.Cursor, body: ci.Cursor, vkey: tuple) -> bool:
        """The bound is evaluated once: it must not depend on anything the body changes."""
        mutated = self.mutated_in(body)
        body_calls = any(c.kind == K.CALL_EXPR for c in cs.walk(body))
        body_stores = body_calls or _stores_through_memory(body)
        for c in cs.walk(bound):
            if c.kind == K.CALL_EXPR:
                return False
            if c.kind in (K.ARRAY_SUBSCRIPT_EXPR,) or (
                c.kind == K.UNARY_OPERATOR and cs.unary_operator(c) == "*"
            ):
                if body_stores:
                    return False
            if c.kind == K.DECL_REF_EXPR:
                decl = referenced_decl(c)
                if decl is None:
                    continue
                key = decl_key(decl)
                if key == vkey or key in mutated:
                    return False
                if not is_local_decl(decl) and body_calls:
                    return False
        return True

    def references(self, root: ci.Cursor, key: tuple) -> bool:
        return self._mentions(root, key)


def _stores_through_memory(body: ci.Cursor) -> bool:
    for c in cs.walk(body):
        if c.kind in (K.BINARY_OPERATOR, K.COMPOUND_ASSIGNMENT_OPERATOR) and cs.binary_operator(c) in ASSIGN_OPS:
            target = cs.strip_parens(cs.children(c)[0])
            if target.kind != K.DECL_REF_EXPR:
                return True
        elif c.kind == K.UNARY_OPERATOR and cs.unary_operator(c) in ("pre++", "pre--", "post++", "post--"):
            target = cs.strip_parens(cs.children(c)[0])
            if target.kind != K.DECL_REF_EXPR:
                return True
    return False


def _is_op(c: ci.Cursor, op: str) -> bool:
    return c.kind == K.BINARY_OPERATOR and cs.binary_operator(c) == op


def _constant_int(c: ci.Cursor) -> int | None:
    value = cs.evaluate(c)
    return value if isinstance(value, int) else None
