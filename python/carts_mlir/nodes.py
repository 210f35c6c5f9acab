"""Several nodes on Ray: one actor per node, each a whole ARTS node.

Every node actor holds its own copy of the native runtime and its own JIT of the same LLVM
module, and owns the payloads of its datablocks. Ray places the actors, starts and stops the
runs, brings back their output and watches that every node keeps answering; the messages of
a run travel on TCP connections between the actors' processes, one per ordered pair of
nodes, opened by the actors for each run and handed to the runtime (``runtime/src/wire.c``),
whose own threads write and apply them: no message waits for Python or for a Ray call (a
Ray actor call costs about a millisecond each way here, a message on the wire tens of
microseconds).

    with NodeCluster(nodes=2, threads=1) as cluster:       # a local Ray instance
        run = cluster.run(llvm_ir, ["batchnorm.c"])
        print(run.code, run.nodes[1].stats)

``NodeCluster(..., address="auto")`` joins an existing cluster instead and places the actors
on distinct Ray nodes. Node 0 runs the program (``artsMain``); the run is over when node 0
returns from ``main`` and every other node has stopped. A node whose actor dies ends the run
with :class:`NodeFailure`, naming the node.
"""

from __future__ import annotations

import ctypes
import logging
import os
import re
import signal
import socket
import struct
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from .errors import CartsError

#: cartsNodeStats, in order (runtime/include/carts_node.h).
STAT_NAMES = ("tasks_run", "tasks_received", "messages_sent", "bytes_sent", "messages_received",
              "bytes_received", "db_bytes_sent", "db_bytes_received", "batches_sent",
              "batches_received", "epochs", "sync_bytes_sent", "sync_bytes_received",
              "control_sent", "control_received", "launches")

#: After node 0 has returned, how long the other nodes get to stop.
STOP_GRACE_S = 10.0
#: How long a node may leave a ping unanswered before the run ends without it (a hung
#: host, a stopped process, a network cut); ``nodeTimeout`` in arts.cfg or the environment.
NODE_TIMEOUT_S = 10
#: How often each node is pinged while the driver waits for it.
PING_EVERY_S = 1.0
#: How often the driver looks at the actors while a run lasts.
POLL_S = 0.2
#: How long a node waits for the other nodes to connect at the start of a run.
CONNECT_TIMEOUT_S = 60.0
#: What a connection says first: this word, the run and the node it comes from.
_HELLO = struct.Struct("<4sII")
_MAGIC = b"cart"


class NodeFailure(CartsError):
    """A node actor died or did not stop: the run is over. When the program killed its
    node with a signal, ``node``, ``signal`` and the output it wrote before (``stdout``,
    ``stderr``) say so."""

    def __init__(self, message: str, *, node: int | None = None, signal: int | None = None,
                 stdout: str = "", stderr: str = ""):
        super().__init__(message)
        self.node = node
        self.signal = signal
        self.stdout = stdout
        self.stderr = stderr


#: What a node's stderr shows when a signal ends it: Ray's failure handler names the
#: signal, Python's faulthandler describes it.
_SIGNAL_LINE = re.compile(r"^\*\*\* (SIG[A-Z]+) received", re.M)
_FAULTHANDLER_LINE = re.compile(r"^Fatal Python error: (.+?)\s*$", re.M)
_FAULTHANDLER_SIGNALS = {"Segmentation fault": "SIGSEGV", "Aborted": "SIGABRT",
                         "Floating-point exception": "SIGFPE", "Floating point exception": "SIGFPE",
                         "Bus error": "SIGBUS", "Illegal instruction": "SIGILL"}


