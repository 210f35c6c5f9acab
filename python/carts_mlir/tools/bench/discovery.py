"""Which examples there are, their sources, sizes and settings (``carts benchmarks list``)."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from ...errors import CartsError


SIZES = ("mini", "small", "medium", "large")
DEFAULT_TOLERANCE = 1e-2
_CONFIG_LINE = re.compile(r"carts-benchmarks:\s*(.*?)\s*(?:\*/)?\s*$", re.M)
_MAIN_DEF = re.compile(r"\bint\s+main\s*\(")
_DIRECTIVE = re.compile(r"^\s*#\s*(\w+)\s*(.*)$")
_DATASET = re.compile(r"\b(MINI|SMALL|MEDIUM|LARGE)_DATASET\b")
_DEFINE = re.compile(r"^(\w+)\s+(.*?)\s*(?:/[*/].*)?$")


@dataclass
class Example:
    """One benchmark: a C program under ``examples/`` with its sizes and tolerance."""

    name: str
    source: Path
    relpath: str
    tolerance: float = DEFAULT_TOLERANCE
    dimensions: list[str] = field(default_factory=list)
    sizes: dict[str, list[str]] = field(default_factory=dict)


def default_examples_root() -> Path:
    """The repository's ``examples/`` (editable install), else ``./examples``."""
    for candidate in (Path(__file__).resolve().parents[4] / "examples", Path.cwd() / "examples"):
        if candidate.is_dir():
            return candidate
    raise CartsError("no examples directory found (pass --examples DIR)")


def discover_examples(root: Path) -> list[Example]:
    """Every directory under ``root`` holding a ``.c`` file, sorted by relative path."""
    if not root.is_dir():
        raise CartsError(f"examples directory '{root}' does not exist")
    found: list[Example] = []
    for directory in sorted(p for p in root.rglob("*") if p.is_dir()):
        rel = directory.relative_to(root)
        if any(part.startswith(".") for part in rel.parts):
            continue
        sources = sorted(directory.glob("*.c"))
        if not sources:
            continue
        source = _main_source(directory, sources)
        text = source.read_text(errors="replace")
        dims, sizes = parse_sizes(text)
        found.append(Example(directory.name, source, rel.as_posix(),
                             _tolerance(text, source), dims, sizes))
    counts: dict[str, int] = {}
    for ex in found:
        counts[ex.name] = counts.get(ex.name, 0) + 1
    for ex in found:
        if counts[ex.name] > 1:
            ex.name = ex.relpath
    return found


def _main_source(directory: Path, sources: list[Path]) -> Path:
    if len(sources) == 1:
        return sources[0]
    named = directory / f"{directory.name}.c"
    if named in sources:
        return named
    with_main = [s for s in sources if _MAIN_DEF.search(s.read_text(errors="replace"))]
    if len(with_main) == 1:
        return with_main[0]
    raise CartsError(f"cannot tell which .c file is the benchmark (name one {directory.name}.c)",
                     location=str(directory))


def _tolerance(text: str, source: Path) -> float:
    tolerance = DEFAULT_TOLERANCE
    for match in _CONFIG_LINE.finditer(text):
        for item in match.group(1).split():
            key, _, value = item.partition("=")
            if key != "tolerance":
                raise CartsError(f"unknown benchmark setting '{key}' (known: tolerance)",
                                 location=str(source))
            try:
                tolerance = float(value)
            except ValueError:
                tolerance = -1.0
            if not tolerance >= 0:
                raise CartsError(f"tolerance must be a number >= 0, got '{value}'",
                                 location=str(source))
    return tolerance


def parse_sizes(text: str) -> tuple[list[str], dict[str, list[str]]]:
    """Dimensions and per-size values from the first ``*_DATASET`` conditional chain."""
    branches: dict[str, dict[str, str]] = {}
    current: dict[str, str] | None = None
    depth, in_chain, else_size = 0, False, None
    for line in text.splitlines():
        directive = _DIRECTIVE.match(line)
        if not directive:
            continue
        keyword, rest = directive.groups()
        dataset = _DATASET.search(rest)
        if not in_chain:
            if keyword in ("if", "ifdef") and dataset:
                in_chain, current = True, branches.setdefault(dataset.group(1).lower(), {})
            continue
        if keyword in ("if", "ifdef", "ifndef"):
            depth += 1
        elif keyword == "endif":
            if depth == 0:
                break
            depth -= 1
        elif depth:
            continue
        elif keyword == "elif":
            current = branches.setdefault(dataset.group(1).lower(), {}) if dataset else None
        elif keyword == "else":
            else_size = dataset.group(1).lower() if dataset else None
            current = branches.setdefault("#else", {})
        elif keyword == "define" and current is not None:
            define = _DEFINE.match(rest)
            if define:
                name, value = define.groups()
                current[name.removesuffix("_DEFAULT")] = _compact(value)
    if "#else" in branches:
        values = branches.pop("#else")
        missing = [s for s in SIZES if s not in branches]
        if else_size is None and len(missing) == 1:
            else_size = missing[0]
        if else_size and else_size not in branches:
            branches[else_size] = values
    dims: list[str] = []
    for values in branches.values():
        dims += [d for d in values if d not in dims]
    sizes = {s: [branches[s].get(d, "?") for d in dims] for s in SIZES if s in branches}
    return _strip_common_prefix(dims), sizes


def _compact(value: str) -> str:
    value = value.strip()
    if value.startswith("(") and value.endswith(")"):
        value = value[1:-1]
    return value.replace(" ", "")


def _strip_common_prefix(names: list[str]) -> list[str]:
    prefix = os.path.commonprefix(names)
    prefix = prefix[: prefix.rfind("_") + 1]
    if prefix and all(len(n) > len(prefix) for n in names):
        return [n[len(prefix):] for n in names]
    return names


def select(examples: list[Example], names: list[str]) -> list[Example]:
    """The examples named (short name or relative path), in the order given; all if none."""
    if not names:
        return examples
    by_name = {ex.name: ex for ex in examples} | {ex.relpath: ex for ex in examples}
    chosen: list[Example] = []
    for name in names:
        ex = by_name.get(name.rstrip("/"))
        if ex is None:
            known = ", ".join(e.name for e in examples)
            raise CartsError(f"unknown benchmark '{name}' (known: {known})")
        if ex not in chosen:
            chosen.append(ex)
    return chosen
