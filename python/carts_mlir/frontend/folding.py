"""Which C expressions the front end folds to a constant.

A C constant expression (``DIM / N_HEADS``, ``1.0f / 997.0f``, ``sizeof(T) * 4``) is
emitted as the one constant clang's evaluator gives, in the expression's own type, rather
than as the operations that compute it.  Deciding whether a tree is constant is a walk
over the whole tree; ``ConstantExpressions`` remembers the verdicts so that asking for
every node of a long chain stays linear.
"""

from __future__ import annotations

import clang.cindex as ci

from . import clang_support as cs
from .cursor_queries import SIMPLE_BINARY
from .typemap import scalar_of

K = ci.CursorKind
#: The expressions worth folding: a literal alone is already a constant.
FOLDABLE_ROOTS = {K.BINARY_OPERATOR, K.UNARY_OPERATOR, K.PAREN_EXPR, K.CSTYLE_CAST_EXPR,
                  K.CONDITIONAL_OPERATOR}


class ConstantExpressions:
    """The constant-expression verdicts of one function's expressions."""

    def __init__(self) -> None:
        self._roots: dict[tuple, bool] = {}
        self._subtrees: dict[tuple, bool] = {}

    def foldable(self, c: ci.Cursor) -> bool:
        """Whether ``c`` is an operator tree over constants, to emit as its value."""
        if c.kind not in FOLDABLE_ROOTS:
            return False
        key = cs.node_key(c)
        hit = self._roots.get(key)
        if hit is None:
            hit = constant_tree(c, self._subtrees)
            self._roots[key] = hit
        return hit


def constant_tree(c: ci.Cursor, subtrees: dict[tuple, bool]) -> bool:
    """Only literals, sizeof, enum constants, casts and non-assigning operators.

    ``subtrees`` remembers the verdict of every subtree already looked at, so asking again
    for each node of a long chain (``a + b + c + ...``, left-deep) costs its own node, not
    its whole subtree each time."""
    if scalar_of(c.type) is None:
        return False
    stack: list[tuple[ci.Cursor, tuple, bool]] = [(c, cs.node_key(c), False)]
    while stack:
        node, key, expanded = stack.pop()
        if expanded:
            subtrees[key] = True  # every child was constant
            continue
        known = subtrees.get(key)
        if known is True:
            continue
        if known is False or not _constant_node(node):
            subtrees[key] = False
            for _, ancestor, open_ in stack:  # the nodes whose walk is in progress hold it
                if open_:
                    subtrees[ancestor] = False
            return False
        stack.append((node, key, True))
        stack.extend((child, cs.node_key(child), False)
                     for child in reversed(cs.children(node)))
    return True


def _constant_node(n: ci.Cursor) -> bool:
    k = n.kind
    if k in (K.INTEGER_LITERAL, K.FLOATING_LITERAL, K.CHARACTER_LITERAL, K.PAREN_EXPR,
             K.CXX_UNARY_EXPR, K.TYPE_REF, K.CONDITIONAL_OPERATOR):
        return True
    if k in (K.UNEXPOSED_EXPR, K.CSTYLE_CAST_EXPR):
        return scalar_of(n.type) is not None
    if k == K.DECL_REF_EXPR and n.referenced is not None and \
            n.referenced.kind == K.ENUM_CONSTANT_DECL:
        return True
    if k == K.BINARY_OPERATOR and cs.binary_operator(n) in SIMPLE_BINARY | {"/", "%", "&&", "||"}:
        return True
    return k == K.UNARY_OPERATOR and cs.unary_operator(n) in ("-", "+", "!", "~")