def _crash_signal(stderr: str) -> tuple[int | None, str]:
    """(signal number, the program's own stderr before the crash report) of a node's log."""
    starts, number = [], None
    match = _SIGNAL_LINE.search(stderr)
    if match and match.group(1) in signal.Signals.__members__:
        number = int(signal.Signals[match.group(1)])
        starts.append(match.start())
    match = _FAULTHANDLER_LINE.search(stderr)
    if match:
        name = _FAULTHANDLER_SIGNALS.get(match.group(1))
        if number is None and name:
            number = int(signal.Signals[name])
        starts.append(match.start())
    if number is None:
        return None, stderr
    head = stderr[: min(starts)]
    # Ray's own log lines ("[2026-... E pid tid] ...") that precede its report
    lines = [l for l in head.splitlines(keepends=True) if not re.match(r"^\[\d{4}-\d\d-\d\d ", l)]
    return number, "".join(lines)


@dataclass
class NodeResult:
    node: int
    code: int
    stdout: str
    stderr: str
    stats: dict[str, int] = field(default_factory=dict)
    jit_s: float = 0.0


@dataclass
class ClusterRun:
    """What a run on several nodes produced: node 0's exit code and every node's output."""

    code: int
    nodes: list[NodeResult]
    wall_s: float

    def totals(self) -> dict[str, int]:
        return {name: sum(n.stats.get(name, 0) for n in self.nodes) for name in STAT_NAMES}


def edt_function_names(llvm_ir: str) -> list[str]:
    """The task functions of a lowered module, in the order that gives them their index on
    every node (``__arts_edt_<n>`` by n)."""
    names = set(re.findall(r"^define [^@]*@(__arts_edt_\d+)\(", llvm_ir, re.M))
    return sorted(names, key=lambda name: int(name.rsplit("_", 1)[1]))


