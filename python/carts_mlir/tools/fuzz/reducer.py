"""Shrink a program while a predicate holds (hierarchical delta debugging over C lines).

:func:`reduce_text` works on any predicate ``text -> bool`` and on programs laid out as the
generator lays them out (one statement per line; a block's ``{`` ends the line that opens
it, its ``}`` is a line of its own). Its passes, repeated until none helps:

1. units: a statement, a block with the line that opens it (and the ``#pragma omp`` lines
   before it), a function; removed in halves, quarters, ... down to one at a time, at the
   top level first, then inside each block that is left;
2. pragmas that may go alone without making the program racy (``parallel``,
   ``parallel for``, ``task``, ``taskloop``: the code runs sequentially, or inline), and
   clauses that may go (``schedule``, ``collapse``, ``nowait``, ``firstprivate``,
   ``grainsize``, ``num_tasks``, ``nogroup``);
3. blocks unwrapped: the lines that open and close a block removed, what it holds kept
   (never under a pragma that may not go alone: ``critical``, ``single``, ...);
4. ``#define`` sizes made smaller;
5. the right-hand side of an assignment replaced by ``0`` or by one of its operands.

:func:`reduce_failure` builds the predicate for a failure of ``carts execute``: the
candidate builds under ``gcc -Wall`` without warnings of undefined behaviour, is well defined
(:meth:`runner.Gcc.reference` with ``strict``: the same output on 1, 2 and 3 threads, with
``malloc`` patterns, and from a sanitizer build whose locals start as a pattern), and fails
in the same configuration with the same status (and, for a refusal or a crash, the same
signature).
"""

from __future__ import annotations

import hashlib
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from .runner import Carts, Gcc, GeneratorError

#: Pragmas whose removal leaves a well-defined program (the code runs on one thread).
SAFE_ALONE = re.compile(r"^\s*#pragma omp (parallel( for)?|task|taskloop)\b(?!.*\bsections\b)")
#: Directives that stand alone (no statement belongs to them).
STANDALONE = re.compile(r"^\s*#pragma omp (barrier|taskwait|taskyield|flush)\b")
#: Clauses whose removal keeps the program well defined.
SAFE_CLAUSES = re.compile(r" (schedule\([^)]*\)|collapse\(\d+\)|nowait|firstprivate\([^)]*\)|"
                          r"grainsize\(\d+\)|num_tasks\(\d+\)|nogroup)")


@dataclass
class Reduction:
    text: str
    status: str
    signature: str
    tests: int


