"""kenning for ``asyncio``: the calls of :class:`kenning.KnowledgeBase`, awaitable.

Each call runs on a worker thread (the service releases the interpreter's lock while it works),
so an event loop never waits on a store or the policy::

    import kenning.aio

    kb = await kenning.aio.open(data_dir="/tmp/kenning-demo")
    await kb.remember("profile:me", "Prefers short answers.", author="human")
"""

from __future__ import annotations

import asyncio
import functools
from typing import Any

import kenning

__all__ = ["open", "AsyncKnowledgeBase"]


class AsyncKnowledgeBase:
    """A :class:`kenning.KnowledgeBase` whose every method is a coroutine (``review`` too)."""

    def __init__(self, kb: kenning.KnowledgeBase):
        self.sync = kb
        self.review = _Async(kb.review)

    def __getattr__(self, name: str) -> Any:
        return _wrap(getattr(self.sync, name))


class _Async:
    def __init__(self, target: Any):
        self._target = target

    def __getattr__(self, name: str) -> Any:
        return _wrap(getattr(self._target, name))


def _wrap(method: Any) -> Any:
    if not callable(method):
        return method

    @functools.wraps(method)
    async def call(*args: Any, **kwargs: Any) -> Any:
        return await asyncio.to_thread(method, *args, **kwargs)

    return call


async def open(*args: Any, **kwargs: Any) -> AsyncKnowledgeBase:
    """:func:`kenning.open`, without blocking the event loop (opening may compile the policy)."""
    return AsyncKnowledgeBase(await asyncio.to_thread(kenning.open, *args, **kwargs))
