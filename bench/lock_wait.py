"""How long a writer waits for `<file>.lock` when several processes take turns, by how often it tries the lock.

    python -m bench.lock_wait [--processes 4] [--turns 150]

Each process takes the lock `--turns` times, holds it 4 ms, and works 1 ms outside it, as learnmem writers
taking turns on one file do. Printed: each process's worst wait, for filelock's default poll interval (50 ms)
and for learnmem's (learnmem.storage.store.LOCK_POLL_S). With a long interval a waiter can starve: the holder
lets go and takes the lock again between two of its tries.
"""

from __future__ import annotations

import argparse
import multiprocessing
import tempfile
import time
from pathlib import Path

from filelock import FileLock

from learnmem.storage.store import LOCK_POLL_S

HOLD_S, OUTSIDE_S = 0.004, 0.001


def _turns(path: str, poll: float, turns: int, worst: multiprocessing.Queue) -> None:
    lock = FileLock(path)
    waits = []
    for _ in range(turns):
        asked = time.perf_counter()
        lock.acquire(poll_interval=poll)
        waits.append(time.perf_counter() - asked)
        time.sleep(HOLD_S)
        lock.release()
        time.sleep(OUTSIDE_S)
    worst.put(max(waits))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.lock_wait", description=__doc__.split("\n\n")[0])
    parser.add_argument("--processes", type=int, default=4)
    parser.add_argument("--turns", type=int, default=150)
    args = parser.parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="learnmem-lock-wait-"))
    print("| poll interval | worst wait of each process |\n|---|---|")
    for poll in (0.05, LOCK_POLL_S):
        worst: multiprocessing.Queue = multiprocessing.Queue()
        workers = [multiprocessing.Process(target=_turns, args=(str(folder / f"{poll}.lock"), poll, args.turns, worst))
                   for _ in range(args.processes)]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join()
        waits = sorted(worst.get() for _ in workers)
        print(f"| {poll * 1000:.0f} ms | {', '.join(f'{w:.2f} s' for w in waits)} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
