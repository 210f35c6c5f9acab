"""``python -m carts_mlir.opt`` / ``carts-opt``: mlir-opt for carts-mlir.

    carts-opt [input.mlir|-] [--pass-pipeline='builtin.module(...)'] [--<stage>]
              [--start-from=<stage>] [--all-stages -o dir] [--debug-only=a,b]
              [--split-input-file] [--verify-diagnostics] [--mlir-print-ir-after-all]
              [--graph out.dot|out.svg] [--metadata-file FILE]
              [--mlir-print-debuginfo] [--mlir-print-op-generic] [-o out.mlir]

A failure prints located diagnostics and the command that reproduces it, exits 1 and
leaves no output file behind.

The collect-metadata stage hands its facts from the sequential compile to the OpenMP one
through a JSON file (``.carts-metadata.json``, CARTS's name). It lives beside the output:
in the ``-o`` file's directory, in the ``--all-stages`` directory, or in the current
directory when the result goes to stdout; ``--metadata-file`` names it.
"""

from __future__ import annotations

import argparse
import contextlib
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

from .files import check_creatable_directory, created_directory, read_source, write_atomically
from . import diagnostics_check, env, ir, pipeline
from .arguments import ArgumentParser
from .config import Machine, resolve_machine
from .errors import CartsError, guarded

METADATA_NAME = ".carts-metadata.json"
SPLIT_MARKER = re.compile(r"^// -----[ \t]*$", re.MULTILINE)


class _OneStage(argparse.Action):
    """A stage flag: naming two stages to stop after is an error, not 'the last one wins'."""

    def __call__(self, parser, namespace, values, option_string=None):
        before = getattr(namespace, self.dest, None)
        if before is not None and before != self.const:
            raise CartsError(f"two stages to stop after: --{before} and {option_string} "
                             "(give one)")
        setattr(namespace, self.dest, self.const)