class Node:
    """The body of a node actor (wrapped with ``ray.remote`` by :class:`NodeCluster`)."""

    def __init__(self, node: int, nodes: int, runtime_path: str | None):
        if runtime_path:
            os.environ["CARTS_RUNTIME"] = runtime_path
        from . import runtime

        self.node = node
        self.nodes = nodes
        self.lib = runtime.load()
        self.program = None
        self.functions = None
        self.threads: int | None = None
        # The program's output goes to files on this node's host (another host has its own
        # /tmp): they travel back in run()'s result, or through NodeLogs after a crash.
        self.log_dir = tempfile.mkdtemp(prefix=f"carts-node{node}-")
        # Where the other nodes connect to at the start of each run.
        self.listener = socket.create_server(("", 0), backlog=max(8, 4 * nodes))

    # -- set-up, called by the driver -------------------------------------------------------

    def load(self, llvm_ir: str, opt_level: int, threads: int | None) -> float:
        """JIT the program for the next run; returns the seconds it took."""
        from .jit.launch import compile_arts_program

        started = time.perf_counter()
        self.program = compile_arts_program(llvm_ir, opt_level)
        names = edt_function_names(llvm_ir)
        addresses = [self.program.engine.get_function_address(n) for n in names]
        if not all(addresses):
            missing = [n for n, a in zip(names, addresses) if not a]
            raise CartsError(f"node {self.node}: task functions not found after JIT: {missing}")
        self.functions = (ctypes.c_void_p * max(1, len(addresses)))(*addresses)
        self.function_count = len(addresses)
        self.threads = threads
        return time.perf_counter() - started

    def load_library(self, path: str, threads: int | None) -> float:
        """Use a native program instead of a JIT: a shared library defining ``main`` and the
        task table ``void *cartsTaskTable[]`` / ``unsigned cartsTaskCount`` (index i is the
        same function on every node). Its ARTS calls resolve against the loaded runtime."""
        started = time.perf_counter()
        lib = ctypes.CDLL(path, mode=ctypes.RTLD_GLOBAL)
        count = ctypes.c_uint.in_dll(lib, "cartsTaskCount").value
        table = (ctypes.c_void_p * max(1, count)).in_dll(lib, "cartsTaskTable")
        self.functions = (ctypes.c_void_p * max(1, count))(*table[:count])
        self.function_count = count
        self.program = _NativeProgram(lib)
        self.threads = threads
        return time.perf_counter() - started

    def connect(self) -> tuple[int, str, tuple[str, int]]:
        """Its pid, where its files go, and the address the other nodes connect to."""
        import ray

        return os.getpid(), self.log_dir, (ray.util.get_node_ip_address(),
                                           self.listener.getsockname()[1])

    def ping(self) -> int:
        """The driver's liveness check: answered on a thread of its own while a run lasts."""
        return self.node

    # -- the run ----------------------------------------------------------------------------

    def run(self, run_id: int, argv: list[str], addresses: list[tuple[str, int]]) -> dict:
        from .jit.launch import runtime_threads

        if self.program is None:
            raise CartsError(f"node {self.node}: no program loaded")
        if self.lib.cartsNodeInit(self.node, self.nodes) != 0:
            raise CartsError(f"node {self.node}: cannot install the node transport")
        self.lib.cartsNodeSetFunctions(self.functions, self.function_count)
        outgoing, incoming = self._open_wire(run_id, addresses)
        fds = ctypes.c_int * self.nodes
        out_fds = fds(*(s.detach() if s else -1 for s in outgoing))
        in_fds = fds(*(s.detach() if s else -1 for s in incoming))
        if self.lib.cartsNodeAttach(out_fds, in_fds) != 0:
            for fd in (*out_fds, *in_fds):
                if fd >= 0:
                    os.close(fd)
            raise CartsError(f"node {self.node}: cannot attach the node transport")
        out_path = Path(self.log_dir) / "out"
        err_path = Path(self.log_dir) / "err"
        try:
            with _redirected(out_path, err_path), runtime_threads(self.threads):
                code = self.program.run_main(list(argv))
        finally:
            self.lib.cartsNodeStop()  # also if artsRT never started the run
            self.lib.cartsNodeDetach()
        stats = (ctypes.c_uint64 * len(STAT_NAMES))()
        self.lib.cartsNodeStats(stats)
        return {"node": self.node, "code": code, "stdout": _take(out_path),
                "stderr": _take(err_path),
                "stats": dict(zip(STAT_NAMES, (int(v) for v in stats)))}

    def _open_wire(self, run_id: int, addresses: list[tuple[str, int]]) -> tuple[list, list]:
        """This run's connections: one to every other node (opened here: the peers' listeners
        queue them), one from every other node (accepted here). Each starts with a hello
        naming the run and the sender; a connection of another run is dropped."""
        outgoing: list = [None] * self.nodes
        incoming: list = [None] * self.nodes
        try:
            for dest, (host, port) in enumerate(addresses):
                if dest == self.node:
                    continue
                conn = socket.create_connection((host, port), timeout=CONNECT_TIMEOUT_S)
                conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                conn.sendall(_HELLO.pack(_MAGIC, run_id, self.node))
                conn.settimeout(None)
                outgoing[dest] = conn
            deadline = time.monotonic() + CONNECT_TIMEOUT_S
            missing = self.nodes - 1
            while missing:
                left = deadline - time.monotonic()
                if left <= 0:
                    absent = [k for k in range(self.nodes) if k != self.node and not incoming[k]]
                    raise CartsError(f"node {self.node}: node(s) {', '.join(map(str, absent))} "
                                     f"did not connect within {CONNECT_TIMEOUT_S:g}s")
                self.listener.settimeout(left)
                try:
                    conn, _ = self.listener.accept()
                except socket.timeout:
                    continue
                conn.settimeout(left)
                try:
                    magic, run, src = _HELLO.unpack(_receive_exactly(conn, _HELLO.size))
                except (OSError, struct.error):
                    conn.close()
                    continue
                if magic != _MAGIC or run != run_id or src >= self.nodes or incoming[src]:
                    conn.close()  # an older run's, or not a node's
                    continue
                conn.settimeout(None)
                conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                incoming[src] = conn
                missing -= 1
        except BaseException as err:
            for conn in (*outgoing, *incoming):
                if conn is not None:
                    conn.close()
            if isinstance(err, OSError):
                raise CartsError(f"node {self.node}: cannot connect to the other nodes: "
                                 f"{err.strerror or err}") from None
            raise
        return outgoing, incoming


