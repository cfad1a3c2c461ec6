"""The soak's probe: measures, inside a child process, how long each operation waits for the learnmem file.

`bench.soak` puts this folder on PYTHONPATH of the processes it starts (`learnmem-mcp`, `learnmem hook ...`,
its own indexer and reader) with SOAK_PROBE_DIR and SOAK_KIND set; Python then imports this module at start-up
(`site` imports `sitecustomize`). It changes nothing until `learnmem.storage.store` is imported (the hooks' fast path,
which never imports DuckDB, pays a few microseconds), then wraps, in that process only:

- `Store.read`, `Store._writer` (behind `write` and `frozen`), `Store.copy_to_memory` (behind `snapshot`),
  `Store.run_query` (behind `sql`; it may attach the file to a DuckDB instance of its own, whose creation is
  then part of the wait) and `Store.rewrite`: one record per time the file is taken, with
  `wait`: from the library asking for the file to the file being attached (`Store._connect` returned). It
  covers this process's own lock (other threads of the same process), the `<file>.lock` writer lock
  (writers), DuckDB's lock error retried with backoff (a reader vs. a writer, or a process that does not
  take `<file>.lock`), and the ATTACH itself (~3 ms, plus replaying a WAL);
  `held`: from attached to released (detached, with the checkpoint of a write);
  `lock_wait`: the part of `wait` spent on `<file>.lock`; `attach`: the `_connect` part (ATTACH plus retries);
  `retries`: how many times DuckDB's lock error was retried (counted through `store.random.uniform`, which
  `_connect` calls only before a retry's sleep);
  `error`: set when taking the file failed (StoreBusyError...).
- A `Store._connect` outside all of these (a path added to the library later) still gives a record, flagged
  `unscoped`: its wait is the attach alone and its hold is not seen.
- `imported`: top-level modules first imported while the file was held (a lazy import inside a hold
  lengthens it for everyone waiting).
- `caller`: the function that asked (the first frame outside contextlib, store.py and this module).
- At a normal interpreter exit, one record with op `exit` (not a use of the file).
- Records are JSON lines appended with os.write to `$SOAK_PROBE_DIR/probe-<kind>-<pid>.jsonl` as they happen:
  a hook process ends with os._exit and would lose anything buffered.

The library's code is not modified; only these bound methods are replaced in the child's memory.
"""

from __future__ import annotations

import os
import sys

_DIR = os.environ.get("SOAK_PROBE_DIR")
_KIND = os.environ.get("SOAK_KIND", "unknown")


