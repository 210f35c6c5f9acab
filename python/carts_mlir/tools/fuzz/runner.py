"""Run generated programs through gcc and through ``carts execute``; classify each outcome.

The reference is ``gcc -O1 -fopenmp`` run with ``OMP_NUM_THREADS`` 1 and 2: both must print
the same and exit the same, or the program is not well defined and the generator is wrong.
Each ARTS run is one configuration: ``t<T>`` (``carts execute --threads T``) or
``n<N>`` (``--nodes N --threads 1``). An outcome is one of

``match``    same stdout and exit code as gcc;
``wrong``    it ran to its end, but stdout or the exit code differ;
``refused``  exit 1 with a located one-line ``file:line:col: error:`` and no output;
``crash``    a traceback, an internal error or assertion, a signal, an unlocated error,
             any other exit;
``hang``     still running after the timeout (its whole process group is killed).

Node runs share one Ray cluster (:class:`carts_mlir.nodes.NodeCluster`, the class
``carts execute --nodes`` uses) across programs: each program is compiled by
``carts execute --nodes N --threads 1 --compile-only --emit-llvm`` in a child process (so a
compiler crash stays there) and its LLVM IR run on the cluster, as ``carts execute`` would.
The cluster is replaced after any failure and every ``CLUSTER_RUNS`` runs, and a failure seen
on it is run again through ``carts execute`` itself before it counts.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from .generator import generate

STATUSES = ("match", "wrong", "refused", "crash", "hang")
#: gcc flags of the reference build.
GCC_FLAGS = ("-O1", "-fopenmp")
#: Runs of one node cluster before it is replaced by a fresh one.
CLUSTER_RUNS = 40

_LOCATED = re.compile(r"^\S+:\d+:\d+: error: ", re.M)
_CRASH_MARKS = ("Traceback (most recent call last)", "internal error", "Assertion",
                "LLVM ERROR", "PLEASE submit a bug report", "Stack dump", "Fatal Python error",
                "Segmentation fault", "core dumped", "was killed by", "did not stop",
                "RayTaskError", "died during")


class GeneratorError(Exception):
    """The reference itself is not well defined: gcc builds disagree, fail or warn."""


def default_carts() -> list[str]:
    """The ``carts`` command of this environment."""
    exe = Path(sys.executable).with_name("carts")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "carts_mlir"]


@dataclass
class Proc:
    code: int | None          # None: timed out
    stdout: str
    stderr: str
    seconds: float


def run_process(cmd: list[str], *, cwd: Path | str | None = None, env: dict | None = None,
                timeout: float = 120) -> Proc:
    """Run ``cmd`` in a session of its own; on timeout the whole session is killed."""
    started = time.monotonic()
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            stdin=subprocess.DEVNULL, text=True, errors="replace",
                            start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
        code: int | None = proc.returncode
    except subprocess.TimeoutExpired:
        _kill_group(proc.pid)
        out, err = proc.communicate()
        code = None
    except BaseException:
        _kill_group(proc.pid)
        proc.communicate()
        raise
    finally:
        _kill_group(proc.pid)  # whatever the program left running in its session
    return Proc(code, out, err, time.monotonic() - started)


def _kill_group(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


# ---------------------------------------------------------------------- the reference


@dataclass
class Reference:
    code: int
    stdout: str
    warnings: list[str]


#: gcc warnings that mean a program is not well defined.
UNDEFINED_WARNINGS = ("uninitialized", "maybe-uninitialized", "array-bounds",
                      "aggressive-loop-optimizations", "div-by-zero", "overflow",
                      "return-type", "implicit-function-declaration", "int-conversion",
                      "incompatible-pointer-types", "format", "sequence-point",
                      "stringop-overflow", "nonnull", "shift-count", "shift-negative-value",
                      "use-after-free", "free-nonheap-object", "implicit-int",
                      "builtin-declaration-mismatch", "analyzer")


def warning_kinds(stderr: str) -> list[str]:
    """The ``[-Wname]`` of every warning gcc printed, in order; warnings about gcc's own
    temporaries (``'.count.18' may be used uninitialized`` in a collapsed loop nest with a
    bound known at run time only) are not the program's."""
    return re.findall(r"warning: (?!\S*\u2018\.|'\.).*\[-W([\w=-]+)\]", stderr)


