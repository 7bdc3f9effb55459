"""kenning as LangGraph's long-term memory store: a ``BaseStore`` over a kenning knowledge base.

LangGraph gives every node a store for memories that outlive a thread (``graph.compile(
store=...)``, then ``store.put`` / ``store.search`` in a node). This one keeps them in kenning,
so what an agent remembers is scanned (secrets redacted, planted instructions refused), carries
its author, waits for a human's review when an outside client wrote it, and is readable by the
``kenning`` program, its MCP server and its HTTP API.

The mapping:

- a namespace (``("memories", "alice")``) is a subject, ``account:memories.alice`` (each part
  1 to 64 of A-Z a-z 0-9 _ -);
- an item's key is a tag of its memory (``key:<key>``; 1 to 60 of A-Z a-z 0-9 _ . : / -);
- an item's value is ``{"content": text}``: the memory's text (a value without ``content`` is
  stored as its JSON);
- ``put`` writes a memory, or revises the one with that key; ``put(..., None)`` (``delete``)
  forgets it; ``search`` is kenning's recall (ranked by its words when there is a query).
"""

from __future__ import annotations

import asyncio
import datetime
import json
import re
from typing import Any, Iterable, List, Optional

import kenning
from langgraph.store.base import (
    BaseStore,
    GetOp,
    Item,
    ListNamespacesOp,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
)

_PART = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


class KenningStore(BaseStore):
    """LangGraph's ``BaseStore`` over the kenning knowledge bases of ``kb``, written as
    ``author`` (``agent`` by default: the graph's own agent)."""

    def __init__(self, kb: kenning.KnowledgeBase, *, author: str = "agent"):
        self.kb = kb
        self.author = author

    def batch(self, ops: Iterable[Op]) -> List[Result]:
        return [self._one(op) for op in ops]

    async def abatch(self, ops: Iterable[Op]) -> List[Result]:
        return await asyncio.to_thread(self.batch, list(ops))

    def _one(self, op: Op) -> Result:
        if isinstance(op, GetOp):
            memory = self._find(op.namespace, op.key)
            return None if memory is None else self._item(Item, op.namespace, op.key, memory)
        if isinstance(op, PutOp):
            return self._put(op)
        if isinstance(op, SearchOp):
            return self._search(op)
        if isinstance(op, ListNamespacesOp):
            return self._namespaces(op)
        raise ValueError(f"unknown operation {op!r}")

    def _put(self, op: PutOp) -> None:
        subject = _subject(op.namespace)
        existing = self._find(op.namespace, op.key)
        if op.value is None:
            if existing is not None:
                self.kb.forget(subject, existing["id"], author=self.author)
            return None
        content = op.value.get("content")
        text = content if isinstance(content, str) and set(op.value) == {"content"} else json.dumps(op.value)
        if existing is None:
            self.kb.remember(subject, text, tags=[_key_tag(op.key)], author=self.author)
        elif existing["text"] != text:
            self.kb.revise(subject, existing["id"], text=text, author=self.author)
        return None

    def _search(self, op: SearchOp) -> List[SearchItem]:
        found: List[SearchItem] = []
        for namespace in self._stored_namespaces():
            if namespace[: len(op.namespace_prefix)] != tuple(op.namespace_prefix):
                continue
            page = self.kb.recall(_subject(namespace), op.query or "", limit=100, author=self.author)
            for hit in page["memories"]:
                key = _key_of(hit)
                if key is None:
                    continue
                item = self._item(SearchItem, namespace, key, hit)
                if op.filter and any(item.value.get(k) != v for k, v in op.filter.items()):
                    continue
                item.score = hit.get("score") if op.query else None
                found.append(item)
        return found[op.offset : op.offset + op.limit]

    def _namespaces(self, op: ListNamespacesOp) -> List[tuple]:
        namespaces = self._stored_namespaces()
        if op.max_depth is not None:
            namespaces = sorted({ns[: op.max_depth] for ns in namespaces})
        return namespaces[op.offset : op.offset + op.limit]

    def _stored_namespaces(self) -> List[tuple]:
        return sorted(
            tuple(spec[len("account:") :].split("."))
            for spec in self.kb.subjects()
            if spec.startswith("account:")
        )

    def _find(self, namespace: tuple, key: str) -> Optional[dict]:
        try:
            page = self.kb.recall(_subject(namespace), "", tags=[_key_tag(key)], limit=1, author=self.author)
        except kenning.NotFound:
            return None
        return page["memories"][0] if page["memories"] else None

    def _item(self, cls: Any, namespace: tuple, key: str, memory: dict) -> Any:
        text = memory["text"]
        try:
            value = json.loads(text)
            if not isinstance(value, dict):
                raise ValueError
        except ValueError:
            value = {"content": text}
        return cls(
            namespace=tuple(namespace),
            key=key,
            value=value,
            created_at=_time(memory["created_at"]),
            updated_at=_time(memory["updated_at"]),
        )


def _subject(namespace: Iterable[str]) -> str:
    parts = list(namespace)
    if not parts or not all(_PART.match(part) for part in parts):
        raise ValueError(f"namespace {parts!r}: each part is 1 to 64 of A-Z a-z 0-9 _ -")
    return "account:" + ".".join(parts)


def _key_tag(key: str) -> str:
    tag = "key:" + key
    if not re.match(r"^key:[A-Za-z0-9_.:/-]{1,60}$", tag):
        raise ValueError(f"key {key!r}: 1 to 60 of A-Z a-z 0-9 _ . : / -")
    return tag


def _key_of(memory: dict) -> Optional[str]:
    for tag in memory.get("tags", []):
        if tag.startswith("key:"):
            return tag[len("key:") :]
    return None


def _time(value: Any) -> datetime.datetime:
    if isinstance(value, (int, float)):
        return datetime.datetime.fromtimestamp(value, tz=datetime.timezone.utc)
    return datetime.datetime.fromisoformat(str(value).replace("Z", "+00:00"))
