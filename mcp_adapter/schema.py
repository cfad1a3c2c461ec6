"""What the tools' listing tells the client: their annotations (hints) and the types of their input schemas.

The enums are built from the library's own constants, so the client sees the valid options and a value outside
them is answered with a validation_error naming the field and the options.
"""

from typing import Annotated, Literal, NotRequired

from mcp_types import ToolAnnotations
from pydantic import Field
from typing_extensions import TypedDict

import learnmem
from learnmem import vocabulary

# Hints describe what each tool does to the memory file; none reaches outside it (export_ghap writes a local
# file, see EXPORT). Reading memories counts their use (learnmem.memory.usage: appended in batches, bookkeeping
# that changes nothing a tool returns), which the read-only hint leaves aside.
READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False)
# Storing the same content again reports `duplicate: true` and adds nothing.
ADDITIVE = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True, open_world_hint=False)
# Deleting an id twice removes nothing more the second time (it answers not_found).
DESTRUCTIVE = ToolAnnotations(read_only_hint=False, destructive_hint=True, idempotent_hint=True, open_world_hint=False)
# GHAP moves that add each time they are called (a repeated start supersedes, a repeated note appends,
# a re-clustering records a new run); nothing is deleted.
TRANSITION = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=False, open_world_hint=False)
# Closing or adopting an entry: it records an outcome (or a session) and removes nothing; called again with
# the same arguments there is nothing left to close (not_found) and nothing changes.
CLOSE = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True, open_world_hint=False)
# Export leaves the memory file alone but writes a JSONL file, replacing one already at that path.
EXPORT = ToolAnnotations(read_only_hint=False, destructive_hint=True, idempotent_hint=True, open_world_hint=False)

# Enums of the input schemas, built from the library's own constants: the client sees the valid options,
# and a value outside them is answered with a validation_error naming the field and the options.
MemoryCategory = Literal[tuple(learnmem.MEMORY_CATEGORIES)]
Phase = Literal[vocabulary.PHASES]
SpecParam = Annotated[str | None, Field(description="The spec or project slug, e.g. 'checkout-v2'.")]
PhaseParam = Annotated[Phase | None, Field(description="The phase: planning, implementation, review, close-out.")]
SinceParam = Annotated[str | None, Field(
    description="Only memories stored (a conversation turn: said) since then: an ISO date/datetime, or an age such "
                "as '12h', '7d', '2w'.")]
UntilParam = Annotated[str | None, Field(
    description="Only memories stored (a turn: said) until then: an ISO date/datetime, or an age.")]
SessionParam = Annotated[str | None, Field(description="Only the turns of this conversation session.")]
Domain = Literal[vocabulary.DOMAINS]
Strategy = Literal[vocabulary.STRATEGIES]
RootCauseCategory = Literal[vocabulary.ROOT_CAUSE_CATEGORIES]
Status = Literal[vocabulary.STATUSES]
EntryState = Literal[(*vocabulary.STATUSES, "active")]
Axis = Literal[vocabulary.AXES]
Depth = Literal[vocabulary.DEPTHS]


# Typed dicts (typing_extensions': pydantic needs it before Python 3.12) give the nested objects a schema.
class RootCause(TypedDict):
    """Why the hypothesis was wrong."""

    category: RootCauseCategory
    description: str


class Lesson(TypedDict):
    """What was learned."""

    what_worked: str
    takeaway: NotRequired[str | None]


class MemoryItem(TypedDict):
    """One memory of a batch."""

    content: str
    category: MemoryCategory
    importance: NotRequired[float]
    tags: NotRequired[list[str] | None]
    sources: NotRequired[list[str] | None]
    spec: NotRequired[str | None]
    phase: NotRequired[Phase | None]
    session: NotRequired[str | None]
    speaker: NotRequired[str | None]
    said_at: NotRequired[str | None]