class Gcc:
    """The gcc reference builds, cached per program text under ``cache``."""

    def __init__(self, cache: Path | str | None = None, timeout: float = 60):
        self.cache = Path(cache or tempfile.mkdtemp(prefix="carts-fuzz-gcc-"))
        self.cache.mkdir(parents=True, exist_ok=True)
        self.timeout = timeout

    def _dir(self, text: str, flags: tuple[str, ...]) -> Path:
        key = hashlib.sha256((" ".join(flags) + "\n" + text).encode()).hexdigest()[:24]
        return self.cache / key

    def build(self, text: str, flags: tuple[str, ...] = GCC_FLAGS) -> tuple[Path | None, str]:
        """The executable of ``text`` built with ``flags`` (None if it does not build) and
        gcc's diagnostics."""
        d = self._dir(text, flags)
        exe, log = d / "a.out", d / "gcc.log"
        if log.exists():
            return (exe if exe.exists() else None), log.read_text()
        d.mkdir(parents=True, exist_ok=True)
        (d / "p.c").write_text(text)
        done = run_process(["gcc", *flags, "-Wall", "p.c", "-lm", "-o", "a.out"], cwd=d,
                           timeout=self.timeout)
        tmp = d / "gcc.log.tmp"
        tmp.write_text(done.stderr)
        tmp.replace(log)
        return (exe if done.code == 0 and exe.exists() else None), done.stderr

    def run(self, exe: Path, threads: int | None = None, env: dict | None = None) -> Proc:
        environ = dict(os.environ)
        environ.pop("OMP_NUM_THREADS", None)
        if threads is not None:
            environ["OMP_NUM_THREADS"] = str(threads)
        environ.update(env or {})
        return run_process([str(exe)], cwd=exe.parent, env=environ, timeout=self.timeout)

    def reference(self, text: str, strict: bool = False) -> Reference:
        """What the program prints under gcc. It must build, finish, print the same at 1 and
        2 threads; ``strict`` also requires the same at 3 threads with ``malloc`` filling
        new memory with a pattern, and from a sequential build with AddressSanitizer,
        UndefinedBehaviorSanitizer and locals filled with a pattern (a read of memory never
        written, out of bounds or an overflow shows there), and no warning that says the
        program is not well defined. Raises GeneratorError otherwise."""
        d = self._dir(text, GCC_FLAGS + (("strict",) if strict else ()))
        cached = d / "reference.json"
        if cached.exists():
            data = json.loads(cached.read_text())
            if "error" in data:
                raise GeneratorError(data["error"])
            return Reference(**data)
        try:
            ref = self._reference(text, strict)
        except GeneratorError as err:
            d.mkdir(parents=True, exist_ok=True)
            cached.write_text(json.dumps({"error": str(err)}))
            raise
        d.mkdir(parents=True, exist_ok=True)
        cached.write_text(json.dumps(asdict(ref)))
        return ref

    def _reference(self, text: str, strict: bool) -> Reference:
        exe, log = self.build(text)
        if exe is None:
            raise GeneratorError("gcc cannot build it:\n" + log[-2000:])
        warnings = warning_kinds(log)
        if strict:
            bad = [w for w in warnings if any(w.startswith(u) for u in UNDEFINED_WARNINGS)]
            if bad:
                raise GeneratorError(f"gcc warns: {', '.join(sorted(set(bad)))}")
        runs = [("1 thread", self.run(exe, 1)), ("2 threads", self.run(exe, 2))]
        if strict:
            runs.append(("3 threads, malloc pattern",
                         self.run(exe, 3, {"MALLOC_PERTURB_": "165"})))
            san, slog = self.build(text, ("-O1", "-g", "-fsanitize=address,undefined",
                                          "-fno-sanitize-recover=all",
                                          "-ftrivial-auto-var-init=pattern"))
            if san is None:
                raise GeneratorError("the sanitizer build fails:\n" + slog[-2000:])
            runs.append(("sanitizers", self.run(san, None, {"MALLOC_PERTURB_": "90",
                                                            "ASAN_OPTIONS": "detect_leaks=0"})))
        first_name, first = runs[0]
        if first.code is None:
            raise GeneratorError("the gcc build does not finish")
        for name, other in runs:
            if other.code is None:
                raise GeneratorError(f"the gcc build does not finish ({name})")
            if name == "sanitizers" and other.stderr.strip():
                raise GeneratorError("sanitizers: " + other.stderr.strip()[:2000])
            if (other.code, other.stdout) != (first.code, first.stdout):
                raise GeneratorError(f"gcc builds disagree: {first_name} and {name}:\n"
                                     + diff(first.stdout, other.stdout))
        return Reference(first.code, first.stdout, warnings)


