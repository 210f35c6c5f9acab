"""OpenMP clause arguments read as program values.

A clause argument is text (the pragma is not part of clang's AST): a variable name looked
up in the scopes of the construct, an integer constant with the program's macros
expanded, or a small integer expression (``if``, ``final``, ``priority``).  Every
construct and data-sharing rule reads its clauses through this one reader, so the name
lookup and the expression grammar are defined once.
"""

from __future__ import annotations

import ast
import re
from typing import TYPE_CHECKING

from mlir import ir
from mlir.dialects import arith, func, memref

from .cursor_queries import decl_key
from .pragmas import Pragma, constant_value, expand_macros
from .state import Var
from .typemap import Scalar, scalar_of

if TYPE_CHECKING:
    from .function import FunctionEmitter

#: The OpenMP routines a clause expression may call (no arguments, an ``int`` result).
CLAUSE_ROUTINES = frozenset({
    "omp_get_thread_num", "omp_get_num_threads", "omp_get_max_threads", "omp_get_num_procs",
    "omp_get_level", "omp_get_active_level", "omp_get_thread_limit", "omp_get_team_num",
    "omp_get_num_teams", "omp_get_max_task_priority", "omp_in_parallel", "omp_get_dynamic",
    "omp_get_max_active_levels"})


class ClauseReader:
    """Turns clause arguments into variables and values of the function being emitted."""

    def __init__(self, fn: "FunctionEmitter") -> None:
        self.fn = fn

    def variable(self, p: Pragma, name: str) -> tuple[tuple, Var]:
        """The variable ``name`` as (key, Var); a global is seen through its memref."""
        fn = self.fn
        key = fn.lookup_name(name)
        if key is None:
            decl = fn.module.global_decl(name)
            if decl is None:
                raise p.error(f"unknown variable '{name}' in OpenMP clause")
            return decl_key(decl), fn.lookup(decl, None)
        var = fn.vars.get(key)
        if var is None:
            raise p.error(f"unknown variable '{name}' in OpenMP clause")
        if var.kind == "global":
            var = Var("mem", var.ctype, fn.module.global_memref(var.value, None))
        return key, var

    def constant(self, p: Pragma, text: str) -> int:
        """An argument that must be an integer constant (``collapse(2)``), macros expanded."""
        value = constant_value(expand_macros(text, self.fn.module.macros))
        if value is None:
            raise p.error(f"'{text}' is not an integer constant")
        return value

    def value(self, p: Pragma, text: str, mtype: ir.Type) -> ir.Value:
        """A clause argument: an integer constant (macros expanded) or a variable."""
        fn = self.fn
        value = constant_value(expand_macros(text, fn.module.macros))
        if value is not None:
            return fn.const_int(value, mtype)
        name = text.strip()
        if not re.fullmatch(r"[A-Za-z_]\w*", name):  # an expression (`omp_get_num_threads() - 1`)
            i64 = Scalar("int", 64)
            v = self.expression(p, text)
            if isinstance(mtype, ir.IndexType):
                return fn.to_index(v, i64)
            return fn.convert(v, i64, Scalar("int", ir.IntegerType(mtype).width))
        _, var = self.variable(p, name)
        s = scalar_of(var.ctype)
        if s is None or s.is_float:
            raise p.error(f"clause argument '{name}' must be an integer")
        v = var.value if var.kind == "ssa" else fn.iv_value(var) if var.kind == "iv" else memref.LoadOp(var.value, []).result
        if isinstance(mtype, ir.IndexType):
            return fn.to_index(v, s)
        return fn.convert(v, s, Scalar("int", ir.IntegerType(mtype).width))

    def condition(self, p: Pragma, text: str) -> ir.Value:
        """An ``if``/``final`` clause argument as an ``i1``."""
        value = self.expression(p, text)
        zero = self.fn.const_int(0, self.fn.types.i(64))
        return arith.CmpIOp(arith.CmpIPredicate.ne, value, zero).result

    def expression(self, p: Pragma, text: str) -> ir.Value:
        """An integer clause expression as an ``i64``: literals, macros, integer variables
        and the OpenMP routines of :data:`CLAUSE_ROUTINES` combined with ``+ - * / %``,
        comparisons, ``&& || !`` and parentheses."""
        fn = self.fn
        i64 = Scalar("int", 64)
        expanded = text
        for _ in range(20):  # object-like macros, in place (the operators stay as written)
            done = re.sub(r"[A-Za-z_]\w*", lambda m: "(" + " ".join(fn.module.macros[m.group(0)]) + ")"
                          if m.group(0) in fn.module.macros else m.group(0), expanded)
            if done == expanded:
                break
            expanded = done
        py = re.sub(r"!(?!=)", " not ", expanded.replace("&&", " and ").replace("||", " or "))
        py = re.sub(r"(?<=\d)[uUlL]+\b", "", py)
        try:
            tree = ast.parse(py.strip(), mode="eval").body
        except SyntaxError:
            raise p.error(f"unsupported C construct: clause expression '{text}'") from None

        def bool_of(v: ir.Value) -> ir.Value:
            return arith.CmpIOp(arith.CmpIPredicate.ne, v, fn.const_int(0, fn.types.i(64))).result

        def int_of(b: ir.Value) -> ir.Value:
            return arith.ExtUIOp(fn.types.i(64), b).result

        def ev(node) -> ir.Value:
            if isinstance(node, ast.Constant) and isinstance(node.value, int):
                return fn.const_int(node.value, fn.types.i(64))
            if isinstance(node, ast.Name):
                _, var = self.variable(p, node.id)
                sc = scalar_of(var.ctype)
                if sc is None or sc.is_float:
                    raise p.error(f"clause variable '{node.id}' must be an integer")
                v = var.value if var.kind == "ssa" else fn.iv_value(var) if var.kind == "iv" \
                    else memref.LoadOp(var.value, []).result
                return fn.convert(v, sc, i64)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                    node.func.id in CLAUSE_ROUTINES and not node.args and not node.keywords:
                i32 = fn.types.i(32)
                fn.module.declare_function(node.func.id, [], [i32], None)
                call = func.CallOp([i32], ir.FlatSymbolRefAttr.get(node.func.id), []).result
                return arith.ExtSIOp(fn.types.i(64), call).result
            if isinstance(node, ast.UnaryOp):
                v = ev(node.operand)
                if isinstance(node.op, ast.USub):
                    return arith.SubIOp(fn.const_int(0, fn.types.i(64)), v).result
                if isinstance(node.op, ast.UAdd):
                    return v
                if isinstance(node.op, ast.Not):
                    return int_of(arith.XOrIOp(bool_of(v), fn.const_int(1, ir.IntegerType.get_signless(1))).result)
            if isinstance(node, ast.BinOp):
                ops = {ast.Add: arith.AddIOp, ast.Sub: arith.SubIOp, ast.Mult: arith.MulIOp,
                       ast.Div: arith.DivSIOp, ast.FloorDiv: arith.DivSIOp, ast.Mod: arith.RemSIOp}
                if type(node.op) in ops:
                    return ops[type(node.op)](ev(node.left), ev(node.right)).result
            if isinstance(node, ast.BoolOp):
                values = [bool_of(ev(v)) for v in node.values]
                combine = arith.AndIOp if isinstance(node.op, ast.And) else arith.OrIOp
                out = values[0]
                for v in values[1:]:
                    out = combine(out, v).result
                return int_of(out)
            if isinstance(node, ast.Compare) and len(node.ops) == 1:
                preds = {ast.Lt: "slt", ast.LtE: "sle", ast.Gt: "sgt", ast.GtE: "sge",
                         ast.Eq: "eq", ast.NotEq: "ne"}
                if type(node.ops[0]) in preds:
                    pred = getattr(arith.CmpIPredicate, preds[type(node.ops[0])])
                    return int_of(arith.CmpIOp(pred, ev(node.left), ev(node.comparators[0])).result)
            raise p.error(f"unsupported C construct: clause expression '{text}'")

        return ev(tree)
