"""Public API of textutils; implementations live in private submodules."""
from ._impl.slug import slugify as make_slug
from .numbers import clamp, percent
from ._impl.wrap import *  # noqa: F401,F403  (wrap.__all__ keeps its private clamp out)

__all__ = ["make_slug", "wrap_text", "truncate", "clamp", "percent", "title_case"]


def title_case(text):
    return " ".join(word.capitalize() for word in text.split())
