"""`python -m learnmem.cli`: the `learnmem` command."""

from learnmem.cli import main

main()
