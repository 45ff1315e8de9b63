"""The server's one way to make a machine move: off the event loop, a hard bot's search in
one of the process's thinking slots (``--hard-slots``).

What is due and when is decided by ``pdk.table.runner`` for every face; this is where the
server carries it out, for the single table's ``/step`` and for every room's runner alike,
so the slots bound all the hard searches of the process (they once bounded the single
tables' only, and two rooms of hard bots searched at once whatever ``--hard-slots`` said).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from starlette.concurrency import run_in_threadpool

from pdk.table.runner import Due
from pdk.web.guard import ThinkingQueue

T = TypeVar("T")


class Machine:
    """Machine moves for one server process: ``slots`` hard searches at a time."""

    def __init__(self, slots: int, max_waiting: int = 1000) -> None:
        self.thinking = ThinkingQueue(slots, max_waiting)

    async def run(self, due: Due, move: Callable[[], T]) -> T:
        """``move`` (which carries out ``due``) in a thread; a hard search waits for a
        slot first, on the loop (``Busy`` when too many wait already)."""
        if not due.hard:
            return await run_in_threadpool(move)
        return await self.hard(move)

    async def hard(self, move: Callable[[], T]) -> T:
        """``move``, a hard search, in a thread once a slot is free."""

        async def in_thread() -> T:
            return await run_in_threadpool(move)

        return await self.thinking.run(in_thread)


__all__ = ["Machine"]
