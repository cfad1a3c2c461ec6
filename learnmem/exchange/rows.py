"""What the export formats share: rows read as dicts, and stored times written as ISO 8601 with `Z`."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any


def iso_z(moment: datetime) -> str:
    """A stored (naive UTC) time as ISO 8601 with `Z`, to the microsecond when it has one."""
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC).replace(tzinfo=None)
    return moment.isoformat() + "Z"


def rows_of(cursor) -> list[dict[str, Any]]:
    """Every row of an executed cursor as {column: value}."""
    names = [column[0] for column in cursor.description]
    return [dict(zip(names, values)) for values in cursor.fetchall()]