def build_parser(prog: str) -> argparse.ArgumentParser:
    p = ArgumentParser(prog=prog, description="Run ARTS pipeline stages or arbitrary passes on MLIR.",
                       epilog=env.help_epilog(),
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("input", nargs="?", default="-", help="input .mlir file ('-' for stdin)")
    p.add_argument("-o", dest="output", help="output file (a directory with --all-stages)")
    p.add_argument("--pass-pipeline", help="textual pipeline, e.g. 'builtin.module(canonicalize)'")
    p.add_argument("--start-from", metavar="STAGE", help="the input is already at this stage")
    p.add_argument("--all-stages", action="store_true", help="write one .mlir per stage into -o DIR")
    p.add_argument("--debug-only", default=env.get("CARTS_DEBUG_ONLY", ""),
                   help="comma-separated debug channels (one decision per line on stderr)")
    p.add_argument("--graph", metavar="FILE",
                   help="also write the task/datablock graph of the result (.dot, or .svg drawn)")
    p.add_argument("--metadata-file", metavar="FILE",
                   help="the sequential compile's loop facts (default: .carts-metadata.json "
                        "beside the output)")
    p.add_argument("--split-input-file", action="store_true", help="process '// -----' chunks separately")
    p.add_argument("--verify-diagnostics", action="store_true",
                   help="check diagnostics against expected-error/warning/note/remark comments")
    p.add_argument("--mlir-print-ir-after-all", action="store_true", help="print the IR after every pass")
    p.add_argument("--mlir-print-debuginfo", action="store_true", help="print locations")
    p.add_argument("--mlir-print-op-generic", action="store_true", help="print the generic op form")
    stages = p.add_argument_group("stages (run up to and including one)")
    for st in pipeline.STAGES:
        stages.add_argument(st.flag, dest="stop", action=_OneStage, nargs=0, const=st.name,
                            help=st.does)
    return p


@dataclass
class Options:
    input: str
    output: str | None
    pass_pipeline: str | None
    stop: str | None
    start_from: str | None
    all_stages: bool
    debug_only: list[str] = field(default_factory=list)
    split_input_file: bool = False
    verify_diagnostics: bool = False
    print_ir_after_all: bool = False
    debug_info: bool = False
    generic: bool = False
    graph: str | None = None
    metadata_file: str | None = None

    def metadata_path(self) -> Path:
        """Where collect-metadata writes (sequential input) or reads (OpenMP input)."""
        if self.metadata_file:
            return Path(self.metadata_file)
        if self.output and self.all_stages:
            return Path(self.output) / METADATA_NAME
        if self.output:
            return Path(self.output).parent / METADATA_NAME
        return Path(METADATA_NAME)


def parse_options(argv: list[str], prog: str) -> Options:
    a = build_parser(prog).parse_args(argv)
    if a.start_from is not None and not isinstance(a.start_from, str):
        a.start_from = "--"  # argparse gives `--start-from=--` as an empty list
    opts = Options(
        input=a.input, output=a.output, pass_pipeline=a.pass_pipeline, stop=a.stop,
        start_from=a.start_from, all_stages=a.all_stages,
        debug_only=pipeline.debug_channels([c.strip() for c in a.debug_only.split(",")
                                            if c.strip()]),
        split_input_file=a.split_input_file, verify_diagnostics=a.verify_diagnostics,
        print_ir_after_all=a.mlir_print_ir_after_all, debug_info=a.mlir_print_debuginfo,
        generic=a.mlir_print_op_generic, graph=a.graph, metadata_file=a.metadata_file,
    )
    if opts.start_from is not None:
        pipeline.stage(opts.start_from)  # an empty or unknown name is an error
    if opts.all_stages and not opts.output:
        raise CartsError("--all-stages needs -o <directory>")
    if opts.output and opts.all_stages:
        check_creatable_directory(opts.output)
    elif opts.output:
        parent = Path(opts.output).absolute().parent
        if (parent.exists() and not parent.is_dir()) or any(p.is_file() for p in parent.parents):
            raise CartsError("cannot write output: its directory is not a directory",
                             opts.output)
    if opts.pass_pipeline and (opts.stop or opts.start_from or opts.all_stages):
        raise CartsError("--pass-pipeline cannot be combined with stage flags")
    if opts.graph and (opts.split_input_file or opts.verify_diagnostics):
        raise CartsError("--graph draws one module: not with --split-input-file or "
                         "--verify-diagnostics")
    if opts.graph and Path(opts.graph).suffix not in (".dot", ".gv", ".svg"):
        raise CartsError(f"--graph {opts.graph}: the file must end in .dot, .gv or .svg")
    return opts


def read_input(path: str) -> tuple[str, str]:
    """(text, name used in locations)."""
    return read_source(path), "<stdin>" if path == "-" else path


def split_chunks(text: str, split: bool) -> list[str]:
    """Input chunks; each is padded with newlines so locations keep the file's line numbers."""
    if not split:
        return [text]
    chunks, line = [], 0
    for part in SPLIT_MARKER.split(text):
        chunks.append("\n" * line + part)
        line += part.count("\n")
    return chunks


def selected_stages(opts: Options) -> list[pipeline.Stage]:
    if opts.all_stages:
        return pipeline.stages_between(opts.start_from, opts.stop)
    if opts.stop:
        return pipeline.stages_between(opts.start_from, opts.stop)
    if opts.start_from:
        return pipeline.stages_between(opts.start_from, None)
    return []


def process_chunk(text: str, name: str, opts: Options, graphs: list | None = None,
                  machine: Machine | None = None) -> tuple[str, list[tuple[str, str]]]:
    """Parse, transform, print one chunk. Returns (final text, [(stage, text)] per stage);
    the task/datablock graph of the result is appended to ``graphs`` when given. The stages
    plan for ``machine`` (default: the one the flags, environment and arts.cfg give); a
    ``--pass-pipeline`` runs as written."""
    module = ir.parse(text, source_name=name)
    if opts.start_from:
        pipeline.check_start(module, opts.start_from)
    per_stage: list[tuple[str, str]] = []
    if opts.pass_pipeline:
        ir.run_pipeline(module, opts.pass_pipeline, print_ir_after_all=opts.print_ir_after_all,
                        reproduce=f"carts-opt {name} --pass-pipeline='{opts.pass_pipeline}'")
    options = {"arts-collect-metadata": f'metadata-file="{opts.metadata_path()}"'}
    stages = selected_stages(opts)
    if stages:
        options["arts-concurrency"] = (machine or resolve_machine()).concurrency_options()
    for st in stages:
        pipeline.run_stage(module, st, print_ir_after_all=opts.print_ir_after_all,
                           input_name=name, options=options)
        if opts.all_stages:
            per_stage.append((st.name, ir.to_text(module, debug_info=True)))
    ir.verify(module)
    if graphs is not None:
        from . import taskgraph

        graphs.append(taskgraph.from_module(module))
    return ir.to_text(module, debug_info=opts.debug_info, generic=opts.generic), per_stage


def run(opts: Options) -> int:
    # the machine the stages plan for, resolved once (a bad arts.cfg line is reported at
    # that line before anything runs)
    machine = resolve_machine() if selected_stages(opts) else None
    text, name = read_input(opts.input)
    if opts.debug_only:
        from . import _plugin

        _plugin.set_debug_channels(opts.debug_only)
    chunks = split_chunks(text, opts.split_input_file)
    with contextlib.ExitStack() as made:
        if any(st.name == "collect-metadata" for st in selected_stages(opts)):
            metadata = opts.metadata_path()
            if metadata.is_dir():
                raise CartsError("cannot use as the metadata file: it is a directory",
                                 str(metadata))
            # the output's directory, which is created for the output anyway; gone again
            # if the run fails
            made.enter_context(created_directory(metadata.absolute().parent))
        return _run_chunks(opts, chunks, name, machine)


def _run_chunks(opts: Options, chunks: list[str], name: str, machine: Machine | None) -> int:
    if opts.verify_diagnostics:
        return diagnostics_check.verify_chunks(chunks, name, lambda c: process_chunk(c, name, opts, machine=machine))
    outputs, stage_dumps, graphs = [], [], []
    with ir.context():
        for chunk in chunks:
            out, dumps = process_chunk(chunk, name, opts, graphs if opts.graph else None, machine)
            outputs.append(out)
            stage_dumps.append(dumps)
    if opts.graph:
        g = graphs[0]
        Path(opts.graph).parent.mkdir(parents=True, exist_ok=True)
        write_atomically(opts.graph, g.to_svg() if opts.graph.endswith(".svg") else g.to_dot())
    if opts.all_stages:
        out_dir = Path(opts.output)
        out_dir.mkdir(parents=True, exist_ok=True)
        stem = Path(name).stem if name != "<stdin>" else "stdin"
        for dumps in stage_dumps:
            for i, (stage_name, stage_text) in enumerate(dumps):
                write_atomically(out_dir / f"{stem}.{i + 1:02d}.{stage_name}.mlir", stage_text)
        return 0
    result = "// -----\n".join(outputs)
    if opts.output:
        Path(opts.output).parent.mkdir(parents=True, exist_ok=True)
        write_atomically(opts.output, result)
    else:
        sys.stdout.write(result)
    return 0


def main(argv: list[str] | None = None, prog: str = "carts-opt") -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    from . import deepstack
    from .errors import check_arguments

    def command() -> int:
        check_arguments(argv)
        # parsing, verifying, the passes and the printer recurse once per level of nesting
        return deepstack.call(lambda: run(parse_options(argv, prog)), what="the MLIR input")

    return guarded(command)


if __name__ == "__main__":
    sys.exit(main())
