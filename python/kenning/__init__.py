"""kenning: persistent, governed long-term memory for AI agents, in process.

Open a memory with :func:`open`, then remember, recall, inject and govern what it holds::

    import kenning

    kb = kenning.open(data_dir="/tmp/kenning-demo")
    kb.remember("profile:me", "The build uses cargo nextest.", author="human")
    print(kb.recall("profile:me", "nextest")["memories"][0]["text"])

The memories live in the same stores as the ``kenning`` program's (a SQLite file per subject in
``data_dir``, or one PostgreSQL database), and every call goes through the same service: the
sandboxed policy validates every call, scans every text (secrets redacted, planted instructions
blocked), and provenance decides what waits for a human's review. Every call releases the
interpreter's lock while it works, so threads run side by side; :mod:`kenning.aio` has the same
calls for ``asyncio``.

Subjects name knowledge bases: ``profile:NAME`` (a person), ``account:NAME`` (a chat account),
``db:PATH`` or ``file:PATH`` (a binary under analysis, keyed by its contents). Authors say who
writes: ``human``, ``agent`` (the host's own agent, the default), ``triage``, ``external``
(whose writes wait for review) or ``peer``.
"""

from __future__ import annotations

import json
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Union

from . import _kenning
from .types import (
    ContextResult,
    Forgotten,
    ImportReport,
    InReview,
    Memory,
    ProfileEdited,
    QueryResult,
    Recalled,
    Remembered,
    Reviewed,
    Revised,
    ScanResult,
    Settings,
)

__all__ = [
    "open",
    "KnowledgeBase",
    "Review",
    "KenningError",
    "ValidationError",
    "Blocked",
    "NotAllowed",
    "NotFound",
    "Conflict",
    "TooLarge",
    "LimitReached",
    "QueryError",
    "Busy",
    "StoreError",
    "function",
    "address_range",
    "address",
    "near",
    "string",
    "AUTHORS",
]

__version__: str = _kenning.__version__

#: Who may write, from the most trusted: what ``external`` and ``peer`` write waits for review.
AUTHORS = ("human", "agent", "triage", "external", "peer")

Address = Union[int, str]
Json = Dict[str, Any]


# --- errors ---------------------------------------------------------------------------------


class KenningError(Exception):
    """A call kenning refused or could not carry out; nothing was written.

    ``kind`` names the class of failure, ``message`` says what and where, and ``errors`` lists
    the fields at fault (each a dict with ``path`` and ``message``).
    """

    kind: str = "error"

    def __init__(self, message: str, errors: Optional[List[Json]] = None):
        super().__init__(message)
        self.message = message
        self.errors: List[Json] = errors or []


class ValidationError(KenningError):
    """The arguments failed their closed schema: ``errors`` names every field at fault."""

    kind = "invalid"


class Blocked(KenningError):
    """The safety scan blocked the text (a planted instruction, a forged role marker, ...)."""

    kind = "blocked"


class NotAllowed(KenningError):
    """The author may not do this (review as a non-human, recall while recall is off, ...)."""

    kind = "not_allowed"


class NotFound(KenningError):
    """No such subject, memory or entry (or none this author may read)."""

    kind = "not_found"


class Conflict(KenningError):
    """The call does not fit the state it found; nothing was written: look again and retry."""

    kind = "conflict"


class TooLarge(KenningError):
    """A text or argument is over its limit."""

    kind = "too_large"


class LimitReached(KenningError):
    """The knowledge base holds as many memories as its ``max_memories`` setting allows."""

    kind = "limit_reached"


class QueryError(KenningError):
    """A ``query`` was refused (not one read-only SELECT over the views) or hit a budget."""

    kind = "query"


class Busy(KenningError):
    """Another writer holds the knowledge base; the same call may be sent again."""

    kind = "busy"


class StoreError(KenningError):
    """The store failed (unreadable, read-only, a wrong key, the disk full, the database
    unreachable, ...); ``kind`` says which."""

    kind = "store"


