"""Run ``hexhop`` commands in child processes with bounds on time, memory and output.

A server process imports hexhop once (the library, and the parsers built)
and forks one child per command, so that a run costs milliseconds instead
of an interpreter start.  The child is the ``hexhop`` console script in
all that matters: ``main()`` with ``sys.argv`` set, the environment of the
client at the request (and the request's changes), the modules of the
command line imported afresh after the language is chosen, standard
streams on files (UTF-8, strict, as under a UTF-8 locale, or as
``PYTHONIOENCODING`` says; ``PYTHONWARNINGS`` read too), the default signal
handlers, a traceback and exit 1 for an uncaught exception, ``atexit``
handlers and a garbage collection at the end (as at the interpreter's
exit: a SQLite connection a cycle holds is closed, its ``-wal`` file
removed).  It runs in its own process group with ``RLIMIT_AS`` (a runaway
allocation fails instead of eating the shared machine), ``RLIMIT_FSIZE``
(a runaway report is cut off by SIGXFSZ instead of filling the disk) and
no core files.

The server answers each request with the exit status, the wall time and
the child's peak resident memory (``ru_maxrss`` from ``os.wait4``) minus
that of a child that does nothing: what the command itself added.

    client = Runner()
    result = client.run(["check", "a.hxl"], cwd=..., stdout=..., stderr=...)
    done = client.complete(["check", "a.hxl"], cwd=..., env={"LANG": None})

``complete`` is ``subprocess.run(["hexhop", ...], capture_output=True)``
for the tests that check what a command says: the output as bytes, the
exit code (``-N`` when signal N ended it, as subprocess says); a variable
given as None is unset.  ``test_output_encoding``'s
``test_the_fork_server_is_the_program`` compares the two.  :func:`shared`
is the test session's server.
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Outcome:
    """How one child ended."""

    exit_code: int | None  # None when killed by a signal or the time bound
    signal: int | None  # the signal that ended it, if any
    timed_out: bool
    seconds: float
    peak_mib: float  # resident memory added to a forked idle child

    def describe(self) -> str:
        how = (
            "killed after the time bound"
            if self.timed_out
            else f"killed by {signal.Signals(self.signal).name}"
            if self.signal
            else f"exit {self.exit_code}"
        )
        return f"{how}, {self.seconds:.2f} s, {self.peak_mib:.0f} MiB"


class Runner:
    """A client of the fork server (one per test session)."""

    def __init__(self) -> None:
        self._server = subprocess.Popen(
            [sys.executable, __file__],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
        )

    def run(
        self,
        args: list[str],
        *,
        cwd: str,
        stdout: str,
        stderr: str,
        stdin: str | None = None,
        env: dict[str, str | None] | None = None,
        seconds: float = 10.0,
        address_space_mib: int = 1024,
        output_mib: int = 64,
        signal_after: float | None = None,
        signal_number: int = signal.SIGTERM,
        address_space_limit_mib: int | None = None,
    ) -> Outcome:
        request = {
            "args": args,
            "cwd": cwd,
            "stdin": stdin or os.devnull,
            "stdout": stdout,
            "stderr": stderr,
            # this process's environment and ``env`` (None: unset), as a
            # child started now would have it
            "env": {
                name: value
                for name, value in {**os.environ, **(env or {})}.items()
                if value is not None
            },
            "seconds": seconds,
            "address_space": address_space_mib << 20,
            "address_space_limit": (
                None if address_space_limit_mib is None else address_space_limit_mib << 20
            ),
            "output": output_mib << 20,
            "signal_after": signal_after,
            "signal_number": int(signal_number),
        }
        assert self._server.stdin is not None and self._server.stdout is not None
        self._server.stdin.write(json.dumps(request) + "\n")
        answer = json.loads(self._server.stdout.readline())
        return Outcome(**answer)

    def complete(
        self,
        args: list[str],
        *,
        cwd: str | os.PathLike[str] | None = None,
        input: bytes | str | None = None,
        stdin: str | os.PathLike[str] | None = None,
        env: dict[str, str | None] | None = None,
        text: bool = False,
        timeout: float = 60.0,
        memory_mib: int | None = None,
    ) -> subprocess.CompletedProcess[Any]:
        """Run ``hexhop ARGS`` as ``subprocess.run(..., capture_output=True)``
        does: in this process's working folder (or ``cwd``), standard input ``input`` or the file ``stdin`` (else
        nothing), the output as bytes (``text``: as UTF-8 text);
        ``timeout`` only ends a run that hangs (``TimeoutExpired``);
        ``memory_mib``: its whole address space, as ``RLIMIT_AS`` set in a
        ``preexec_fn`` bounds it (else 1 GiB more than the server's)."""
        with tempfile.TemporaryDirectory(prefix="hexhop-run-") as logs:
            if stdin is not None:
                stdin = os.fspath(stdin)
            if input is not None:
                stdin = os.path.join(logs, "stdin")
                with open(stdin, "wb") as handle:
                    handle.write(input.encode() if isinstance(input, str) else input)
            stdout, stderr = os.path.join(logs, "stdout"), os.path.join(logs, "stderr")
            outcome = self.run(
                args,
                cwd=os.fspath(cwd if cwd is not None else os.getcwd()),
                stdout=stdout,
                stderr=stderr,
                stdin=stdin,
                env=env,
                seconds=timeout,
                address_space_limit_mib=memory_mib,
                output_mib=1024,
            )
            with open(stdout, "rb") as out, open(stderr, "rb") as err:
                said, complained = out.read(), err.read()
        command = ["hexhop", *args]
        if outcome.timed_out:
            raise subprocess.TimeoutExpired(command, timeout, said, complained)
        code = -outcome.signal if outcome.signal else outcome.exit_code
        assert code is not None
        if text:
            return subprocess.CompletedProcess(command, code, said.decode(), complained.decode())
        return subprocess.CompletedProcess(command, code, said, complained)

    def close(self) -> None:
        if self._server.stdin is not None:
            self._server.stdin.close()
        self._server.wait(timeout=10)


_SHARED: list[Runner] = []


def shared() -> Runner:
    """The test session's server, started when first asked for
    (``conftest.pytest_sessionfinish`` closes it)."""
    if not _SHARED:
        _SHARED.append(Runner())
    return _SHARED[0]


def close_shared() -> None:
    while _SHARED:
        _SHARED.pop().close()


# ---------------------------------------------------------------- the server


def _serve() -> None:
    bytecode = _load()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the test run's Ctrl-C ends the run, not us
    gc.freeze()  # children neither collect nor copy what the server holds
    idle = _idle_rss()
    try:
        for line in sys.stdin:
            answer = _one(json.loads(line), idle)
            sys.stdout.write(json.dumps(answer) + "\n")
            sys.stdout.flush()
    finally:
        if bytecode:
            shutil.rmtree(bytecode, ignore_errors=True)


def _load() -> str | None:
    """Import what the commands use and build the parsers, so that children
    start at once; but not the modules of the command line that the program
    imports after it has chosen the language (click names some things when
    an option is made: ``click.Path`` "DATEI").  Returns the folder made for
    the bytecode of what children import, if any."""
    import importlib
    import pkgutil

    from hexhop.cli.main import COMMANDS
    from hexhop.notation import parser

    at_start = set(sys.modules)
    for module, _, _ in COMMANDS.values():
        importlib.import_module(f"hexhop.cli.{module}")
    for name in set(sys.modules) - at_start:
        package, _, module = name.rpartition(".")
        if package == "hexhop.cli":
            del sys.modules[name]
            with contextlib.suppress(AttributeError):
                delattr(sys.modules[package], module)
    # the library: what a command imports when it meets a game or a format
    for name in (
        "hexhop.notation",
        "hexhop.engine",
        "hexhop.render",
        "hexhop.records",
        "hexhop.archive",
    ):
        package = importlib.import_module(name)
        for found in pkgutil.walk_packages(package.__path__, f"{name}."):
            if not found.name.endswith(".__main__"):
                importlib.import_module(found.name)
    for name in ("header", *parser.GRAMMAR_FILES):
        parser._parser(name)
    if not sys.dont_write_bytecode:
        return None
    # PYTHONDONTWRITEBYTECODE: every child would compile what it imports
    sys.pycache_prefix = tempfile.mkdtemp(prefix="hexhop-runner-bytecode-")
    sys.dont_write_bytecode = False  # the first child writes it there
    return sys.pycache_prefix


def _idle_rss() -> int:
    """ru_maxrss (KiB) of a forked child that does nothing."""
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    return os.wait4(pid, 0)[2].ru_maxrss


def _one(request: dict[str, Any], idle: int) -> dict[str, Any]:
    start = time.monotonic()
    pid = os.fork()
    if pid == 0:
        _child(request)
    deadline = start + request["seconds"]
    # the delay counts from when hexhop's handlers are set (the child sets
    # SIGTERM's to the default first), not from the fork
    signal_after, signal_at = request["signal_after"], None
    pause = 0.001
    timed_out = False
    while True:
        done, status, usage = os.wait4(pid, os.WNOHANG)
        if done:
            break
        now = time.monotonic()
        if signal_after and _catches(pid, signal.SIGTERM):
            signal_at, signal_after = now + signal_after, None
        if signal_at is not None and now >= signal_at:
            _kill(pid, request["signal_number"])
            signal_at = None
        if now >= deadline:
            timed_out = True
            _kill(pid, signal.SIGKILL)
            done, status, usage = os.wait4(pid, 0)
            break
        time.sleep(pause)
        pause = min(pause * 2, 0.02)
    seconds = time.monotonic() - start
    killed = os.WTERMSIG(status) if os.WIFSIGNALED(status) else None
    return {
        "exit_code": os.WEXITSTATUS(status) if os.WIFEXITED(status) else None,
        "signal": killed,
        "timed_out": timed_out,
        "seconds": round(seconds, 3),
        "peak_mib": round(max(0, usage.ru_maxrss - idle) / 1024, 1),
    }


def _catches(pid: int, number: int) -> bool:
    """Whether process ``pid`` has a handler for signal ``number`` (hexhop's own code runs)."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("SigCgt:"):
                    return bool(int(line.split()[1], 16) & (1 << (number - 1)))
    except OSError:
        pass
    return False


def _kill(pid: int, number: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pid, number)


def _child(request: dict[str, Any]) -> None:
    """Become ``hexhop ARGS`` and never return."""
    import atexit
    import gc
    import io
    import resource
    import tempfile
    import traceback

    code = 1
    try:
        os.setpgid(0, 0)
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        resource.setrlimit(resource.RLIMIT_FSIZE, (request["output"], request["output"]))
        limit = request["address_space_limit"] or _vm_size() + request["address_space"]
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        os.chdir(request["cwd"])
        os.environ.clear()  # the client's, not the one the server started with
        os.environ.update(request["env"])
        tempfile.tempdir = None  # read TMPDIR again
        for fd, path, flags in (
            (0, request["stdin"], os.O_RDONLY),
            (1, request["stdout"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC),
            (2, request["stderr"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC),
        ):
            opened = os.open(path, flags, 0o644)
            os.dup2(opened, fd)
            os.close(opened)
        # PYTHONIOENCODING=ENCODING[:ERRORS] as the interpreter reads it at start
        encoding, _, errors = (os.environ.get("PYTHONIOENCODING") or "utf-8").partition(":")
        encoding = encoding or "utf-8"
        sys.stdin = io.TextIOWrapper(
            io.BufferedReader(io.FileIO(0, "r", closefd=False)),
            encoding=encoding,
            errors=errors or "strict",
        )
        sys.stdout = io.TextIOWrapper(
            io.BufferedWriter(io.FileIO(1, "w", closefd=False)),
            encoding=encoding,
            errors=errors or "strict",
        )
        sys.stderr = io.TextIOWrapper(
            io.BufferedWriter(io.FileIO(2, "w", closefd=False)),
            encoding=encoding,
            errors="backslashreplace",
            line_buffering=True,
        )
        warnings = os.environ.get("PYTHONWARNINGS")  # as the interpreter reads it at start
        if warnings:
            import warnings as module

            module._processoptions([option for option in warnings.split(",") if option])  # type: ignore[attr-defined]
        signal.signal(signal.SIGINT, signal.default_int_handler)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        # Python ignores SIGXFSZ: a write beyond RLIMIT_FSIZE would become an
        # OSError traceback of our making; be killed instead, and say so
        signal.signal(signal.SIGXFSZ, signal.SIG_DFL)
        sys.argv = ["hexhop", *request["args"]]
        from web_visit import WEB, visit

        from hexhop.cli.main import main

        try:
            if request["args"][:1] == [WEB]:  # the web app's pages instead of a command
                visit(request["args"][1:])
            else:
                main()
            code = 0
        except SystemExit as stop:
            code = _exit_code(stop.code)
        except BaseException:  # what the interpreter does with an uncaught exception
            traceback.print_exc()
            code = 1
        atexit._run_exitfuncs()
        gc.collect()  # as the interpreter's exit does: what a cycle holds is closed
        gc.collect()  # as the interpreter's exit does: what a cycle holds is closed
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except BaseException:
                traceback.print_exc(file=sys.__stderr__)
                code = 1
    finally:
        os._exit(code)


def _exit_code(value: object) -> int:
    if value is None:
        return 0
    if isinstance(value, int):
        return value
    print(value, file=sys.stderr)
    return 1


def _vm_size() -> int:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    return 0


if __name__ == "__main__":
    _serve()