def diff(expected: str, got: str, limit: int = 40) -> str:
    lines = list(difflib.unified_diff(expected.splitlines(), got.splitlines(), "gcc", "carts",
                                      lineterm="", n=1))
    return "\n".join(lines[:limit]) + ("\n..." if len(lines) > limit else "")


# ---------------------------------------------------------------------- outcomes


@dataclass
class Outcome:
    config: str
    status: str
    code: int | None
    stdout: str
    stderr: str
    seconds: float
    signature: str = ""
    command: str = ""


def classify(proc: Proc, ref: Reference) -> tuple[str, str]:
    """(status, signature): the signature is one line that names the failure, the same
    for failures that look alike (locations, numbers and names taken out)."""
    if proc.code is None:
        return "hang", "hang"
    err = proc.stderr
    crashed = (proc.code < 0 or proc.code >= 128 or any(m in err for m in _CRASH_MARKS))
    if not crashed and proc.code == ref.code and proc.stdout == ref.stdout:
        return "match", ""
    if crashed:
        return "crash", crash_signature(proc)
    if proc.code == 1 and not proc.stdout:
        located = [ln for ln in err.splitlines() if _LOCATED.match(ln)]
        if located:
            return "refused", "refused: " + normalise(located[0].split(" error: ", 1)[1])
        line = next((ln for ln in err.splitlines() if "error" in ln), err.strip()[:200])
        return "crash", "unlocated error: " + normalise(line)
    if proc.code != ref.code and proc.code not in (0, 1):
        return "crash", f"exit {proc.code}: " + normalise(_last_line(err))
    return "wrong", "wrong output"


def crash_signature(proc: Proc) -> str:
    err = proc.stderr
    for pattern in (r"(Assertion .*? failed)", r"(LLVM ERROR: .*)", r"internal error: (.*)",
                    r"was killed by (SIG\w+)", r"(did not stop .*)", r"(Fatal Python error: .*)"):
        m = re.search(pattern, err)
        if m:
            return "crash: " + normalise(m.group(1))
    if "Traceback (most recent call last)" in err:
        tail = [ln for ln in err.splitlines() if ln and not ln.startswith(" ")]
        return "crash: traceback: " + normalise(tail[-1] if tail else "")
    if proc.code is not None and proc.code < 0:
        return f"crash: signal {-proc.code}"
    return f"crash: exit {proc.code}: " + normalise(_last_line(err))


def _last_line(text: str) -> str:
    lines = [ln for ln in text.strip().splitlines() if ln.strip()]
    return lines[-1] if lines else ""


def normalise(message: str) -> str:
    """A message with what varies between programs taken out."""
    m = re.sub(r"\S+\.c:\d+:\d+:?", "<loc>", message)
    m = re.sub(r"'[^']*'", "'_'", m)
    m = re.sub(r"%[\w.#]+", "%_", m)
    m = re.sub(r"\b0x[0-9a-f]+\b", "N", m)
    m = re.sub(r"\b\d+\b", "N", m)
    m = re.sub(r"\bpid N\b", "pid", m)
    return m.strip()[:200]


# ---------------------------------------------------------------------- the ARTS runs


