"""A second process for the burst benchmark: `python -m bench.ghap.contender DB`.

It opens the file once (no model), prints `ready`, then for each line on stdin
runs one library call and prints the milliseconds it took, measured from the
moment the line arrived:

    w   increment_tool_count()  (a hook counting a tool call: one write transaction)
    r   get_active_ghap()       (a hook showing the active entry: one read)
    q   quit
"""

from __future__ import annotations

import sys
import time

import learnmem


def main() -> int:
    lm = learnmem.open(sys.argv[1])
    lm.increment_tool_count()
    lm.get_active_ghap()
    print("ready", flush=True)
    for line in sys.stdin:
        command = line.strip()
        if command == "q":
            break
        started = time.perf_counter()
        try:
            if command == "w":
                lm.increment_tool_count()
            elif command == "r":
                lm.get_active_ghap()
            else:
                print(f"error unknown command {command!r}", flush=True)
                continue
        except Exception as error:  # noqa: BLE001 - reported to the driver, which records it
            print(f"error {type(error).__name__}: {error}".replace("\n", " "), flush=True)
            continue
        print(f"{(time.perf_counter() - started) * 1000:.3f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
