"""libclang access: parsing with the right flags, diagnostics as located errors, and the
few pieces of the libclang C API that the ``clang.cindex`` Python module does not wrap.

libclang 18's Python module has no accessor for operator kinds or constant evaluation,
but ``libclang.so`` exports the C functions (``clang_getCursorBinaryOperatorKind`` since
clang 17, ``clang_Cursor_Evaluate`` since clang 3.9).  We call them through ctypes: unlike
reading operators back from the token stream, they see through macro expansions
(``#define IDX(i, j) ((i) * N + (j))``), where the tokens of a cursor are the macro's name.
"""

from __future__ import annotations

import ctypes
import functools
import os
import subprocess
from dataclasses import dataclass
from typing import Iterable

import clang.cindex as ci

from ..errors import CartsError
from ..files import read_source

CursorKind = ci.CursorKind
TypeKind = ci.TypeKind

#: Directory of the headers we ship (our ``omp.h``); searched before the system's.
SHIM_INCLUDE_DIR = os.path.join(os.path.dirname(__file__), "include")

# clang-c/Index.h: enum CXUnaryOperatorKind (stable since clang 17).
_UNARY_KINDS = {
    1: "post++",
    2: "post--",
    3: "pre++",
    4: "pre--",
    5: "&",
    6: "*",
    7: "+",
    8: "-",
    9: "~",
    10: "!",
}

# clang-c/Index.h: enum CXEvalResultKind.
_EVAL_INT, _EVAL_FLOAT, _EVAL_STR = 1, 2, 4


def _lib():
    return ci.conf.lib


# name -> (argument types, result type) of the libclang functions we call directly.
_EVAL = ctypes.c_void_p  # a CXEvalResult
_SIGNATURES = {
    "clang_getCursorBinaryOperatorKind": ([ci.Cursor], ctypes.c_int),
    "clang_getBinaryOperatorKindSpelling": ([ctypes.c_int], ci._CXString),
    "clang_getCursorUnaryOperatorKind": ([ci.Cursor], ctypes.c_int),
    "clang_Cursor_Evaluate": ([ci.Cursor], _EVAL),
    "clang_EvalResult_getKind": ([_EVAL], ctypes.c_int),
    "clang_EvalResult_isUnsignedInt": ([_EVAL], ctypes.c_uint),
    "clang_EvalResult_getAsUnsigned": ([_EVAL], ctypes.c_ulonglong),
    "clang_EvalResult_getAsLongLong": ([_EVAL], ctypes.c_longlong),
    "clang_EvalResult_getAsDouble": ([_EVAL], ctypes.c_double),
    "clang_EvalResult_getAsStr": ([_EVAL], ctypes.c_char_p),
    "clang_EvalResult_dispose": ([_EVAL], None),
    "clang_Cursor_getVarDeclInitializer": ([ci.Cursor], ci.Cursor),
    "clang_Cursor_isMacroFunctionLike": ([ci.Cursor], ctypes.c_uint),
}


@functools.cache
def _c_api() -> ctypes.CDLL:
    """The libclang functions we call directly, with their signatures declared once."""
    lib = _lib()
    for name, (argtypes, restype) in _SIGNATURES.items():
        function = getattr(lib, name)
        function.argtypes, function.restype = argtypes, restype
        if restype is ci.Cursor:
            function.errcheck = ci.Cursor.from_result
    return lib


@functools.cache
def _binary_spellings() -> dict[int, str]:
    lib = _c_api()
    spellings = {}
    for kind in range(1, 34):  # CXBinaryOperator_PtrMemD .. CXBinaryOperator_Comma
        text = ci._CXString.from_result(lib.clang_getBinaryOperatorKindSpelling(kind))
        if text:
            spellings[kind] = text.decode() if isinstance(text, bytes) else text
    return spellings


def binary_operator(cursor: ci.Cursor) -> str:
    """The operator of a BINARY_OPERATOR / COMPOUND_ASSIGNMENT_OPERATOR cursor: ``"+"``,
    ``"<="``, ``"+="``, ``"&&"``, ``","`` ..."""
    kind = _c_api().clang_getCursorBinaryOperatorKind(cursor)
    return _binary_spellings().get(kind, "?")


