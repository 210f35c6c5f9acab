"""``#pragma omp`` lines: found in the token stream of the main file, parsed into
directives with clauses, and handed out in source order to the statement emitter.

libclang is run without ``-fopenmp`` (with it, the Python bindings see each construct as a
cursor whose loop and clauses they do not expose), so the AST has plain loops and
the pragmas survive only as tokens.  A directive applies to the statement that follows it;
a standalone directive (``barrier``) applies at its position in the enclosing block.
"""

from __future__ import annotations

import bisect
import platform
import re
from dataclasses import dataclass, field

import clang.cindex as ci

from ..errors import CartsError
from . import clang_support as cs

#: Directive words that may form a directive name (the longest run is the directive).
_DIRECTIVE_WORDS = {
    "parallel", "for", "simd", "single", "master", "masked", "barrier", "critical", "atomic",
    "task", "taskwait", "taskloop", "taskgroup", "taskyield", "sections", "section", "target",
    "teams", "distribute", "ordered", "flush", "declare", "threadprivate", "loop", "scope",
    "end", "data", "update", "enter", "exit", "requires", "cancel", "cancellation", "point",
    "tile", "unroll", "error", "scan", "allocate", "nothing", "assume", "assumes", "begin",
    "depobj",
}

#: Directive words that only start a directive: later, they are clauses (`allocate(x)`).
_LEADING_ONLY = {"allocate", "assume", "nothing"}

#: Directives that ask nothing of a host program run with libgomp's defaults: hints
#: (assume, assumes), a place (allocate: memory from the C heap, as every allocator
#: here), requirements the host meets (requires), and cancellation, which is off unless
#: OMP_CANCELLATION is set (omp_get_cancellation() is 0), so cancel and cancellation
#: points do nothing.
NO_OPS = {"nothing", "assume", "assumes", "allocate", "requires", "begin assumes",
          "end assumes"}

#: Directive words that are clauses when they follow a directive word.
_CLAUSE_WORDS = {"ordered", "update"}

#: Directives of the supported subset, and the clauses each accepts.
SUPPORTED = {
    "parallel for": {"private", "firstprivate", "lastprivate", "shared", "reduction", "schedule",
                     "collapse", "nowait", "default", "num_threads", "if", "ordered", "copyin",
                     "linear"},
    "parallel": {"private", "firstprivate", "shared", "reduction", "default", "num_threads", "if",
                 "copyin"},
    "for": {"private", "firstprivate", "lastprivate", "reduction", "schedule", "collapse",
            "nowait", "ordered", "linear"},
    "single": {"private", "firstprivate", "nowait", "copyprivate"},
    "master": set(),
    "masked": {"filter"},
    "barrier": set(),
    "task": {"depend", "affinity", "shared", "private", "firstprivate", "default", "if", "final",
             "priority", "untied", "mergeable", "in_reduction", "detach"},
    "taskwait": {"depend"},
    "scope": {"private", "firstprivate", "reduction", "nowait"},
    "taskgroup": {"task_reduction"},
    "taskyield": set(),
    "atomic": {"read", "write", "update", "capture", "compare", "seq_cst", "relaxed", "acq_rel",
               "acquire", "release", "hint", "weak", "fail"},
    "critical": {"name", "hint"},
    "sections": {"nowait", "private", "firstprivate", "lastprivate", "reduction"},
    "parallel sections": {"shared", "default", "num_threads", "if", "copyin", "private",
                          "firstprivate", "lastprivate", "reduction"},
    "section": set(),
    # depend(source|sink: ...) / doacross(...): the stand-alone form of a doacross loop;
    # threads (the block form's default) and simd (a hint)
    "ordered": {"depend", "doacross", "threads", "simd"},
    "taskloop": {"grainsize", "num_tasks", "nogroup", "shared", "private", "firstprivate",
                 "default", "if", "final", "priority", "untied", "mergeable", "reduction",
                 "lastprivate", "in_reduction", "collapse"},
}

#: Clauses of the form ``name([modifier,] operator: list)``.
REDUCTION_CLAUSES = ("reduction", "in_reduction", "task_reduction")
#: Where ``reduction(task, ...)`` may appear: constructs whose tasks may join the reduction.
TASK_REDUCTION_CONSTRUCTS = {"parallel", "for", "parallel for", "sections", "parallel sections",
                             "scope"}

