"""Text -> keyword terms for BM25.

Casefolded Unicode words, English stop words dropped, Snowball-stemmed.
Identifiers are indexed whole and by their parts (`load_config` ->
`load_config`, `load`, `config`; `parseHTTPRequest` -> its words), so that an
agent asking about "config loading" finds the memory that names the function.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Sequence
from functools import lru_cache

import snowballstemmer

_WORD = re.compile(r"\w+", re.UNICODE)
_CAMEL_PART = re.compile(r"[A-Z]{2,}s(?![a-z])|[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")
_STOP_WORDS = frozenset(
    """a an and are as at be been but by can could did do does for from had has have he her his how i if in into is it
    its me my no not of on or our she so than that the their them then there these they this those to too was we were
    what when where which who whom why will with would you your""".split()
)
_stemmer = snowballstemmer.stemmer("english")


@lru_cache(maxsize=200_000)
def _stem(word: str) -> str:
    return _stemmer.stemWord(word)


def identifier_parts(token: str) -> list[str]:
    """The sub-words of an identifier (snake_case, camelCase, digits); [] for a plain word."""
    if token.isalpha() and (token.islower() or token[1:].islower()):  # most words: `cache`, `Redis`
        return []
    if not token.isascii():
        return [p for p in token.split("_") if p] if token.count("_") else []
    pieces = [p for chunk in token.split("_") for p in _CAMEL_PART.findall(chunk) or [chunk]]
    pieces = [p for p in pieces if p]
    return pieces if len(pieces) > 1 else []


def terms(text: str) -> list[str]:
    """The BM25 terms of a text, in order, repeats kept (they are term frequencies)."""
    found: list[str] = []
    for token in _WORD.findall(unicodedata.normalize("NFKC", text)):
        found.extend(_token_terms(token))
    return found


@lru_cache(maxsize=100_000)
def _token_terms(token: str) -> tuple[str, ...]:
    # A store's texts repeat their words: one lookup per token instead of splitting, casefolding and stemming
    # it again (28 -> 10 us a bench memory).
    stems = []
    for word in (token, *identifier_parts(token)):
        word = word.casefold()
        if word not in _STOP_WORDS and word != "_":
            stems.append(_stem(word))
    return tuple(stems)


_SPELLED_WORD = re.compile(r"[^\W\d_][\w'-]*", re.UNICODE)


def spelled(texts: Iterable[str], stems: Sequence[str]) -> list[str]:
    """Each of `stems` as the texts most often spell it, lowercased ("cach" -> "cache"; the first spelling seen
    among equally common ones); the stem itself when no word of the texts is that stem alone."""
    counts = Counter(word.lower() for text in texts for word in _SPELLED_WORD.findall(text))
    wanted = set(stems)
    best: dict[str, tuple[int, str]] = {}
    for word, count in counts.items():
        found = terms(word)
        if len(found) == 1 and found[0] in wanted and count > best.get(found[0], (0, ""))[0]:
            best[found[0]] = (count, word)
    return [best.get(stem, (0, stem))[1] for stem in stems]
