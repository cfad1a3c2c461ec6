"""Public API of mathkit: names re-exported from the submodules."""
from .core import run
from .reader import read as load
from . import limits

__all__ = ["run", "load", "limits"]
VERSION = "1.0"
