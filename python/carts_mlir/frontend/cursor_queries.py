"""Questions about C cursors that need no function context: what a name refers to, whether
a declaration is local, whether an expression is cheap and trap free or a null pointer, the
positions of a brace initialiser, a function's parameter types.

They are pure functions of the cursor, asked by every emitter as well as by the
per-function analysis (``analysis``) and the loop recogniser (``canonical_loops``); keeping
them apart from those lets each import them without importing the other.
"""

from __future__ import annotations

import clang.cindex as ci

from . import clang_support as cs
from . import typemap as tm

K = ci.CursorKind

LOOP_KINDS = (K.FOR_STMT, K.WHILE_STMT, K.DO_STMT)
#: Operators that write their left operand.
ASSIGN_OPS = {"=", "+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "|=", "^="}


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
                  out: list[tuple[tuple[int, ...], ci.Cursor]],
                  record: ci.Type | None = None) -> None:
    """Positions of the elements of a (possibly nested) brace initialiser.  Flat lists for
    multi-dimensional arrays fill in row-major order, as in C; a designator (``[3] = v``,
    ``.y = v``, ``.w[1] = v``) moves the position, later values go on from it.
    ``record``: the struct the last dimension keeps (``tm.struct_layout``), whose array
    fields may have lists of their own."""
    kids = [k for k in cs.children(init) if k.kind.is_expression()]
    depth = len(prefix)
    if record is not None and depth == len(shape) - 1:
        _flatten_struct(kids, record, prefix, out)
        return
    flat = depth == len(shape) - 1 or all(
        (_designation(k) or (None, k))[1].kind != K.INIT_LIST_EXPR for k in kids)
    rest = shape[depth:]
    n = 0
    for k in kids:
        designated = _designation(k)
        if designated is not None:
            designators, k = designated
            index = cs.evaluate(designators[0])
            if len(designators) != 1 or not isinstance(index, int) or (flat and len(rest) != 1):
                raise cs.unsupported(designators[0], "designated initialiser of this form")
            n = index
        if flat:  # row-major positions in the remaining dimensions
            if k.kind == K.INIT_LIST_EXPR:
                raise cs.unsupported(k, "mixed nested initialiser")
            out.append((prefix + _row_major(n, rest), k))
        else:
            if k.kind != K.INIT_LIST_EXPR:
                raise cs.unsupported(k, "mixed nested initialiser")
            flatten_init(k, shape, prefix + (n,), out, record)
        n += 1


def _designation(k: ci.Cursor) -> tuple[list[ci.Cursor], ci.Cursor] | None:
    """(designators, value) of ``[i] = v`` / ``.f = v`` / ``.f[i] = v`` in a brace list
    (libclang shows it as an unexposed expression of type void); None for a plain value."""
    if k.kind != K.UNEXPOSED_EXPR or k.type.kind != ci.TypeKind.VOID:
        return None
    kids = cs.children(k)
    return (kids[:-1], kids[-1]) if len(kids) >= 2 else None


def _row_major(n: int, dims) -> tuple[int, ...]:
    idx = []
    for d in reversed(dims):
        idx.append(n % d)
        n //= d
    return tuple(reversed(idx))


def _flatten_struct(kids: list[ci.Cursor], record: ci.Type, prefix: tuple[int, ...],
                    out: list[tuple[tuple[int, ...], ci.Cursor]]) -> None:
    """The slots of a struct's brace list: fields in order, or from a designator
    (``.y = 1``, ``.w[2] = 0.5``) on; an array field from a list of its own or, braces
    elided, from as many of the next values as it has elements."""
    layout = tm.struct_layout(record)
    names = [f.field.spelling for f in layout]
    field, at = 0, 0  # the field the next value goes to, and the element of it
    for k in kids:
        sub: tuple[int, ...] = ()
        designated = _designation(k)
        if designated is not None:
            designators, k = designated
            first = designators[0]
            if first.kind != K.MEMBER_REF or first.spelling not in names:
                raise cs.unsupported(first, "designated initialiser of this form")
            field = names.index(first.spelling)
            sub = tuple(cs.evaluate(d) for d in designators[1:])
            if len(sub) > len(layout[field].dims) or not all(isinstance(i, int) for i in sub):
                raise cs.unsupported(first, "designated initialiser of this form")
            at = 0
            for d, i in zip(layout[field].dims, sub + (0,) * (len(layout[field].dims) - len(sub))):
                at = at * d + i
        if field == len(layout):
            raise cs.unsupported(k, "initialiser with more values than its struct has fields")
        f = layout[field]
        if k.kind == K.INIT_LIST_EXPR:
            dims = list(f.dims[len(sub):])
            inner: list = []
            if f.record is not None:  # a struct field's own list: its slots
                _flatten_struct([e for e in cs.children(k) if e.kind.is_expression()],
                                f.record, (), inner)
                dims = [f.count]
            elif dims:
                flatten_init(k, dims, (), inner)
            else:  # `{ 5 }` for a scalar
                inner = [((), e) for e in cs.children(k) if e.kind.is_expression()][:1]
            for idx, e in inner:
                flat = 0
                for d, i in zip(dims, idx):
                    flat = flat * d + i
                out.append((prefix + (f.offset + at + flat,), e))
            field, at = field + 1, 0
            continue
        out.append((prefix + (f.offset + at,), k))
        at += 1
        if at == f.count:
            field, at = field + 1, 0


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
