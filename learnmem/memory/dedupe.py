"""Near-duplicates on store: a memory that restates a current one of its category is not stored twice.

The embedding model cannot tell a reworded fact from a changed one (bench/dedupe: updates such as
"port 8080" -> "port 9090" are *more* similar, up to 0.99, than paraphrases, median 0.79), so similarity
alone must not refuse anything. A new text is a restatement of a stored one when all four hold:

- cosine similarity >= DUPLICATE_THRESHOLD (0.75; distinct facts on the same subject reach 0.62 at most);
- the same *key tokens* in the same order: numbers and words that carry a value as numbers do (counts,
  frequencies, on/off, enabled/disabled, before/after...), identifiers (`tests/e2e`,
  `max_retries`, `v2.1`, `camelCase`) and capitalised names after the first word (`LaunchDarkly`,
  `German`). An update changes one of these; a paraphrase keeps them all. In order, because "batch 10
  item 1" and "batch 1 item 10" hold the same tokens and say different things;
- no word of change the old text lacks ("now", "moved", "switched", "no longer", "instead", ...);
- not a substitution: one or two (stemmed) words of the old text swapped for one or two others, the rest
  the same ("the cache is enabled in staging" -> "... in production"): an update, however similar.

Measured (python -m bench.dedupe): the written pairs, 5 of 25 paraphrases refused, 0 of 20 updates, 0 of
25 distinct facts; a held-out set, 1 of 10, 0 of 10, 0 of 10; one-word updates, 0 of 5. Precision over
recall, deliberately: before the substitution rule and the value words the held-out paraphrases fared
better (4 of 10) but one-word updates were all refused (5 of 5), a loss the caller would not see. Precision
over recall: a paraphrase that gets through is reported in `similar` (store_memory), where the caller
decides; an update refused as a duplicate would be lost. force=True stores a restatement anyway.
"""

from __future__ import annotations

import functools
import re

from learnmem.search import keywords

DUPLICATE_THRESHOLD = 0.75
_WORD = re.compile(r"[A-Za-z0-9_./:'-]+")
# Words that carry a value as numbers do: counts, frequencies, polarity, order, direction.
_VALUE_WORDS = frozenset(
    "zero one two three four five six seven eight nine ten eleven twelve fifteen twenty thirty forty fifty sixty "
    "hundred thousand million billion half twice once daily weekly monthly yearly hourly nightly never always "
    "not no on off true false yes enabled disabled enable disable allow deny before after above below first last "
    "more less higher lower min max".split())
_CHANGE_WORDS = frozenset(
    "now longer moved switched changed instead anymore raised lowered replaced dropped renamed deprecated became "
    "migrated stopped started rewritten".split())
# A number (_WORD's words are ASCII) or an identifier: `tests/e2e`, `max_retries`, `v2.1`, `camelCase`.
_NUMBER_OR_IDENTIFIER = re.compile(r"[0-9_/]|\w\.\w|[a-z][A-Z]")


@functools.lru_cache(maxsize=4096)  # a batch's texts come back as the snapshot's new rows
def key_tokens(text: str) -> tuple[str, ...]:
    """The numbers, number words, identifiers and names (capitalised words after the first) of a text, in
    order, lower-cased."""
    keys = []
    for position, raw in enumerate(_WORD.findall(text)):
        lower, always, capitalised = _key_word(raw)
        if always or (capitalised and position > 0):
            keys.append(lower)
    return tuple(keys)


@functools.lru_cache(maxsize=100_000)
def _key_word(raw: str) -> tuple[str, bool, bool]:
    """A word of _WORD as key_tokens reads it: (lower-cased, a key wherever it stands, a key after the first
    word). Cached: texts repeat their words (19 -> 8 us a bench memory)."""
    word = raw.strip(".:-/,;'")
    if not word:
        return "", False, False
    lower = word.lower()
    return lower, lower in _VALUE_WORDS or _NUMBER_OR_IDENTIFIER.search(word) is not None, word[0].isupper()


def _words(text: str) -> set[str]:
    return {raw.strip(".:-/,;'").lower() for raw in _WORD.findall(text)}


def is_restatement(new: str, old: str, similarity: float) -> bool:
    """Whether `new` says what `old` says (see the module docstring), given their cosine similarity."""
    return (similarity >= DUPLICATE_THRESHOLD and key_tokens(new) == key_tokens(old)
            and not (_words(new) - _words(old)) & _CHANGE_WORDS and not _substitution(new, old))


def _substitution(new: str, old: str) -> bool:
    """One or two words of `old` swapped for one or two others, the rest the same ("enabled in staging" ->
    "enabled in production", "pid left" -> "pid right"): a changed fact, however similar."""
    new_terms, old_terms = set(keywords.terms(new)), set(keywords.terms(old))
    return 1 <= len(new_terms - old_terms) <= 2 and 1 <= len(old_terms - new_terms) <= 2
