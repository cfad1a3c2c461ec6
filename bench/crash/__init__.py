"""The crash harness (issue 9 item 1): writer processes killed with SIGKILL, the file checked through
every door afterwards. `python -m bench.crash --kills 200` (see bench.crash.run); a short form runs in
tests/storage/test_crash.py."""