class _Reducer:
    def __init__(self, predicate: Callable[[str], bool], log: Callable[[str], None] | None,
                 max_tests: int | None):
        self.predicate = predicate
        self.log = log or (lambda line: None)
        self.max_tests = max_tests
        self.tests = 0
        self.seen: dict[str, bool] = {}
        self.lines: list[tuple[int, str]] = []

    # -- the state: lines with stable ids

    def text_of(self, lines: list[tuple[int, str]]) -> str:
        return "".join(t + "\n" for _, t in lines)

    def test(self, lines: list[tuple[int, str]]) -> bool:
        text = self.text_of(lines)
        key = hashlib.sha256(text.encode()).hexdigest()
        if key in self.seen:
            return self.seen[key]
        if self.max_tests is not None and self.tests >= self.max_tests:
            return False
        self.tests += 1
        ok = bool(self.predicate(text))
        self.seen[key] = ok
        return ok

    def attempt(self, lines: list[tuple[int, str]]) -> bool:
        if self.test(lines):
            self.lines = lines
            return True
        return False

    def without(self, ids: set[int]) -> list[tuple[int, str]]:
        return [(k, t) for k, t in self.lines if k not in ids]

    # -- units

    def units(self, lo: int, hi: int) -> list[list[int]]:
        """The units of ``self.lines[lo:hi]`` at that level, as lists of line ids."""
        lines = self.lines
        out: list[list[int]] = []
        k = lo
        while k < hi:
            end = self.unit_end(k, hi)
            out.append([lines[x][0] for x in range(k, end + 1)])
            k = end + 1
        return out

    def unit_end(self, k: int, hi: int) -> int:
        text = self.lines[k][1].strip()
        if text.startswith("#pragma omp") and not STANDALONE.match(text) and k + 1 < hi:
            return self.unit_end(k + 1, hi)
        if text.endswith("{") and not text.startswith("}"):
            return self.match(k, hi)
        if (k + 1 < hi and self.lines[k + 1][1].strip() == "{" and not text.endswith(";")
                and not text.startswith("#")):
            return self.match(k + 1, hi)
        return k

    def match(self, k: int, hi: int) -> int:
        """The line closing the block whose ``{`` ends line ``k``."""
        depth = 1
        for x in range(k + 1, hi):
            t = self.lines[x][1]
            depth += t.count("{") - t.count("}")
            if depth <= 0:
                return x
        return hi - 1

    def index(self, ident: int) -> int:
        for x, (k, _) in enumerate(self.lines):
            if k == ident:
                return x
        return -1

    def ddmin(self, units: list[list[int]]) -> None:
        granularity = 2
        while units:
            size = max(1, len(units) // granularity)
            progressed = False
            x = 0
            while x < len(units):
                chunk = units[x:x + size]
                drop = {i for u in chunk for i in u}
                if self.attempt(self.without(drop)):
                    del units[x:x + size]
                    progressed = True
                else:
                    x += size
            if not progressed:
                if size == 1:
                    break
                granularity *= 2
            elif granularity > 2:
                granularity //= 2

    def hdd(self, lo_id: int | None, hi_id: int | None) -> None:
        """Delta debugging over the units between two lines (ids; None: the file's ends),
        then inside every block left there."""
        lo = 0 if lo_id is None else self.index(lo_id) + 1
        hi = len(self.lines) if hi_id is None else self.index(hi_id)
        if lo >= hi:
            return
        self.ddmin(self.units(lo, hi))
        lo = 0 if lo_id is None else self.index(lo_id) + 1
        hi = len(self.lines) if hi_id is None else self.index(hi_id)
        for unit in reversed(self.units(lo, hi)):
            first = self.index(unit[0])
            # the line that opens the block: skip the pragmas and a function's header
            opener = first
            while opener < len(self.lines) and self.lines[opener][1].strip().startswith("#pragma"):
                opener += 1
            text = self.lines[opener][1].strip() if opener < len(self.lines) else ""
            if not (text.endswith("{") or (opener + 1 < len(self.lines)
                                           and self.lines[opener + 1][1].strip() == "{")):
                continue
            if not text.endswith("{"):
                opener += 1
            if self.lines[opener][0] not in unit or unit[-1] == self.lines[opener][0]:
                continue
            self.hdd(self.lines[opener][0], unit[-1])

    # -- the other passes

    def pragmas(self) -> bool:
        changed = False
        for ident, text in list(self.lines):
            if self.index(ident) < 0:
                continue
            if SAFE_ALONE.match(text) and self.attempt(self.without({ident})):
                changed = True
                continue
            while True:
                current = self.lines[self.index(ident)][1]
                done = False
                for m in SAFE_CLAUSES.finditer(current):
                    new = current[:m.start()] + current[m.end():]
                    if self.attempt([(k, new if k == ident else t) for k, t in self.lines]):
                        changed = done = True
                        break
                if not done:
                    break
        return changed

    def unwrap(self) -> bool:
        """Blocks replaced by what they hold: the line that opens one (with a function's
        header or the pragmas before it, when every one of them may go alone) and the line
        that closes it are removed."""
        changed = False
        for ident, _ in list(self.lines):
            x = self.index(ident)
            if x < 0:
                continue
            text = self.lines[x][1].strip()
            drop = [ident]
            if text == "{" and x > 0 and not self.lines[x - 1][1].strip().endswith((";", "}")) \
                    and not self.lines[x - 1][1].strip().startswith("#"):
                drop.append(self.lines[x - 1][0])       # a function's header
            elif not text.endswith("{") or text.startswith("}"):
                continue
            end = self.match(x, len(self.lines))
            inner = self.lines[x + 1:end]
            depth, has_else = 0, False
            for _, t in inner:
                if depth == 0 and t.strip().startswith("}"):
                    has_else = True
                depth += t.count("{") - t.count("}")
            if has_else:
                continue
            y = x - (2 if len(drop) == 2 else 1)
            pragmas_ok = True
            while y >= 0 and self.lines[y][1].strip().startswith("#pragma omp"):
                if not SAFE_ALONE.match(self.lines[y][1]):
                    pragmas_ok = False
                    break
                drop.append(self.lines[y][0])
                y -= 1
            if not pragmas_ok:
                continue
            drop.append(self.lines[end][0])
            if self.attempt(self.without(set(drop))):
                changed = True
        return changed

    def sizes(self) -> bool:
        changed = False
        for ident, text in list(self.lines):
            m = re.match(r"^#define (\w+) (\d+)$", text)
            if not m:
                continue
            value = int(m.group(2))
            for smaller in sorted({1, 2, 3, 4, 5, 8, value // 2, value - 1}):
                if 0 < smaller < value:
                    new = f"#define {m.group(1)} {smaller}"
                    if self.attempt([(k, new if k == ident else t) for k, t in self.lines]):
                        changed = True
                        break
        return changed

    def expressions(self) -> bool:
        changed = False
        for ident, _ in list(self.lines):
            while True:
                x = self.index(ident)
                if x < 0:
                    break
                text = self.lines[x][1]
                m = re.match(r"^(\s*[\w\[\]\s+\-*%()]*?[\w\]]\s*(?:[-+*^|&]?=))\s(.+);$", text)
                if (not m or text.lstrip().startswith(("for ", "if ", "#", "printf"))
                        or "==" in m.group(1)):
                    break
                rhs = m.group(2)
                done = False
                for candidate in simpler(rhs):
                    new = f"{m.group(1)} {candidate};"
                    if len(candidate) < len(rhs) and self.attempt(
                            [(k, new if k == ident else t) for k, t in self.lines]):
                        changed = done = True
                        break
                if not done:
                    break
        return changed

    def run(self, text: str, rounds: int = 4) -> str:
        self.lines = list(enumerate(text.splitlines()))
        if not self.test(self.lines):
            raise ValueError("the predicate does not hold for the program to reduce")
        for r in range(rounds):
            before = self.text_of(self.lines)
            self.hdd(None, None)
            self.log(f"round {r + 1}: units: {len(self.lines)} lines ({self.tests} tests)")
            self.pragmas()
            self.unwrap()
            self.sizes()
            self.expressions()
            self.log(f"round {r + 1}: {len(self.lines)} lines, {len(self.text_of(self.lines))} "
                     f"bytes ({self.tests} tests)")
            if self.text_of(self.lines) == before:
                break
            if self.max_tests is not None and self.tests >= self.max_tests:
                break
        return self.text_of(self.lines)


def simpler(expr: str, limit: int = 12) -> list[str]:
    """Smaller expressions to try instead of ``expr``, shortest first: ``0``, ``1``, then
    its parts (parenthesised groups, the arguments of calls, array reads and calls, names)."""
    parts: set[str] = set()
    stack: list[int] = []
    for k, ch in enumerate(expr):
        if ch == "(":
            stack.append(k)
        elif ch == ")" and stack:
            start = stack.pop()
            inner = expr[start + 1:k]
            for piece in _split_commas(inner):
                parts.add(piece)
            call = re.search(r"[A-Za-z_]\w*\s*$", expr[:start])
            if call and call.group(0).strip() not in TYPES:
                parts.add(expr[call.start():k + 1])
    parts.update(re.findall(r"[A-Za-z_]\w*(?:\[[^\[\]]*(?:\[[^\[\]]*\][^\[\]]*)*\])+", expr))
    parts.update(re.findall(r"\b[A-Za-z_]\w*\b(?!\s*[\[(])", expr))
    cands = []
    for p in parts:
        p = p.strip()
        if (not p or p in TYPES or len(p) >= len(expr) or not _balanced(p)
                or p.startswith(("?", ":", ",")) or p.endswith(("?", ":", ","))):
            continue
        cands.append(p if " " not in _top_level(p) and not p.startswith("-") else f"({p})")
    out = ["0", "1"] + sorted(set(cands) - {"0", "1"}, key=lambda c: (len(c), c))
    return [c for c in out if len(c) < len(expr)][:limit]


TYPES = {"int", "long", "float", "double", "unsigned", "char", "short", "void"}


def _split_commas(text: str) -> list[str]:
    """``text`` cut at its top-level commas (one piece when it has none)."""
    pieces, depth, cur = [], 0, []
    for ch in text:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == "," and depth == 0:
            pieces.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    pieces.append("".join(cur))
    return [p.strip() for p in pieces]


def _top_level(text: str) -> str:
    """``text`` without what its brackets and parentheses hold."""
    out, depth = [], 0
    for ch in text:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif depth == 0:
            out.append(ch)
    return "".join(out)


def _balanced(text: str) -> bool:
    depth = 0
    for ch in text:
        depth += (ch in "([") - (ch in ")]")
        if depth < 0:
            return False
    return depth == 0


def reduce_text(text: str, predicate: Callable[[str], bool], *,
                log: Callable[[str], None] | None = None, max_tests: int | None = None,
                rounds: int = 4) -> tuple[str, int]:
    """The smallest program this search finds for which ``predicate`` holds (it must hold
    for ``text``), and how many candidates it tested."""
    r = _Reducer(predicate, log, max_tests)
    result = r.run(text, rounds)
    return result, r.tests


def reduce_failure(text: str, config: str, *, status: str | None = None,
                   same_signature: bool | None = None, timeout: float = 60,
                   log: Callable[[str], None] | None = None, max_tests: int | None = 1500,
                   workdir: Path | None = None) -> Reduction:
    """Reduce a program that fails under ``carts execute`` in ``config`` (``tN``: N
    threads, ``nN``: N nodes) to a small one failing the same way."""
    work = Path(workdir or tempfile.mkdtemp(prefix="carts-reduce-"))
    work.mkdir(parents=True, exist_ok=True)
    gcc = Gcc(work / "gcc-cache")
    m = re.fullmatch(r"([tn])(\d+)(?:x(\d+))?", config)
    if not m or (m.group(1) == "t" and m.group(3)):
        raise ValueError(f"unknown configuration {config!r} (tN, nN or nNxT)")
    kind, count = m.group(1), int(m.group(2))
    carts = Carts(timeout=timeout, node_threads=int(m.group(3) or 1))
    counter = [0]

    def outcome(candidate: str, ref):
        counter[0] += 1
        d = work / f"c{counter[0] % 4}"
        d.mkdir(exist_ok=True)
        path = d / "prog.c"
        path.write_text(candidate)
        return carts.threads(path, count, ref) if kind == "t" else carts.nodes(path, count, ref)

    try:
        ref = gcc.reference(text, strict=True)
    except GeneratorError as err:
        raise ValueError(f"the program is not well defined: {err}") from None
    first = outcome(text, ref)
    if first.status == "match":
        carts.close()
        raise ValueError(f"the program does not fail in {config}")
    want_status = status or first.status
    if first.status != want_status:
        carts.close()
        raise ValueError(f"the program fails in {config} as {first.status}, not {want_status}")
    keep_signature = same_signature if same_signature is not None else \
        want_status in ("refused", "crash")
    if want_status == "hang":
        carts.timeout = min(timeout, 30)

    def predicate(candidate: str) -> bool:
        exe, _ = gcc.build(candidate)
        if exe is None:
            return False
        try:
            quick = gcc.reference(candidate)
        except GeneratorError:
            return False
        got = outcome(candidate, quick)
        if got.status != want_status or (keep_signature and got.signature != first.signature):
            return False
        try:
            gcc.reference(candidate, strict=True)
        except GeneratorError:
            return False
        return True

    try:
        result, tests = reduce_text(text, predicate, log=log, max_tests=max_tests)
    finally:
        carts.close()
    return Reduction(result, want_status, first.signature, tests)