_ERRORS = {
    cls.kind: cls
    for cls in (
        ValidationError,
        Blocked,
        NotAllowed,
        NotFound,
        Conflict,
        TooLarge,
        LimitReached,
        QueryError,
        Busy,
        StoreError,
    )
}
# Kinds that are another's in Python terms.
_ERRORS.update(
    {
        "bad_subject": ValidationError,
        "read_only": StoreError,
        "unavailable": StoreError,
        "storage_full": StoreError,
        "key": StoreError,
        "bad_import": ValidationError,
        "usage": ValidationError,
    }
)


def _translate(error: "_kenning.NativeError") -> KenningError:
    kind, message, errors = error.args
    cls = _ERRORS.get(kind, KenningError)
    translated = cls(message, json.loads(errors))
    translated.kind = kind
    return translated


def _native(method, *args, **kwargs):
    try:
        return method(*args, **kwargs)
    except _kenning.NativeError as error:
        raise _translate(error) from None


def _answer(method, *args, **kwargs) -> Any:
    return json.loads(_native(method, *args, **kwargs))


# --- anchors --------------------------------------------------------------------------------


def function(name: str, start: Address, end: Optional[Address] = None) -> Json:
    """An anchor inside a function: its name, first address and (optionally) one past its end."""
    anchor: Json = {"kind": "function", "name": name, "start": start}
    if end is not None:
        anchor["end"] = end
    return anchor


def address_range(start: Address, end: Address) -> Json:
    """An anchor inside an address range: the first address and one past the last."""
    return {"kind": "range", "start": start, "end": end}


def address(at: Address) -> Json:
    """An anchor at exactly this address."""
    return {"kind": "address", "address": at}


def near(at: Address, radius: int) -> Json:
    """An anchor within ``radius`` bytes of an address (1 to 1 MiB)."""
    return {"kind": "near", "address": at, "radius": radius}


def string(value: str) -> Json:
    """An anchor wherever this string literal is referenced."""
    return {"kind": "string", "value": value}


def _args(**fields: Any) -> str:
    return json.dumps({key: value for key, value in fields.items() if value is not None})


# --- the knowledge base ---------------------------------------------------------------------


class Review:
    """The review queue of a :class:`KnowledgeBase`: what external clients and peers wrote, and
    the changes the agent proposed, waiting for a human (``kb.review``)."""

    def __init__(self, service: "_kenning.Service"):
        self._service = service

    def pending(self, subject: str) -> List[InReview]:
        """The memories awaiting review (PENDING, INBOUND-PENDING), oldest first; each has
        ``why`` when its first audit event says why it was written as it was (what the scan held
        it for, a proposal's reason)."""
        return _answer(self._service.review_list, subject, "human")

    def accept(self, subject: str, id: int, *, reviewer: str = "human") -> Reviewed:
        """Accepts memory ``id``: it becomes NATIVE (FOREIGN from a peer), audited."""
        return _answer(self._service.review, subject, id, True, reviewer)

    def reject(self, subject: str, id: int, *, reviewer: str = "human") -> Reviewed:
        """Rejects memory ``id``: kept for the audit trail, never used."""
        return _answer(self._service.review, subject, id, False, reviewer)