def _receive_exactly(conn: socket.socket, size: int) -> bytes:
    data = b""
    while len(data) < size:
        chunk = conn.recv(size - len(data))
        if not chunk:
            raise OSError("connection closed")
        data += chunk
    return data


class _NativeProgram:
    """``run_main`` of a shared library's ``main(argc, argv)``, like a JIT-compiled program's."""

    def __init__(self, lib: ctypes.CDLL):
        self.lib = lib

    def run_main(self, argv: list[str]) -> int:
        from .jit.engine import flush_c_stdio

        args = [a.encode() for a in argv]
        c_argv = (ctypes.c_char_p * (len(args) + 1))(*args, None)
        self.lib.main.argtypes = [ctypes.c_int, ctypes.c_void_p]
        self.lib.main.restype = ctypes.c_int
        code = self.lib.main(len(args), ctypes.cast(c_argv, ctypes.c_void_p))
        flush_c_stdio()
        return int(code)


def _take(path: Path) -> str:
    """A file's text, the file removed."""
    try:
        return path.read_text(errors="replace")
    finally:
        path.unlink(missing_ok=True)


class NodeLogs:
    """A small actor beside each node actor, on the same Ray node: it reads what a node that
    died wrote before (its files are on that node's host, not the driver's) and removes the
    node's files when the cluster closes."""

    def read(self, path: str) -> str:
        try:
            return Path(path).read_text(errors="replace")
        except OSError:
            return ""

    def remove(self, directory: str) -> None:
        for path in Path(directory).glob("*"):
            path.unlink(missing_ok=True)
        try:
            os.rmdir(directory)
        except OSError:
            pass


class _redirected:
    """Send this process's stdout and stderr (file descriptors 1 and 2, where the program's
    C stdio writes) to files for the duration of a run."""

    def __init__(self, out_path: Path, err_path: Path):
        self.paths = (out_path, err_path)

    def __enter__(self):
        from .jit.engine import flush_c_stdio

        sys.stdout.flush()
        sys.stderr.flush()
        flush_c_stdio()
        self.saved = [os.dup(1), os.dup(2)]
        for fd, path in zip((1, 2), self.paths):
            target = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            os.dup2(target, fd)
            os.close(target)
        return self

    def __exit__(self, *exc):
        from .jit.engine import flush_c_stdio

        sys.stdout.flush()
        sys.stderr.flush()
        flush_c_stdio()
        for fd, saved in zip((1, 2), self.saved):
            os.dup2(saved, fd)
            os.close(saved)
        return False


def _check_reachable(address: str, timeout_s: float = 5.0) -> None:
    """A ``host:port`` address must accept a connection (Ray itself retries an unreachable
    one for minutes); ``auto``, ``local`` and ``ray://`` addresses are left to Ray."""
    import socket

    host, sep, port = address.rpartition(":")
    if not sep or not port.isdigit() or "://" in address:
        return
    try:
        with socket.create_connection((host, int(port)), timeout=timeout_s):
            pass
    except OSError as err:
        raise CartsError(f"cannot reach a Ray cluster at {address}: {err.strerror or err}") from None


def _import_ray():
    try:
        import ray
    except ImportError as err:
        raise CartsError(f"several nodes need Ray, which cannot be imported: {err}") from None
    return ray


#: Tries of ``ray.init`` and the pause before each retry: on a loaded machine Ray's own
#: start-up waits (30 s for the raylet to register, 60 s for the GCS) can run out.
RAY_START_PAUSES_S = (0.0, 2.0, 5.0)
#: Ray's wait for a GCS request, raised from its 60 s unless the environment sets it: the
#: raylets and workers Ray starts read it from the environment they inherit.
RAY_GCS_TIMEOUT_S = "180"


#: Ray's words when one of its own start-up waits ran out (the raylet's registration, the
#: GCS connection): worth another try.
_START_UP_TIMEOUT = re.compile(r"timed out|Timed out|Failed to connect to GCS|GCS has become "
                               r"overloaded|DEADLINE_EXCEEDED")


