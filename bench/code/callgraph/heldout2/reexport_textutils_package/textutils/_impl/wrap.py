import textwrap

__all__ = ["wrap_text", "truncate"]


def clamp(n, lo, hi):
    return lo if n < lo else hi if n > hi else n


def wrap_text(text, width=20):
    return textwrap.wrap(text, width)


def truncate(text, limit=10, suffix="..."):
    limit = clamp(limit, len(suffix) + 1, 200)
    if len(text) <= limit:
        return text
    return text[: limit - len(suffix)] + suffix
