"""cachekit: pluggable cache backends and key helpers."""