def start_ray(ray, options: dict, what: str, pauses: tuple[float, ...] = RAY_START_PAUSES_S,
              sleep=time.sleep) -> None:
    """``ray.init(**options)``, tried again after a failed start (Ray cleaned up in between);
    a one-line CartsError naming ``what`` and Ray's reason when every try failed."""
    os.environ.setdefault("RAY_gcs_server_request_timeout_seconds", RAY_GCS_TIMEOUT_S)
    reason = ""
    for attempt, pause in enumerate(pauses):
        if pause:
            sleep(pause)
        try:
            ray.init(**options)
            return
        except Exception as err:  # noqa: BLE001 - Ray's start-up errors have no common type
            text = str(err).strip()
            reason = text.splitlines()[0] if text else type(err).__name__
            if not _START_UP_TIMEOUT.search(text):
                raise  # a bad address, a missing token: trying again changes nothing
            try:
                ray.shutdown()  # whatever this try started
            except Exception:  # noqa: BLE001
                pass
    raise CartsError(f"cannot {what} (tried {len(pauses)} times; the machine may be "
                     f"overloaded): {reason}")


#: How Ray's driver starts a line it prints for a raylet: "(raylet)" or "(raylet, ip=...)",
#: in colour unless RAY_COLOR_PREFIX=0.
_RAYLET_LINE = re.compile(r"(\x1b\[[0-9;]*m)?\(raylet(, ip=[^)]*)?\)")


class _WithoutRayReports:
    """A text stream that passes everything to ``stream`` but the lines Ray's driver prints
    for its raylets, which it keeps in ``held``. Ray prints each as one write of the text
    (which may hold several lines) and one of its newline, from its own thread."""

    def __init__(self, stream):
        self.stream = stream
        self.held: list[str] = []
        self._dropping = threading.local()

    def write(self, text: str) -> int:
        if getattr(self._dropping, "newline", False) and text == "\n":
            self._dropping.newline = False
        elif _RAYLET_LINE.match(text):
            self.held.append(text)
            self._dropping.newline = True
        else:
            self.stream.write(text)
        return len(text)

    def __getattr__(self, name: str):  # flush, fileno, isatty, encoding, ...
        return getattr(self.stream, name)