class Carts:
    """``carts execute`` of one program on threads or nodes."""

    def __init__(self, carts: list[str] | None = None, timeout: float = 120,
                 share_cluster: bool = True, node_threads: int = 1):
        self.carts = carts or default_carts()
        self.timeout = timeout
        self.share_cluster = share_cluster
        self.node_threads = node_threads
        self.cluster = None
        self.cluster_nodes = 0
        self.cluster_runs = 0

    # -- one node

    def threads(self, path: Path, threads: int, ref: Reference) -> Outcome:
        cmd = [*self.carts, "execute", path.name, "--threads", str(threads), "--no-executable"]
        return self._outcome(f"t{threads}", cmd, path, ref)

    def _outcome(self, config: str, cmd: list[str], path: Path, ref: Reference,
                 env: dict | None = None) -> Outcome:
        proc = run_process(cmd, cwd=path.parent, timeout=self.timeout, env=env)
        status, sig = classify(proc, ref)
        return Outcome(config, status, proc.code, proc.stdout, proc.stderr, proc.seconds, sig,
                       " ".join(["carts", *cmd[len(self.carts):]]))

    # -- several nodes

    @staticmethod
    def spread_env() -> dict:
        """The environment of a node compile: random programs are small, and every loop is
        spread over the nodes anyway (nodeMinOps=0), since spreading is what is tested."""
        return {**os.environ, "nodeMinOps": os.environ.get("nodeMinOps", "0")}

    def node_config(self, nodes: int) -> str:
        return f"n{nodes}" if self.node_threads == 1 else f"n{nodes}x{self.node_threads}"

    def nodes(self, path: Path, nodes: int, ref: Reference) -> Outcome:
        config = self.node_config(nodes)
        if not self.share_cluster:
            return self._nodes_shell(path, nodes, ref)
        started = time.monotonic()
        cmd = [*self.carts, "execute", path.name, "--nodes", str(nodes), "--threads",
               str(self.node_threads), "--compile-only", "--emit-llvm"]
        ll = path.parent / f"{path.stem}-arts.ll"
        ll.unlink(missing_ok=True)
        proc = run_process(cmd, cwd=path.parent, timeout=self.timeout, env=self.spread_env())
        if proc.code != 0 or not ll.exists():
            status, sig = classify(proc, ref)
            if status == "match":  # compiled but left no LLVM IR
                status, sig = "crash", "crash: no LLVM IR written"
            return Outcome(config, status, proc.code, proc.stdout, proc.stderr, proc.seconds,
                           sig, " ".join(["carts", *cmd[len(self.carts):]]))
        try:
            got = self._cluster_run(ll.read_text(), path, nodes)
        except Exception as err:  # noqa: BLE001 - the cluster itself failed to start
            got = Proc(70, "", f"node cluster: {type(err).__name__}: {err}", 0.0)
        got.seconds = time.monotonic() - started
        status, sig = classify(got, ref)
        outcome = Outcome(config, status, got.code, got.stdout, got.stderr, got.seconds, sig,
                          f"carts execute {path.name} --nodes {nodes} --threads "
                          f"{self.node_threads} (shared Ray cluster)")
        if status != "match":
            # confirm through the command itself, on a Ray instance of its own
            again = self._nodes_shell(path, nodes, ref)
            if again.status == "match":
                again.status, again.signature = "crash", "crash: only on a reused node cluster: " + sig
                again.stderr += "\n--- on the shared cluster:\n" + got.stderr
            return again
        return outcome

    def _nodes_shell(self, path: Path, nodes: int, ref: Reference) -> Outcome:
        cmd = [*self.carts, "execute", path.name, "--nodes", str(nodes), "--threads",
               str(self.node_threads)]
        return self._outcome(self.node_config(nodes), cmd, path, ref, env=self.spread_env())

    def _cluster_run(self, llvm_ir: str, path: Path, nodes: int) -> Proc:
        from ...errors import CartsError
        from ...nodes import NodeCluster, NodeFailure

        if self.cluster is not None and (self.cluster_nodes != nodes
                                         or self.cluster_runs >= CLUSTER_RUNS):
            self.close()
        if self.cluster is None:
            self.cluster = NodeCluster(nodes, self.node_threads)
            self.cluster_nodes, self.cluster_runs = nodes, 0
        self.cluster_runs += 1
        started = time.monotonic()
        try:
            run = self.cluster.run(llvm_ir, [path.name], 3, timeout=self.timeout,
                                   threads=self.node_threads)
        except NodeFailure as failure:
            self.close()
            if "did not finish within" in str(failure):
                return Proc(None, failure.stdout, str(failure), time.monotonic() - started)
            text = f"{path.name}: error: {failure}"
            if failure.signal is not None:
                text = (failure.stderr + f"{path.name}: error: the program was killed by "
                        f"{signal.Signals(failure.signal).name} on node {failure.node}")
            return Proc(128 + (failure.signal or 0), failure.stdout, text,
                        time.monotonic() - started)
        except CartsError as err:
            self.close()
            return Proc(1, "", err.render(), time.monotonic() - started)
        out, err = [], []
        for node in run.nodes:
            prefix = "" if node.node == 0 else f"[node {node.node}] "
            for text, sink in ((node.stdout, out), (node.stderr, err)):
                if text:
                    sink.append("".join(prefix + ln for ln in text.splitlines(keepends=True)))
                    if not text.endswith("\n"):
                        sink.append("\n")
        return Proc(run.code, "".join(out), "".join(err), time.monotonic() - started)

    def close(self) -> None:
        if self.cluster is not None:
            cluster, self.cluster = self.cluster, None
            cluster.close()

    def __enter__(self) -> "Carts":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


