"""Pre-analysis of one C function before any IR is emitted.

It answers the questions the emitters need to pick a structured shape:

- which locals are assigned after their declaration (the others become SSA values, the
  rest ``memref.alloca`` + load/store);
- which jumps (``break``, ``continue``, ``return``) can leave a statement, so that the
  statements after it are guarded by control flags;
- whether a ``for`` loop is canonical (``scf.for`` / ``omp.loop_nest``) or not
  (``scf.while``).
"""

from __future__ import annotations

from dataclasses import dataclass

import clang.cindex as ci

from . import clang_support as cs
from . import typemap as tm

K = ci.CursorKind

LOOP_KINDS = (K.FOR_STMT, K.WHILE_STMT, K.DO_STMT)
_ASSIGN_OPS = {"=", "+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "|=", "^="}
_COMPARISONS = {"<", "<=", ">", ">=", "!="}
_FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "!=": "!="}


def decl_key(decl: ci.Cursor) -> tuple:
    return cs.node_key(decl)


def referenced_decl(ref: ci.Cursor) -> ci.Cursor | None:
    """The VAR_DECL/PARM_DECL a DECL_REF_EXPR names (None otherwise)."""
    target = ref.referenced
    if target is not None and target.kind in (K.VAR_DECL, K.PARM_DECL):
        return target
    return None


def is_local_decl(decl: ci.Cursor) -> bool:
    """Locals and parameters (not globals, not static locals)."""
    if decl.kind == K.PARM_DECL:
        return True
    if decl.kind != K.VAR_DECL:
        return False
    parent = decl.semantic_parent
    if parent is None or parent.kind == K.TRANSLATION_UNIT:
        return False
    return decl.storage_class not in (ci.StorageClass.STATIC, ci.StorageClass.EXTERN)


def var_initializer(decl: ci.Cursor) -> ci.Cursor | None:
    """The initializer expression of a VAR_DECL, if any."""
    return cs.var_initializer(decl)


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


class FunctionAnalysis:
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
                if cs.binary_operator(c) in _ASSIGN_OPS:
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

    # ---------------------------------------------------------------- loops

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


def _stores_through_memory(body: ci.Cursor) -> bool:
    for c in cs.walk(body):
        if c.kind in (K.BINARY_OPERATOR, K.COMPOUND_ASSIGNMENT_OPERATOR) and cs.binary_operator(c) in _ASSIGN_OPS:
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


def if_jump(stmt: ci.Cursor) -> ci.Cursor | None:
    """For ``if (c) JUMP;`` (no else; JUMP is break/continue/return, maybe in braces),
    the jump statement; None otherwise."""
    if stmt.kind != K.IF_STMT:
        return None
    kids = cs.children(stmt)
    if len(kids) != 2:
        return None
    then = kids[1]
    if then.kind == K.COMPOUND_STMT:
        inner = cs.children(then)
        if len(inner) != 1:
            return None
        then = inner[0]
    if then.kind in (K.BREAK_STMT, K.CONTINUE_STMT, K.RETURN_STMT):
        return then
    return None


#: Binary operators that cannot trap (division and remainder can).
SIMPLE_BINARY = {"+", "-", "*", "<", "<=", ">", ">=", "==", "!=", "&", "|", "^", "<<", ">>"}


def is_null_constant(c: ci.Cursor) -> bool:
    """``NULL``, ``0`` or ``(void *)0`` used as a pointer."""
    s = c
    while True:
        s = cs.strip_parens(s)
        if s.kind in (K.UNEXPOSED_EXPR, K.CSTYLE_CAST_EXPR):
            kids = [k for k in cs.children(s) if k.kind.is_expression()]
            if len(kids) != 1:
                return False
            s = kids[0]
            continue
        break
    if not tm.is_int(s.type):
        return False
    return cs.evaluate(s) == 0


def is_simple(c: ci.Cursor) -> bool:
    """Cheap, side-effect free and trap free: safe to evaluate unconditionally."""
    for n in cs.walk(c):
        k = n.kind
        if k in (K.INTEGER_LITERAL, K.FLOATING_LITERAL, K.CHARACTER_LITERAL, K.PAREN_EXPR,
                 K.UNEXPOSED_EXPR, K.CSTYLE_CAST_EXPR, K.CXX_UNARY_EXPR, K.TYPE_REF):
            continue
        if k == K.DECL_REF_EXPR:
            decl = n.referenced
            if decl is None or decl.kind not in (K.VAR_DECL, K.PARM_DECL, K.ENUM_CONSTANT_DECL):
                return False
            if decl.kind != K.ENUM_CONSTANT_DECL and (tm.is_array(decl.type) or not is_local_decl(decl)):
                return False
            continue
        if k == K.BINARY_OPERATOR and cs.binary_operator(n) in SIMPLE_BINARY:
            continue
        if k == K.UNARY_OPERATOR and cs.unary_operator(n) in ("-", "+", "!", "~"):
            continue
        return False
    return True


def flatten_init(init: ci.Cursor, shape: list[int], prefix: tuple[int, ...],
                  out: list[tuple[tuple[int, ...], ci.Cursor]]) -> None:
    """Positions of the elements of a (possibly nested) brace initialiser.  Flat lists for
    multi-dimensional arrays fill in row-major order, as in C."""
    kids = [k for k in cs.children(init) if k.kind.is_expression()]
    depth = len(prefix)
    if depth == len(shape) - 1 or all(k.kind != K.INIT_LIST_EXPR for k in kids):
        # Flat list: row-major positions in the remaining dimensions.
        rest = shape[depth:]
        for n, k in enumerate(kids):
            if k.kind == K.INIT_LIST_EXPR:
                raise cs.unsupported(k, "mixed nested initialiser")
            idx, rem = [], n
            for d in reversed(rest):
                idx.append(rem % d)
                rem //= d
            out.append((prefix + tuple(reversed(idx)), k))
        return
    for n, k in enumerate(kids):
        if k.kind != K.INIT_LIST_EXPR:
            raise cs.unsupported(k, "mixed nested initialiser")
        flatten_init(k, shape, prefix + (n,), out)


def parameter_types(cursor: ci.Cursor) -> list[tuple[ci.Cursor, ci.Type]]:
    """(PARM_DECL, adjusted type) of a function: an array parameter is a pointer (libclang
    reports the declared array type on the PARM_DECL)."""
    params = [c for c in cursor.get_children() if c.kind == K.PARM_DECL]
    ftype = tm.canon(cursor.type)
    if ftype.kind == ci.TypeKind.FUNCTIONPROTO:
        adjusted = list(ftype.argument_types())
        if len(adjusted) == len(params):
            return list(zip(params, adjusted))
    return [(p, p.type) for p in params]
