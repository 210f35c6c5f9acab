"""Re-export of the bindings' ODS helpers for the generated ``_arts_*_gen.py`` modules.

The generated code imports ``._ods_common`` relative to itself, as upstream dialect modules
do from inside ``mlir.dialects``.
"""

from mlir.dialects._ods_common import *  # noqa: F401,F403
from mlir.dialects._ods_common import _cext  # noqa: F401
