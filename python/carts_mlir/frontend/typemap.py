"""C types to MLIR types (the front end's output conventions).

    char i8, short i16, int i32, long/long long/size_t i64, _Bool i1, float f32, double f64
    float *      -> memref<?xf32>
    float **     -> memref<?xmemref<?xf32>>
    float (*)[M] -> memref<?xMxf32>          (a decayed `float a[N][M]` parameter)
    float a[N][M]-> memref<NxMxf32>
    char *, void *, FILE *, char ** -> !llvm.ptr   (strings and opaque handles)

Unsigned types map to the same signless integers; the emitters pick unsigned operations
from the C type.  Pointers to plain ``char`` stay ``!llvm.ptr`` so that ``main(argc,
argv)`` keeps the C ABI and string arguments of libc calls need no conversion; every other
pointer is a memref, which is what canonicalize-memrefs and create-dbs work on.
"""

from __future__ import annotations

from dataclasses import dataclass

import clang.cindex as ci
from mlir import ir

from . import clang_support as cs

TypeKind = ci.TypeKind

_INT_WIDTH = {
    TypeKind.BOOL: 8,
    TypeKind.CHAR_U: 8,
    TypeKind.UCHAR: 8,
    TypeKind.CHAR_S: 8,
    TypeKind.SCHAR: 8,
    TypeKind.SHORT: 16,
    TypeKind.USHORT: 16,
    TypeKind.INT: 32,
    TypeKind.UINT: 32,
    TypeKind.LONG: 64,
    TypeKind.ULONG: 64,
    TypeKind.LONGLONG: 64,
    TypeKind.ULONGLONG: 64,
}
_UNSIGNED = {
    TypeKind.BOOL,
    TypeKind.CHAR_U,
    TypeKind.UCHAR,
    TypeKind.USHORT,
    TypeKind.UINT,
    TypeKind.ULONG,
    TypeKind.ULONGLONG,
}
_FLOAT_WIDTH = {TypeKind.FLOAT: 32, TypeKind.DOUBLE: 64}


def canon(t: ci.Type) -> ci.Type:
    t = t.get_canonical()
    if t.kind == TypeKind.ENUM:
        return t.get_declaration().enum_type.get_canonical()
    return t


def is_int(t: ci.Type) -> bool:
    return canon(t).kind in _INT_WIDTH


def int_width(t: ci.Type) -> int:
    return _INT_WIDTH[canon(t).kind]


def is_float(t: ci.Type) -> bool:
    return canon(t).kind in _FLOAT_WIDTH


def is_void(t: ci.Type) -> bool:
    return canon(t).kind == TypeKind.VOID


def is_pointer(t: ci.Type) -> bool:
    return canon(t).kind == TypeKind.POINTER


def is_array(t: ci.Type) -> bool:
    return canon(t).kind in (TypeKind.CONSTANTARRAY, TypeKind.INCOMPLETEARRAY,
                             TypeKind.VARIABLEARRAY)


def _field_shape(t: ci.Type) -> tuple[tuple[int, ...], ci.Type] | None:
    """(dimensions, element type) of a field a struct may hold: () for an arithmetic
    scalar, (n, m) for a constant array ``T f[n][m]`` of them; None for anything else."""
    dims: list[int] = []
    t = canon(t)
    while t.kind == TypeKind.CONSTANTARRAY:
        dims.append(t.element_count)
        t = canon(t.element_type)
    if t.kind == TypeKind.RECORD and not dims and struct_layout(t) is not None:
        return (), t  # a struct field of a struct: its slots, in place
    if t.kind not in _INT_WIDTH and t.kind not in _FLOAT_WIDTH:
        return None
    return tuple(dims), t


