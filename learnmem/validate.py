"""Argument checks shared by every area.

Each check returns the cleaned value or raises ValidationError with a message
that names the field, shows the bad value and says what is allowed.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from learnmem.errors import ValidationError

_SURROGATES = re.compile("[\ud800-\udfff]")


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def clean_text(value: str) -> str:
    """Replace what cannot be stored as UTF-8 (lone surrogates, NUL) with U+FFFD."""
    return _SURROGATES.sub("\ufffd", value).replace("\x00", "\ufffd")


def text(field: str, value: Any, *, max_chars: int, allow_empty: bool = False) -> str:
    """A string of at most `max_chars` characters, non-blank unless `allow_empty`."""
    if not isinstance(value, str):
        raise ValidationError(f"{field}: expected a string, got {type(value).__name__} {_show(value)}")
    value = clean_text(value).strip()
    if not value and not allow_empty:
        raise ValidationError(f"{field}: must not be empty")
    if len(value) > max_chars:
        raise ValidationError(f"{field}: {len(value)} characters is over the limit of {max_chars}")
    return value


_IDENTIFIER = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$")


def identifier(field: str, value: Any) -> str:
    """An id as exports carry them: letters, digits, '_', '.', '-', starting with a letter or digit, at most 100."""
    if not isinstance(value, str) or not _IDENTIFIER.match(value):
        raise ValidationError(f"{field}: {value!r} is not an id (letters, digits, '_', '.', '-'; at most 100)")
    return value


_SLUG = re.compile(r"[a-z0-9][a-z0-9._-]*")
MAX_SLUG_CHARS = 100


def slug(field: str, value: Any) -> str:
    """A slug ("checkout-v2", "2026-q1.billing"), lowercased: letters, digits, `.`, `_` and `-`, starting
    with a letter or digit, at most MAX_SLUG_CHARS."""
    cleaned = text(field, value, max_chars=MAX_SLUG_CHARS).lower()
    if not _SLUG.fullmatch(cleaned):
        raise ValidationError(f"{field}: {_show(value)} is not a slug; use letters, digits, '.', '_' and '-', "
                              "starting with a letter or digit (e.g. 'checkout-v2')")
    return cleaned


def flag(field: str, value: Any) -> bool:
    """True or False, nothing else (not 1, not "yes")."""
    if not isinstance(value, bool):
        raise ValidationError(f"{field}: expected True or False, got {_show(value)}")
    return value


def choice(field: str, value: Any, options: Sequence[str]) -> str:
    """One of `options`, exactly."""
    if value not in options:
        raise ValidationError(f"{field}: {_show(value)} is not one of: {', '.join(options)}")
    return value


def number(field: str, value: Any, *, low: float, high: float) -> float:
    """A finite real number in [low, high]."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ValidationError(f"{field}: expected a number between {low:g} and {high:g}, got {_show(value)}")
    if not low <= value <= high:
        raise ValidationError(f"{field}: {value!r} is outside the range [{low:g}, {high:g}]")
    return float(value)


BIGINT_MAX = 2**63 - 1  # every integer ends up a DuckDB BIGINT (or narrower)


def integer(field: str, value: Any, *, low: int, high: int | None = None) -> int:
    """An int in [low, high]; with high None, at most BIGINT_MAX (what the database can hold)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValidationError(f"{field}: expected an integer, got {_show(value)}")
    if value < low or value > (BIGINT_MAX if high is None else high):
        allowed = f"[{low}, {high}]" if high is not None else f">= {low} (and at most {BIGINT_MAX})"
        raise ValidationError(f"{field}: {value} is outside the range {allowed}")
    return value


def path_exists(field: str, path: Path) -> bool:
    """Whether `path` exists; ValidationError, naming the field, for a name the system cannot look up (too
    long, a NUL byte, a loop of links) rather than the OSError or ValueError that Path.exists() raises."""
    try:
        return path.exists()
    except (OSError, ValueError) as error:
        reason = getattr(error, "strerror", None) or str(error)
        raise ValidationError(f"{field}: {str(path)[:80]!r}{'...' if len(str(path)) > 80 else ''} cannot be "
                              f"used as a path: {reason}") from None


def tags(field: str, value: Any, *, max_tags: int = 20, max_chars: int = 100) -> tuple[str, ...]:
    """A list of non-empty strings; stripped, duplicates dropped, order kept. None -> ()."""
    if value is None:
        return ()
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise ValidationError(f"{field}: expected a list of strings, got {type(value).__name__} {_show(value)}")
    cleaned: dict[str, None] = {}
    for position, tag in enumerate(value):
        cleaned[text(f"{field}[{position}]", tag, max_chars=max_chars)] = None
    if len(cleaned) > max_tags:
        raise ValidationError(f"{field}: {len(cleaned)} tags is over the limit of {max_tags}")
    return tuple(cleaned)


_AGE = re.compile(r"(\d{1,7})\s*(m|min|h|d|w)", re.IGNORECASE)
_AGE_UNITS = {"m": "minutes", "min": "minutes", "h": "hours", "d": "days", "w": "weeks"}


def moment(field: str, value: Any) -> datetime | None:
    """An ISO 8601 date/datetime string, an age before now ("30m", "12h", "7d", "2w") or a datetime, as a
    naive UTC datetime (what TIMESTAMP columns hold).

    A value without a timezone is taken as UTC; None stays None."""
    if value is None:
        return None
    if isinstance(value, datetime):
        parsed = value
    elif isinstance(value, str) and (age := _AGE.fullmatch(value.strip())):
        amount, unit = int(age.group(1)), _AGE_UNITS[age.group(2).lower()]
        return datetime.now(timezone.utc).replace(tzinfo=None) - timedelta(**{unit: amount})
    elif isinstance(value, str):
        try:
            parsed = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
        except ValueError:
            raise ValidationError(
                f"{field}: {_show(value)} is not an ISO date or datetime (e.g. '2026-01-31' or "
                "'2026-01-31T12:00:00Z') nor an age (e.g. '12h', '7d', '2w')"
            ) from None
    else:
        raise ValidationError(f"{field}: expected an ISO date string or a datetime, got {type(value).__name__}")
    return parsed.astimezone(timezone.utc).replace(tzinfo=None) if parsed.tzinfo is not None else parsed
