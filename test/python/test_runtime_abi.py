"""The compiler's picture of the runtime agrees with the runtime's header.

The compiler declares every runtime function arts-to-llvm calls in one table (name, result,
arguments in the ABI's terms; src/support/RuntimeAbi.cpp) and spells the datablock modes as
constants (RuntimeAbi.h); runtime/include/arts.h
declares the same functions in C. A change to one that the other does not follow would
compile and link (LLVM declares what the table says) and then pass the wrong bits at run
time, so this test reads both files and compares them.
"""

from __future__ import annotations

import re
from common import ROOT

HEADER = ROOT / "runtime" / "include" / "arts.h"
TABLE = ROOT / "src" / "support" / "RuntimeAbi.cpp"
MODES = ROOT / "src" / "support" / "RuntimeAbi.h"

_TABLE_ROW = re.compile(r'\{Rt::\w+,\s*"(\w+)",\s*Abi::(\w+),\s*\{([^}]*)\}\}')
_DECLARATION = re.compile(r"^ARTS_API\s+(.+?)\b(arts\w+)\s*\((.*?)\);", re.S | re.M)


def _abi(c_type: str) -> str:
    """The ABI class a C parameter or result type is passed as."""
    t = " ".join(c_type.replace("const", "").split())
    if "*" in t or "(" in t or t == "artsEdt_t":
        return "ptr"
    return {"void": "none", "bool": "i1", "int": "i32", "uint32_t": "i32",
            "uint64_t": "i64", "artsGuid_t": "i64"}[t]


def _split_parameters(text: str) -> list[str]:
    """Top-level comma split (function-pointer parameters hold commas of their own)."""
    parts, depth, current = [], 0, ""
    for ch in text:
        depth += ch == "("
        depth -= ch == ")"
        if ch == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += ch
    parts.append(current)
    return [p.strip() for p in parts if p.strip() and p.strip() != "void"]


def _parameter_type(declaration: str) -> str:
    if "(" in declaration:  # void (*name)(args)
        return "fnptr*"
    return re.sub(r"\b\w+$", "", declaration).strip()  # drop the parameter's name


def header_functions() -> dict[str, tuple[str, list[str]]]:
    text = re.sub(r"/\*.*?\*/", "", HEADER.read_text(), flags=re.S)
    found = {}
    for result, name, params in _DECLARATION.findall(text):
        found[name] = (_abi(result), [_abi(_parameter_type(p)) for p in _split_parameters(params)])
    return found


def table_functions() -> dict[str, tuple[str, list[str]]]:
    text = TABLE.read_text()
    found = {}
    for name, result, args in _TABLE_ROW.findall(text):
        found[name] = (result, re.findall(r"Abi::(\w+)", args))
    return found


def test_the_table_and_the_header_are_read():
    # the parsers above must see what is there, or the comparisons below prove nothing
    enum = re.search(r"enum class Rt : \w+ \{(.*?)\};", MODES.read_text(), re.S)
    assert len(table_functions()) == len(re.findall(r"\w+", enum.group(1))) == 24
    assert header_functions()["artsEdtCreate"] == ("i64", ["ptr", "i32", "i32", "ptr", "i32"])
    assert header_functions()["artsEdtCreateWithDbs"] == (
        "i64", ["ptr", "i32", "i32", "ptr", "i32", "i64", "i32", "ptr"])
    assert header_functions()["artsSetEntryPoints"] == ("none", ["ptr", "ptr", "ptr"])


def test_every_function_the_lowering_calls_is_declared_with_the_same_signature():
    header = header_functions()
    for name, signature in table_functions().items():
        assert name in header, f"{name} is called by ArtsToLlvm but not declared in arts.h"
        assert header[name] == signature, (
            f"{name}: ArtsToLlvm passes {signature}, arts.h declares {header[name]}")


def test_the_datablock_modes_match_the_header():
    header = HEADER.read_text()
    lowering = MODES.read_text()
    for ours, theirs in (("kDbRead", "ARTS_DB_READ"), ("kDbWrite", "ARTS_DB_WRITE"),
                         ("kDbConcurrent", "ARTS_DB_CONCURRENT"),
                         ("kDbReadStable", "ARTS_DB_READ_STABLE"),
                         ("kDbConcurrentStable", "ARTS_DB_CONCURRENT_STABLE"),
                         ("kDbWriteStable", "ARTS_DB_WRITE_STABLE")):
        value = re.search(rf"constexpr int32_t {ours} = (\d+);", lowering)
        expected = re.search(rf"\b{theirs} = (\d+)", header)
        assert value and expected, (ours, theirs)
        assert value.group(1) == expected.group(1), f"{ours} = {value.group(1)}, " \
                                                    f"{theirs} = {expected.group(1)}"


def test_python_checks_the_bounds_the_runtime_checks():
    """config.py's bounds come from the runtime's header (CMake writes carts_mlir/_bounds.py
    from it), so `threads`/`nodeCount` are refused at the same values on both sides."""
    from carts_mlir import config

    defines = dict(re.findall(r"^#define CARTS_(MAX_\w+) (\d+)u?$",
                              (ROOT / "runtime" / "include" / "carts_config.h").read_text(),
                              re.M))
    assert defines == {"MAX_THREADS": str(config.MAX_THREADS),
                       "MAX_NODES": str(config.MAX_NODES)}
