"""The server's one way to make a machine move: off the event loop, a hard bot's search in
one of the process's thinking slots (``--hard-slots``); the page's analyses (a deal's
review, a hint's numbers: seconds of search each) take the same slots, so they never
starve the bots or the other players' requests.

What is due and when is decided by ``pdk.table.runner`` for every face; this is where the
server carries it out, for the single table's ``/step`` and for every room's runner alike,
so the slots bound all the hard searches of the process (they once bounded the single
tables' only, and two rooms of hard bots searched at once whatever ``--hard-slots`` said).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from starlette.concurrency import run_in_threadpool

from pdk.table.runner import Due
from pdk.web.guard import ThinkingQueue

T = TypeVar("T")


ANALYSES_WAITING = 8  # analyses waiting for a slot beyond which one more is refused (503)


class Machine:
    """Machine moves for one server process: ``slots`` hard searches at a time."""

    def __init__(self, slots: int, max_waiting: int = 1000, analyses_waiting: int = ANALYSES_WAITING) -> None:
        self.thinking = ThinkingQueue(slots, max_waiting)
        self.analyses_waiting = analyses_waiting
        self._analysing: dict[tuple[Any, Hashable], asyncio.Future[Any]] = {}

    async def analyse(self, key: Hashable, work: Callable[[], T]) -> T:
        """``work`` (an analysis) in a thread once a thinking slot is free; requests with the
        same ``key`` while it waits or runs share its one result (six identical reviews are
        one search). ``Busy`` when ``analyses_waiting`` wait already."""
        loop = asyncio.get_running_loop()
        mine = (loop, key)
        running = self._analysing.get(mine)
        if running is None:

            async def in_thread() -> T:
                return await run_in_threadpool(work)

            running = loop.create_task(self.thinking.run(in_thread, self.analyses_waiting))
            self._analysing[mine] = running
            running.add_done_callback(lambda _: self._analysing.pop(mine, None))
        result: T = await asyncio.shield(running)
        return result

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


__all__ = ["ANALYSES_WAITING", "Machine"]
