"""`learnmem init` with an agent indexes the project in the background, so that `search_code`, `find_callers`
and the history tools answer from the agent's first session, and init itself returns at once.

A detached process runs `learnmem index` then `learnmem git index` on the project (both incremental, both
committing as they go: a process killed half-way keeps what it did and the next run goes on from there),
writing their progress to `.learnmem/index.log`. `.learnmem/index.pid` names it while it runs, so a second
init does not start another. `--no-index` skips it; `learnmem index` and `learnmem git index` do the same
work by hand.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

LOG_NAME = "index.log"
PID_NAME = "index.pid"
# $0: the Python, $1: the project, $2: the file, $3: the pid file.
_SCRIPT = """
echo $$ > "$3"
trap 'rm -f "$3"' EXIT
echo "learnmem: indexing the code of $1"
"$0" -m learnmem.cli index "$1" --db "$2"
echo "learnmem: indexing the git history of $1"
"$0" -m learnmem.cli git index "$1" --db "$2"
echo "learnmem: indexing done"
"""


def running(folder: Path) -> int | None:
    """The pid of the background indexing of the project whose `.learnmem/` is `folder`, or None."""
    try:
        pid = int((folder / PID_NAME).read_text(encoding="ascii").strip())
        os.kill(pid, 0)
    except (OSError, ValueError):
        return None
    return pid


def start(root: Path, db: Path) -> tuple[int, Path, bool]:
    """Index `root` into `db` in a detached process: (its pid, the log, whether it was already running)."""
    folder = db.parent
    log = folder / LOG_NAME
    already = running(folder)
    if already is not None:
        return already, log, True
    with open(log, "ab") as output:
        process = subprocess.Popen(
            ["sh", "-c", _SCRIPT, sys.executable, str(root), str(db), str(folder / PID_NAME)],
            stdin=subprocess.DEVNULL, stdout=output, stderr=subprocess.STDOUT, cwd=root, start_new_session=True,
            close_fds=True)
    return process.pid, log, False
