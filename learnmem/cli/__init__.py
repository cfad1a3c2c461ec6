"""The `learnmem` command: a thin argparse layer over the library, one module per command group."""

from learnmem.cli.app import build_parser, main

__all__ = ["build_parser", "main"]