class KnowledgeBase:
    """Every subject's memories in one data directory (or one PostgreSQL database).

    Made by :func:`open`. Safe to share between threads: every call releases the interpreter's
    lock while the service works. Results are plain dicts and lists, the JSON shapes of the
    tools, typed in :mod:`kenning.types`.
    """

    def __init__(self, service: "_kenning.Service"):
        self._service = service
        #: The review queue (:class:`Review`).
        self.review = Review(service)

    def call(self, subject: str, tool: str, args: Mapping[str, Any], *, author: str = "agent") -> Json:
        """Runs one tool by name with its arguments, exactly as an MCP client's call runs."""
        return _native(self._service.call, subject, author, tool, json.dumps(dict(args)))

    def remember(
        self,
        subject: str,
        text: str,
        *,
        type: Optional[str] = None,
        scope: Optional[str] = None,
        anchors: Optional[Sequence[Json]] = None,
        tags: Optional[Iterable[str]] = None,
        categories: Optional[Iterable[str]] = None,
        confidence: Optional[float] = None,
        image_base: Optional[Address] = None,
        thread: Optional[str] = None,
        author: str = "agent",
    ) -> Remembered:
        """Stores one memory; returns ``{"id", "status", "badge", "redacted"}``.

        ``status`` is ``accepted``, ``pending`` (an external author's write waits for review) or
        ``duplicate``. Secrets are redacted (their kinds listed in ``redacted``); a planted
        instruction raises :class:`Blocked`. Anchors (see :func:`function`, :func:`address`,
        ...) are addresses of the running image, rebased with ``image_base``.
        """
        return _native(
            self._service.call,
            subject,
            author,
            "remember",
            _args(
                text=text,
                type=type,
                scope=scope,
                anchors=list(anchors) if anchors is not None else None,
                tags=list(tags) if tags is not None else None,
                categories=list(categories) if categories is not None else None,
                confidence=confidence,
                image_base=image_base,
                thread=thread,
            ),
        )

    def recall(
        self,
        subject: str,
        query: str = "",
        *,
        scope: Optional[str] = None,
        type: Optional[str] = None,
        tags: Optional[Iterable[str]] = None,
        categories: Optional[Iterable[str]] = None,
        anchors: Optional[Sequence[Json]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        thread: Optional[str] = None,
        author: str = "agent",
    ) -> Recalled:
        """Searches accepted memories; returns ``{"count", "memories", "next_offset", ...}``.

        Memories awaiting review are never returned; pass ``next_offset`` as ``offset`` for the
        next page.
        """
        return _native(
            self._service.call,
            subject,
            author,
            "recall",
            _args(
                query=query,
                scope=scope,
                type=type,
                tags=list(tags) if tags is not None else None,
                categories=list(categories) if categories is not None else None,
                anchors=list(anchors) if anchors is not None else None,
                limit=limit,
                offset=offset,
                thread=thread,
            ),
        )

    def context(self, subject: str, *, author: str = "agent", **args: Any) -> ContextResult:
        """What enters the prompt this turn: ``{"snapshot", "snapshot_tokens", "chosen",
        "rejected", ...}``, with the reason for every choice.

        Keyword arguments are the ``context`` tool's: ``query``, ``cursor``, ``function``
        (``{"name", "start", "end"}``), ``image_base``, ``strings``, ``local_quota``,
        ``global_quota``, ``token_budget``, ``thread``.
        """
        return _native(self._service.call, subject, author, "context", _args(**args))

    def get(self, subject: str, id: int, *, author: str = "agent") -> Memory:
        """Memory ``id``, whole; raises :class:`NotFound` for one forgotten, rejected, or (for
        anyone but a human) awaiting review."""
        return _native(self._service.call, subject, author, "get_memory", _args(id=id))

    def recent(self, subject: str, *, author: str = "agent", **args: Any) -> Json:
        """The accepted memories written in a window (``since``, ``until``: RFC 3339 times or
        dates; the last 7 days by default), newest first."""
        return _native(self._service.call, subject, author, "recent_memories", _args(**args))

    def stats(self, subject: str, *, author: str = "agent") -> Json:
        """The totals: by type, scope, badge and status, awaiting review, oldest and newest."""
        return _native(self._service.call, subject, author, "memory_stats", "{}")

    def revise(self, subject: str, id: int, *, author: str = "agent", **changes: Any) -> Revised:
        """Corrects memory ``id`` (``text``, ``type``, ``tags``, ``categories``,
        ``confidence``, ``anchors``, ``image_base``, ``reason``); where the author may not
        change it in place, the change waits for review as a proposal."""
        return _native(self._service.call, subject, author, "revise_memory", _args(id=id, **changes))

    def forget(
        self,
        subject: str,
        id: int,
        *,
        reason: Optional[str] = None,
        thread: Optional[str] = None,
        author: str = "agent",
    ) -> Forgotten:
        """Forgets memory ``id``: its text is gone from every read, index and export (or, where
        the author may not, a request to forget waits for review)."""
        return _native(
            self._service.call, subject, author, "forget_memory", _args(id=id, reason=reason, thread=thread)
        )

    def memory(
        self,
        subject: str,
        action: str,
        target: str,
        *,
        content: Optional[str] = None,
        old_text: Optional[str] = None,
        author: str = "agent",
    ) -> ProfileEdited:
        """The profile tool: ``add``, ``replace`` or ``remove`` an entry of ``user`` (USER.md),
        ``memory`` (MEMORY.md) or ``daily`` (today's note) of a ``profile:`` subject."""
        return _native(
            self._service.call,
            subject,
            author,
            "memory",
            _args(action=action, target=target, content=content, old_text=old_text),
        )

    def query(
        self, subject: str, sql: str, *, max_rows: Optional[int] = None, author: str = "agent"
    ) -> QueryResult:
        """Runs one read-only SQL SELECT over the knowledge base's views; returns ``{"columns",
        "rows", "row_count", "truncated", "schema_version"}``. Raises :class:`QueryError` for
        anything else."""
        return _native(self._service.call, subject, author, "query", _args(sql=sql, max_rows=max_rows))

    def query_schema(self) -> Json:
        """The views :meth:`query` reads, their columns, the functions it may call, its budgets."""
        return _answer(self._service.query_schema)

    def turn(self, subject: str, session: str, *, transcript: Optional[str] = None, author: str = "agent") -> Json:
        """Counts a successful user turn of ``session``; every few turns a review of the
        profile by the configured model starts in the background."""
        return _answer(self._service.turn, subject, author, session, transcript)

    def settings(self, subject: str, *, thread: Optional[str] = None) -> Settings:
        """The settings in force, globally or in ``thread``."""
        return _answer(self._service.settings, subject, thread)

    def set_setting(self, subject: str, key: str, value: Any, *, thread: Optional[str] = None) -> Settings:
        """Changes one setting (``allow_recall``, ``allow_writes``, ``max_memories``, ...) as a
        human, audited; returns the settings now in force."""
        if isinstance(value, bool):
            value = "true" if value else "false"
        return _answer(self._service.set_setting, subject, key, str(value), thread)

    def export(self, subject: str, *, markdown: bool = False) -> str:
        """Every memory of the subject as ``kenning-memory/1`` JSON lines (or Markdown)."""
        return _native(self._service.export, subject, markdown)

    def import_(self, subject: str, text: str, *, author: str = "human", dry_run: bool = False) -> ImportReport:
        """Imports a ``kenning-memory/1`` export, verified and scanned, all or nothing; the
        report (records, imported, duplicates, badges, ...)."""
        return _answer(self._service.import_, subject, text, author, dry_run)

    def scan(self, text: str, *, target: str = "global", author: str = "human") -> ScanResult:
        """What the policy's scan does to ``text`` stored as ``target`` by ``author`` (human,
        agent, triage, external, peer): ``{"verdict", "text", "findings", "reason"}``; stores
        nothing."""
        return _answer(self._service.scan, text, target, author)

    def validate(self, schema: str, record: Mapping[str, Any]) -> Json:
        """Checks ``record`` against the policy's closed schema ``schema``; stores nothing."""
        return _answer(self._service.validate, schema, json.dumps(dict(record)))

    def subjects(self) -> List[str]:
        """The subjects that have a knowledge base."""
        return _native(self._service.subjects)


def open(
    data_dir: Optional[str] = None,
    *,
    store: Optional[str] = None,
    query_store: Optional[str] = None,
    policy: Optional[str] = None,
    key_file: Optional[str] = None,
    cache_dir: Optional[str] = None,
    now: Optional[int] = None,
) -> KnowledgeBase:
    """Opens the memory in ``data_dir`` (default: ``$KENNING_HOME``, else the platform's data
    directory, as the ``kenning`` program uses).

    ``store`` keeps the knowledge bases in a PostgreSQL database instead (``postgres://...``;
    ``query_store`` is the login :meth:`KnowledgeBase.query` runs as there). ``policy`` loads
    another policy component in place of the embedded default; ``key_file`` holds the key of
    encrypted stores; ``cache_dir`` is where compiled policies are kept; ``now`` fixes the
    clock (seconds since the epoch), for tests.
    """
    service = _native(
        _kenning.Service,
        data_dir,
        store=store,
        query_store=query_store,
        policy=policy,
        key_file=key_file,
        cache_dir=cache_dir,
        now=now,
    )
    return KnowledgeBase(service)