@dataclass(frozen=True)
class FieldSlots:
    """Where a field of a struct kept as an array lives: its first slot, and the array
    dimensions it spans (row-major from there; () for a scalar field)."""

    field: ci.Cursor
    offset: int
    dims: tuple[int, ...]
    #: The field's arithmetic type, or the struct it is (a struct field of a struct,
    #: whose own slots it spans).
    scalar: ci.Type

    @property
    def record(self) -> ci.Type | None:
        """The struct a struct field is, else None."""
        return self.scalar if self.scalar.kind == TypeKind.RECORD else None

    @property
    def count(self) -> int:
        n = 1
        for d in self.dims:
            n *= d
        return n * (struct_size(self.scalar) if self.record is not None else 1)


def struct_layout(t: ci.Type) -> list[FieldSlots] | None:
    """The fields of a struct whose fields are arithmetic scalars, constant arrays of
    them or such structs (no bit fields), in order, with their slots: the struct is kept as
    an array of one slot per scalar (``struct { double x, v; }`` is a ``double[2]``,
    ``struct { int id; double w[3]; }`` 4 slots, ``struct { vec2 pos; int id; }`` the two
    of ``pos`` then one; see ``struct_is_mixed`` for fields of different types). None for
    any other type."""
    t = canon(t)
    if t.kind != TypeKind.RECORD:
        return None
    decl = t.get_declaration()
    if decl.kind != ci.CursorKind.STRUCT_DECL:
        return None
    fields = [f for f in decl.get_children() if f.kind == ci.CursorKind.FIELD_DECL]
    if not fields or any(f.is_bitfield() for f in fields):
        return None
    layout, offset = [], 0
    for f in fields:
        shape = _field_shape(f.type)
        if shape is None or 0 in shape[0]:
            return None
        slot = FieldSlots(f, offset, shape[0], shape[1])
        layout.append(slot)
        offset += slot.count
    return layout


def struct_fields(t: ci.Type) -> list[ci.Cursor] | None:
    """The fields of a struct kept as an array (``struct_layout``); None for any other
    type."""
    layout = struct_layout(t)
    return None if layout is None else [f.field for f in layout]


def struct_size(t: ci.Type) -> int:
    """The slots of a struct kept as an array."""
    layout = struct_layout(t)
    assert layout is not None
    return layout[-1].offset + layout[-1].count


def slot_types(t: ci.Type) -> list[ci.Type]:
    """The C type each slot of a struct kept as an array holds, in order."""
    layout = struct_layout(t)
    assert layout is not None
    out: list[ci.Type] = []
    for f in layout:
        out += slot_types(f.record) if f.record is not None else [f.scalar] * f.count
    return out


def struct_is_mixed(t: ci.Type) -> bool:
    """A struct whose fields have different types: each slot is an ``i64`` holding the
    field's bits (an integer widened, a float's bits), exact for every arithmetic type."""
    layout = struct_layout(t)
    return layout is not None and len({canon(x).spelling for x in slot_types(t)}) > 1


def is_aggregate(t: ci.Type) -> bool:
    """An array, or a struct kept as one (struct_fields)."""
    return is_array(t) or struct_fields(t) is not None


def pointee(t: ci.Type) -> ci.Type:
    return canon(canon(t).get_pointee())


def is_function_pointer(t: ci.Type) -> bool:
    t = canon(t)
    while t.kind == TypeKind.POINTER:
        t = canon(t.get_pointee())
    return t.kind in (TypeKind.FUNCTIONPROTO, TypeKind.FUNCTIONNOPROTO)


def is_opaque_pointer(t: ci.Type) -> bool:
    """Pointers that stay ``!llvm.ptr``: to plain char, void, a struct from a system
    header (``FILE``), or to another such pointer (``char **argv``)."""
    t = canon(t)
    if t.kind != TypeKind.POINTER:
        return False
    p = pointee(t)
    if p.kind in (TypeKind.CHAR_S, TypeKind.CHAR_U, TypeKind.VOID):
        return True
    if p.kind == TypeKind.RECORD:
        decl = p.get_declaration()
        return decl.location.file is None or decl.location.is_in_system_header
    return p.kind == TypeKind.POINTER and is_opaque_pointer(p)