def unary_operator(cursor: ci.Cursor) -> str:
    """The operator of a UNARY_OPERATOR cursor: ``"-"``, ``"!"``, ``"~"``, ``"*"``, ``"&"``,
    ``"pre++"``, ``"post--"`` ..."""
    return _UNARY_KINDS.get(_c_api().clang_getCursorUnaryOperatorKind(cursor), "?")


def evaluate(cursor: ci.Cursor) -> int | float | bytes | None:
    """Clang's constant evaluation of an expression cursor (literals, ``sizeof``, enum
    constants, constant arithmetic); None when it is not a constant."""
    lib = _c_api()
    result = lib.clang_Cursor_Evaluate(cursor)
    if not result:
        return None
    try:
        kind = lib.clang_EvalResult_getKind(result)
        if kind == _EVAL_INT:
            if lib.clang_EvalResult_isUnsignedInt(result):
                return int(lib.clang_EvalResult_getAsUnsigned(result))
            return int(lib.clang_EvalResult_getAsLongLong(result))
        if kind == _EVAL_FLOAT:
            return float(lib.clang_EvalResult_getAsDouble(result))
        if kind == _EVAL_STR:
            return lib.clang_EvalResult_getAsStr(result) or b""
        return None
    finally:
        lib.clang_EvalResult_dispose(result)


_ESCAPES = {"n": 10, "t": 9, "r": 13, "a": 7, "b": 8, "f": 12, "v": 11, "\\": 92, '"': 34,
            "'": 39, "?": 63, "e": 27}


def string_literal_bytes(cursor: ci.Cursor) -> bytes | None:
    """The bytes of a STRING_LITERAL (without the terminating NUL); None for wide
    literals.  Clang spells a literal already concatenated and macro-expanded."""
    text = cursor.spelling
    if not text.startswith('"'):
        if text.startswith('u8"'):
            text = text[2:]
        else:
            return None
    body = text[1:-1]
    out = bytearray()
    k = 0
    while k < len(body):
        ch = body[k]
        if ch != "\\":
            out += ch.encode("utf-8")
            k += 1
            continue
        k += 1
        esc = body[k]
        if esc in _ESCAPES:
            out.append(_ESCAPES[esc])
            k += 1
        elif esc == "x":
            j = k + 1
            while j < len(body) and body[j] in "0123456789abcdefABCDEF":
                j += 1
            out.append(int(body[k + 1 : j], 16) & 0xFF)
            k = j
        elif esc in "01234567":
            j = k
            while j < len(body) and j < k + 3 and body[j] in "01234567":
                j += 1
            out.append(int(body[k:j], 8) & 0xFF)
            k = j
        else:
            out += esc.encode("utf-8")
            k += 1
    return bytes(out)


def var_initializer(decl: ci.Cursor) -> ci.Cursor | None:
    """The initializer of a VAR_DECL (children alone cannot tell it from an array size)."""
    init = _c_api().clang_Cursor_getVarDeclInitializer(decl)
    if init is None or init.kind.is_invalid():
        return None
    return init


def is_function_like_macro(cursor: ci.Cursor) -> bool:
    return bool(_c_api().clang_Cursor_isMacroFunctionLike(cursor))


# --------------------------------------------------------------------------------------
# Locations
# --------------------------------------------------------------------------------------


def location_of(cursor: ci.Cursor) -> str:
    """``file:line:col`` where a construct starts (a declaration at its first token, not at
    its name), as error messages print it."""
    loc = cursor.extent.start
    if loc.file is None:
        loc = cursor.location
    name = loc.file.name if loc.file else "<unknown>"
    return f"{name}:{loc.line}:{loc.column}"


def unsupported(cursor: ci.Cursor, what: str) -> CartsError:
    """The error for C the front end does not handle, located at ``cursor``."""
    return CartsError(f"unsupported C construct: {what}", location_of(cursor))