# ---------------------------------------------------------------------- a campaign


@dataclass
class ProgramResult:
    seed: int
    outcomes: list[Outcome] = field(default_factory=list)
    error: str = ""           # the reference failed: a generator bug
    seconds: float = 0.0


def configs(threads: list[int], nodes: list[int], node_threads: int = 1) -> list[str]:
    suffix = "" if node_threads == 1 else f"x{node_threads}"
    return [f"t{t}" for t in threads] + [f"n{n}{suffix}" for n in nodes]


def test_program(text: str, workdir: Path, gcc: Gcc, carts: Carts, threads: list[int],
                 nodes: list[int], name: str = "prog.c") -> tuple[Reference | None, list[Outcome], str]:
    """Run one program on every configuration: (reference, outcomes, generator error)."""
    workdir.mkdir(parents=True, exist_ok=True)
    path = workdir / name
    path.write_text(text)
    try:
        ref = gcc.reference(text)
    except GeneratorError as err:
        return None, [], str(err)
    outcomes = [carts.threads(path, t, ref) for t in threads]
    outcomes += [carts.nodes(path, n, ref) for n in nodes]
    return ref, outcomes, ""


def write_failure(out: Path, seed: int, text: str, ref: Reference, o: Outcome) -> Path:
    d = out / f"{o.status}-{o.config}-seed{seed}"
    d.mkdir(parents=True, exist_ok=True)
    (d / "prog.c").write_text(text)
    (d / "expected.txt").write_text(ref.stdout)
    (d / "stdout.txt").write_text(o.stdout)
    (d / "stderr.txt").write_text(o.stderr)
    (d / "log.txt").write_text(
        f"command: {o.command}\nstatus: {o.status}\nsignature: {o.signature}\n"
        f"exit: {o.code} (gcc: {ref.code})\nseconds: {o.seconds:.2f}\n\n"
        f"diff (gcc -> carts):\n{diff(ref.stdout, o.stdout)}\n\nstderr:\n{o.stderr[-4000:]}\n")
    return d