def is_memref_pointer(t: ci.Type) -> bool:
    return is_pointer(t) and not is_opaque_pointer(t)


@dataclass(frozen=True)
class Scalar:
    """The arithmetic view of a C scalar type: what conversions and operators need."""

    kind: str  # "int", "bool" or "float"
    width: int
    unsigned: bool = False

    @property
    def is_float(self) -> bool:
        return self.kind == "float"

    @property
    def is_bool(self) -> bool:
        return self.kind == "bool"

    def mlir(self) -> ir.Type:
        if self.kind == "float":
            return ir.F32Type.get() if self.width == 32 else ir.F64Type.get()
        return ir.IntegerType.get_signless(self.width)


INT = Scalar("int", 32)
INDEX_LIKE = Scalar("int", 64)


def scalar_of(t: ci.Type) -> Scalar | None:
    """The Scalar of an arithmetic C type, None for pointers/arrays/void."""
    t = canon(t)
    if t.kind == TypeKind.BOOL:
        return Scalar("bool", 8, True)  # a byte in memory, as in the C ABI
    if t.kind in _INT_WIDTH:
        return Scalar("int", _INT_WIDTH[t.kind], t.kind in _UNSIGNED)
    if t.kind in _FLOAT_WIDTH:
        return Scalar("float", _FLOAT_WIDTH[t.kind])
    return None


def promote(s: Scalar) -> Scalar:
    """Integer promotion: bool, char and short become int."""
    if s.kind != "float" and s.width < 32:
        return INT
    return s


def usual_arithmetic(a: Scalar, b: Scalar) -> Scalar:
    """C's usual arithmetic conversions (libclang does not expose the computation type of
    a compound assignment, so we recompute it)."""
    if a.is_float or b.is_float:
        if a.is_float and b.is_float:
            return a if a.width >= b.width else b
        return a if a.is_float else b
    a, b = promote(a), promote(b)
    if a.width != b.width:
        return a if a.width > b.width else b
    return a if a.unsigned else b


