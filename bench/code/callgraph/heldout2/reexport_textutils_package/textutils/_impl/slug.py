import re
import unicodedata


def _ascii(text):
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()


def slugify(text, sep="-"):
    text = _ascii(text).lower()
    return re.sub(r"[^a-z0-9]+", sep, text).strip(sep)