def describe(cursor: ci.Cursor) -> str:
    """How an error message names an expression the front end does not handle."""
    names = {
        "STRING_LITERAL": "string literal here",
        "INIT_LIST_EXPR": "initialiser list here",
        "MEMBER_REF_EXPR": "struct member access",
        "ADDR_LABEL_EXPR": "label address",
        "STMT_EXPR": "statement expression",
        "GNU_STMT_EXPR": "statement expression",
        "COMPOUND_LITERAL_EXPR": "compound literal",
    }
    if cursor.kind.name in names:
        return names[cursor.kind.name]
    return f"expression ({cursor.kind.name.lower()})"


# --------------------------------------------------------------------------------------
# Parsing
# --------------------------------------------------------------------------------------


@functools.cache
def gcc_include_dir() -> str | None:
    """gcc's private include directory (``stddef.h``, ``stdarg.h``, ...): libclang from
    PyPI ships no resource headers of its own."""
    for compiler in ("gcc", "cc"):
        try:
            out = subprocess.run(
                [compiler, "-print-file-name=include"], capture_output=True, text=True, timeout=30
            )
        except (OSError, subprocess.SubprocessError):
            continue
        path = out.stdout.strip()
        if out.returncode == 0 and os.path.isdir(path):
            return path
    return None


@dataclass(frozen=True)
class ParseOptions:
    defines: tuple[str, ...] = ()
    includes: tuple[str, ...] = ()
    openmp: bool = False
    extra_args: tuple[str, ...] = ()


def clang_arguments(options: ParseOptions) -> list[str]:
    """The command line libclang sees.  Never ``-fopenmp``: with it libclang hides the
    loops of OpenMP constructs inside captured statements (we read the pragmas ourselves)."""
    args = ["-x", "c", "-D__CARTS__"]
    if options.openmp:
        args.append("-D_OPENMP=201511")
    args += [f"-D{d}" for d in options.defines]
    args += [f"-I{i}" for i in options.includes]
    args += list(options.extra_args)
    args += ["-isystem", SHIM_INCLUDE_DIR]
    gcc_dir = gcc_include_dir()
    if gcc_dir:
        args += ["-isystem", gcc_dir]
    return args


C_STANDARDS = ("c89", "c90", "c99", "c11", "c17", "c18", "c2x", "c23", "gnu89", "gnu90",
               "gnu99", "gnu11", "gnu17", "gnu18", "gnu2x", "gnu23", "iso9899:1990",
               "iso9899:199409", "iso9899:1999", "iso9899:2011", "iso9899:2017",
               "iso9899:2018")
"""The ``-std=`` values clang takes for C; anything else makes libclang fail without a
diagnostic, so it is refused here with one."""


def check_standard(options: ParseOptions) -> None:
    for arg in options.extra_args:
        if arg.startswith("-std="):
            value = arg.removeprefix("-std=")
            if value not in C_STANDARDS:
                raise CartsError(f"unknown C standard '{value}' in '{arg}' (known: "
                                 f"{', '.join(C_STANDARDS)})")


def parse(path: str, options: ParseOptions) -> ci.TranslationUnit:
    """Parse ``path``; clang errors become a CartsError ``file:line:col: error: msg``."""
    if not os.path.exists(path):
        raise CartsError("no such file", path)
    read_source(path)  # a directory, an unreadable file or bytes that are not UTF-8
    check_standard(options)
    # libclang parses on a thread of its own with an 8 MiB stack, which a long chain of
    # binary operators (a loop body of 20,000 terms) overflows; without that thread it
    # parses on the caller's, which is the front end's deep stack.
    os.environ.setdefault("LIBCLANG_NOTHREADS", "1")
    index = ci.Index.create()
    try:
        tu = index.parse(
            path,
            args=clang_arguments(options),
            options=ci.TranslationUnit.PARSE_DETAILED_PROCESSING_RECORD,
        )
    except ci.TranslationUnitLoadError as err:
        raise CartsError(f"clang could not parse the file ({err})", path) from None
    errors = [d for d in tu.diagnostics if d.severity >= ci.Diagnostic.Error]
    if errors:
        first, rest = errors[0], errors[1:]
        message = first.spelling
        for d in rest[:9]:
            message += f"\n{_diag_location(d)}: error: {d.spelling}"
        raise CartsError(message, _diag_location(first))
    return tu


