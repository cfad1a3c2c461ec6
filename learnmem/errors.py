"""Errors raised by learnmem.

Every message names the field, the bad value and what is allowed, so that an
agent (or a person) can correct the call without reading the source.
"""


class LearnmemError(Exception):
    """Base class of every error learnmem raises on purpose."""

    kind = "internal_error"


class ValidationError(LearnmemError):
    """An argument is missing, of the wrong type or out of range."""

    kind = "validation_error"


class NotFoundError(LearnmemError):
    """The thing asked for (a memory id, an active entry...) does not exist."""

    kind = "not_found"


class InsufficientDataError(LearnmemError):
    """There is not yet enough data to answer (e.g. too few experiences to cluster)."""

    kind = "insufficient_data"


class StoreBusyError(LearnmemError):
    """The database file stayed locked by another process past the deadline."""

    kind = "internal_error"


class ModelMismatchError(LearnmemError):
    """The file was embedded with another model than the one configured."""

    kind = "validation_error"


class RemoteError(LearnmemError):
    """A git remote could not be reached, or refused what was sent (learnmem sync)."""

    kind = "remote_error"


class LakeError(LearnmemError):
    """A DuckLake's PostgreSQL catalog could not be reached, or refused the credentials (learnmem.storage.lake)."""

    kind = "lake_error"