class NodeCluster:
    """``nodes`` node actors with ``threads`` workers each, on a local Ray instance or, with
    ``address``, on an existing cluster (one actor per distinct Ray node). Reusable for
    several runs; ``close`` (or the ``with`` block) stops the actors and, if this object
    started Ray, Ray too."""

    def __init__(self, nodes: int, threads: int | None = None, address: str | None = None,
                 distinct_nodes: bool | None = None, node_timeout: float | None = None):
        ray = _import_ray()
        self.ray = ray
        self.nodes = nodes
        self.threads = threads
        self.node_timeout = configured_node_timeout() if node_timeout is None else node_timeout
        self.owns_ray = False
        self.actors: list = []
        self.logs: list = []      # a NodeLogs actor per node, on the node's Ray node
        self.log_dirs: list[str] = []
        self.run_count = 0
        try:
            if not ray.is_initialized():
                options = dict(include_dashboard=False, log_to_driver=False,
                               logging_level=logging.ERROR)
                if address:
                    _check_reachable(address)
                    options["address"] = address
                else:  # a new local instance, even if another one runs on this machine
                    options.update(address="local", num_cpus=max(2, os.cpu_count() or 1))
                start_ray(ray, options, "connect to the Ray cluster at " + address if address
                          else "start a local Ray instance")
                self.owns_ray = True
                self._hold_ray_reports()
            self._start_actors(address is not None if distinct_nodes is None else distinct_nodes)
        except CartsError:
            self.close()
            raise
        except Exception as err:  # Ray failing to start or to place the actors
            self.close()
            raise CartsError(f"cannot start {nodes} node actors on Ray: "
                             f"{str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__}") from None

    def _hold_ray_reports(self) -> None:
        """Ray's driver prints what its raylets report (a worker that died, with advice about
        the OOM killer) on this process's stdout, amid the program's output. A dead node is
        reported here, as a NodeFailure; while this cluster's own Ray instance runs, stdout
        keeps Ray's words apart (:class:`_WithoutRayReports`)."""
        self._stdout = sys.stdout
        sys.stdout = _WithoutRayReports(sys.stdout)

    def _release_ray_reports(self) -> None:
        held = getattr(self, "_stdout", None)
        if held is not None:
            if isinstance(sys.stdout, _WithoutRayReports) and sys.stdout.stream is held:
                sys.stdout = held  # (unless someone replaced stdout since)
            self._stdout = None

    def _start_actors(self, distinct: bool) -> None:
        ray = self.ray
        from . import runtime

        runtime_path = str(runtime.library_path())
        actor_class = ray.remote(Node)
        strategies: list = [None] * self.nodes
        if distinct:
            from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

            alive = [n["NodeID"] for n in ray.nodes() if n.get("Alive")]
            if len(alive) < self.nodes:
                raise CartsError(f"{self.nodes} nodes requested, but the Ray cluster has "
                                 f"{len(alive)} live node(s)")
            strategies = [NodeAffinitySchedulingStrategy(node_id, soft=False)
                          for node_id in alive[: self.nodes]]
        logs_class = ray.remote(NodeLogs)
        for k in range(self.nodes):
            options = dict(num_cpus=0, max_concurrency=self.nodes + 4, max_restarts=0)
            if strategies[k] is not None:
                options["scheduling_strategy"] = strategies[k]
            self.actors.append(actor_class.options(**options).remote(k, self.nodes, runtime_path))
            placement = {"scheduling_strategy": strategies[k]} if strategies[k] is not None else {}
            self.logs.append(logs_class.options(num_cpus=0, max_restarts=0, **placement).remote())
        started = self._get([a.connect.remote() for a in self.actors], "start")
        self.log_dirs = [log_dir for _, log_dir, _ in started]
        self.pids = [pid for pid, _, _ in started]
        self.addresses = [address for _, _, address in started]

    def _get(self, refs: list, what: str, timeout: float | None = None,
             node0_ends_run: bool = False) -> list:
        """Wait for one call per node; a dead actor becomes a NodeFailure naming its node, as
        does running past ``timeout`` or, with ``node0_ends_run``, a node still busy
        STOP_GRACE_S after node 0's call returned."""
        ray = self.ray
        index = {ref: k for k, ref in enumerate(refs)}
        results: list = [None] * len(refs)
        pending = list(refs)
        started, node0_done = time.monotonic(), None
        pings: dict[int, tuple] = {}  # node -> (outstanding ping, when it was sent)
        while pending:
            ready, pending = ray.wait(pending, num_returns=1, timeout=POLL_S)
            for ref in ready:
                results[index[ref]] = self._result(ref, index[ref], what)
            now = time.monotonic()
            if getattr(self, "pids", None):  # the actors are up: each must keep answering
                self._watch(pings, now, what)
            if node0_ends_run and node0_done is None and results[0] is not None:
                node0_done = now
            if node0_done is not None and pending and now - node0_done > STOP_GRACE_S:
                late = sorted(index[r] for r in pending)
                raise NodeFailure(f"node(s) {', '.join(map(str, late))} did not stop within "
                                  f"{STOP_GRACE_S:.0f}s after node 0 returned")
            if timeout is not None and pending and now - started > timeout:
                raise NodeFailure(f"{what} did not finish within {timeout:g}s")
        return results

    def _watch(self, pings: dict[int, tuple], now: float, what: str) -> None:
        """Ping every node about once a second; one that leaves a ping unanswered for
        ``node_timeout`` seconds ends the run (its actor's death, if it died, shows up
        through the call it was running instead)."""
        for node, actor in enumerate(self.actors):
            ref, sent = pings.get(node, (None, 0.0))
            if ref is not None:
                done, _ = self.ray.wait([ref], timeout=0)
                if not done:
                    if now - sent > self.node_timeout:
                        raise NodeFailure(f"node {node} (pid {self._pid(node)}) stopped "
                                          f"answering: no reply for {self.node_timeout:g}s "
                                          f"during {what}", node=node)
                    continue
                pings[node] = (None, now)
                continue
            if now - sent >= PING_EVERY_S:
                pings[node] = (actor.ping.remote(), now)

    def _result(self, ref, node: int, what: str):
        try:
            return self.ray.get(ref)
        except self.ray.exceptions.RayTaskError as err:
            cause = err.cause if isinstance(getattr(err, "cause", None), CartsError) else None
            if cause is not None:
                raise CartsError(cause.message) from None
            raise NodeFailure(f"node {node} failed during {what}: {_cause_line(err)}",
                              node=node) from None
        except self.ray.exceptions.RayError as err:
            raise self._death(node, what, err) from None

    def _death(self, node: int, what: str, err: Exception) -> NodeFailure:
        who = f"node {node} (Ray actor, pid {self._pid(node)})"
        stderr = self._node_log(node, "err")
        number, program_stderr = _crash_signal(stderr)
        if number is not None:
            return NodeFailure(f"{who} was killed by {signal.Signals(number).name} "
                               f"({signal.strsignal(number)}) during {what}", node=node,
                               signal=number, stdout=self._node_log(node, "out"),
                               stderr=program_stderr)
        detail = "\n".join(stderr.strip().splitlines()[-5:])
        if detail:
            return NodeFailure(f"{who} died during {what}; its last output:\n{detail}", node=node)
        return NodeFailure(f"{who} died during {what} ({_first_line(err)})", node=node)

    def _pid(self, node: int) -> str:
        pids = getattr(self, "pids", None)
        return str(pids[node]) if pids and pids[node] else "?"

    def _node_log(self, node: int, stream: str) -> str:
        """What node ``node`` has written to its ``out`` or ``err`` file in this run, read on
        its own host."""
        if node >= len(self.log_dirs) or node >= len(self.logs):
            return ""
        try:
            return self.ray.get(self.logs[node].read.remote(f"{self.log_dirs[node]}/{stream}"),
                                timeout=10)
        except Exception:  # noqa: BLE001 - the host is gone too: nothing to show
            return ""

    def run(self, llvm_ir: str, argv: list[str], opt_level: int = 3,
            timeout: float | None = None, threads: int | None = None) -> ClusterRun:
        """JIT ``llvm_ir`` on every node and run its ``main`` with ``argv`` (on ``threads``
        workers per node, default the cluster's)."""
        workers = threads if threads is not None else self.threads
        jit = self._get([a.load.remote(llvm_ir, opt_level, workers) for a in self.actors],
                        "compile the program")
        return self._run(argv, jit, timeout)

    def run_library(self, path: str | os.PathLike, argv: list[str],
                    timeout: float | None = None, threads: int | None = None) -> ClusterRun:
        """Run a native program (see :meth:`Node.load_library`) on every node: a shared
        library at a path every node can read."""
        workers = threads if threads is not None else self.threads
        loaded = self._get([a.load_library.remote(str(path), workers) for a in self.actors],
                           "load the program")
        return self._run(argv, loaded, timeout)

    def _run(self, argv: list[str], jit: list[float], timeout: float | None) -> ClusterRun:
        self.run_count += 1
        started = time.monotonic()
        results = self._get([a.run.remote(self.run_count, list(argv), self.addresses)
                             for a in self.actors],
                            "the run", timeout, node0_ends_run=True)
        wall = time.monotonic() - started
        nodes = [NodeResult(r["node"], r["code"], r["stdout"], r["stderr"], r["stats"], jit[k])
                 for k, r in enumerate(results)]
        return ClusterRun(nodes[0].code, nodes, wall)

    def close(self) -> None:
        ray = self.ray
        self._kill(self.actors)
        self.actors = []
        removed = []
        for logs, log_dir in zip(self.logs, self.log_dirs):
            try:
                removed.append(logs.remove.remote(log_dir))
            except Exception:  # noqa: BLE001
                pass
        if removed:  # (an empty wait would start a Ray instance of its own)
            try:
                ray.wait(removed, num_returns=len(removed), timeout=5)
            except Exception:  # noqa: BLE001
                pass
        self._kill(self.logs)
        self.logs = []
        if self.owns_ray and ray.is_initialized():
            ray.shutdown()
            self.owns_ray = False
        self._release_ray_reports()

    def _kill(self, actors: list) -> None:
        for actor in actors:
            try:
                self.ray.kill(actor)
            except Exception:  # noqa: BLE001 - already gone
                pass

    def __enter__(self) -> "NodeCluster":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def configured_node_timeout(config: dict[str, tuple[str, str]] | None = None) -> int:
    """Seconds a node may go without answering: env ``nodeTimeout``, else arts.cfg's
    ``nodeTimeout``, else NODE_TIMEOUT_S."""
    from .config import MAX_NODE_TIMEOUT_S, configured

    return configured("nodeTimeout", MAX_NODE_TIMEOUT_S, NODE_TIMEOUT_S, config)