STANDALONE = {"barrier", "taskwait", "taskyield", "flush", "error", "scan", "depobj"}
# depobj(o) depend(kind: item) | update(kind) | destroy[(o)]: the object is the `object` clause
SUPPORTED["depobj"] = {"object", "depend", "update", "destroy"}
SUPPORTED["scan"] = {"inclusive", "exclusive"}
# `simd reduction(inscan, ...)`: a loop one thread runs in order, its scan directive inside
SUPPORTED["sequential scan"] = set()
SUPPORTED["error"] = {"message", "severity"}
SUPPORTED["flush"] = set()
# proc_bind: a placement hint (workers are not bound to places here)
for _name in ("parallel", "parallel for", "parallel sections"):
    SUPPORTED[_name] = SUPPORTED[_name] | {"proc_bind"}

#: Clauses that only shape how a loop is vectorised or ordered: ``simd``'s, and
#: ``order(concurrent)`` (the iterations may run in any order, as a worksharing loop's do).
_SIMD_CLAUSES = {"simdlen", "safelen", "aligned", "nontemporal", "order"}
#: Clauses of a combined ``parallel ... taskloop`` that belong to the parallel region.
_PARALLEL_CLAUSES = {"num_threads", "proc_bind", "shared", "default"}

#: ``depend`` kinds and how a task then uses the item.
DEPEND_KINDS = {"in": "taskdependin", "out": "taskdependout", "inout": "taskdependinout",
                # ordered as inout: exclusive and in creation order, which the looser
                # kinds allow (mutually exclusive in any order; concurrent within a set)
                "mutexinoutset": "taskdependinout", "inoutset": "taskdependinout"}

_TOKEN_RE = re.compile(r"\s*(?:([A-Za-z_]\w*)|(\d[\w.]*)|(\S))")


@dataclass(frozen=True)
class Clause:
    """One clause: ``reduction(+: s, t)`` is ``Clause("reduction", ("s", "t"), "+")``;
    ``schedule(dynamic, 4)`` is ``Clause("schedule", ("4",), "dynamic")``."""

    name: str
    args: tuple[str, ...] = ()
    modifier: str | None = None
    #: A reduction's reduction-modifier (``task`` in ``reduction(task, +: x)``).
    flavor: str | None = None