def _diag_location(diag: ci.Diagnostic) -> str:
    loc = diag.location
    if loc.file is None:
        return "<command line>"
    return f"{loc.file.name}:{loc.line}:{loc.column}"


# --------------------------------------------------------------------------------------
# Skipped preprocessor ranges and macro definitions (for pragma handling)
# --------------------------------------------------------------------------------------


class _CXSourceRangeList(ctypes.Structure):
    _fields_ = [("count", ctypes.c_uint), ("ranges", ctypes.POINTER(ci.SourceRange))]


def skipped_line_ranges(tu: ci.TranslationUnit, path: str) -> list[tuple[int, int]]:
    """Line ranges of ``path`` the preprocessor skipped (inactive ``#if`` branches)."""
    lib = _lib()
    fn = lib.clang_getSkippedRanges
    fn.argtypes = [ci.TranslationUnit, ctypes.c_void_p]
    fn.restype = ctypes.POINTER(_CXSourceRangeList)
    dispose = lib.clang_disposeSourceRangeList
    dispose.argtypes = [ctypes.POINTER(_CXSourceRangeList)]
    dispose.restype = None
    file = ci.File.from_name(tu, path)
    result = fn(tu, file)
    if not result:
        return []
    try:
        out = []
        for k in range(result.contents.count):
            rng = result.contents.ranges[k]
            out.append((rng.start.line, rng.end.line))
        return out
    finally:
        dispose(result)


def object_macros(tu: ci.TranslationUnit) -> dict[str, list[str]]:
    """Object-like macro definitions (name -> body token spellings); the last one wins.
    Used to evaluate OpenMP clause arguments such as ``schedule(static, CHUNK)``."""
    macros: dict[str, list[str]] = {}
    for cursor in tu.cursor.get_children():
        if cursor.kind != CursorKind.MACRO_DEFINITION or is_function_like_macro(cursor):
            continue
        tokens = [t.spelling for t in cursor.get_tokens()]
        if tokens and tokens[0] == cursor.spelling:
            macros[cursor.spelling] = tokens[1:]
    return macros


def children(cursor: ci.Cursor) -> list[ci.Cursor]:
    return list(cursor.get_children())


def strip_parens(cursor: ci.Cursor) -> ci.Cursor:
    while cursor.kind == CursorKind.PAREN_EXPR:
        cursor = children(cursor)[0]
    return cursor


def strip_implicit(cursor: ci.Cursor) -> ci.Cursor:
    """Drop parentheses and implicit conversions (UNEXPOSED_EXPR wrappers)."""
    while cursor.kind in (CursorKind.PAREN_EXPR, CursorKind.UNEXPOSED_EXPR):
        kids = children(cursor)
        if len(kids) != 1:
            break
        cursor = kids[0]
    return cursor


def cast_operand(cursor: ci.Cursor) -> ci.Cursor:
    """The expression a cast converts (its last expression child, after any type)."""
    kids = [k for k in children(cursor) if k.kind.is_expression()]
    if not kids:
        raise unsupported(cursor, "cast")
    return kids[-1]


def walk(cursor: ci.Cursor) -> Iterable[ci.Cursor]:
    """Pre-order walk of a cursor and its descendants."""
    stack = [cursor]
    while stack:
        c = stack.pop()
        yield c
        stack.extend(reversed(children(c)))


def node_key(cursor: ci.Cursor) -> tuple:
    """A key identifying one AST node (declarations: the same key from the declaration
    and from ``DeclRef.referenced``)."""
    loc = cursor.location
    return (cursor.kind.value, cursor.hash, loc.offset, loc.file.name if loc.file else None)
