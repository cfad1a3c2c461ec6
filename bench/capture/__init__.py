"""Automatic capture from tool output: written cases and the precision/recall bench (bench.capture.run)."""
