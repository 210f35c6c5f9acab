"""The ARTS dialect from Python: generated op classes and enums, plus small helpers.

Import this after a context exists (or let :func:`carts_mlir.ir.context` load the plugin);
the op classes register themselves with the bindings on import.
"""

from .. import _plugin

_plugin.load()

from ._arts_ops_gen import *  # noqa: E402,F401,F403
from ._arts_enum_gen import *  # noqa: E402,F401,F403
