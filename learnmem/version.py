"""The library version, recorded in every file's `meta` table."""

VERSION = "0.1.0"