def _install(store) -> None:
    import json
    import random
    import threading
    import time
    from contextlib import contextmanager

    Store = store.Store
    local = threading.local()
    fd = os.open(os.path.join(_DIR, f"probe-{_KIND}-{os.getpid()}.jsonl"), os.O_WRONLY | os.O_APPEND | os.O_CREAT,
                 0o644)

    def frames() -> list:
        if not hasattr(local, "frames"):
            local.frames = []
        return local.frames

    def top() -> dict | None:
        stack = frames()
        return stack[-1] if stack else None

    def emit(frame: dict, op: str, asked: float, error: BaseException | None = None, unscoped: bool = False) -> None:
        now = time.perf_counter()
        attached = frame.get("attached_at")
        row = {"kind": _KIND, "pid": os.getpid(), "op": op, "t": frame["wall"],
               "thread": threading.current_thread().name, "caller": frame["caller"],
               "wait": (attached - asked) if attached is not None else now - asked,
               "held": (now - attached) if attached is not None else None,
               "lock_wait": frame.get("lock_wait"), "attach": frame.get("attach"), "retries": frame["retries"]}
        if frame.get("modules") is not None and len(sys.modules) != len(frame["modules"]):
            new = {name.split(".")[0] for name in set(sys.modules) - frame["modules"]}
            heavy = [name for name in ("pandas", "pyarrow", "numpy", "onnxruntime") if name in new]
            # modules first imported while this process held the file, the heavy ones first
            row["imported"] = (heavy + sorted(new - set(heavy)))[:10]
        if unscoped:  # released somewhere this probe does not see: no hold, and the wait is the attach alone
            row["held"], row["unscoped"] = None, True
        if error is not None and attached is None:
            row["error"] = f"{type(error).__name__}: {error}"[:2000]
        os.write(fd, (json.dumps(row) + "\n").encode())

    here = (os.path.normcase(__file__), os.path.normcase(store.__file__))

    def caller() -> str:
        """`module:function` of the library code that asked for the file (past contextlib, store.py, this)."""
        frame = sys._getframe(2)
        while frame is not None:
            code = frame.f_code
            name = os.path.normcase(code.co_filename)
            if name not in here and not name.endswith(("contextlib.py",)):
                module = frame.f_globals.get("__name__", "?")
                return f"{module}:{code.co_name}"
            frame = frame.f_back
        return "?"

    def new_frame() -> dict:
        frame = {"wall": time.time(), "retries": 0, "caller": caller()}
        stack = frames()
        if stack and "attached_at" not in stack[-1]:
            stack[-1]["delegated"] = True  # an outer wrapped call takes the file through this one: one record
        stack.append(frame)
        return frame

    def pop(frame: dict) -> None:
        stack = frames()
        if stack and stack[-1] is frame:
            stack.pop()

    original_connect = Store._connect

    def _connect(self, read_only, instance=None):
        started = time.perf_counter()
        frame = top()
        if frame is None:  # a path of the library none of the wrappers covers: still one record, its attach
            frame = new_frame()
            try:
                con = original_connect(self, read_only, instance)
            except BaseException as error:
                pop(frame)
                emit(frame, "read" if read_only else "write", started, error)
                raise
            pop(frame)
            frame["attached_at"] = time.perf_counter()
            frame["attach"] = frame["attached_at"] - started
            emit(frame, "read" if read_only else "write", started, unscoped=True)
            return con
        con = original_connect(self, read_only, instance)
        if "attached_at" not in frame:
            frame["attached_at"] = time.perf_counter()
            frame["attach"] = frame["attached_at"] - started
            frame["modules"] = set(sys.modules)
        return con

    original_writer_lock = Store._writer_lock

    @contextmanager
    def _writer_lock(self):
        started = time.perf_counter()
        with original_writer_lock(self):
            frame = top()
            if frame is not None and "lock_wait" not in frame:
                frame["lock_wait"] = time.perf_counter() - started
            yield

    def wrap_context(name: str, op: str):
        original = getattr(Store, name)

        @contextmanager
        def wrapper(self, *args, **kwargs):
            frame = new_frame()
            asked = time.perf_counter()
            entered = False
            try:
                with original(self, *args, **kwargs) as con:
                    entered = True
                    pop(frame)  # nested acquisitions inside the body get their own frames
                    try:
                        yield con
                    finally:
                        frame["released"] = True
            except BaseException as error:
                if not entered:
                    pop(frame)
                    emit(frame, op, asked, error)
                    raise
                emit(frame, op, asked)
                raise
            emit(frame, op, asked)

        wrapper.__wrapped__ = original
        return wrapper

    def wrap_call(name: str, op: str):
        """A method that takes the file and releases it before it returns (copy_to_memory, run_query, ...)."""
        original = getattr(Store, name)

        def wrapper(self, *args, **kwargs):
            frame = new_frame()
            asked = time.perf_counter()
            try:
                result = original(self, *args, **kwargs)
            except BaseException as error:
                pop(frame)
                if not frame.get("delegated"):
                    emit(frame, op, asked, error)
                raise
            pop(frame)
            if not frame.get("delegated"):
                emit(frame, op, asked)
            return result

        wrapper.__wrapped__ = original
        return wrapper

    class CountingRandom:
        """`store.random`: counts the retries of DuckDB's lock error (uniform() is called once per retry)."""

        def uniform(self, low, high):
            frame = top()
            if frame is not None:
                frame["retries"] += 1
            return random.uniform(low, high)

        def __getattr__(self, name):
            return getattr(random, name)

    def exited() -> None:
        """An exit record: the process ended on its own (a killed one, or a hook's os._exit, writes none)."""
        os.write(fd, (json.dumps({"kind": _KIND, "pid": os.getpid(), "op": "exit", "t": time.time()}) + "\n").encode())

    import atexit

    atexit.register(exited)
    Store._connect = _connect
    Store._writer_lock = _writer_lock
    Store.read = wrap_context("read", "read")
    Store._writer = wrap_context("_writer", "write")
    Store.copy_to_memory = wrap_call("copy_to_memory", "copy")
    if hasattr(Store, "run_query"):  # lm.sql(): may take the file itself, on an instance of its own
        Store.run_query = wrap_call("run_query", "read")
    if hasattr(Store, "rewrite"):
        Store.rewrite = wrap_call("rewrite", "write")
    store.random = CountingRandom()


class _StoreFinder:
    """Installs the probe right after `learnmem.storage.store` is executed, whenever that happens."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname != "learnmem.storage.store":
            return None
        from importlib.machinery import PathFinder

        spec = PathFinder.find_spec(fullname, path)
        if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return spec
        loader_exec = spec.loader.exec_module

        def exec_module(module):
            loader_exec(module)
            _install(module)

        spec.loader.exec_module = exec_module
        return spec

    def find_module(self, fullname, path=None):  # pragma: no cover - pre-3.4 protocol, unused
        return None


if _DIR and os.path.isdir(_DIR):
    sys.meta_path.insert(0, _StoreFinder())
