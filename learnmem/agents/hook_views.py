"""What a hook reads through: the MCP server's facade when the hook is served, else a one-shot view.

Served (learnmem.agents.hook_server), the server's open facade answers: its store, its warm model and
in-memory indexes, its reads on one connection for the hook (Store.reads_held). One-shot, a
learnmem.context.oneshot.OneShotView ranks with exact cosine similarity in SQL on one connection, and the
facade is opened only to fall back (context the view cannot give) or to flush the capture queue.

Which of the two is the state of the process: `serving(facade)` sets it for one event (the server answers
events one at a time).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from learnmem.agents.hook_paths import HookPaths
from learnmem.context.oneshot import OneShotView

_served: Any = None  # the MCP server's facade while it answers an event


@contextmanager
def serving(facade: Any) -> Iterator[None]:
    """Within it, this process answers hooks with `facade` (see the module docstring)."""
    global _served
    _served = facade
    try:
        yield
    finally:
        _served = None


def served() -> Any:
    """The facade that answers the current event, or None (one-shot)."""
    return _served


class ServedView:
    """A served hook's view: the facade itself, its reads on one connection until close."""

    def __init__(self, facade: Any):
        self.facade, self.store = facade, facade.store
        self._holding = self.store.reads_held()
        self._holding.__enter__()

    def close(self) -> None:
        holding, self._holding = self._holding, None
        if holding is not None:
            holding.__exit__(None, None, None)


def view(store: Any) -> OneShotView | ServedView:
    """What get_context and the lookups read through: the served facade, else a one-shot view of `store`."""
    return ServedView(_served) if _served is not None else OneShotView(store)


def facade(paths: HookPaths) -> Any:
    """The library's facade on the hook's file: the server's when served, else opened here (slow: numpy,
    pyarrow, the model)."""
    if _served is not None:
        return _served
    import learnmem

    return learnmem.open(paths.target)


def get_context(paths: HookPaths, reader: OneShotView | ServedView, log: Callable[[str], None], **arguments: Any):
    """context.get_context over `reader`; one-shot, over the facade (slower, same answer in kind) when
    context.py asks for something the view does not offer, which `log` records. The caller closes `reader`."""
    from learnmem.context import assembly as context

    if isinstance(reader, ServedView):
        return context.get_context(reader.facade, **arguments)
    try:
        return context.get_context(reader, **arguments)
    except (AttributeError, NotImplementedError) as error:
        reader.close()
        log(f"one-shot context unavailable ({type(error).__name__}: {error}); used the facade")
        import learnmem

        return learnmem.open(paths.target, read_only=reader.store.read_only).get_context(**arguments)