class TypeMapper:
    """Maps clang types to MLIR types inside one MLIR context."""

    def __init__(self) -> None:
        self._cache: dict[str, ir.Type] = {}

    @staticmethod
    def index() -> ir.Type:
        return ir.IndexType.get()

    @staticmethod
    def i(width: int) -> ir.Type:
        return ir.IntegerType.get_signless(width)

    @staticmethod
    def llvm_ptr() -> ir.Type:
        return ir.Type.parse("!llvm.ptr")

    def scalar(self, t: ci.Type) -> ir.Type:
        t = canon(t)
        if t.kind in _INT_WIDTH:
            return self.i(_INT_WIDTH[t.kind])
        if t.kind == TypeKind.FLOAT:
            return ir.F32Type.get()
        if t.kind == TypeKind.DOUBLE:
            return ir.F64Type.get()
        raise ValueError(t.spelling)

    def to_mlir(self, t: ci.Type, where: ci.Cursor) -> ir.Type | None:
        """MLIR type of C type ``t`` (None for void); unsupported types raise a located
        CartsError."""
        t = canon(t)
        key = t.spelling
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        result = self._convert(t, where)
        if result is not None:
            self._cache[key] = result
        return result

    def _convert(self, t: ci.Type, where: ci.Cursor) -> ir.Type | None:
        k = t.kind
        if k == TypeKind.VOID:
            return None
        if k in _INT_WIDTH or k in _FLOAT_WIDTH:
            return self.scalar(t)
        if k == TypeKind.LONGDOUBLE:
            raise cs.unsupported(where, "long double")
        if k == TypeKind.POINTER:
            if is_function_pointer(t):
                raise cs.unsupported(where, "function pointer")
            if is_opaque_pointer(t):
                return self.llvm_ptr()
            p = pointee(t)
            if p.kind == TypeKind.RECORD and struct_fields(p) is None:
                raise cs.unsupported(where, _record_word(p) + _record_why(p))
            shape, elem = self._array_shape(p, where)
            return ir.MemRefType.get([ir.ShapedType.get_dynamic_size()] + shape, elem)
        if k == TypeKind.CONSTANTARRAY:
            shape, elem = self._array_shape(t, where)
            return ir.MemRefType.get(shape, elem)
        if k == TypeKind.INCOMPLETEARRAY:
            shape, elem = self._array_shape(canon(t.element_type), where)
            return ir.MemRefType.get([ir.ShapedType.get_dynamic_size()] + shape, elem)
        if k == TypeKind.VARIABLEARRAY:  # sizes known when the declaration runs
            shape, elem = self._array_shape(t, where)
            return ir.MemRefType.get(shape, elem)
        if k == TypeKind.RECORD:
            if struct_fields(t) is None:
                raise cs.unsupported(where, _record_word(t) + _record_why(t))
            shape, elem = self._array_shape(t, where)
            return ir.MemRefType.get(shape, elem)
        if k in (TypeKind.FUNCTIONPROTO, TypeKind.FUNCTIONNOPROTO):
            raise cs.unsupported(where, "function pointer")
        raise cs.unsupported(where, f"type '{t.spelling}'")

    def _array_shape(self, t: ci.Type, where: ci.Cursor) -> tuple[list[int], ir.Type]:
        """(static dims, element type) of a possibly-array type; non-arrays have no dims."""
        shape: list[int] = []
        t = canon(t)
        while t.kind in (TypeKind.CONSTANTARRAY, TypeKind.VARIABLEARRAY):
            shape.append(t.element_count if t.kind == TypeKind.CONSTANTARRAY
                         else ir.ShapedType.get_dynamic_size())
            t = canon(t.element_type)
        layout = struct_layout(t)
        if layout is not None:
            shape.append(struct_size(t))
            if struct_is_mixed(t):
                return shape, ir.IntegerType.get_signless(64)
            t = canon(slot_types(t)[0])
        if t.kind == TypeKind.INCOMPLETEARRAY:
            raise cs.unsupported(where, "array of arrays of unknown size")
        elem = self.to_mlir(t, where)
        if elem is None:
            raise cs.unsupported(where, "array of void")
        return shape, self.stored(elem)

    def stored(self, t: ir.Type) -> ir.Type:
        """How a value of type ``t`` is held in memory: an ``!llvm.ptr`` (a string, a
        ``FILE *``), which no memref holds, as its address in an ``i64``."""
        return ir.IntegerType.get_signless(64) if str(t) == "!llvm.ptr" else t

    def element(self, pointer_or_array: ci.Type, where: ci.Cursor) -> ir.Type:
        """Element type of the memref a pointer/array type maps to."""
        mt = self.to_mlir(pointer_or_array, where)
        return ir.MemRefType(mt).element_type


#: What a refused struct is told (module and statement checks alike).
STRUCT_SUPPORTED = ("struct (a struct is supported when its fields are arithmetic scalars, "
                    "arrays of them or such structs)")


def _record_word(t: ci.Type) -> str:
    decl = t.get_declaration()
    return "union" if decl.kind == ci.CursorKind.UNION_DECL else "struct"


def _record_why(t: ci.Type) -> str:
    if canon(t).get_declaration().kind == ci.CursorKind.UNION_DECL:
        return ""
    return STRUCT_SUPPORTED[len("struct"):]


def strip_int_widening(c: ci.Cursor) -> ci.Cursor:
    """Drop parentheses and implicit integer widenings (``int`` -> ``size_t`` in
    ``n * sizeof(T)``, ``i < n`` with ``long n``): the narrower operand carries the value."""
    while True:
        s = cs.strip_parens(c)
        if s.kind == ci.CursorKind.UNEXPOSED_EXPR:
            kids = cs.children(s)
            if len(kids) == 1 and is_int(kids[0].type) and is_int(s.type) and \
                    int_width(kids[0].type) <= int_width(s.type):
                c = kids[0]
                continue
        return s