@dataclass
class Pragma:
    directive: str
    clauses: list[Clause]
    file: str
    line: int
    column: int
    offset: int
    text: str

    @property
    def location(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"

    @property
    def standalone(self) -> bool:
        return self.directive in STANDALONE or self.doacross is not None

    @property
    def doacross(self) -> str | None:
        """``source`` or ``sink`` for a stand-alone ``ordered`` of a doacross loop
        (``depend(source)``, ``depend(sink: vec)``, ``doacross(...)``), else None."""
        if self.directive != "ordered":
            return None
        for c in self.clauses:
            if c.name in ("depend", "doacross") and c.modifier in ("source", "sink"):
                return c.modifier
        return None

    @property
    def spelled(self) -> str:
        """The directive as written, for messages: its name, or the words after
        ``#pragma omp`` when it has none the parser knows."""
        if self.directive:
            return self.directive
        return re.sub(r"^\s*#\s*pragma\s+omp\s*", "", self.text).split("(")[0].strip()

    def clause(self, name: str) -> Clause | None:
        for c in self.clauses:
            if c.name == name:
                return c
        return None

    def all(self, name: str) -> list[Clause]:
        return [c for c in self.clauses if c.name == name]

    def error(self, message: str) -> CartsError:
        return CartsError(message, self.location)


def _split_top_level(text: str, sep: str = ",") -> list[str]:
    parts, depth, cur = [], 0, []
    for ch in text:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == sep and depth == 0:
            parts.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    tail = "".join(cur).strip()
    if tail:
        parts.append(tail)
    return parts


def parse_pragma_text(text: str, where: str,
                      macros: dict[str, list[str]] | None = None) -> tuple[str, list[Clause]]:
    """Parse the text after ``#pragma omp`` into (directive, clauses); ``macros`` expand in
    a metadirective's conditions."""
    meta = re.match(r"\s*metadirective\b", text)
    if meta:
        return parse_pragma_text(metadirective_variant(text[meta.end():], where, macros or {}),
                                 where)
    pos, words = 0, []
    while True:
        m = re.match(r"\s*([A-Za-z_]\w*)", text[pos:])
        if not m or m.group(1) not in _DIRECTIVE_WORDS:
            break
        if words and m.group(1) in _CLAUSE_WORDS | _LEADING_ONLY:  # `for ordered`: the clause
            break
        # `for` is a directive word, but also ends a clause-less `parallel for`.
        words.append(m.group(1))
        pos += m.end()
    directive = " ".join(words)
    clauses: list[Clause] = []
    rest = text[pos:]
    if directive == "flush":  # `flush(a, b)`: the list is no clause
        rest = re.sub(r"^\s*(acq_rel|release|acquire|seq_cst)?\s*(\([^)]*\))?", "", rest)
    if directive == "allocate":  # `allocate(a, b) allocator(...)`: the list is no clause
        rest = re.sub(r"^\s*\([^)]*\)", "", rest)
    if directive == "threadprivate":  # `threadprivate(a, b)`: the list is no clause
        m = re.match(r"\s*\(([^)]*)\)", rest)
        if m:
            clauses.append(Clause("list", tuple(n.strip() for n in m.group(1).split(","))))
            rest = rest[m.end():]
    if directive == "depobj":  # `depobj(o)`: the object is no clause
        m = re.match(r"\s*\(([^)]*)\)", rest)
        if m:
            clauses.append(Clause("object", (m.group(1).strip(),)))
            rest = rest[m.end():]
    if directive == "critical":  # `critical(name)`: the name is no clause
        m = re.match(r"\s*\(\s*([A-Za-z_]\w*)\s*\)", rest)
        if m:
            clauses.append(Clause("name", (m.group(1),)))
            rest = rest[m.end():]
    for name, inner in _clause_texts(rest, where):
        clauses.append(_make_clause(name, inner, where))
    return directive, clauses


#: The device traits of this host, as context selectors name them.
_HOST_KINDS = {"host", "cpu", "any"}
_HOST_ARCHES = {"x86_64", "x86-64", "amd64"} if platform.machine() in ("x86_64", "AMD64") \
    else {"aarch64", "arm64"} if platform.machine() in ("aarch64", "arm64") else set()


def metadirective_variant(text: str, where: str, macros: dict[str, list[str]]) -> str:
    """The directive a ``metadirective`` stands for, chosen when the program is compiled:
    the first ``when(selector: variant)`` whose selector this host matches, else the
    ``otherwise``/``default`` variant, else nothing. Matched: ``device``/``target_device``
    ``kind(host|cpu|any)`` and ``arch`` of this machine; ``user={condition(c)}`` with c an
    integer constant (macros expanded). Not matched: other kinds (``gpu``, ``nohost``),
    ``isa``, ``implementation`` vendors and extensions. A condition known only at run time
    and ``construct`` selectors are refused."""
    chosen = None
    fallback = ""
    for name, inner in _clause_texts(text, where):
        if name in ("default", "otherwise"):
            fallback = inner or ""
            continue
        if name != "when" or inner is None:
            raise CartsError(f"unsupported C construct: omp metadirective clause '{name}'", where)
        selector, colon, variant = inner.partition(":")
        depth = 0
        for k, ch in enumerate(inner):  # the colon after the selector's braces
            depth += ch in "({"
            depth -= ch in ")}"
            if ch == ":" and depth == 0:
                selector, colon, variant = inner[:k], ":", inner[k + 1:]
                break
        if not colon:
            raise CartsError("omp metadirective: when(selector: directive) needs its ':'", where)
        if chosen is None and selector_matches(selector, where, macros):
            chosen = variant
    variant = (chosen if chosen is not None else fallback).strip()
    return variant or "nothing"


def selector_matches(selector: str, where: str, macros: dict[str, list[str]],
                     constructs: frozenset[str] | None = None, what: str = "omp metadirective") -> bool:
    """Whether this host matches a context selector (see ``metadirective_variant``);
    ``constructs``: the constructs around the point it is asked for, which a ``construct``
    selector names (None: not known there, refused)."""
    for m in re.finditer(r"([A-Za-z_]\w*)\s*=\s*\{([^{}]*)\}", selector):
        kind, traits = m.group(1), m.group(2)
        for t in re.finditer(r"([A-Za-z_]\w*)\s*(?:\(([^()]*(?:\([^()]*\)[^()]*)*)\))?", traits):
            trait, args = t.group(1), [a.strip().strip('"') for a in _split_top_level(t.group(2) or "")]
            if kind in ("device", "target_device"):
                if trait == "kind" and not all(a in _HOST_KINDS for a in args):
                    return False
                if trait == "arch" and not all(a in _HOST_ARCHES for a in args):
                    return False
                if trait == "isa":
                    return False
            elif kind == "implementation":
                if trait in ("vendor", "extension"):
                    return False
            elif kind == "user" and trait == "condition":
                value = constant_value(expand_macros(",".join(args), macros))
                if value is None:
                    raise CartsError(f"unsupported C construct: {what} with a user condition "
                                     "known only at run time (write an if around the two "
                                     "constructs)", where)
                if value == 0:
                    return False
            elif kind == "construct" and constructs is not None:
                if trait not in constructs:
                    return False
            else:
                raise CartsError(f"unsupported C construct: {what} selector "
                                 f"'{kind}={{{traits.strip()}}}'", where)
    return True


def _clause_texts(text: str, where: str) -> list[tuple[str, str | None]]:
    """``name(inner)`` clauses of a directive's text, the parentheses balanced."""
    out = []
    i = 0
    while i < len(text):
        if text[i].isspace() or text[i] == ",":
            i += 1
            continue
        m = re.match(r"([A-Za-z_]\w*)\s*", text[i:])
        if not m:
            raise CartsError(f"cannot parse OpenMP clause near '{text[i:].strip()}'", where)
        i += m.end()
        inner = None
        if i < len(text) and text[i] == "(":
            j = _closing_paren(text, i)
            if j is None:
                raise CartsError(f"unbalanced parentheses in OpenMP clause '{m.group(1)}'", where)
            inner, i = text[i + 1:j], j + 1
        out.append((m.group(1), inner))
    return out


def _closing_paren(text: str, start: int) -> int | None:
    """The index of the ``)`` closing the ``(`` at ``start``, or None."""
    depth = 0
    for j in range(start, len(text)):
        depth += text[j] == "("
        depth -= text[j] == ")"
        if depth == 0:
            return j
    return None


#: A list item that is one element of a 1-D array or pointer: ``a[k]`` (no ``:``).
_ELEMENT = re.compile(r"\s*([A-Za-z_]\w*)\s*\[([^\[\]:]+)\]\s*")


def _make_clause(name: str, inner: str | None, where: str) -> Clause:
    if inner is None:
        return Clause(name)
    if name in REDUCTION_CLAUSES:
        if ":" not in inner:
            raise CartsError(f"{name} clause needs 'operator: list'", where)
        op, _, names = inner.partition(":")
        flavor, comma, op = op.rpartition(",")
        items = _split_top_level(names)
        if name == "reduction":  # an element `a[k]` is the section `a[k:1]`, as gcc takes it
            items = [_ELEMENT.sub(r"\1[\2 : 1]", item) if _ELEMENT.fullmatch(item) else item
                     for item in items]
        return Clause(name, tuple(items), op.strip(), flavor.strip() if comma else None)
    if name == "depend" and inner.strip() == "source":  # doacross, before OpenMP 5.2
        return Clause(name, (), "source")
    if name == "doacross":  # doacross(source:), doacross(source: omp_cur_iteration), (sink: ...)
        kind, _, items = inner.partition(":")
        kind = kind.strip()
        if kind == "source":
            return Clause(name, (), kind)
        if kind != "sink" or not items.strip():
            raise CartsError("doacross clause needs 'source:' or 'sink: vector'", where)
        return Clause(name, tuple(_split_top_level(items)), kind)
    if name == "depend":
        iterated = re.match(r"\s*iterator\s*\(", inner)
        if iterated:
            # `depend(iterator(it = lo:hi), kind: a[it])`: the items are elements of arrays
            # the iterator ranges over; the task orders on each array whole, which only
            # adds orderings to the ones the elements would give
            j = _closing_paren(inner, iterated.end() - 1)
            rest = inner[j + 1:].lstrip().lstrip(",") if j is not None else ""
            kind, colon, items = rest.partition(":")
            if j is None or not colon:
                raise CartsError("depend(iterator(...), kind: list) needs its kind and list", where)
            bases = dict.fromkeys(depend_base(item) for item in _split_top_level(items))
            return Clause(name, tuple(b for b in bases if b), kind.strip())
        kind, colon, items = inner.partition(":")
        if not colon:
            raise CartsError("depend clause needs 'kind: list'", where)
        return Clause(name, tuple(_split_top_level(items)), kind.strip())
    if name == "lastprivate" and re.match(r"\s*conditional\s*:", inner):
        names = inner.split(":", 1)[1]
        return Clause(name, tuple(_split_top_level(names)), None, "conditional")
    if name == "schedule":
        # `monotonic:`, `nonmonotonic:` and `simd:` only allow orders (or chunk sizes) the
        # schedule already has: the kind after them is the schedule
        inner = re.sub(r"^\s*(?:(?:non)?monotonic|simd)\s*(?:,\s*(?:(?:non)?monotonic|simd)\s*)?:",
                       "", inner)
        parts = _split_top_level(inner)
        kind = parts[0].strip() if parts else ""
        return Clause(name, tuple(parts[1:]), kind)
    if name in ("grainsize", "num_tasks"):
        # `strict:`: every chunk has exactly the size asked (the last one may be shorter),
        # which is how chunks are cut anyway
        inner = re.sub(r"^\s*strict\s*:", "", inner)
    return Clause(name, tuple(_split_top_level(inner)))


def combined_forms(directive: str, clauses: list[Clause],
                   where: str) -> list[tuple[str, list[Clause]]]:
    """The OpenMP 5.x spellings as the constructs they are made of, outermost first.
    ``simd`` is a hint (the loop runs as without it, so a loop that is only ``simd`` has no
    directive left); ``loop`` is the worksharing loop of its binding region (``bind(thread)``:
    each thread runs the whole loop, as with no directive); ``parallel master|masked`` and
    ``[parallel] master taskloop`` are their parts nested."""
    words = directive.split()
    if words in (["tile"], ["unroll"]):  # loop transformations: the same iterations in order
        return []
    if directive in NO_OPS or words[:1] == ["cancel"] or words[:2] == ["cancellation", "point"]:
        return []
    if words == ["declare", "simd"]:  # a function's vector variants: a hint
        return []
    clauses = [c for c in clauses if c.name != "allocate"]  # where privates live: the heap
    if words == ["error"]:
        return _error_directive(clauses, where)
    if words == ["ordered", "simd"] and not any(c.name == "threads" for c in clauses):
        return []  # orders the SIMD lanes of one thread, whose iterations run in order here
    if "simd" in words:
        # `linear` stays with a loop the threads share (`for simd`), which keeps its meaning
        dropped = _SIMD_CLAUSES | ({"linear"} if "for" not in words else set())
        words = [w for w in words if w != "simd"]
        clauses = [c for c in clauses if c.name not in dropped and
                   not (c.name == "if" and c.args and c.args[0].lstrip().startswith("simd"))]
        if not words:
            if any(c.name == "reduction" and c.flavor == "inscan" for c in clauses):
                # a loop one thread runs in order: its `scan` directive changes nothing
                return [("sequential scan", [])]
            return []
    if words and words[-1] == "loop":
        bind = next((c.args[0].strip() for c in clauses if c.name == "bind" and c.args), None)
        clauses = [c for c in clauses if c.name not in ("bind", "order")]
        if bind == "teams":
            raise CartsError("unsupported C construct: omp loop bind(teams) (there are no teams "
                             "on the host: write 'parallel for')", where)
        if bind == "thread" and words == ["loop"]:
            return []
        words[-1] = "for"
    if words[:1] == ["for"] or words[:2] == ["parallel", "for"]:
        clauses = [c for c in clauses if c.name != "order"]
    if words[:1] == ["masked"] or words[:2] == ["parallel", "masked"]:
        filt = next((c for c in clauses if c.name == "filter"), None)
        if filt is not None and constant_value(filt.args[0] if filt.args else "") != 0:
            # the thread the filter names: `masked` itself, inside the region and around
            # the taskloop of the combined forms
            rest = [c for c in clauses if c is not filt]
            parts = []
            if words[0] == "parallel":
                outer = [c for c in rest if c.name in _PARALLEL_CLAUSES or c.name == "if"]
                rest = [c for c in rest if c not in outer]
                if words[2:] != ["taskloop"]:
                    outer, rest = outer + rest, []
                parts.append(("parallel", outer))
                words = words[1:]
            parts.append(("masked", [filt]))
            if words[1:] == ["taskloop"]:
                parts.append(("taskloop", rest))
            elif words[1:]:
                raise CartsError(f"unsupported C construct: omp {directive}", where)
            return parts
        clauses = [c for c in clauses if c.name != "filter"]
        words = [w if w != "masked" else "master" for w in words]
    if len(words) > 1 and words[0] == "parallel" and words[1] == "master":
        outer = [c for c in clauses if c.name in _PARALLEL_CLAUSES or c.name == "if"]
        rest = [c for c in clauses if c not in outer]
        if words[2:] == ["taskloop"]:
            return [("parallel", outer), ("master", []), ("taskloop", rest)]
        return [("parallel", clauses), ("master", [])]
    if words == ["master", "taskloop"]:
        return [("master", []), ("taskloop", clauses)]
    return [(" ".join(words), clauses)]


def _error_directive(clauses: list[Clause], where: str) -> list[tuple[str, list[Clause]]]:
    """``#pragma omp error``: at compilation (the default), a fatal one stops the compile
    with its message and a warning is printed; at execution it is a statement."""
    def arg(name: str, default: str) -> str:
        c = next((c for c in clauses if c.name == name), None)
        return ", ".join(c.args).strip() if c is not None and c.args else default
    text = arg("message", '""')
    message = text[1:-1] if len(text) >= 2 and text[0] == text[-1] == '"' else text
    severity = arg("severity", "fatal")
    if severity not in ("fatal", "warning"):
        raise CartsError(f"unknown severity '{severity}' on omp error", where)
    at = arg("at", "compilation")
    if at == "execution":  # the statement that prints the message (and stops if fatal)
        return [("error", [Clause("message", (message,)), Clause("severity", (severity,))])]
    if at != "compilation":
        raise CartsError(f"unknown at({at}) on omp error", where)
    if severity == "warning":
        import sys
        print(f"{where}: warning: omp error: {message}", file=sys.stderr)
        return []
    raise CartsError(f"omp error: {message}" if message else "omp error", where)


@dataclass
class PragmaQueue:
    """The ``#pragma omp`` directives of one file, sorted by offset.  The statement emitter
    takes, before each statement, the directives that precede it."""

    pragmas: list[Pragma] = field(default_factory=list)
    _offsets: list[int] = field(default_factory=list)
    _next: int = 0

    def __post_init__(self) -> None:
        self.pragmas.sort(key=lambda p: p.offset)
        self._offsets = [p.offset for p in self.pragmas]

    def seek(self, offset: int) -> None:
        """Skip every pragma before ``offset`` (start of a function body)."""
        self._next = bisect.bisect_left(self._offsets, offset)

    def has_before(self, offset: int) -> bool:
        return self._next < len(self.pragmas) and self.pragmas[self._next].offset < offset

    def upcoming(self) -> list[Pragma]:
        """The pragmas not taken yet, in order."""
        return self.pragmas[self._next:]

    def take_before(self, offset: int) -> list[Pragma]:
        out = []
        while self._next < len(self.pragmas) and self.pragmas[self._next].offset < offset:
            out.append(self.pragmas[self._next])
            self._next += 1
        return out

    def take_directive_before(self, offset: int, directive: str) -> list[Pragma]:
        """The run of ``directive`` pragmas next in line before ``offset`` (taken)."""
        out = []
        while self._next < len(self.pragmas) and self.pragmas[self._next].offset < offset and \
                self.pragmas[self._next].directive == directive:
            out.append(self.pragmas[self._next])
            self._next += 1
        return out

    def within(self, start: int, end: int) -> list[Pragma]:
        lo = bisect.bisect_left(self._offsets, start)
        hi = bisect.bisect_left(self._offsets, end)
        return self.pragmas[lo:hi]


def collect_pragmas(tu: ci.TranslationUnit, path: str) -> PragmaQueue:
    """Every active ``#pragma omp`` of the main file, parsed.  Other pragmas are ignored."""
    with open(path, "rb") as f:
        source = f.read().decode("utf-8", errors="replace")
    lines = source.split("\n")
    skipped = cs.skipped_line_ranges(tu, path)
    tokens = list(tu.get_tokens(extent=tu.cursor.extent))
    found: list[Pragma] = []
    macros = None
    for k in range(len(tokens) - 2):
        hash_tok = tokens[k]
        if hash_tok.spelling != "#" or hash_tok.kind != ci.TokenKind.PUNCTUATION:
            continue
        loc = hash_tok.location
        if loc.file is None or loc.file.name != path:
            continue
        if tokens[k + 1].spelling != "pragma" or tokens[k + 2].spelling != "omp":
            continue
        if tokens[k + 1].location.line != loc.line:
            continue
        line = loc.line
        if any(lo <= line <= hi for lo, hi in skipped):
            continue
        text = _logical_line(lines, line - 1)
        m = re.search(r"#\s*pragma\s+omp\b(.*)", text)
        if not m:
            continue
        where = f"{path}:{line}:{loc.column}"
        text = _strip_comments(m.group(1))
        if re.match(r"\s*metadirective\b", text):
            macros = macros if macros is not None else cs.object_macros(tu)
        directive, clauses = parse_pragma_text(text, where, macros)
        for part, part_clauses in combined_forms(directive, clauses, where):
            found.append(Pragma(part, part_clauses, path, line, loc.column, loc.offset,
                                text.strip()))
    return PragmaQueue(found)


def _logical_line(lines: list[str], index: int) -> str:
    text = lines[index]
    while text.rstrip().endswith("\\") and index + 1 < len(lines):
        index += 1
        text = text.rstrip()[:-1] + " " + lines[index]
    return text


def _strip_comments(text: str) -> str:
    text = re.sub(r"/\*.*?\*/", " ", text)
    return text.split("//", 1)[0]


# --------------------------------------------------------------------------------------
# Clause arguments
# --------------------------------------------------------------------------------------


def depend_base(item: str) -> str:
    """The variable a ``depend`` item names: ``a`` of ``a``, ``a[i]``, ``a[i][j]``,
    ``a[lo:len]`` (empty if the item does not start with one)."""
    m = re.match(r"\s*([A-Za-z_]\w*)", item)
    return m.group(1) if m else ""


def expand_macros(text: str, macros: dict[str, list[str]], depth: int = 0) -> str:
    """Expand object-like macros in a clause argument (``CHUNK`` -> ``16``)."""
    if depth > 20:
        return text
    out = []
    changed = False
    for m in _TOKEN_RE.finditer(text):
        ident, number, punct = m.groups()
        if ident and ident in macros:
            out.append(" ".join(macros[ident]))
            changed = True
        else:
            out.append(ident or number or punct or "")
    result = " ".join(out)
    return expand_macros(result, macros, depth + 1) if changed else result


def constant_value(text: str) -> int | None:
    """Evaluate an integer constant expression made of literals, + - * / % ( ), the
    comparisons and ``&& || !`` (1 or 0, as in C)."""
    import ast

    cleaned = re.sub(r"(?<=\d)[uUlL]+\b", "", text.strip())
    cleaned = re.sub(r"([<>=!&|])\s+(?=[=&|])", r"\1", cleaned)  # `> =` as macros leave it
    cleaned = re.sub(r"!(?!=)", " not ", cleaned.replace("&&", " and ").replace("||", " or "))
    try:
        tree = ast.parse(cleaned, mode="eval")
    except SyntaxError:
        return None

    def ev(node):
        if isinstance(node, ast.Expression):
            return ev(node.body)
        if isinstance(node, ast.Constant) and isinstance(node.value, int):
            return node.value
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            v = ev(node.operand)
            return -v if isinstance(node.op, ast.USub) else v
        if isinstance(node, ast.BinOp):
            a, b = ev(node.left), ev(node.right)
            if isinstance(node.op, ast.Add):
                return a + b
            if isinstance(node.op, ast.Sub):
                return a - b
            if isinstance(node.op, ast.Mult):
                return a * b
            if isinstance(node.op, (ast.Div, ast.FloorDiv)):
                return int(a / b)
            if isinstance(node.op, ast.Mod):
                return a - int(a / b) * b
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            return int(not ev(node.operand))
        if isinstance(node, ast.BoolOp):
            values = [ev(v) for v in node.values]
            return int(all(values) if isinstance(node.op, ast.And) else any(values))
        if isinstance(node, ast.Compare) and len(node.ops) == 1:
            a, b = ev(node.left), ev(node.comparators[0])
            compare = {ast.Lt: a < b, ast.LtE: a <= b, ast.Gt: a > b, ast.GtE: a >= b,
                       ast.Eq: a == b, ast.NotEq: a != b}
            if type(node.ops[0]) in compare:
                return int(compare[type(node.ops[0])])
        raise ValueError

    try:
        return int(ev(tree))
    except (ValueError, ZeroDivisionError, TypeError):
        return None