def summarize(results: list[ProgramResult], cfgs: list[str]) -> dict:
    counts = {c: {s: 0 for s in STATUSES} for c in cfgs}
    signatures: dict[str, dict] = {}
    generator_errors = [r.seed for r in results if r.error]
    for r in results:
        for o in r.outcomes:
            counts.setdefault(o.config, {s: 0 for s in STATUSES})[o.status] += 1
            if o.status != "match":
                entry = signatures.setdefault(o.signature, {"count": 0, "seeds": [],
                                                            "configs": set()})
                entry["count"] += 1
                entry["configs"].add(o.config)
                if len(entry["seeds"]) < 10 and r.seed not in entry["seeds"]:
                    entry["seeds"].append(r.seed)
    for entry in signatures.values():
        entry["configs"] = sorted(entry["configs"])
    return {"programs": len(results), "counts": counts, "generator_errors": generator_errors,
            "signatures": signatures}


def format_summary(summary: dict) -> str:
    lines = [f"programs: {summary['programs']}"]
    header = f"{'config':<8}" + "".join(f"{s:>9}" for s in STATUSES) + f"{'total':>9}"
    lines.append(header)
    for config, c in summary["counts"].items():
        total = sum(c.values())
        lines.append(f"{config:<8}" + "".join(f"{c[s]:>9}" for s in STATUSES) + f"{total:>9}")
    if summary["generator_errors"]:
        lines.append(f"generator errors (gcc builds disagree or fail): "
                     f"{len(summary['generator_errors'])}, seeds "
                     f"{summary['generator_errors'][:20]}")
    if summary["signatures"]:
        lines.append("distinct failures:")
        for sig, e in sorted(summary["signatures"].items(), key=lambda kv: -kv[1]["count"]):
            lines.append(f"  {e['count']:>4}  [{','.join(e['configs'])}] {sig}  "
                         f"(seeds {', '.join(map(str, e['seeds']))})")
    return "\n".join(lines)


def campaign(seeds: list[int], *, features, threads: list[int], nodes: list[int],
             node_every: int = 1, out: Path, timeout: float = 120, cache: Path | None = None,
             share_cluster: bool = True, node_threads: int = 1, log=print) -> dict:
    """Generate and test one program per seed; failures go to ``out``; returns the
    summary (also written to ``out/summary.json``)."""
    out.mkdir(parents=True, exist_ok=True)
    gcc = Gcc(cache or out / "gcc-cache")
    results: list[ProgramResult] = []
    work = Path(tempfile.mkdtemp(prefix="carts-fuzz-"))
    cfgs = configs(threads, nodes, node_threads)
    try:
        with Carts(timeout=timeout, share_cluster=share_cluster,
                   node_threads=node_threads) as carts:
            for k, seed in enumerate(seeds):
                started = time.monotonic()
                text = generate(seed, features)
                on_nodes = nodes if node_every and k % node_every == 0 else []
                ref, outcomes, error = test_program(text, work / f"s{seed}", gcc, carts,
                                                    threads, on_nodes)
                result = ProgramResult(seed, outcomes, error, time.monotonic() - started)
                results.append(result)
                if error:
                    d = out / f"generator-seed{seed}"
                    d.mkdir(parents=True, exist_ok=True)
                    (d / "prog.c").write_text(text)
                    (d / "log.txt").write_text(error)
                    log(f"seed {seed}: GENERATOR ERROR: {error.splitlines()[0]}")
                    continue
                bad = [o for o in outcomes if o.status != "match"]
                for o in bad:
                    write_failure(out, seed, text, ref, o)
                log(f"seed {seed}: " + " ".join(f"{o.config}={o.status}" for o in outcomes)
                    + f"  ({result.seconds:.1f}s)"
                    + "".join(f"\n    {o.config}: {o.signature}" for o in bad))
                shutil.rmtree(work / f"s{seed}", ignore_errors=True)
                if (k + 1) % 25 == 0:
                    _write_summary(out, results, cfgs)
    finally:
        shutil.rmtree(work, ignore_errors=True)
        summary = _write_summary(out, results, cfgs)
    return summary


def _write_summary(out: Path, results: list[ProgramResult], cfgs: list[str]) -> dict:
    summary = summarize(results, cfgs)
    (out / "summary.json").write_text(json.dumps(summary, indent=1))
    (out / "summary.txt").write_text(format_summary(summary) + "\n")
    return summary
