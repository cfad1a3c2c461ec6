"""Plugin package: importing it registers every bundled exporter plugin."""
from .base import Plugin, get_plugin, registry
from . import csv_plugin, json_plugin  # noqa: F401  (imported for registration)
from .json_plugin import JsonPlugin as DefaultPlugin

__all__ = ["Plugin", "registry", "get_plugin", "DefaultPlugin", "run_all"]


def run_all(data):
    return {name: get_plugin(name).export(data) for name in sorted(registry)}