def format_stats(run: ClusterRun) -> str:
    """The per-node counters of a run, as the table ``--stats`` prints. A message is one
    operation for another node (a task to create, a block granted...); a batch is one write
    on the wire, carrying the messages queued for that node at the time; ``batches/epoch`` is
    a node's batches sent over the epochs of the whole run. Control messages are those that
    carry no datablock bytes (creations, dependences, epoch counts); ``control/epoch`` is a
    node's control messages sent and received over the epochs of the run, and
    ``control/launch`` over the launches (a parallel loop spread over the nodes is one launch;
    epochs fused across loops hold several). Datablock bytes are split into
    what the tasks moved (grants, write-backs: the kernels' own traffic) and what the host's
    flushes and fetches around them moved."""
    head = ("node", "tasks run", "tasks in", "msgs out", "msgs in", "batches out", "batches in",
            "batches/epoch", "control out", "control in", "control/epoch", "control/launch",
            "bytes out",
            "bytes in", "db bytes out", "db bytes in", "host sync out", "host sync in")
    epochs = sum(n.stats.get("epochs", 0) for n in run.nodes)
    launches = sum(n.stats.get("launches", 0) for n in run.nodes)
    rows = [head]
    for n in run.nodes:
        s = n.stats
        per_epoch = f"{s['batches_sent'] / epochs:.1f}" if epochs else "-"
        control = s["control_sent"] + s["control_received"]
        control_per_epoch = f"{control / epochs:.1f}" if epochs else "-"
        control_per_launch = f"{control / launches:.1f}" if launches else "-"
        rows.append((str(n.node), str(s["tasks_run"]), str(s["tasks_received"]),
                     str(s["messages_sent"]), str(s["messages_received"]),
                     str(s["batches_sent"]), str(s["batches_received"]), per_epoch,
                     str(s["control_sent"]), str(s["control_received"]), control_per_epoch,
                     control_per_launch,
                     str(s["bytes_sent"]), str(s["bytes_received"]), str(s["db_bytes_sent"]),
                     str(s["db_bytes_received"]), str(s["sync_bytes_sent"]),
                     str(s["sync_bytes_received"])))
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    lines = ["  ".join(cell.rjust(w) for cell, w in zip(r, widths)) for r in rows]
    return ("carts execute: per-node counters (run wall time %.3fs, %d epochs, %d launches)\n%s"
            % (run.wall_s, epochs, launches, "\n".join(lines)))


_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _cause_line(err: BaseException) -> str:
    """What went wrong inside a node's call, in one line: the exception the call raised
    (Ray's wrapper only names the actor and its pid, in colour)."""
    cause = getattr(err, "cause", None)
    if isinstance(cause, BaseException):
        text = _ANSI.sub("", str(cause)).strip()
        first = text.splitlines()[0] if text else ""
        return f"{type(cause).__name__}: {first}" if first else type(cause).__name__
    return _ANSI.sub("", _first_line(err))


def _first_line(err: BaseException) -> str:
    text = str(err).strip()
    return text.splitlines()[0] if text else type(err).__name__
