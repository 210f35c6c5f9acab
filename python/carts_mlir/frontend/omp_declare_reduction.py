"""``#pragma omp declare reduction`` whose combiner and initializer are those of a built-in
reduction operator, read as that operator.

``declare reduction(mymax : int, long : omp_out = omp_out > omp_in ? omp_out : omp_in)
initializer(omp_priv = INT_MIN)`` combines as ``max`` does, from max's identity; a
``reduction(mymax: x)`` clause is then ``reduction(max: x)``. The combiner forms read are
``omp_out op= omp_in``, ``omp_out = omp_out op omp_in`` (either order), ``fmax``/``fmin``/
``max``/``min`` of the two, and the ``?:`` that picks the larger or the smaller. The
initializer (0 without one, as for a variable of static storage duration) must be the
operator's identity: any other start would count once per thread. Anything else is refused
at the pragma, naming what is supported.
"""

from __future__ import annotations

import ast
import math
import re

from .pragmas import Pragma, expand_macros

#: (``omp_out -= omp_in`` is no ``-`` reduction: that one combines partials with ``+``.)
_OPS = {"+": "+", "*": "*", "&": "&", "|": "|", "^": "^", "&&": "&&", "||": "||"}
_COMMUTATIVE = {"+", "*", "&", "|", "^", "&&", "||"}
_IDENTITY = {"+": 0, "*": 1, "&": -1, "|": 0, "^": 0, "&&": 1, "||": 0}
_ORDER = {">": "max", ">=": "max", "<": "min", "<=": "min"}
#: The <limits.h>/<float.h>/<math.h> names an initializer uses, in the compiler's own
#: macros (those of system headers are not among the program's).
_LIMITS = {"INT_MAX": ["__INT_MAX__"], "INT_MIN": ["(", "-", "__INT_MAX__", "-", "1", ")"],
           "LONG_MAX": ["__LONG_MAX__"], "LONG_MIN": ["(", "-", "__LONG_MAX__", "-", "1", ")"],
           "DBL_MAX": ["__DBL_MAX__"], "FLT_MAX": ["__FLT_MAX__"],
           "HUGE_VAL": ["__builtin_huge_val", "(", ")"], "INFINITY": ["__builtin_inff", "(", ")"]}


def declared_operator(p: Pragma, macros: dict[str, list[str]]) -> tuple[str, str]:
    """(the reduction's name, the built-in operator it is) of a ``declare reduction``."""
    clause = p.clause("reduction")
    text = ", ".join(clause.args)  # `types : combiner`, split at commas by the parser
    types, colon, combiner = text.partition(":")
    name = (clause.modifier or "").strip()
    if not colon or not re.fullmatch(r"[A-Za-z_]\w*", name):
        raise p.error("omp declare reduction needs 'name : types : combiner'")
    op = _combiner(re.sub(r"\s+", " ", combiner.strip()))
    if op is None:
        raise p.error(f"unsupported C construct: omp declare reduction '{name}' with combiner "
                      f"'{combiner.strip()}' (a combiner of a built-in operator is supported: "
                      "'omp_out += omp_in', 'omp_out = omp_out * omp_in', "
                      "'omp_out = fmax(omp_out, omp_in)', 'omp_out = omp_out > omp_in ? omp_out : "
                      "omp_in', ...)")
    init = p.clause("initializer")
    start = _initial_value(init.args, macros) if init is not None else 0
    if not _is_identity(op, start, types):
        raise p.error(f"unsupported C construct: omp declare reduction '{name}' whose "
                      f"initializer is not the identity of its combiner's operator '{op}'")
    return name, op


def _combiner(text: str) -> str | None:
    o, i = r"omp_out", r"omp_in"
    m = re.fullmatch(rf"{o} ?(\+|\*|&|\||\^)= ?{i}", text)
    if m:
        return _OPS[m.group(1)]
    m = re.fullmatch(rf"{o} ?= ?\(?(\w+) ?(\+|\*|&&|\|\||&|\||\^) ?(\w+)\)?", text)
    if m and {m.group(1), m.group(3)} == {o, i} and \
            (m.group(1) == o or m.group(2) in _COMMUTATIVE):
        return _OPS[m.group(2)]
    m = re.fullmatch(rf"{o} ?= ?(fmax|fmin|fmaxf|fminf|max|min) ?\( ?(\w+) ?, ?(\w+) ?\)", text)
    if m and {m.group(2), m.group(3)} == {o, i}:
        return "max" if "max" in m.group(1) else "min"
    m = re.fullmatch(rf"{o} ?= ?\(?(\w+) ?(>=|<=|>|<) ?(\w+)\)? ?\? ?(\w+) ?: ?(\w+)", text)
    if m and {m.group(1), m.group(3)} == {o, i} and {m.group(4), m.group(5)} == {o, i}:
        larger_first = _ORDER[m.group(2)] == "max"
        picks_left = m.group(4) == m.group(1)
        return "max" if larger_first == picks_left else "min"
    return None


def _initial_value(args: tuple[str, ...], macros: dict[str, list[str]]) -> float | None:
    """The constant of ``initializer(omp_priv = c)`` / ``initializer(omp_priv(c))``."""
    text = ", ".join(args).strip()
    m = re.fullmatch(r"omp_priv\s*=\s*(.+)", text) or re.fullmatch(r"omp_priv\s*\((.+)\)", text)
    if not m:
        return None
    expanded = expand_macros(m.group(1), {**_LIMITS, **macros})
    if re.search(r"__builtin_(inf|huge_val)", expanded):
        return -math.inf if expanded.lstrip("( ").startswith("-") else math.inf
    expanded = re.sub(r"(\d)\s*([eE])\s*([+-])\s*(\d)", r"\1\2\3\4", expanded)  # `1e + 308`
    cleaned = re.sub(r"(?<=[\d.])[uUlLfF]+\b", "", expanded)
    cleaned = re.sub(r"\(\s*(?:(?:unsigned|signed|long|short|int|char|float|double)\s*)+\)", "",
                     cleaned)  # `((double)1.79e+308L)` as float.h writes DBL_MAX
    try:
        return _number(ast.parse(cleaned, mode="eval").body)
    except (SyntaxError, ValueError):
        return None


def _number(node) -> float:
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        v = _number(node.operand)
        return -v if isinstance(node.op, ast.USub) else v
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub, ast.Mult)):
        a, b = _number(node.left), _number(node.right)
        return a + b if isinstance(node.op, ast.Add) else a - b if isinstance(node.op, ast.Sub) \
            else a * b
    raise ValueError


def _is_identity(op: str, start: float | None, types: str) -> bool:
    if start is None:
        return False
    if op in _IDENTITY:
        return start == _IDENTITY[op]
    lowest = {"char": -2**7, "short": -2**15, "int": -2**31, "long": -2**63}
    floats = any(t in types for t in ("float", "double"))
    if floats:  # -inf, or the most negative finite value of the type
        extreme = (-math.inf, -1.7976931348623157e308, -3.4028234663852886e38)
        return start in extreme if op == "max" else -start in extreme
    kinds = [t for t in lowest if re.search(rf"\b{t}\b", types)]
    if not kinds or "unsigned" in types:
        return False
    want = {lowest[k] for k in kinds} if op == "max" else {-lowest[k] - 1 for k in kinds}
    return len(want) == 1 and start in want
