import re

_SEP = re.compile(r"[^a-z0-9]+")


def _collapse(text):
    return _SEP.sub("-", text).strip("-")


def slugify(text):
    return _collapse(text.lower())
