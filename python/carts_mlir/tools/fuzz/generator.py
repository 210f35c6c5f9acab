"""Random C + OpenMP programs whose output is fixed by the C standard and the OpenMP
specification alone, whatever the thread count or schedule.

``generate(seed, features)`` returns the text of one program. The same seed and feature set
give the same text. What keeps the output well defined:

* every value stored in an array or a scalar is an integer in (-VB, VB), doubles and floats
  included (``wrap`` reduces each stored expression modulo VB); every intermediate value of
  an expression is an integer of magnitude at most ``LIMIT``, so float and double arithmetic
  is exact, sums are associative and no integer overflows;
* an iteration of a work-sharing loop writes only its own element (``T[i]``, ``T[i][j]``)
  and reads other arrays anywhere, or its own element; arrays another construct of the same
  region writes at the same time are not read;
* reductions, ``critical`` and ``atomic`` combine with associative, commutative operations
  on exact values (+, *, min, max, ^, |, & on integers or integer-valued floating point);
* tasks name every array and scalar they share through ``depend`` and run inside
  ``single``/``master``; ``lastprivate`` variables are assigned in every iteration;
* doubles are printed after ``+ 0.0`` (no negative zero) or as ``long``.

The program prints a checksum line per array each phase writes, the reductions' values and
``fails`` (reductions also checked against a sequential loop in the program), and ends with
``ok fuzz <seed>`` (or ``FAIL fuzz``, exit 1).

Programs are laid out for the reducer: one statement per line, every block braced with its
``{`` at the end of the line that opens it and its ``}`` on a line of its own.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

#: Every stored value v satisfies -VB < v < VB.
VB = 1009
#: No intermediate value is larger in magnitude (floats are exact up to 2**24).
LIMIT = 4_000_000

STORAGE_FEATURES = ("local1d", "local2d", "global1d", "global2d", "gscalar", "malloc1d", "rows",
                    "flat")
TYPE_FEATURES = ("int", "long", "float", "double")
CONSTRUCT_FEATURES = (
    "parfor", "schedule", "collapse", "reduction", "prodred", "minmax", "bitred", "private",
    "firstprivate", "lastprivate", "region", "single", "master", "barrier", "nowait",
    "partial", "critical", "atomic", "tasks", "blocktasks", "taskclauses", "taskloop",
    "sections", "helper", "hoststore", "timeloop", "regionloop", "regionred", "globalred",
    "pingpong", "ordered", "ifclause", "exit", "chain", "capture", "sectionred", "rectasks")
BODY_FEATURES = ("libm", "abs", "stencil", "nested", "ifelse", "intops", "calls", "arraycalls",
                 "privarray", "whileloops", "loopforms", "large", "runtimesize", "twotargets",
                 "rowptr")
ALL_FEATURES = STORAGE_FEATURES + TYPE_FEATURES + CONSTRUCT_FEATURES + BODY_FEATURES

#: Integer kinds, then floating kinds, in the order of C's usual arithmetic conversions.
RANK = {"int": 0, "long": 1, "float": 2, "double": 3}
PRINT = {"int": "%d", "long": "%ld"}


def parse_features(spec: str | None, without: str | None = None) -> frozenset[str]:
    """A feature set from ``"all"`` or a comma list, less the comma list ``without``."""
    chosen = set(ALL_FEATURES) if spec in (None, "", "all") else {
        f.strip() for f in spec.split(",") if f.strip()}
    removed = {f.strip() for f in (without or "").split(",") if f.strip()}
    unknown = sorted((chosen | removed) - set(ALL_FEATURES))
    if unknown:
        raise ValueError(f"unknown feature(s): {', '.join(unknown)} "
                         f"(known: {', '.join(ALL_FEATURES)})")
    chosen -= removed
    if not chosen & set(TYPE_FEATURES):
        chosen.add("double")
    if not chosen & {"local1d", "global1d", "malloc1d"}:
        chosen.add("malloc1d")
    return frozenset(chosen)


@dataclass
class Arr:
    name: str
    ctype: str
    storage: str            # local, global, malloc, rows, param
    dims: tuple[str, ...]   # extent macros (or parameter names)

    @property
    def rank(self) -> int:
        return len(self.dims)

    def at(self, *idx: str) -> str:
        if self.storage == "flat":  # a 2-D array in one malloc'd block, row-major
            i, j = (x if re.fullmatch(r"\w+", x) else f"({x})" for x in idx)
            return f"{self.name}[{i} * {self.dims[1]} + {j}]"
        return self.name + "".join(f"[{i}]" for i in idx)


@dataclass
class Scalar:
    name: str
    ctype: str
    glob: bool = False


@dataclass
class Ex:
    text: str
    kind: str
    bound: int

    @property
    def floating(self) -> bool:
        return RANK[self.kind] >= 2


@dataclass
class Dim:
    var: str
    extent: str          # macro or parameter name
    lo1: bool = False    # the loop starts at 1 or later
    hi1: bool = False    # the loop stops at extent - 2 or earlier


@dataclass
class Ctx:
    """What an expression in a loop body may read."""

    dims: list[Dim]
    target: Arr | None
    readable: list[Arr]
    scalars: list[Scalar]
    locals: list[Ex] = field(default_factory=list)


def kind_of(a: str, b: str) -> str:
    return a if RANK[a] >= RANK[b] else b


class Out:
    def __init__(self, indent: int = 0):
        self.lines: list[str] = []
        self.ind = indent

    def line(self, text: str) -> None:
        self.lines.append("  " * self.ind + text)

    def pragma(self, text: str) -> None:
        self.lines.append("#pragma omp " + text)

    def open(self, text: str) -> None:
        self.line(text + " {")
        self.ind += 1

    def brace(self) -> None:
        """A block of its own (after a pragma)."""
        self.line("{")
        self.ind += 1

    def close(self) -> None:
        self.ind -= 1
        self.line("}")


class Generator:
    def __init__(self, seed: int, features: frozenset[str]):
        self.seed = seed
        self.r = random.Random(seed)
        self.f = features
        self.sizes: dict[str, int] = {}
        self.arrays: list[Arr] = []
        self.scalars: list[Scalar] = []
        self.helpers: list[str] = []
        self.counter = 0
        self.decl = Out(1)
        self.body = Out(1)
        self.fails_checks = 0
        self.tags = 0

    # ------------------------------------------------------------------ helpers

    def has(self, *names: str) -> bool:
        return all(n in self.f for n in names)

    def chance(self, p: float, *names: str) -> bool:
        return self.has(*names) and self.r.random() < p

    def fresh(self, prefix: str) -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"

    def types(self) -> list[str]:
        return [t for t in TYPE_FEATURES if t in self.f]

    def value(self, name: str) -> int:
        return self.sizes[name] if name in self.sizes else self.sizes_extra[name]

    def const(self, kind: str, lo: int = -9, hi: int = 19) -> Ex:
        c = self.r.randint(lo, hi)
        if kind == "double":
            return Ex(f"{c}.0" if c >= 0 else f"({c}.0)", "double", abs(c))
        if kind == "float":
            return Ex(f"{c}.0f" if c >= 0 else f"({c}.0f)", "float", abs(c))
        if kind == "long":
            return Ex(f"{c}L" if c >= 0 else f"({c}L)", "long", abs(c))
        return Ex(str(c) if c >= 0 else f"({c})", "int", abs(c))

    # ------------------------------------------------------------------ declarations

    def make_sizes(self) -> None:
        r = self.r
        self.sizes["N"] = r.choice([r.randint(8, 40), r.randint(40, 160)]
                                   + ([r.randint(160, 1200)] if self.has("large") else []))
        self.sizes["M"] = r.randint(5, 60)
        self.sizes["R"] = r.randint(2, 12)
        self.sizes["C"] = r.randint(2, 14)

    def make_arrays(self) -> None:
        r = self.r
        storages1 = [s for s, f in (("local", "local1d"), ("global", "global1d"),
                                    ("malloc", "malloc1d")) if f in self.f]
        storages2 = [s for s, f in (("local", "local2d"), ("global", "global2d"),
                                    ("rows", "rows"), ("flat", "flat")) if f in self.f]
        n1 = r.randint(3, 6)
        n2 = r.randint(1, 3) if storages2 else 0
        for k in range(n1):
            storage = r.choice(storages1)
            extent = "N" if k < 2 or r.random() < 0.6 else "M"
            self.arrays.append(Arr(f"a{k}", r.choice(self.types()), storage, (extent,)))
        for k in range(n2):
            self.arrays.append(Arr(f"b{k}", r.choice(self.types()), r.choice(storages2),
                                   ("R", "C")))
        for k in range(r.randint(1, 3)):
            glob = self.chance(0.4, "gscalar")
            self.scalars.append(Scalar(f"{'g' if glob else ''}s{k}", r.choice(self.types()), glob))

    def declare(self) -> list[str]:
        """File-scope lines: includes, sizes, globals, helpers."""
        head = ["#include <math.h>", "#include <stdio.h>", "#include <stdlib.h>", ""]
        head += [f"#define {name} {value}" for name, value in self.sizes.items()]
        head.append("")
        for a in self.arrays:
            if a.storage == "global":
                head.append(f"static {a.ctype} {a.name}{''.join(f'[{d}]' for d in a.dims)};")
        for s in self.scalars:
            if s.glob:
                head.append(f"static {s.ctype} {s.name} = {self.r.randint(-20, 40)};")
        return head

    def declare_main(self) -> None:
        d = self.decl
        d.line("long cs = 0;")
        d.line("int fails = 0;")
        for s in self.scalars:
            if not s.glob:
                d.line(f"{s.ctype} {s.name} = {self.r.randint(-20, 40)};")
        for a in self.arrays:
            if a.storage == "local":
                d.line(f"{a.ctype} {a.name}{''.join(f'[{x}]' for x in a.dims)};")
            elif a.storage == "malloc":
                d.line(f"{a.ctype} *{a.name} = ({a.ctype} *)malloc({a.dims[0]} * sizeof({a.ctype}));")
            elif a.storage == "flat":
                d.line(f"{a.ctype} *{a.name} = ({a.ctype} *)malloc(R * C * sizeof({a.ctype}));")
            elif a.storage == "rows":
                t = a.ctype
                d.line(f"{t} **{a.name} = ({t} **)malloc(R * sizeof({t} *));")
                d.open("for (int i = 0; i < R; i++)")
                d.line(f"{a.name}[i] = ({t} *)malloc(C * sizeof({t}));")
                d.close()
        # every array starts with known values
        for k, a in enumerate(self.arrays):
            mul, add, mod = self.r.randint(1, 13), self.r.randint(0, 30), self.r.randint(5, 60)
            if a.rank == 1:
                d.open(f"for (int i = 0; i < {a.dims[0]}; i++)")
                d.line(f"{a.at('i')} = ({a.ctype})((i * {mul} + {add}) % {mod} - {mod // 2});")
                d.close()
            else:
                d.open("for (int i = 0; i < R; i++)")
                d.open("for (int j = 0; j < C; j++)")
                d.line(f"{a.at('i', 'j')} = ({a.ctype})((i * {mul} + j * {k + 2} + {add}) "
                       f"% {mod} - {mod // 2});")
                d.close()
                d.close()

    # ------------------------------------------------------------------ expressions

    def wrap(self, e: Ex, ctype: str) -> str:
        """``e`` reduced into (-VB, VB) and converted to ``ctype``."""
        if not e.floating:
            body = f"({e.text}) % {VB}" if e.bound >= VB else e.text
            if RANK[ctype] >= 2 or RANK[e.kind] > RANK[ctype]:
                return f"({ctype})({body})"
            return body
        if e.bound < VB:
            body = e.text
        elif ctype == "float" and e.kind == "float" and self.r.random() < 0.5:
            return f"fmodf({e.text}, {VB}.0f)"
        else:
            body = f"fmod({e.text}, {VB}.0)"
        return body if ctype == "double" else f"({ctype})({body})"

    def read(self, a: Arr, ctx: Ctx) -> str:
        """An in-bounds read of ``a`` at an index built from the loop's variables."""
        r = self.r
        dims = ctx.dims
        c = r.randint(1, 5)
        if a.rank == 1:
            L = a.dims[0]
            if len(dims) == 1:
                d = dims[0]
                if d.extent == L:
                    opts = [f"{d.var}", f"{d.var}", f"{L} - 1 - {d.var}", f"({d.var} + {c}) % {L}"]
                    if d.lo1 and self.has("stencil"):
                        opts += [f"{d.var} - 1"] * 2
                    if d.hi1 and self.has("stencil"):
                        opts += [f"{d.var} + 1"] * 2
                    return a.at(r.choice(opts))
                return a.at(r.choice([f"{d.var} % {L}", f"({d.var} * {c} + 1) % {L}"]))
            if len(dims) == 2:
                i, j = dims[0].var, dims[1].var
                return a.at(r.choice([f"({i} * C + {j}) % {L}", f"{j} % {L}", f"({i} + {j}) % {L}"]))
            return a.at(f"{c} % {L}")
        if len(dims) == 2:
            i, j = dims[0].var, dims[1].var
            if dims[0].extent == "R" and dims[1].extent == "C":
                opts = [(i, j), (i, j), (i, f"C - 1 - {j}"), (f"({i} + 1) % R", j)]
                if dims[0].lo1 and self.has("stencil"):
                    opts.append((f"{i} - 1", j))
                if dims[1].hi1 and self.has("stencil"):
                    opts.append((i, f"{j} + 1"))
                return a.at(*r.choice(opts))
            return a.at(f"{i} % R", f"{j} % C")
        if len(dims) == 1:
            v = dims[0].var
            return a.at(f"{v} % R", f"({v} + {c}) % C")
        return a.at(f"{c} % R", f"{c} % C")

    def leaf(self, ctx: Ctx, kind_hint: str) -> Ex:
        r = self.r
        choices = ["const"] * 2 + ["index"] * 2
        if ctx.readable or ctx.target is not None:
            choices += ["array"] * 6
        if ctx.scalars:
            choices += ["scalar"] * 2
        if ctx.locals:
            choices += ["local"] * 3
        what = r.choice(choices)
        if what == "array":
            pool = list(ctx.readable) + ([ctx.target] * 2 if ctx.target is not None else [])
            a = r.choice(pool)
            if a is ctx.target:
                return Ex(a.at(*[d.var for d in ctx.dims]), a.ctype, VB)
            text = self.read(a, ctx)
            if a.rank == 1 and self.chance(0.15, "arraycalls"):
                name = f"rd_{a.ctype}"
                self.mixers_used.add(name)
                self.mixer_defs.setdefault(name, (
                    f"static {a.ctype} {name}({a.ctype} *p, int k)\n{{\n"
                    f"  return p[k] * 2 + 1;\n}}"))
                return Ex(f"{name}({a.name}, {text[len(a.name) + 1:-1]})", a.ctype, 2 * VB + 1)
            return Ex(text, a.ctype, VB)
        if what == "scalar":
            s = r.choice(ctx.scalars)
            return Ex(s.name, s.ctype, VB)
        if what == "local":
            return r.choice(ctx.locals)
        if what == "index" and ctx.dims:
            d = r.choice(ctx.dims)
            return Ex(d.var, "int", self.extent_value(d.extent))
        return self.const(kind_hint if r.random() < 0.5 else "int")

    def extent_value(self, extent: str) -> int:
        return self.value(extent)

    def expr(self, ctx: Ctx, depth: int = 2, kind_hint: str = "int") -> Ex:
        r = self.r
        if depth <= 0 or r.random() < 0.25:
            return self.leaf(ctx, kind_hint)
        a = self.expr(ctx, depth - 1, kind_hint)
        ops = ["add", "sub", "mul", "mulc", "tern"]
        if self.has("intops"):
            ops += ["mod", "div", "bit"]
        if self.has("libm"):
            ops += ["libm"] * 3
        if self.has("abs"):
            ops += ["abs"]
        if self.has("calls") and self.mixers:
            ops += ["call"]
        op = r.choice(ops)
        if op in ("add", "sub", "mul"):
            b = self.expr(ctx, depth - 1, kind_hint)
            kind = kind_of(a.kind, b.kind)
            if op == "mul" and a.bound * b.bound <= LIMIT:
                return Ex(f"({a.text} * {b.text})", kind, a.bound * b.bound)
            if a.bound + b.bound <= LIMIT:
                sign = "-" if op == "sub" else "+"
                return Ex(f"({a.text} {sign} {b.text})", kind, a.bound + b.bound)
            return a
        if op == "mulc":
            c = self.const(kind_hint, 2, 9)
            if a.bound * c.bound <= LIMIT:
                return Ex(f"({a.text} * {c.text})", kind_of(a.kind, c.kind), a.bound * c.bound)
            return a
        if op == "tern":
            b = self.expr(ctx, depth - 1, kind_hint)
            return Ex(f"({self.compare(ctx, kind_hint)} ? {a.text} : {b.text})", kind_of(a.kind, b.kind),
                      max(a.bound, b.bound))
        if op in ("mod", "div", "bit"):
            if a.floating:
                a = Ex(f"(long)({a.text})", "long", a.bound)
            if op == "mod":
                c = r.randint(2, 11)
                return Ex(f"({a.text} % {c})", a.kind, min(a.bound, c - 1))
            if op == "div":
                c = r.randint(2, 7)
                return Ex(f"({a.text} / {c})", a.kind, a.bound // c + 1)
            mask = r.choice([7, 15, 63, 255])
            form = r.choice(["&", "|", "^", "<<"])
            if form == "<<":
                return Ex(f"(({a.text} & {mask}) << {r.randint(1, 3)})", a.kind, mask * 8)
            return Ex(f"(({a.text} & {mask}) {form} {r.randint(0, 63)})", a.kind, max(mask, 63))
        if op == "abs":
            if a.floating:
                return Ex(f"fabs({a.text})", "double", a.bound)
            fn = "labs" if a.kind == "long" else "abs"
            return Ex(f"{fn}({a.text})", a.kind, a.bound)
        if op == "call":
            name, kind = r.choice(self.mixers)
            self.mixers_used.add(name)
            b = self.leaf(ctx, kind_hint)
            return Ex(f"{name}({a.text}, {b.text})", kind, VB)
        # libm on exact values
        f32 = a.kind == "float" and r.random() < 0.5
        sfx = "f" if f32 else ""
        kind = "float" if f32 else "double"
        choice = r.choice(["fabs", "fmin", "fmax", "floor", "ceil", "trunc", "round", "sqrt",
                           "fmod", "pow"])
        if choice in ("fmin", "fmax"):
            b = self.expr(ctx, depth - 1, kind_hint)
            return Ex(f"{choice}{sfx}({a.text}, {b.text})", kind, max(a.bound, b.bound))
        if choice in ("floor", "ceil", "trunc", "round"):
            half = "0.5f" if f32 else r.choice(["0.5", "0.25"])
            return Ex(f"{choice}{sfx}({a.text} * {half})", kind, a.bound)
        if choice == "sqrt":
            x = self.leaf(ctx, kind_hint)
            if x.bound * x.bound > LIMIT:
                return a
            return Ex(f"sqrt{sfx}({x.text} * {x.text})", kind, x.bound)
        if choice == "fmod":
            c = r.randint(2, 13)
            return Ex(f"fmod{sfx}({a.text}, {c}.0{'f' if f32 else ''})", kind, min(a.bound, c))
        if choice == "pow":
            if a.bound * a.bound > LIMIT or f32:
                return Ex(f"fabs({self.as_floating(a)})", "double", a.bound)
            return Ex(f"pow({a.text}, 2.0)", "double", a.bound * a.bound)
        return Ex(f"fabs{sfx}({self.as_floating(a)})", kind, a.bound)

    @staticmethod
    def as_floating(e: Ex) -> str:
        return e.text if e.floating else f"(double)({e.text})"

    def compare(self, ctx: Ctx, hint: str) -> str:
        """A condition on two leaves that are not the same expression."""
        x = self.leaf(ctx, hint)
        y = self.leaf(ctx, hint)
        if y.text == x.text:
            y = self.const("int")
        return f"{x.text} {self.r.choice(['<', '>', '<=', '>=', '==', '!='])} {y.text}"

    # ------------------------------------------------------------------ output

    def checksum(self, out: Out, a: Arr, tag: str) -> None:
        out.line("cs = 0;")
        if a.rank == 1:
            out.open(f"for (int i = 0; i < {a.dims[0]}; i++)")
            out.line(f"cs = (cs * 7 + (long){a.at('i')}) % 1000003;")
            out.close()
        else:
            out.open("for (int i = 0; i < R; i++)")
            out.open("for (int j = 0; j < C; j++)")
            out.line(f"cs = (cs * 7 + (long){a.at('i', 'j')}) % 1000003;")
            out.close()
            out.close()
        out.line(f'printf("{tag} {a.name} %ld\\n", cs);')

    def print_scalar(self, out: Out, name: str, ctype: str, tag: str) -> None:
        if ctype in PRINT:
            out.line(f'printf("{tag} {name} {PRINT[ctype]}\\n", {name});')
        else:
            out.line(f'printf("{tag} {name} %.3f\\n", {name} + 0.0);')

    def tag(self) -> str:
        self.tags += 1
        return f"p{self.tags}"

    # ------------------------------------------------------------------ loops

    def bound(self, extent: str) -> str:
        """``extent`` in a loop header: the macro, or sometimes a variable holding it that
        the compiler cannot see through (``int nN = N + (argc > 1000);``)."""
        if extent in self.sizes and self.chance(0.4, "runtimesize"):
            self.runtime_sizes.add(extent)
            return f"n{extent}"
        return extent

    def loop_1d(self, extent: str, var: str = "i", interior: bool = False) -> tuple[str, Dim]:
        r = self.r
        dim_extent = extent
        extent = self.bound(extent)
        if interior:
            return f"for (int {var} = 1; {var} < {extent} - 1; {var}++)", Dim(var, dim_extent, True, True)
        form = r.choice(["plain"] * 4 + (["rev", "step", "le", "from1", "ne"]
                                         if self.has("loopforms") else []))
        if form == "ne":
            return f"for (int {var} = 0; {var} != {extent}; {var}++)", Dim(var, dim_extent)
        if form == "rev":
            return f"for (int {var} = {extent} - 1; {var} >= 0; {var}--)", Dim(var, dim_extent)
        if form == "step":
            return f"for (int {var} = 0; {var} < {extent}; {var} += 2)", Dim(var, dim_extent)
        if form == "le":
            return f"for (int {var} = 0; {var} <= {extent} - 1; {var}++)", Dim(var, dim_extent)
        if form == "from1":
            return f"for (int {var} = 1; {var} < {extent}; {var}++)", Dim(var, dim_extent, True)
        return f"for (int {var} = 0; {var} < {extent}; {var}++)", Dim(var, dim_extent)

    def schedule(self) -> str:
        if not self.chance(0.5, "schedule"):
            return ""
        r = self.r
        kind = r.choice(["static", "dynamic", "guided"] * 3 + ["runtime", "auto"])
        chunk = f", {r.randint(1, 8)}" if r.random() < 0.5 and kind not in ("runtime", "auto") \
            else ""
        return f" schedule({kind}{chunk})"

    def readable(self, exclude: list[Arr]) -> list[Arr]:
        return [a for a in self.arrays if all(a is not x for x in exclude)]

    def store(self, out: Out, target: Arr, ctx: Ctx, idx: list[str], depth: int = 2,
              must: tuple[Ex, ...] = ()) -> None:
        """``target[idx] = wrap(expr)``, maybe under an if/else, maybe through a local."""
        r = self.r
        lhs = target.at(*idx)
        hint = target.ctype
        used: list[Ex] = list(must)
        if not must and self.chance(0.25, "ifelse"):
            out.open(f"if ({self.compare(ctx, hint)})")
            out.line(f"{lhs} = {self.wrap(self.expr(ctx, depth, hint), target.ctype)};")
            out.ind -= 1
            out.open("} else")
            out.line(f"{lhs} = {self.wrap(self.expr(ctx, depth, hint), target.ctype)};")
            out.close()
            return
        if self.chance(0.25, "nested"):
            acc = self.fresh("acc")
            src = r.choice(ctx.readable) if ctx.readable else None
            out.line(f"long {acc} = 0;")
            if src is not None and src.rank == 2:
                row = f"{ctx.dims[0].var} % R" if ctx.dims else "0"
                out.open("for (int w = 0; w < C; w++)")
                out.line(f"{acc} += (long){src.at(row, 'w')};")
                bound = VB * self.value("C")
            elif src is not None:
                L = src.dims[0]
                base = ctx.dims[0].var if ctx.dims else "0"
                width = r.randint(2, 6)
                read = src.at(f"({base} + w) % {L}")
                form = r.choice(["for", "while", "break", "continue"] if self.has("whileloops")
                                else ["for"])
                if form == "while":
                    out.line("int w = 0;")
                    out.open(f"while (w < {width})")
                    out.line(f"{acc} += (long){read} * {r.randint(1, 3)};")
                    out.line("w++;")
                else:
                    out.open(f"for (int w = 0; w < {width}; w++)")
                    if form in ("break", "continue"):
                        out.open(f"if ({read} {r.choice(['<', '>'])} {r.randint(-300, 300)})")
                        out.line(f"{form};")
                        out.close()
                    out.line(f"{acc} += (long){read} * {r.randint(1, 3)};")
                bound = VB * width * 3
            else:
                out.open("for (int w = 0; w < 4; w++)")
                out.line(f"{acc} += w;")
                bound = 6
            out.close()
            ctx = Ctx(ctx.dims, ctx.target, ctx.readable, ctx.scalars,
                      ctx.locals + [Ex(acc, "long", bound)])
            used.append(ctx.locals[-1])
        if self.chance(0.15, "privarray"):
            pv, size = self.fresh("pv"), r.randint(2, 5)
            kind = r.choice(self.types())
            out.line(f"{kind} {pv}[{size}];")
            out.open(f"for (int w = 0; w < {size}; w++)")
            inner = Ctx(ctx.dims, ctx.target, ctx.readable, ctx.scalars,
                        ctx.locals + [Ex("w", "int", size)])
            out.line(f"{pv}[w] = {self.wrap(self.expr(inner, 1, kind), kind)};")
            out.close()
            pick = Ex(f"({pv}[0] - {pv}[{size - 1}])", kind, 2 * VB)
            ctx = Ctx(ctx.dims, ctx.target, ctx.readable, ctx.scalars, ctx.locals + [pick])
            used.append(Ex(f"{pv}[0]", kind, VB))
        if r.random() < 0.25:
            v = self.fresh("v")
            e = self.expr(ctx, depth, hint)
            out.line(f"{e.kind} {v} = {e.text};")
            ctx = Ctx(ctx.dims, ctx.target, ctx.readable, ctx.scalars,
                      ctx.locals + [Ex(v, e.kind, e.bound)])
            used.append(ctx.locals[-1])
        e = self.expr(ctx, depth, hint)
        for loc in used:  # every local of the body is used
            if not re.search(rf"\b{re.escape(loc.text)}(?!\w)", e.text):
                e = Ex(f"({loc.text} < {r.randint(-5, 5)} ? -{e.text} : {e.text})", e.kind, e.bound)
        out.line(f"{lhs} = {self.wrap(e, target.ctype)};")

    # ------------------------------------------------------------------ phases
    #
    # Each phase appends its statements to ``out`` and returns what it wrote: arrays (their
    # checksums are printed after the phase) and scalars (printed too).

    def phase_parfor(self, out: Out) -> tuple[list[Arr], list[Scalar]]:
        """One ``parallel for`` writing one array, with data-sharing clauses."""
        r = self.r
        t = r.choice(self.arrays)
        clauses = self.schedule()
        # a second array written by the same iterations, from the first one's element
        others = [a for a in self.arrays if a is not t and a.dims == t.dims and a.rank == 1]
        t2 = r.choice(others) if others and self.chance(0.25, "twotargets") else None
        readable = self.readable([t] if t2 is None else [t, t2])
        printed: list[Scalar] = []
        if self.chance(0.3, "firstprivate"):
            s = r.choice(self.scalars)
            clauses += f" firstprivate({s.name})"
        if self.chance(0.2, "ifclause"):
            clauses += r.choice([f" if({t.dims[0]} > {r.randint(1, 30)})", " num_threads(2)",
                                 " num_threads(1)", f" if({r.randint(0, 1)})"])
        priv = last = None
        if self.chance(0.3, "private"):
            priv = Scalar(self.fresh("tmp"), r.choice(self.types()))
            self.decl.line(f"{priv.ctype} {priv.name} = 0;")
            clauses += f" private({priv.name})"
        if self.chance(0.3, "lastprivate"):
            last = Scalar(self.fresh("lp"), r.choice(self.types()))
            self.decl.line(f"{last.ctype} {last.name} = 0;")
            clauses += f" lastprivate({last.name})"
            printed.append(last)
        if t.rank == 1:
            header, dim = self.loop_1d(t.dims[0], "i", interior=self.chance(0.3, "stencil"))
            dims = [dim]
        else:
            stencil = self.chance(0.3, "stencil")
            dims = [Dim("i", "R", stencil, False), Dim("j", "C", False, stencil)]
            if self.chance(0.5, "collapse"):
                clauses += " collapse(2)"
        out.pragma("parallel for" + clauses)
        row = None
        if t.rank == 1:
            out.open(header)
        else:
            out.open(f"for (int i = {1 if dims[0].lo1 else 0}; i < {self.bound('R')}; i++)")
            if t.storage == "rows" and "collapse" not in clauses and self.chance(0.5, "rowptr"):
                row = Arr(self.fresh("row"), t.ctype, "param", ("C",))
                out.line(f"{t.ctype} *{row.name} = {t.name}[i];")
            out.open(f"for (int j = 0; j < {self.bound('C')}{' - 1' if dims[1].hi1 else ''}; j++)")
        ctx = Ctx(dims, t, readable, list(self.scalars))
        must: tuple[Ex, ...] = ()
        if priv is not None:
            e = self.expr(ctx, 1, priv.ctype)
            out.line(f"{priv.name} = {self.wrap(e, priv.ctype)};")
            must = (Ex(priv.name, priv.ctype, VB),)
        if last is not None:
            e = self.expr(ctx, 1, last.ctype)
            out.line(f"{last.name} = {self.wrap(e, last.ctype)};")
        if row is not None:
            self.store(out, row, ctx, ["j"], must=must)
        else:
            self.store(out, t, ctx, [d.var for d in dims], must=must)
        written = [t]
        if t2 is not None:
            ctx2 = Ctx(dims, t2, readable, list(self.scalars))
            self.store(out, t2, ctx2, [d.var for d in dims], must=(Ex(t.at(dims[0].var),
                                                                      t.ctype, VB),))
            written.append(t2)
        out.close()
        if t.rank == 2:
            out.close()
        return written, printed

    def phase_reduction(self, out: Out) -> tuple[list[Arr], list[Scalar]]:
        """A ``parallel for`` with one or two reductions, checked against the same loop run
        sequentially."""
        r = self.r
        ops = ["+"] * 3
        ops += ["*"] if self.has("prodred") else []
        ops += ["min", "max"] if self.has("minmax") else []
        ops += ["^", "|", "&"] if self.has("bitred") else []
        src = r.choice(self.arrays)
        if src.rank == 2:
            dims = [Dim("i", "R"), Dim("j", "C")]
            trips = self.value("R") * self.value("C")
            extent = None
        else:
            dims = [Dim("i", src.dims[0])]
            trips = self.value(src.dims[0])
            extent = src.dims[0]
        chosen = [r.choice(ops) for _ in range(1 if r.random() < 0.6 else 2)]
        if "*" in chosen:
            if src.rank == 2 and trips > 24:
                chosen = ["+" if op == "*" else op for op in chosen]
            elif src.rank == 1 and trips > 24:
                extent = "24"    # 2**24 is exact in every type
        ctx = Ctx(dims, None, list(self.arrays), list(self.scalars))
        reds = []
        for op in chosen:
            ctype = r.choice(self.types())
            if op in ("^", "|", "&"):
                ctype = r.choice([t for t in ("int", "long") if t in self.f] or ["long"])
            init = {"+": "0", "*": "1", "min": "100000000", "max": "(-100000000)",
                    "^": "0", "|": "0", "&": "(-1)"}[op]
            e = self.expr(ctx, 2, ctype)
            form = r.choice(["if", "tern", "fn"] if ctype == "double" and self.has("libm")
                            else ["if", "tern"])
            if self.chance(0.25, "globalred"):
                name = self.fresh("gr")
                self.globals.append(f"static {ctype} {name} = {init};")
            else:
                name = self.fresh("r")
                self.decl.line(f"{ctype} {name} = {init};")
            reds.append((op, ctype, name, init, e, form))

        def loop(o: Out, pragma: str | None, suffix: str) -> None:
            if pragma is not None:
                o.pragma(pragma)
            if src.rank == 2:
                o.open("for (int i = 0; i < R; i++)")
                o.open("for (int j = 0; j < C; j++)")
            else:
                o.open(f"for (int i = 0; i < {extent}; i++)")
            for op, ctype, name, _, e, form in reds:
                name += suffix
                v = self.wrap(e, ctype)
                if op == "+":
                    o.line(f"{name} += {v};")
                elif op == "*":
                    o.line(f"{name} *= ((long)({e.text}) % 3 == 0 ? 2 : 1);")
                elif op in ("min", "max"):
                    cmp = "<" if op == "min" else ">"
                    if form == "if":
                        o.open(f"if ({v} {cmp} {name})")
                        o.line(f"{name} = {v};")
                        o.close()
                    elif form == "tern":
                        o.line(f"{name} = {v} {cmp} {name} ? {v} : {name};")
                    else:
                        o.line(f"{name} = f{op}({name}, {v});")
                else:
                    o.line(f"{name} {op}= ({ctype})({e.text}) & 1023;")
            o.close()
            if src.rank == 2:
                o.close()

        clause = "".join(f" reduction({op}: {name})" for op, _, name, *_ in reds)
        if src.rank == 2 and self.chance(0.5, "collapse"):
            clause += " collapse(2)"
        loop(out, "parallel for" + clause + self.schedule(), "")
        for op, ctype, name, init, *_ in reds:
            out.line(f"{ctype} {name}_s = {init};")
        loop(out, None, "_s")
        for op, ctype, name, *_ in reds:
            out.line(f"fails += {name} != {name}_s;")
        return [], [Scalar(name, ctype) for _, ctype, name, *_ in reds]

    def phase_region(self, out: Out) -> tuple[list[Arr], list[Scalar]]:
        """A ``parallel`` region: work-sharing loops (a pair of them with ``nowait`` on the
        first when they share nothing), ``single`` and ``master`` + ``barrier`` blocks, a
        thread's partial sum combined in a ``critical`` section."""
        r = self.r
        out.pragma("parallel")
        out.brace()
        written: list[Arr] = []
        printed: list[Scalar] = []
        region_locals: list[Ex] = []
        declared = None
        if r.random() < 0.3:
            name = self.fresh("sc")
            kind = r.choice(self.types())
            c = self.const(kind, 1, 5)
            out.line(f"{kind} {name} = {c.text};")
            region_locals.append(Ex(name, kind, c.bound))
            declared = (len(out.lines) - 1, name)
        kinds = ["for"] * 3
        kinds += ["single"] if self.has("single") else []
        kinds += ["master"] if self.has("master", "barrier") else []
        kinds += ["reduction"] if self.has("regionred") else []
        partial_done = False
        for _ in range(r.randint(2, 4)):
            kind = r.choice(kinds + (["partial"] if self.has("partial", "critical")
                                     and not partial_done else []))
            if kind == "for":
                t = r.choice(self.arrays)
                if self.chance(0.3, "nowait") and len(self.arrays) >= 3:
                    # two loops that may overlap: neither reads what the other writes
                    t2 = r.choice([a for a in self.arrays if a is not t])
                    self.region_for(out, t, self.readable([t, t2]), region_locals, " nowait")
                    self.region_for(out, t2, self.readable([t, t2]), region_locals, "")
                    written += [t, t2]
                else:
                    self.region_for(out, t, self.readable([t]), region_locals, "")
                    written.append(t)
            elif kind == "reduction":
                red = Scalar(self.fresh("rr"), r.choice(["long"] + [t for t in ("double",)
                                                                    if t in self.f]))
                self.decl.line(f"{red.ctype} {red.name} = 0;")
                src = r.choice(self.arrays)
                out.pragma(f"for reduction(+: {red.name})" + self.schedule())
                ctx = self.source_loop(out, src)
                ctx.locals += region_locals
                out.line(f"{red.name} += {self.wrap(self.expr(ctx, 2, red.ctype), red.ctype)};")
                out.close()
                if src.rank == 2:
                    out.close()
                printed.append(red)
            elif kind in ("single", "master"):
                t = r.choice(self.arrays)
                s = r.choice(self.scalars)
                out.pragma(kind)
                out.brace()
                idx = [str(r.randint(0, self.value(d) - 1)) for d in t.dims]
                ctx = Ctx([], None, self.readable([t]), [x for x in self.scalars if x is not s],
                          list(region_locals))
                out.line(f"{t.at(*idx)} = {self.wrap(self.expr(ctx, 2, t.ctype), t.ctype)};")
                ctx = Ctx([], None, list(self.arrays), [x for x in self.scalars if x is not s],
                          list(region_locals))
                out.line(f"{s.name} = {self.wrap(self.expr(ctx, 2, s.ctype), s.ctype)};")
                out.close()
                if kind == "master":
                    out.pragma("barrier")
                written.append(t)
                printed.append(s)
            else:
                partial_done = True
                part, total = self.fresh("part"), self.fresh("tot")
                self.decl.line(f"long {total} = 0;")
                out.line(f"long {part} = 0;")
                src = r.choice(self.arrays)
                out.pragma("for" + self.schedule())
                if src.rank == 1:
                    out.open(f"for (int i = 0; i < {src.dims[0]}; i++)")
                    out.line(f"{part} += (long){src.at('i')} * (i % 3 + 1);")
                else:
                    out.open("for (int i = 0; i < R; i++)")
                    out.line(f"{part} += (long){src.at('i', 'C - 1')};")
                out.close()
                out.pragma("critical" if r.random() < 0.5 else f"critical({self.fresh('lock')})")
                out.brace()
                out.line(f"{total} += {part};")
                out.close()
                printed.append(Scalar(total, "long"))
        if declared is not None and not any(re.search(rf"\b{declared[1]}\b", line)
                                            for line in out.lines[declared[0] + 1:]):
            del out.lines[declared[0]]  # the region's local was never used
        out.close()
        return written, printed

    def region_for(self, out: Out, t: Arr, readable: list[Arr], region_locals: list[Ex],
                   nowait: str) -> None:
        clauses = self.schedule() + nowait
        if t.rank == 2 and self.chance(0.5, "collapse"):
            clauses += " collapse(2)"
        out.pragma("for" + clauses)
        if t.rank == 1:
            header, dim = self.loop_1d(t.dims[0])
            dims = [dim]
            out.open(header)
        else:
            dims = [Dim("i", "R"), Dim("j", "C")]
            out.open(f"for (int i = 0; i < {self.bound('R')}; i++)")
            out.open(f"for (int j = 0; j < {self.bound('C')}; j++)")
        self.store(out, t, Ctx(dims, t, readable, list(self.scalars), list(region_locals)),
                   [d.var for d in dims])
        out.close()
        if t.rank == 2:
            out.close()

    def source_loop(self, out: Out, src: Arr) -> Ctx:
        """Open a loop over every element of ``src``; the context of its body."""
        if src.rank == 1:
            out.open(f"for (int i = 0; i < {src.dims[0]}; i++)")
            return Ctx([Dim("i", src.dims[0])], None, list(self.arrays), list(self.scalars))
        out.open("for (int i = 0; i < R; i++)")
        out.open("for (int j = 0; j < C; j++)")
        return Ctx([Dim("i", "R"), Dim("j", "C")], None, list(self.arrays), list(self.scalars))

    def phase_critical(self, out: Out) -> tuple[list[Arr], list[Scalar]]:
        """A sum and a maximum kept in a ``critical`` section of a ``parallel for``."""
        r = self.r
        src = r.choice(self.arrays)
        total, top = self.fresh("ct"), self.fresh("cm")
        self.decl.line(f"long {total} = 0;")
        self.decl.line(f"long {top} = -100000000;")
        out.pragma("parallel for" + self.schedule())
        ctx = self.source_loop(out, src)
        v = self.fresh("v")
        out.line(f"long {v} = {self.wrap(self.expr(ctx, 2, 'long'), 'long')};")
        out.pragma("critical" if r.random() < 0.5 else f"critical({self.fresh('lock')})")
        out.brace()
        out.line(f"{total} += {v};")
        if r.random() < 0.5:
            out.open(f"if ({v} > {top})")
            out.line(f"{top} = {v};")
            out.close()
        out.close()
        out.close()
        if src.rank == 2:
            out.close()
        return [], [Scalar(total, "long"), Scalar(top, "long")]

    def phase_atomic(self, out: Out) -> tuple[list[Arr], list[Scalar]]:
        """A histogram and a sum updated with ``omp atomic`` in a ``parallel for``."""
        r = self.r
        src = r.choice(self.arrays)
        hist = Arr(self.fresh("h"), "int", "local", (str(r.choice([4, 8, 16])),))
        bins = hist.dims[0]
        self.sizes_extra[bins] = int(bins)
        cnt = Scalar(self.fresh("ac"), r.choice(["long", "double"] if self.has("double")
                                                 else ["long"]))
        self.decl.line(f"int {hist.name}[{bins}];")
        self.decl.line(f"{cnt.ctype} {cnt.name} = 0;")
        out.open(f"for (int i = 0; i < {bins}; i++)")
        out.line(f"{hist.name}[i] = 0;")
        out.close()
        section = self.chance(0.3, "sectionred")
        ticket = None
        if src.rank == 1 and self.chance(0.3, "capture"):
            # tickets handed out by atomic capture: which iteration gets which depends on the
            # schedule, the set of tickets does not
            ticket = Scalar(self.fresh("tk"), "int")
            mark = Arr(self.fresh("mk"), "int", "local", (src.dims[0],))
            self.decl.line(f"int {ticket.name} = 0;")
            self.decl.line(f"int {mark.name}[{src.dims[0]}];")
            out.open(f"for (int i = 0; i < {src.dims[0]}; i++)")
            out.line(f"{mark.name}[i] = 0;")
            out.close()
        clause = f" reduction(+: {hist.name}[:{bins}])" if section else ""
        out.pragma("parallel for" + clause + self.schedule())
        ctx = self.source_loop(out, src)
        v = self.fresh("v")
        out.line(f"long {v} = {self.wrap(self.expr(ctx, 2, 'long'), 'long')};")
        if not section:
            out.pragma(r.choice(["atomic", "atomic update"]))
        out.line(f"{hist.name}[({v} % {bins} + {bins}) % {bins}] += 1;")
        out.pragma("atomic")
        out.line(f"{cnt.name} += {v};" if cnt.ctype == "long" else f"{cnt.name} += (double){v};")
        if ticket is not None:
            got = self.fresh("got")
            out.line(f"int {got};")
            out.pragma("atomic capture")
            if r.random() < 0.5:
                out.line(f"{got} = {ticket.name}++;")
            else:
                out.brace()
                out.line(f"{got} = {ticket.name};")
                out.line(f"{ticket.name} += 1;")
                out.close()
            out.line(f"{mark.name}[{got}] += 1;")
        out.close()
        if src.rank == 2:
            out.close()
        if ticket is not None:
            return [hist, mark], [cnt, ticket]
        return [hist], [cnt]

    def phase_rectasks(self, out: Out) -> tuple[list[Arr], list[Scalar]]:
        """Divide and conquer with tasks in functions of the program: one fills an array's
        halves in two tasks, another sums them the same way."""
        r = self.r
        ones = [a for a in self.arrays if a.rank == 1]
        if not ones:
            return self.phase_parfor(out)
        a = r.choice(ones)
        T = a.ctype
        fill, total = self.fresh("tfill"), self.fresh("tsum")
        cut = r.randint(2, 16)
        P = Arr("p", T, "param", ("hi",))
        self.sizes_extra["hi"] = self.value(a.dims[0])
        fn = Out(0)
        fn.line(f"static void {fill}({T} *p, int lo, int hi)")
        fn.line("{")
        fn.ind = 1
        fn.open(f"if (hi - lo <= {cut})")
        fn.open("for (int k = lo; k < hi; k++)")
        self.store(fn, P, Ctx([Dim("k", "hi")], P, [], [x for x in self.scalars if x.glob]),
                   ["k"], depth=1)
        fn.close()
        fn.line("return;")
        fn.close()
        fn.line("int mid = lo + (hi - lo) / 2;")
        fn.pragma("task")
        fn.brace()
        fn.line(f"{fill}(p, lo, mid);")
        fn.close()
        fn.pragma("task")
        fn.brace()
        fn.line(f"{fill}(p, mid, hi);")
        fn.close()
        fn.pragma("taskwait")
        fn.ind = 0
        fn.line("}")
        del self.sizes_extra["hi"]
        self.helpers.append("\n".join(fn.lines))
        fn = Out(0)
        fn.line(f"static long {total}({T} *p, int lo, int hi)")
        fn.line("{")
        fn.ind = 1
        fn.open(f"if (hi - lo <= {cut})")
        fn.line("long s = 0;")
        fn.open("for (int k = lo; k < hi; k++)")
        fn.line(f"s += (long)p[k] * (k % {r.randint(2, 9)} + 1);")
        fn.close()
        fn.line("return s;")
        fn.close()
        fn.line("int mid = lo + (hi - lo) / 2;")
        fn.line("long x = 0;")
        fn.line("long y = 0;")
        fn.pragma("task shared(x)")
        fn.brace()
        fn.line(f"x = {total}(p, lo, mid);")
        fn.close()
        fn.pragma("task shared(y)")
        fn.brace()
        fn.line(f"y = {total}(p, mid, hi);")
        fn.close()
        fn.pragma("taskwait")
        fn.line("return x + y;")
        fn.ind = 0
        fn.line("}")
        self.helpers.append("\n".join(fn.lines))
        result = Scalar(self.fresh("ts"), "long")
        self.decl.line(f"long {result.name} = 0;")
        out.pragma("parallel")
        out.brace()
        out.pragma("single")
        out.brace()
        out.line(f"{fill}({a.name}, 0, {a.dims[0]});")
        out.line(f"{result.name} = {total}({a.name}, 0, {a.dims[0]});")
        out.close()
        out.close()
        return [a], [result]

    def phase_tasks(self, out: Out) -> tuple[list[Arr], list[Scalar]]:
        """Tasks created by one thread, ordered by ``depend`` on every array and scalar two of
        them share; arrays other tasks write are read only through ``depend(in)``."""
        r = self.r
        pool = [a for a in self.arrays if a.storage in ("local", "malloc", "flat")]
        if not pool:
            return self.phase_parfor(out)
        locals_ = [s for s in self.scalars if not s.glob]
        task_scalars = r.sample(locals_, r.randint(0, len(locals_))) if locals_ else []
        # what a task reads without depend: nothing any task of this phase writes
        fixed_arrays = [a for a in self.arrays if a.storage in ("global", "rows")]
        fixed_scalars = [s for s in self.scalars if all(s is not x for x in task_scalars)]
        out.pragma("parallel")
        out.brace()
        out.pragma(r.choice(["single", "master"] if self.has("master") else ["single"]))
        out.brace()
        written: list[Arr] = []
        updated: list[Scalar] = []
        group = self.chance(0.25, "taskclauses")
        if group:
            out.pragma("taskgroup")
            out.brace()
        for _ in range(r.randint(2, 5)):
            if task_scalars and r.random() < 0.25:
                s = r.choice(task_scalars)
                srcs = r.sample(pool, min(len(pool), r.randint(0, 2)))
                deps = f"depend(inout: {s.name})"
                if srcs:
                    deps += f" depend(in: {', '.join(self.dep_item(a) for a in srcs)})"
                out.pragma("task " + deps)
                out.brace()
                ctx = Ctx([], None, srcs + fixed_arrays, fixed_scalars)
                e = self.expr(ctx, 2, s.ctype)
                total = Ex(f"({s.name} + {e.text})", kind_of(s.ctype, e.kind), e.bound + VB)
                out.line(f"{s.name} = {self.wrap(total, s.ctype)};")
                out.close()
                updated.append(s)
                continue
            t = r.choice(pool)
            srcs = [a for a in r.sample(pool, min(len(pool), r.randint(0, 2))) if a is not t]
            readable = srcs + fixed_arrays
            deps = f"depend({r.choice(['out', 'inout'])}: {self.dep_item(t)})"
            if srcs:
                deps += f" depend(in: {', '.join(self.dep_item(a) for a in srcs)})"
            if self.chance(0.3, "taskclauses"):
                deps += " " + r.choice(["if(0)", "if(1)", f"if({t.dims[0]} > 20)", "final(1)",
                                        "untied", "mergeable", f"priority({r.randint(0, 3)})"])
            if t.rank == 1 and self.chance(0.3, "blocktasks"):
                nb = r.randint(2, 4)
                out.open(f"for (int b = 0; b < {nb}; b++)")
                out.pragma(f"task firstprivate(b) {deps}")
                out.brace()
                out.open(f"for (int k = b; k < {t.dims[0]}; k += {nb})")
                self.store(out, t, Ctx([Dim("k", t.dims[0])], t, readable, fixed_scalars),
                           ["k"], depth=1)
                out.close()
                out.close()
                out.close()
            else:
                out.pragma("task " + deps)
                out.brace()
                self.store_whole(out, t, readable, fixed_scalars)
                out.close()
            written.append(t)
        if group:
            out.close()
        else:
            out.pragma("taskwait")
        out.close()
        out.close()
        return written, updated

    def same_length_1d(self) -> list[list[Arr]]:
        """The 1-D arrays grouped by length, in order of first appearance; groups of two or
        more only."""
        groups: dict[str, list[Arr]] = {}
        for a in self.arrays:
            if a.rank == 1:
                groups.setdefault(a.dims[0], []).append(a)
        return [g for g in groups.values() if len(g) >= 2]

    def store_whole(self, out: Out, t: Arr, readable: list[Arr], scalars: list[Scalar]) -> None:
        """A sequential loop nest storing every element of ``t`` (``k``, then ``j``)."""
        if t.rank == 1:
            out.open(f"for (int k = 0; k < {t.dims[0]}; k++)")
            dims = [Dim("k", t.dims[0])]
        else:
            out.open("for (int k = 0; k < R; k++)")
            out.open("for (int j = 0; j < C; j++)")
            dims = [Dim("k", "R"), Dim("j", "C")]
        self.store(out, t, Ctx(dims, t, readable, scalars), [d.var for d in dims])
        out.close()
        if t.rank == 2:
            out.close()

    def dep_item(self, a: Arr) -> str:
        return a.at(*["0"] * a.rank)

    def phase_taskloop(self, out: Out) -> tuple[list[Arr], list[Scalar]]:
        r = self.r
        t = r.choice(self.arrays)
        out.pragma("parallel")
        out.brace()
        out.pragma("single")
        out.brace()
        clause = r.choice(["", f" grainsize({r.randint(1, 16)})", f" num_tasks({r.randint(1, 7)})"])
        nogroup = r.random() < 0.3
        out.pragma("taskloop" + clause + (" nogroup" if nogroup else ""))
        if t.rank == 1:
            header, dim = self.loop_1d(t.dims[0], "k")
            dims = [dim]
            out.open(header)
        else:
            dims = [Dim("k", "R"), Dim("j", "C")]
            out.open("for (int k = 0; k < R; k++)")
            out.open("for (int j = 0; j < C; j++)")
        self.store(out, t, Ctx(dims, t, self.readable([t]), list(self.scalars)),
                   [d.var for d in dims])
        out.close()
        if t.rank == 2:
            out.close()
        if nogroup:
            out.pragma("taskwait")
        out.close()
        out.close()
        return [t], []

    def phase_sections(self, out: Out) -> tuple[list[Arr], list[Scalar]]:
        r = self.r
        targets = r.sample(self.arrays, min(len(self.arrays), r.randint(2, 3)))
        readable = self.readable(targets)
        out.pragma("parallel sections")
        out.brace()
        for t in targets:
            out.pragma("section")
            out.brace()
            self.store_whole(out, t, readable, list(self.scalars))
            out.close()
        out.close()
        return targets, []

    def phase_helper(self, out: Out) -> tuple[list[Arr], list[Scalar]]:
        """A function of the program, given arrays as pointers, with a parallel loop in it."""
        r = self.r
        pairs = self.same_length_1d()
        name = self.fresh("kern")
        fn = Out(0)
        rows = [a for a in self.arrays if a.storage == "rows"]
        if rows and r.random() < 0.3:
            m = r.choice(rows)
            M_ = Arr("m", m.ctype, "param", ("r", "c"))
            fn.line(f"static void {name}({m.ctype} **m, int r, int c)")
            fn.line("{")
            fn.ind = 1
            fn.pragma("parallel for" + (" collapse(2)" if self.chance(0.5, "collapse") else "")
                      + self.schedule())
            fn.open("for (int i = 0; i < r; i++)")
            fn.open("for (int j = 0; j < c; j++)")
            self.sizes_extra.update(r=self.value("R"), c=self.value("C"))
            self.store(fn, M_, Ctx([Dim("i", "r"), Dim("j", "c")], M_, [],
                                   [x for x in self.scalars if x.glob]), ["i", "j"])
            del self.sizes_extra["r"], self.sizes_extra["c"]
            fn.close()
            fn.close()
            fn.ind = 0
            fn.line("}")
            self.helpers.append("\n".join(fn.lines))
            out.line(f"{name}({m.name}, R, C);")
            return [m], []
        if pairs and r.random() < 0.7:
            p, q = r.sample(r.choice(pairs), 2)
            P = Arr("p", p.ctype, "param", ("n",))
            Q = Arr("q", q.ctype, "param", ("n",))
            fn.line(f"static void {name}({p.ctype} *p, {q.ctype} *q, int n)")
            fn.line("{")
            fn.ind = 1
            fn.pragma("parallel for" + self.schedule())
            header, dim = self.loop_1d("n")
            fn.open(header)
            self.sizes_extra["n"] = self.value(p.dims[0])
            self.store(fn, P, Ctx([dim], P, [Q], [s for s in self.scalars if s.glob]), ["i"],
                       must=(Ex(Q.at(dim.var), Q.ctype, VB),))
            del self.sizes_extra["n"]
            fn.close()
            fn.ind = 0
            fn.line("}")
            self.helpers.append("\n".join(fn.lines))
            if p.ctype == q.ctype and r.random() < 0.5:  # called again, the arrays swapping roles
                out.open(f"for (int t = 0; t < {r.randint(2, 3)}; t++)")
                out.line(f"{name}({p.name}, {q.name}, {p.dims[0]});")
                out.line(f"{name}({q.name}, {p.name}, {p.dims[0]});")
                out.close()
                return [p, q], []
            out.line(f"{name}({p.name}, {q.name}, {p.dims[0]});")
            return [p], []
        src = r.choice([a for a in self.arrays if a.rank == 1])
        fn.line(f"static long {name}({src.ctype} *p, int n)")
        fn.line("{")
        fn.ind = 1
        fn.line("long s = 0;")
        fn.pragma("parallel for reduction(+: s)" + self.schedule())
        fn.open("for (int i = 0; i < n; i++)")
        fn.line(f"s += (long)p[i] * (i % {r.randint(2, 7)} + 1);")
        fn.close()
        fn.line("return s;")
        fn.ind = 0
        fn.line("}")
        self.helpers.append("\n".join(fn.lines))
        result = Scalar(self.fresh("hs"), "long")
        out.line(f"long {result.name} = {name}({src.name}, {src.dims[0]});")
        return [], [result]

    def phase_hoststore(self, out: Out) -> tuple[list[Arr], list[Scalar]]:
        """Sequential stores between the parallel phases."""
        r = self.r
        t = r.choice(self.arrays)
        idx = [str(r.randint(0, self.value(d) - 1)) for d in t.dims]
        ctx = Ctx([], None, self.readable([t]), list(self.scalars))
        out.line(f"{t.at(*idx)} = {self.wrap(self.expr(ctx, 2, t.ctype), t.ctype)};")
        printed = []
        if r.random() < 0.7:
            s = r.choice(self.scalars)
            ctx = Ctx([], None, list(self.arrays), [x for x in self.scalars if x is not s])
            out.line(f"{s.name} = {self.wrap(self.expr(ctx, 2, s.ctype), s.ctype)};")
            printed.append(s)
        if t.rank == 1 and r.random() < 0.5:
            out.open(f"for (int i = 0; i < {t.dims[0]}; i += {r.randint(2, 5)})")
            ctx = Ctx([Dim("i", t.dims[0])], t, self.readable([t]), list(self.scalars))
            self.store(out, t, ctx, ["i"], depth=1)
            out.close()
        return [t], printed

    def phase_timeloop(self, out: Out) -> tuple[list[Arr], list[Scalar]]:
        """A time-step loop around two ``parallel for``s that read each other's output."""
        r = self.r
        pairs = self.same_length_1d()
        if not pairs:
            return self.phase_parfor(out)
        A, B = r.sample(r.choice(pairs), 2)
        steps = r.randint(2, 4)
        out.open(f"for (int t = 0; t < {steps}; t++)")
        for dst, src in ((B, A), (A, B)):
            header, dim = self.loop_1d(dst.dims[0], "i", interior=self.has("stencil"))
            out.pragma("parallel for" + self.schedule())
            out.open(header)
            self.store(out, dst, Ctx([dim], dst, [src], list(self.scalars),
                                     [Ex("t", "int", steps)]), ["i"])
            out.close()
        out.close()
        return [A, B], []

    def phase_chain(self, out: Out) -> tuple[list[Arr], list[Scalar]]:
        """Two or three ``parallel for``s in a row over arrays of one extent, with one
        header and schedule, each reading what the one before wrote (often at ``i``: loops
        the compiler may fuse)."""
        r = self.r
        groups_ = self.same_length_1d()
        if not groups_:
            return self.phase_parfor(out)
        group = r.choice(groups_)
        targets = r.sample(group, min(len(group), r.randint(2, 3)))
        L = targets[0].dims[0]
        header, dim = self.loop_1d(L, "i", interior=self.chance(0.3, "stencil"))
        clauses = self.schedule()
        prev = None
        for t in targets:
            out.pragma("parallel for" + clauses)
            out.open(header)
            must = (Ex(prev.at(dim.var), prev.ctype, VB),) if prev is not None else ()
            self.store(out, t, Ctx([dim], t, self.readable([t]), list(self.scalars)),
                       [dim.var], must=must)
            out.close()
            prev = t
        return targets, []

    def same_pairs(self, storages=("local", "malloc", "global")) -> list[list[Arr]]:
        """Groups of 1-D arrays of one extent and type (two of them can swap roles)."""
        groups: dict[tuple[str, str], list[Arr]] = {}
        for a in self.arrays:
            if a.rank == 1 and a.storage in storages:
                groups.setdefault((a.dims[0], a.ctype), []).append(a)
        return [g for g in groups.values() if len(g) >= 2]

    def phase_pingpong(self, out: Out) -> tuple[list[Arr], list[Scalar]]:
        """A time loop over two buffers swapped through pointers each step."""
        r = self.r
        pairs = self.same_pairs(("local", "malloc"))
        if not pairs:
            return self.phase_timeloop(out)
        A, B = r.sample(r.choice(pairs), 2)
        cur, nxt, tmp = self.fresh("cur"), self.fresh("nxt"), self.fresh("sw")
        L, T = A.dims[0], A.ctype
        out.brace()
        out.line(f"{T} *{cur} = {A.name};")
        out.line(f"{T} *{nxt} = {B.name};")
        steps = r.choice([2, 4]) if r.random() < 0.7 else 3
        out.open(f"for (int t = 0; t < {steps}; t++)")
        out.pragma("parallel for" + self.schedule())
        out.open(f"for (int i = 1; i < {L} - 1; i++)")
        C_, N_ = Arr(cur, T, "param", (L,)), Arr(nxt, T, "param", (L,))
        self.store(out, N_, Ctx([Dim("i", L, True, True)], N_, [C_], list(self.scalars),
                                [Ex("t", "int", steps)]), ["i"],
                   must=(Ex(f"{cur}[i]", T, VB),))
        out.close()
        out.line(f"{nxt}[0] = {cur}[0];")
        out.line(f"{nxt}[{L} - 1] = {cur}[{L} - 1];")
        out.line(f"{T} *{tmp} = {cur};")
        out.line(f"{cur} = {nxt};")
        out.line(f"{nxt} = {tmp};")
        out.close()
        out.close()
        return [A, B], []

    def phase_regionloop(self, out: Out) -> tuple[list[Arr], list[Scalar]]:
        """A parallel region whose body is a time loop holding work-sharing loops."""
        r = self.r
        ones = [a for a in self.arrays if a.rank == 1]
        groups = [g for g in self.same_pairs(("local", "malloc", "global", "rows"))]
        if groups:
            A, B = r.sample(r.choice(groups), 2)
        else:
            A, B = r.sample(self.arrays, 2) if len(self.arrays) >= 2 else (ones[0], ones[0])
            if A is B:
                return self.phase_parfor(out)
        steps = r.randint(2, 4)
        out.pragma("parallel")
        out.brace()
        out.open(f"for (int t = 0; t < {steps}; t++)")
        for dst, src in ((B, A), (A, B)):
            out.pragma("for" + self.schedule())
            if dst.rank == 1:
                header, dim = self.loop_1d(dst.dims[0])
                dims = [dim]
                out.open(header)
            else:
                dims = [Dim("i", "R"), Dim("j", "C")]
                out.open("for (int i = 0; i < R; i++)")
                out.open("for (int j = 0; j < C; j++)")
            self.store(out, dst, Ctx(dims, dst, [src], list(self.scalars), [Ex("t", "int", steps)]),
                       [d.var for d in dims])
            out.close()
            if dst.rank == 2:
                out.close()
        out.close()
        out.close()
        return [A, B], []

    def phase_ordered(self, out: Out) -> tuple[list[Arr], list[Scalar]]:
        """A loop whose ``ordered`` block keeps a running value in iteration order."""
        r = self.r
        ones = [a for a in self.arrays if a.rank == 1]
        if len(ones) < 2:
            return self.phase_parfor(out)
        t, p = r.sample(ones, 2)
        run = Scalar(self.fresh("run"), "long")
        self.decl.line(f"long {run.name} = 0;")
        out.pragma("parallel for ordered" + self.schedule())
        header, dim = self.loop_1d(t.dims[0])
        out.open(header)
        ctx = Ctx([dim], t, self.readable([t, p]), list(self.scalars))
        self.store(out, t, ctx, [dim.var])
        out.pragma("ordered")
        out.brace()
        out.line(f"{run.name} = ({run.name} * 3 + (long){t.at(dim.var)}) % 1000003;")
        if p.dims[0] == t.dims[0] and r.random() < 0.5:
            out.line(f"{p.at(dim.var)} = ({p.ctype})({run.name} % {VB});")
            written = [t, p]
        else:
            written = [t]
        if self.value(t.dims[0]) <= 40 and r.random() < 0.4:
            out.line(f'printf("ord %d %ld\\n", {dim.var}, {run.name});')
        out.close()
        out.close()
        return written, [run]

    # ------------------------------------------------------------------ program

    def make_mixers(self) -> None:
        """Small pure functions the loop bodies may call (defined only if called)."""
        self.mixers: list[tuple[str, str]] = []
        self.mixer_defs: dict[str, str] = {}
        self.mixers_used: set[str] = set()
        if not self.has("calls"):
            return
        for k in range(self.r.randint(1, 2)):
            name = f"mix{k}"
            if self.r.random() < 0.5 or not self.has("double"):
                self.mixer_defs[name] = (
                    f"static long {name}(long x, long y)\n{{\n"
                    f"  return (x * {self.r.randint(2, 9)} + y) % {VB};\n}}")
                self.mixers.append((name, "long"))
            else:
                self.mixer_defs[name] = (
                    f"static double {name}(double x, double y)\n{{\n"
                    f"  return fmod(x * {self.r.randint(2, 9)}.0 - y, {VB}.0);\n}}")
                self.mixers.append((name, "double"))

    WEIGHTS = {"parfor": 6, "reduction": 3, "region": 3, "critical": 1, "atomic": 1,
               "tasks": 2, "taskloop": 1, "sections": 1, "helper": 1, "hoststore": 2,
               "timeloop": 1, "pingpong": 1, "regionloop": 1, "ordered": 1, "chain": 3,
               "rectasks": 1}

    def program(self) -> str:
        self.sizes_extra: dict[str, int] = {}
        self.globals: list[str] = []
        self.runtime_sizes: set[str] = set()
        self.make_sizes()
        self.make_arrays()
        self.make_mixers()
        self.declare_main()
        kinds = [k for k, w in self.WEIGHTS.items() if k in self.f for _ in range(w)]
        if not kinds:
            kinds = ["hoststore"]
        out = self.body
        arrays: list[Arr] = []        # written since the last checkpoint
        scalars: list[Scalar] = []
        for _ in range(self.r.randint(3, 8)):
            kind = self.r.choice(kinds)
            tag = self.tag()
            out.line(f"// {tag}: {kind}")
            written, printed = getattr(self, f"phase_{kind}")(out)
            arrays += [a for a in written if all(a is not x for x in arrays)]
            scalars += [x for x in printed if all(x.name != y.name for y in scalars)]
            # A checkpoint (host code reading what the phases wrote) after some phases
            # only: phases in a row leave the compiler free to fuse and overlap them.
            if self.r.random() < 0.4:
                for a in arrays:
                    self.checksum(out, a, tag)
                for x in scalars:
                    self.print_scalar(out, x.name, x.ctype, tag)
                arrays, scalars = [], []
        tail = Out(1)
        for a in self.arrays + [b for b in arrays if all(b is not x for x in self.arrays)]:
            self.checksum(tail, a, "end")
        for x in self.scalars + [y for y in scalars if all(y.name != z.name for z in self.scalars)]:
            self.print_scalar(tail, x.name, x.ctype, "end")
        for a in self.arrays:
            if a.storage == "rows":
                tail.open("for (int i = 0; i < R; i++)")
                tail.line(f"free({a.name}[i]);")
                tail.close()
                tail.line(f"free({a.name});")
            elif a.storage in ("malloc", "flat"):
                tail.line(f"free({a.name});")
        end = "exit({});" if self.chance(0.2, "exit") else "return {};"
        tail.open("if (fails)")
        tail.line(f'printf("FAIL fuzz {self.seed} %d\\n", fails);')
        tail.line(end.format(1))
        tail.close()
        tail.line(f'printf("ok fuzz {self.seed}\\n");')
        tail.line(end.format(0))
        if self.f == frozenset(ALL_FEATURES):
            text = [f"// carts fuzz program, seed {self.seed}"]
        else:
            text = [f"// carts fuzz program, seed {self.seed}, without "
                    + ",".join(f for f in ALL_FEATURES if f not in self.f)]
        text += self.declare() + self.globals + ([""] if self.globals else [])
        code = "\n".join(self.helpers + self.body.lines + self.decl.lines)
        for name, h in self.mixer_defs.items():
            if re.search(rf"\b{name}\(", code):
                text += [h, ""]
        for h in self.helpers:
            text += [h, ""]
        if self.runtime_sizes:
            text += ["int main(int argc, char **argv)", "{", "  (void)argv;"]
            text += [f"  int n{x} = {x} + (argc > 1000);" for x in self.sizes
                     if x in self.runtime_sizes]
        else:
            text += ["int main(void)", "{"]
        text += self.decl.lines + self.body.lines + tail.lines
        text.append("}")
        return "\n".join(text) + "\n"


def generate(seed: int, features: frozenset[str] | set[str] | None = None) -> str:
    """The program of ``seed`` over ``features`` (default: every feature)."""
    chosen = frozenset(ALL_FEATURES) if features is None else frozenset(features)
    return Generator(seed, chosen).program()
